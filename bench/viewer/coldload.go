package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// acceptEncoding is what the page loads send, as a browser would.
const acceptEncoding = "gzip, br"

// countingConn counts the bytes read from the wire: status lines, headers
// and (compressed) bodies.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// newCountingClient returns a client that never decompresses (so bodies
// are counted as sent) and adds every byte it reads to n.
func newCountingClient(n *atomic.Int64) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			DisableCompression: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return countingConn{Conn: c, n: n}, nil
			},
		},
		// A redirect would be a request of its own; none is expected.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// fetched is one response of a page load.
type fetched struct {
	url      string
	status   int
	etag     string
	encoding string
	body     int64 // bytes of body on the wire
}

// pageLoad is what a cold load of a server's page took.
type pageLoad struct {
	responses []fetched
	wire      int64 // every byte read, headers included
	specURL   string
	bundleURL string
}

func (p pageLoad) bodyBytes() int64 {
	var n int64
	for _, r := range p.responses {
		n += r.body
	}
	return n
}

// coldLoad fetches a server's page, every script and stylesheet (and icon)
// it links, and the document Swagger UI is started with, as a browser with
// an empty cache would.
func coldLoad(ctx context.Context, pageURL string) (pageLoad, error) {
	var n atomic.Int64
	c := newCountingClient(&n)
	defer c.CloseIdleConnections()
	var load pageLoad

	page, pageBody, err := fetch(ctx, c, pageURL, "", true)
	if err != nil {
		return load, err
	}
	load.responses = append(load.responses, page)
	base, err := url.Parse(pageURL)
	if err != nil {
		return load, fmt.Errorf("parsing the page URL: %w", err)
	}
	var scripts [][]byte
	for _, ref := range pageRefs(pageBody) {
		u := mustResolve(base, ref).String()
		f, body, err := fetch(ctx, c, u, "", isScript(ref))
		if err != nil {
			return load, err
		}
		load.responses = append(load.responses, f)
		if isScript(ref) {
			scripts = append(scripts, body)
		}
		if strings.Contains(ref, "swagger-ui-bundle.js") {
			load.bundleURL = u
		}
	}
	specs := specRefs(pageBody, scripts)
	if len(specs) != 1 {
		return load, fmt.Errorf("the page names %d documents, want 1", len(specs))
	}
	load.specURL = mustResolve(base, specs[0]).String()
	f, _, err := fetch(ctx, c, load.specURL, "", false)
	if err != nil {
		return load, err
	}
	load.responses = append(load.responses, f)
	if load.bundleURL == "" {
		return load, fmt.Errorf("the page loads no swagger-ui-bundle.js")
	}
	load.wire = n.Load()
	return load, nil
}

// reload repeats a cold load's requests with the ETags it received, and
// returns how many were answered 304.
func reload(ctx context.Context, cold pageLoad) (pageLoad, error) {
	var n atomic.Int64
	c := newCountingClient(&n)
	defer c.CloseIdleConnections()
	var load pageLoad
	for _, r := range cold.responses {
		f, _, err := fetch(ctx, c, r.url, r.etag, false)
		if err != nil {
			return load, err
		}
		load.responses = append(load.responses, f)
	}
	load.wire = n.Load()
	return load, nil
}

func (p pageLoad) notModified() int {
	n := 0
	for _, r := range p.responses {
		if r.status == http.StatusNotModified {
			n++
		}
	}
	return n
}

// fetch GETs u with Accept-Encoding gzip and br, and If-None-Match etag
// when not empty. With keep true it returns the body decoded, for parsing.
func fetch(ctx context.Context, c *http.Client, u, etag string, keep bool) (fetched, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fetched{}, nil, fmt.Errorf("GET %s: %w", u, err)
	}
	req.Header.Set("Accept-Encoding", acceptEncoding)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	res, err := c.Do(req)
	if err != nil {
		return fetched{}, nil, fmt.Errorf("GET %s: %w", u, err)
	}
	defer res.Body.Close()
	f := fetched{url: u, status: res.StatusCode, etag: res.Header.Get("Etag"), encoding: res.Header.Get("Content-Encoding")}
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNotModified {
		return f, nil, fmt.Errorf("GET %s: status %d", u, res.StatusCode)
	}
	if !keep {
		f.body, err = discard(res.Body)
		if err != nil {
			return f, nil, fmt.Errorf("GET %s: reading the body: %w", u, err)
		}
		return f, nil, nil
	}
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return f, nil, fmt.Errorf("GET %s: reading the body: %w", u, err)
	}
	f.body = int64(len(raw))
	body, err := decode(f.encoding, raw)
	if err != nil {
		return f, nil, fmt.Errorf("GET %s: %w", u, err)
	}
	return f, body, nil
}
