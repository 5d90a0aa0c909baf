package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// conn is one load client's keep-alive HTTP/1.1 connection to the server.
// It writes each request itself, from bytes it reuses, and reads the
// response with http.ReadResponse. In CPU profiles of a create phase, the
// clients took about a quarter of the process's CPU through net/http's
// Transport (which hands each request and response between goroutines)
// and json.Marshal per request, and take about a tenth this way: CPU left
// to the server and PostgreSQL, with which they share the two cores.
type conn struct {
	nc   net.Conn
	r    *bufio.Reader
	host string
	req  []byte       // the request being written
	body bytes.Buffer // the last response's body
	// broken is set when an exchange failed half-way: the connection
	// cannot carry another request.
	broken bool
}

// dial opens a connection to the server at addr (host:port).
func dial(ctx context.Context, addr string) (*conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	return &conn{nc: nc, r: bufio.NewReaderSize(nc, 16<<10), host: addr}, nil
}

func (c *conn) Close() error { return c.nc.Close() }

// do sends a request with the load's API key (and body, as JSON, unless
// nil) and returns the response's status and body. The body is valid
// until the next call. ctx's deadline bounds the exchange.
func (c *conn) do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Time{}
	}
	if err := c.nc.SetDeadline(deadline); err != nil {
		return 0, nil, err
	}
	b := append(c.req[:0], method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, c.host...)
	b = append(b, "\r\nX-Api-Key: "+benchKey+"\r\n"...)
	if body != nil {
		b = append(b, "Content-Type: application/json\r\nContent-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, body...)
	c.req = b
	if _, err := c.nc.Write(b); err != nil {
		c.broken = true
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.broken = true
		return 0, nil, fmt.Errorf("%s %s: reading the response: %w", method, path, err)
	}
	c.body.Reset()
	_, err = c.body.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil || resp.Close {
		c.broken = true
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: reading the response: %w", method, path, err)
	}
	return resp.StatusCode, c.body.Bytes(), nil
}

// call makes a request and checks that the response has status want.
func (c *conn) call(ctx context.Context, method, path string, body []byte, want int) ([]byte, error) {
	status, resp, err := c.do(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	if status != want {
		return nil, fmt.Errorf("%s %s: status %d: %s", method, path, status, resp)
	}
	return resp, nil
}

// taskIDOf returns the id of the task a response body holds. The server
// writes the id first; anything else is decoded in full.
func taskIDOf(body []byte) (int64, error) {
	const prefix = `{"id":`
	if rest, ok := bytes.CutPrefix(body, []byte(prefix)); ok {
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if end > 0 && end < len(rest) && rest[end] == ',' {
			if id, err := strconv.ParseInt(string(rest[:end]), 10, 64); err == nil {
				return id, nil
			}
		}
	}
	var t taskID
	if err := json.Unmarshal(body, &t); err != nil {
		return 0, fmt.Errorf("decoding the task: %w", err)
	}
	return t.ID, nil
}
