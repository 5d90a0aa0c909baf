package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// indentJSON re-indents a JSON document with two spaces, keeping its key
// order: json.Indent rewrites only the white space, in one pass, without
// building a tree, so a large document costs little more than a copy.
func indentJSON(src rawSpec) ([]byte, error) {
	data := trimBOM(src.data)
	var buf bytes.Buffer
	buf.Grow(len(data) + len(data)/4 + 1)
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &SpecError{Source: src.source, Line: lineAt(data, se.Offset),
				Err: fmt.Errorf("invalid JSON: %s", se.Error())}
		}
		return nil, &SpecError{Source: src.source, Err: fmt.Errorf("invalid JSON: %w", err)}
	}
	if err := checkJSONKeys(data, src.source); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// jsonHead is the part of a JSON document that Setup checks.
type jsonHead struct {
	OpenAPI json.RawMessage `json:"openapi"`
	Swagger json.RawMessage `json:"swagger"`
	Info    json.RawMessage `json:"info"`
	jsonLinks
}

// jsonLinks are the parts of a document that name other origins the UI may
// call: server URLs ("Try it out") and OAuth2 token URLs.
type jsonLinks struct {
	Servers    json.RawMessage `json:"servers"`
	Host       json.RawMessage `json:"host"`
	Schemes    json.RawMessage `json:"schemes"`
	Components struct {
		SecuritySchemes map[string]struct {
			Flows map[string]oauthFlow `json:"flows"`
		} `json:"securitySchemes"`
	} `json:"components"`
	SecurityDefinitions map[string]oauthFlow `json:"securityDefinitions"`
}

type oauthFlow struct {
	TokenURL   string `json:"tokenUrl"`
	RefreshURL string `json:"refreshUrl"`
}

// urls lists the URLs found; malformed sections are skipped (they only
// lose Content-Security-Policy entries).
func (l jsonLinks) urls() []string {
	var out []string
	var servers []struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(l.Servers, &servers) == nil {
		for _, s := range servers {
			out = append(out, s.URL)
		}
	}
	var host string
	var schemes []string
	if json.Unmarshal(l.Host, &host) == nil && host != "" {
		if json.Unmarshal(l.Schemes, &schemes) != nil {
			schemes = nil
		}
		out = append(out, swaggerServers(host, schemes)...)
	}
	for _, s := range l.Components.SecuritySchemes {
		for _, f := range s.Flows {
			out = append(out, f.TokenURL, f.RefreshURL)
		}
	}
	for _, f := range l.SecurityDefinitions {
		out = append(out, f.TokenURL, f.RefreshURL)
	}
	return out
}

// linksOfJSON reads the links of a document already known to be valid JSON.
func linksOfJSON(doc []byte) []string {
	var l jsonLinks
	if json.Unmarshal(doc, &l) != nil {
		return nil
	}
	return l.urls()
}

// headOfJSON reads the fields that Setup checks from a JSON document,
// skipping the rest of it without building values.
func headOfJSON(doc []byte, source string) (specHead, error) {
	var h specHead
	if c := firstNonSpace(doc); c != '{' {
		return h, &SpecError{Source: source, Err: errNotMapping(kindOfJSON(c))}
	}
	var jh jsonHead
	if err := json.Unmarshal(doc, &jh); err != nil {
		return h, &SpecError{Source: source, Err: fmt.Errorf("invalid JSON: %w", err)}
	}
	h.openapi = jsonField(jh.OpenAPI)
	h.swagger = jsonField(jh.Swagger)
	if jh.Info != nil {
		h.info.present = true
		var info struct {
			Title   json.RawMessage `json:"title"`
			Version json.RawMessage `json:"version"`
		}
		if firstNonSpace(jh.Info) == '{' && json.Unmarshal(jh.Info, &info) == nil {
			h.info.isMapping = true
			h.title = jsonField(info.Title)
			h.version = jsonField(info.Version)
		}
	}
	h.links = jh.urls()
	return h, nil
}

func jsonField(raw json.RawMessage) field {
	if raw == nil {
		return field{}
	}
	f := field{present: true, kind: kindOfJSON(firstNonSpace(raw))}
	if f.kind == "string" {
		_ = json.Unmarshal(raw, &f.value)
	} else if f.kind == "number" || f.kind == "boolean" {
		f.value = string(bytes.TrimSpace(raw))
	}
	return f
}

func firstNonSpace(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func kindOfJSON(c byte) string {
	switch c {
	case '{':
		return "mapping"
	case '[':
		return "list"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case 0:
		return "empty"
	}
	return "number"
}
