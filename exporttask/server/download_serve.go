package server

import (
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strconv"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// DefaultDownloadIdleTimeout is [Config.DownloadIdleTimeout] when it is
// left 0.
const DefaultDownloadIdleTimeout = 30 * time.Second

// downloadChunk is how many bytes of a file are written between two
// extensions of the connection's write deadline.
const downloadChunk = 32 << 10

// fileResponse is what serveFile needs to know of a file besides its bytes.
type fileResponse struct {
	obj         artifact.Object
	contentType string
	etag        string // quoted, or "" when unknown
	disposition string // Content-Disposition of the file's answers (200, 206)
}

// serveFile answers a GET or HEAD of f: conditional requests (412 and 304),
// Range (206, one range or multipart/byteranges of up to [MaxRanges]; 416
// as a problem), else the whole file. The body is written under a write
// deadline extended by s.downloadIdle before each chunk, so a download
// lasts as long as the client keeps reading, and is cut after the client
// read nothing for s.downloadIdle.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, f fileResponse) {
	info := f.obj.Info()
	size, mod := info.Size, info.ModTime
	switch checkConditions(r, f.etag, mod) {
	case condFailed:
		s.writeProblem(w, r, newProblem(http.StatusPreconditionFailed,
			"The file does not meet the request's If-Match or If-Unmodified-Since condition."))
		return
	case condNotModified:
		h := w.Header()
		if f.etag != "" {
			h.Set("ETag", f.etag)
		}
		h.Set("Cache-Control", "private, no-cache")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	var ranges []byteRange
	if rh := r.Header.Get("Range"); rh != "" && rangeApplies(r, f.etag, mod) {
		var err error
		if ranges, err = parseRange(rh, size); err != nil {
			w.Header().Set("Content-Range", "bytes */"+strconv.FormatInt(size, 10))
			s.writeProblem(w, r, newProblem(http.StatusRequestedRangeNotSatisfiable,
				"The Range header cannot be served: "+err.Error()+"."))
			return
		}
	}
	h := w.Header()
	h.Set("Accept-Ranges", "bytes")
	h.Set("Content-Disposition", f.disposition)
	if f.etag != "" {
		h.Set("ETag", f.etag)
	}
	if !mod.IsZero() {
		h.Set("Last-Modified", mod.UTC().Format(http.TimeFormat))
	}
	h.Set("Cache-Control", "private, no-cache")
	out := s.newProgressWriter(w)
	switch len(ranges) {
	case 0:
		h.Set("Content-Type", f.contentType)
		h.Set("Content-Length", strconv.FormatInt(size, 10))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			s.copyBody(r, out, f.obj, byteRange{start: 0, length: size})
		}
	case 1:
		h.Set("Content-Type", f.contentType)
		h.Set("Content-Range", ranges[0].contentRange(size))
		h.Set("Content-Length", strconv.FormatInt(ranges[0].length, 10))
		w.WriteHeader(http.StatusPartialContent)
		if r.Method != http.MethodHead {
			s.copyBody(r, out, f.obj, ranges[0])
		}
	default:
		s.serveMultipart(w, r, out, f, ranges, size)
	}
}

// serveMultipart answers several ranges as multipart/byteranges, with a
// Content-Length computed before the first byte is sent.
func (s *Server) serveMultipart(w http.ResponseWriter, r *http.Request, out *progressWriter, f fileResponse, ranges []byteRange, size int64) {
	partHeader := func(br byteRange) textproto.MIMEHeader {
		return textproto.MIMEHeader{"Content-Type": {f.contentType}, "Content-Range": {br.contentRange(size)}}
	}
	body := multipart.NewWriter(out)
	var count countingWriter
	mw := multipart.NewWriter(&count)
	_ = mw.SetBoundary(body.Boundary()) // a boundary multipart chose is valid
	for _, br := range ranges {
		_, _ = mw.CreatePart(partHeader(br)) // counting never fails
		count.n += br.length
	}
	_ = mw.Close()
	h := w.Header()
	h.Set("Content-Type", "multipart/byteranges; boundary="+mw.Boundary())
	h.Set("Content-Length", strconv.FormatInt(count.n, 10))
	w.WriteHeader(http.StatusPartialContent)
	if r.Method == http.MethodHead {
		return
	}
	for _, br := range ranges {
		if _, err := body.CreatePart(partHeader(br)); err != nil {
			s.downloadCut(r, out, err)
			return
		}
		if !s.copyBody(r, out, f.obj, br) {
			return
		}
	}
	if err := body.Close(); err != nil {
		s.downloadCut(r, out, err)
	}
}

// copyBody writes br of obj to out; it reports whether all of it went. A
// failure is logged by downloadCut, and the server closes the connection
// (the body is shorter than its Content-Length).
func (s *Server) copyBody(r *http.Request, out *progressWriter, obj io.ReadSeeker, br byteRange) bool {
	if _, err := obj.Seek(br.start, io.SeekStart); err != nil {
		s.downloadCut(r, out, err)
		return false
	}
	n, err := io.CopyN(out, obj, br.length)
	if err == nil && n == br.length {
		return true
	}
	s.downloadCut(r, out, err)
	return false
}

// downloadCut logs why a download stopped after its status was sent: the
// client went away or read nothing for the idle timeout (INFO), or the
// file could not be read further, e.g. it was deleted from S3 by a
// dismissal or an expiry (WARN). Neither is a server error: no 500 is
// logged, and the client sees a body shorter than its Content-Length.
func (s *Server) downloadCut(r *http.Request, out *progressWriter, err error) {
	gone := out.err // a write failed: the client's side
	if gone == nil {
		gone = r.Context().Err() // the client closed the connection
	}
	if gone != nil {
		s.logger.InfoContext(r.Context(), "download cut: the client went away or stopped reading",
			"path", r.URL.Path, "written", out.written, "idleTimeout", s.downloadIdle.String(), "error", gone.Error())
		return
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	s.logger.WarnContext(r.Context(), "download cut: the file could not be read to its end",
		"path", r.URL.Path, "written", out.written, "error", err.Error())
}

// progressWriter writes a download's body in chunks, extending the
// connection's write deadline before each, so that the download is cut for
// lack of progress, not for its total duration.
type progressWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	idle    time.Duration
	written int64
	err     error // the first write error
}

// newProgressWriter prepares w for a long download: the request's read
// deadline (the server's ReadTimeout, counted from the request's start) is
// lifted, since it would cancel the request's context in the middle of the
// download; the write deadline is then extended as bytes flow.
func (s *Server) newProgressWriter(w http.ResponseWriter) *progressWriter {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // ErrNotSupported (e.g. a test recorder): nothing to lift
	_ = rc.SetWriteDeadline(time.Now().Add(s.downloadIdle))
	return &progressWriter{w: w, rc: rc, idle: s.downloadIdle}
}

func (p *progressWriter) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		end := min(len(b), done+downloadChunk)
		_ = p.rc.SetWriteDeadline(time.Now().Add(p.idle))
		n, err := p.w.Write(b[done:end])
		done += n
		p.written += int64(n)
		if err != nil {
			p.err = err
			return done, err
		}
	}
	return done, nil
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(b []byte) (int, error) {
	c.n += int64(len(b))
	return len(b), nil
}
