package s3store

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// object reads a committed file with ranged GETs: the first Read after
// Open or a Seek asks for the rest of the file from the position, and
// reads go on from that response until the next Seek.
type object struct {
	ctx  context.Context
	s    *Store
	etag string // of the HEAD; GETs require it (If-Match)
	info artifact.Info

	pos  int64         // where the next Read starts
	body io.ReadCloser // open GET response positioned at pos, or nil
}

func (o *object) Info() artifact.Info { return o.info }

func (o *object) Read(p []byte) (int, error) {
	if o.pos >= o.info.Size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if o.body == nil {
		if err := o.get(); err != nil {
			return 0, err
		}
	}
	n, err := o.body.Read(p)
	o.pos += int64(n)
	switch {
	case err == io.EOF && o.pos < o.info.Size:
		o.closeBody()
		return n, fmt.Errorf("s3store: read %q: %w at %d of %d bytes", o.info.Key, io.ErrUnexpectedEOF, o.pos, o.info.Size)
	case err == io.EOF:
		o.closeBody()
		return n, io.EOF
	case err != nil:
		o.closeBody()
		return n, fmt.Errorf("s3store: read %q: %w", o.info.Key, err)
	}
	return n, nil
}

// get starts a GET of the bytes from pos to the end.
func (o *object) get() error {
	out, err := o.s.client.GetObject(o.ctx, &s3.GetObjectInput{
		Bucket:  aws.String(o.s.cfg.Bucket),
		Key:     aws.String(o.s.objectKey(o.info.Key)),
		Range:   aws.String("bytes=" + strconv.FormatInt(o.pos, 10) + "-"),
		IfMatch: aws.String(o.etag),
	})
	switch {
	case err == nil:
		o.body = out.Body
		return nil
	case isNotFound(err):
		return fmt.Errorf("s3store: read %q: deleted since Open: %w", o.info.Key, artifact.ErrNotFound)
	case hasCode(err, "PreconditionFailed"):
		return fmt.Errorf("s3store: read %q: replaced since Open", o.info.Key)
	default:
		return fmt.Errorf("s3store: read %q at %d: %w", o.info.Key, o.pos, err)
	}
}

func (o *object) Seek(offset int64, whence int) (int64, error) {
	var pos int64
	switch whence {
	case io.SeekStart:
		pos = offset
	case io.SeekCurrent:
		pos = o.pos + offset
	case io.SeekEnd:
		pos = o.info.Size + offset
	default:
		return o.pos, fmt.Errorf("s3store: seek %q: invalid whence %d", o.info.Key, whence)
	}
	if pos < 0 {
		return o.pos, fmt.Errorf("s3store: seek %q: negative position %d", o.info.Key, pos)
	}
	if pos != o.pos {
		o.closeBody()
		o.pos = pos
	}
	return pos, nil
}

func (o *object) Close() error {
	o.closeBody()
	return nil
}

func (o *object) closeBody() {
	if o.body != nil {
		o.body.Close()
		o.body = nil
	}
}
