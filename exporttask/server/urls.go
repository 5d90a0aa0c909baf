package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// urlBuilder makes the absolute download URLs of artifacts, at response
// time: they are never stored.
type urlBuilder struct {
	public         string // PublicURL without its trailing slash, or empty
	trustForwarded bool
}

// newURLBuilder checks publicURL (empty, or an absolute http(s) URL
// without query or fragment).
func newURLBuilder(publicURL string, trustForwarded bool) (urlBuilder, error) {
	if publicURL == "" {
		return urlBuilder{trustForwarded: trustForwarded}, nil
	}
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return urlBuilder{}, fmt.Errorf("server: Config.PublicURL %q is not an absolute http(s) URL without query", publicURL)
	}
	return urlBuilder{public: strings.TrimRight(publicURL, "/")}, nil
}

// base returns the scheme://host[/path] that download URLs start with for
// a response to r.
func (b urlBuilder) base(r *http.Request) string {
	if b.public != "" {
		return b.public
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if b.trustForwarded {
		if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if h := firstValue(r.Header.Get("X-Forwarded-Host")); h != "" {
			host = h
		}
	}
	return scheme + "://" + host
}

// firstValue is the first of a comma-separated header's values, trimmed.
func firstValue(v string) string {
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// artifactPath is the path of the download endpoint of task id's file name.
func artifactPath(id int64, name string) string {
	return "/export-tasks/" + strconv.FormatInt(id, 10) + "/artifacts/" + url.PathEscape(name)
}

// withURLs returns t with its artifacts' download URLs set when it is
// COMPLETED (the only status whose files can be downloaded) and cleared
// otherwise. t's artifact slice is copied, never changed.
func (b urlBuilder) withURLs(r *http.Request, t exporttask.Task) exporttask.Task {
	if len(t.Artifacts) == 0 {
		return t
	}
	arts := make([]exporttask.Artifact, len(t.Artifacts))
	copy(arts, t.Artifacts)
	base := b.base(r)
	for i := range arts {
		arts[i].URL = ""
		if t.Status == exporttask.StatusCompleted {
			arts[i].URL = base + artifactPath(t.ID, arts[i].Name)
		}
	}
	t.Artifacts = arts
	return t
}
