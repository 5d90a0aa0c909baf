package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

// resolve returns the path of a file $ref made in file: relative to file's
// directory, on Config.FS when it is set, else on the OS file system.
func (b *bundler) resolve(file, target string) (string, error) {
	if t, err := url.PathUnescape(target); err == nil {
		target = t
	}
	if b.fsys != nil {
		dir := "."
		if file != "" {
			dir = path.Dir(file)
		}
		p := path.Join(dir, target)
		if !fs.ValidPath(strings.TrimLeft(p, "/")) {
			return "", fmt.Errorf("%s is outside Config.FS", p)
		}
		return p, nil
	}
	if file == "" {
		return "", errors.New("a document given as bytes or an object has no directory to resolve a file $ref from: give its file path, or set Config.FS")
	}
	return filepath.Join(filepath.Dir(file), filepath.FromSlash(target)), nil
}

// load reads, parses and checks a referenced file, once.
func (b *bundler) load(file string) (*yaml.Node, error) {
	if doc, ok := b.docs[file]; ok {
		return doc, nil
	}
	data, err := b.readFile(b.fsys, file)
	if err != nil {
		return nil, err
	}
	b.files = append(b.files, file)
	b.read += len(data)
	b.budget += 64 * len(data) // as for the root: a bound on the work, not on what the files hold
	if isTextFile(file) {
		// Markdown or plain text (description: {$ref: ./intro.md}): the
		// file's text is the value.
		data = transcode.TrimBOM(data)
		if !utf8.Valid(data) {
			return nil, &transcode.Error{Source: file, Err: errors.New("a text file a $ref names must be UTF-8")}
		}
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(data), Line: 1, Column: 1}
		b.docs[file] = n
		return n, nil
	}
	root, err := transcode.ParseYAMLValue(transcode.Raw{Source: file, File: file, Data: data})
	if err != nil {
		return nil, err
	}
	// Check it as it will be written: duplicate keys, numbers JSON cannot
	// hold, merges, with this file's name and lines.
	if err := transcode.CheckNode(root, file, len(data)); err != nil {
		return nil, err
	}
	b.docs[file] = root
	return root, nil
}

// isTextFile reports whether a $ref's file is text to take as a string
// (Markdown, plain text, HTML) rather than YAML or JSON to parse.
func isTextFile(name string) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/"))) {
	case ".md", ".markdown", ".txt", ".html", ".htm":
		return true
	}
	return false
}

// pointer finds the node a JSON Pointer (RFC 6901) names in doc.
func pointer(doc *yaml.Node, frag string) (*yaml.Node, error) {
	n := transcode.ResolveAlias(doc)
	if frag == "" {
		return n, nil
	}
	if frag[0] != '/' {
		return nil, fmt.Errorf("has no anchor %q: a fragment must be a JSON Pointer such as #/components/schemas/Pet", frag)
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n.Kind {
		case yaml.MappingNode:
			next := mappingValue(n, tok)
			if next == nil {
				return nil, fmt.Errorf("has no %q at #%s", tok, frag)
			}
			n = next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil, fmt.Errorf("has no item %q at #%s", tok, frag)
			}
			n = transcode.ResolveAlias(n.Content[i])
		default:
			return nil, fmt.Errorf("has no %q at #%s: %s is a scalar", tok, frag, tok)
		}
	}
	return n, nil
}

// escapePointer escapes a name for use in a JSON Pointer.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
