package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// maxStalledAttempts is how many requests in a row a download may make
// without receiving a byte before it gives up.
const maxStalledAttempts = 3

// MismatchError is a downloaded file that is not the one the task
// describes: its size or its SHA-256 differs from the artifact's.
type MismatchError struct {
	// Name is the artifact's name.
	Name string
	// WantSize and GotSize are the artifact's size and the bytes received.
	WantSize, GotSize int64
	// WantSHA256 and GotSHA256 are the artifact's digest and that of the
	// bytes received, hex-encoded; GotSHA256 is empty when the size
	// already differed.
	WantSHA256, GotSHA256 string
}

func (e *MismatchError) Error() string {
	if e.WantSize != e.GotSize {
		return fmt.Sprintf("client: downloading %s: got %d bytes, the task says %d", e.Name, e.GotSize, e.WantSize)
	}
	return fmt.Sprintf("client: downloading %s: SHA-256 %s, the task says %s", e.Name, e.GotSHA256, e.WantSHA256)
}

// ErrArtifactChanged is returned by [Client.Download] when the server's
// file changed between two requests of one download, so the bytes already
// written cannot be continued.
var ErrArtifactChanged = errors.New("client: the artifact changed during the download")

// Download writes the file of artifact a (from a task's Artifacts: its URL,
// Size and SHA256 are used) to w, with the client's API key. When the
// connection is cut it asks for the rest with Range and If-Range (the
// artifact's ETag, its SHA-256), as long as each request brings bytes; a
// server that sends the whole file again is [ErrArtifactChanged]. At the
// end it checks the size and the SHA-256 against the task and returns a
// *[MismatchError] when they differ. It returns the bytes written to w; on
// any error some may already have been written.
func (c *Client) Download(ctx context.Context, a exporttask.Artifact, w io.Writer) (int64, error) {
	d := downloader{c: c, a: a, w: w, sum: sha256.New()}
	if err := d.run(ctx); err != nil {
		return d.n, err
	}
	return d.n, d.check()
}

// DownloadFile downloads artifact a into the file path, as
// [Client.Download] does, through path+".part": a call that finds such a
// file from an interrupted earlier call goes on from its end, and only a
// complete, checked file is renamed to path. On a mismatch the part file
// is removed, so the next call starts over.
func (c *Client) DownloadFile(ctx context.Context, a exporttask.Artifact, path string) error {
	part := path + ".part"
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("client: downloading %s: %w", a.Name, err)
	}
	d := downloader{c: c, a: a, w: f, sum: sha256.New()}
	d.n, err = io.Copy(d.sum, f) // what an earlier call received
	if err == nil && a.Size > 0 && d.n > a.Size {
		d.n, err = 0, f.Truncate(0)
		d.sum.Reset()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("client: downloading %s: reading %s: %w", a.Name, part, err)
	}
	err = d.run(ctx)
	if err == nil {
		err = d.check()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("client: downloading %s: %w", a.Name, cerr)
	}
	var mm *MismatchError
	switch {
	case errors.As(err, &mm) || errors.Is(err, ErrArtifactChanged):
		return errors.Join(err, removeIfExists(part))
	case err != nil:
		return err // the part file stays for the next call
	}
	if err := os.Rename(part, path); err != nil {
		return fmt.Errorf("client: downloading %s: %w", a.Name, err)
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync() // make the rename durable where the platform can
		dir.Close()
	}
	return nil
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// downloader is one download in progress: n bytes of a written to w so
// far, and their digest in sum.
type downloader struct {
	c   *Client
	a   exporttask.Artifact
	w   io.Writer
	sum hash.Hash
	n   int64
}

// run requests the rest of the file until the server has sent it all.
func (d *downloader) run(ctx context.Context) error {
	if d.a.URL == "" {
		return fmt.Errorf("client: downloading %s: the artifact has no URL (the task is not COMPLETED, or expired)", d.a.Name)
	}
	u, err := url.Parse(d.a.URL)
	if err != nil {
		return fmt.Errorf("client: downloading %s: %w", d.a.Name, err)
	}
	stalled := 0
	for {
		if d.a.Size > 0 && d.n == d.a.Size {
			return nil
		}
		before := d.n
		done, err := d.once(ctx, u)
		if done {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("client: downloading %s: %w", d.a.Name, ctx.Err())
		}
		var p *exporttask.Problem
		if errors.As(err, &p) || errors.Is(err, ErrArtifactChanged) {
			return err // an answer, not a cut: asking again gets the same
		}
		if d.n > before {
			stalled = 0
			continue
		}
		if stalled++; stalled >= maxStalledAttempts {
			return err
		}
	}
}

// once makes one request for the bytes from d.n on and copies what it gets.
// It reports whether the file is complete.
func (d *downloader) once(ctx context.Context, u *url.URL) (bool, error) {
	r, err := d.c.newRequest(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	r.Header.Set("Accept", "*/*")
	if d.n > 0 {
		r.Header.Set("Range", "bytes="+strconv.FormatInt(d.n, 10)+"-")
		if d.a.SHA256 != "" {
			r.Header.Set("If-Range", `"`+d.a.SHA256+`"`)
		}
	}
	resp, err := d.c.hc.Do(r)
	if err != nil {
		return false, fmt.Errorf("client: downloading %s: %w", d.a.Name, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK && d.n > 0:
		return false, fmt.Errorf("%w: %s was sent whole again when its bytes from %d on were asked for",
			ErrArtifactChanged, d.a.Name, d.n)
	case resp.StatusCode == http.StatusPartialContent:
		if start, ok := rangeStart(resp.Header.Get("Content-Range")); !ok || start != d.n {
			return false, fmt.Errorf("client: downloading %s: asked for bytes from %d, got Content-Range %q",
				d.a.Name, d.n, resp.Header.Get("Content-Range"))
		}
	case resp.StatusCode != http.StatusOK:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxItemBytes))
		return false, responseProblem(resp, b)
	}
	n, err := io.Copy(io.MultiWriter(d.w, d.sum), resp.Body)
	d.n += n
	if err != nil {
		return false, fmt.Errorf("client: downloading %s: after %d bytes: %w", d.a.Name, d.n, err)
	}
	if d.a.Size > 0 && d.n < d.a.Size {
		return false, fmt.Errorf("client: downloading %s: the answer ended after %d of %d bytes: %w",
			d.a.Name, d.n, d.a.Size, io.ErrUnexpectedEOF)
	}
	return true, nil
}

// rangeStart returns the first byte of a Content-Range "bytes a-b/n".
func rangeStart(cr string) (int64, bool) {
	spec, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(spec, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(first, 10, 64)
	return n, err == nil
}

// check compares what was received with the artifact.
func (d *downloader) check() error {
	if d.a.Size > 0 && d.n != d.a.Size {
		return &MismatchError{Name: d.a.Name, WantSize: d.a.Size, GotSize: d.n, WantSHA256: d.a.SHA256}
	}
	got := hex.EncodeToString(d.sum.Sum(nil))
	if d.a.SHA256 != "" && !strings.EqualFold(got, d.a.SHA256) {
		return &MismatchError{Name: d.a.Name, WantSize: d.a.Size, GotSize: d.n, WantSHA256: d.a.SHA256, GotSHA256: got}
	}
	return nil
}
