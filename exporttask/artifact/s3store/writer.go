package s3store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"mime"
	"path"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// abortTimeout bounds the clean-up requests that run after the writer's
// context is cancelled.
const abortTimeout = 30 * time.Second

// Create starts a multipart upload to key at once (so that DeletePrefix
// can find and cancel it). The writer fills a part buffer and uploads full
// parts in the background, up to Concurrency at a time; Write blocks while
// that many are in flight, so memory stays bounded whatever the size.
// The parts upload with ctx: once it ends, writes and Commit fail (and
// Abort still aborts the upload).
func (s *Store) Create(ctx context.Context, key string) (artifact.Writer, error) {
	if err := artifactkey.Check(key); err != nil {
		return nil, fmt.Errorf("s3store: create: %w", err)
	}
	in := &s3.CreateMultipartUploadInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(s.objectKey(key))}
	if ct := mime.TypeByExtension(path.Ext(key)); ct != "" {
		in.ContentType = aws.String(ct)
	}
	out, err := s.client.CreateMultipartUpload(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("s3store: create %q: %w", key, err)
	}
	wctx, cancel := context.WithCancel(ctx)
	return &writer{
		s: s, key: key, contentType: in.ContentType, uploadID: out.UploadId,
		parent: ctx, ctx: wctx, cancel: cancel,
		hash:  sha256.New(),
		slots: make(chan struct{}, s.cfg.Concurrency),
		free:  make(chan []byte, s.cfg.Concurrency+1),
	}, nil
}

// writer streams one file as a multipart upload.
type writer struct {
	s           *Store
	key         string
	contentType *string
	uploadID    *string
	parent      context.Context // Create's, for clean-up after cancel
	ctx         context.Context // cancelled on Abort or a failed part
	cancel      context.CancelFunc

	hash  hash.Hash
	size  int64
	buf   []byte        // the part being filled
	next  int32         // number of the last part sent
	slots chan struct{} // one per part in flight
	free  chan []byte   // buffers of finished parts
	wg    sync.WaitGroup

	mu    sync.Mutex
	parts []types.CompletedPart
	err   error // first failure of a part

	done, committed bool
}

var errClosed = errors.New("writer already committed or aborted")

func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("s3store: write %q: %w", w.key, errClosed)
	}
	written := 0
	for len(p) > 0 {
		if err := w.failure(); err != nil {
			return written, err
		}
		if w.buf == nil {
			w.buf = w.buffer()
		}
		n := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+n]
		w.hash.Write(p[:n])
		w.size += int64(n)
		written += n
		p = p[n:]
		if len(w.buf) == cap(w.buf) {
			if err := w.send(); err != nil {
				return written, err
			}
		}
	}
	return written, nil
}

// buffer returns an empty part buffer: a finished part's, or a new one.
func (w *writer) buffer() []byte {
	select {
	case b := <-w.free:
		return b[:0]
	default:
		return make([]byte, 0, w.s.cfg.PartSize)
	}
}

// failure returns the first error of a part upload, if any.
func (w *writer) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *writer) fail(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
	w.cancel()
}

// send uploads the buffer as the next part, in the background, once fewer
// than Concurrency parts are in flight.
func (w *writer) send() error {
	if w.next == MaxParts {
		err := fmt.Errorf("s3store: write %q: more than %d parts of %d bytes", w.key, MaxParts, w.s.cfg.PartSize)
		w.fail(err)
		return err
	}
	select {
	case w.slots <- struct{}{}:
	case <-w.ctx.Done():
		if err := w.failure(); err != nil {
			return err
		}
		return fmt.Errorf("s3store: write %q: %w", w.key, context.Cause(w.ctx))
	}
	w.next++
	number, buf := w.next, w.buf
	w.buf = nil
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer func() { <-w.slots }()
		out, err := w.s.client.UploadPart(w.ctx, &s3.UploadPartInput{
			Bucket: aws.String(w.s.cfg.Bucket), Key: aws.String(w.s.objectKey(w.key)), UploadId: w.uploadID,
			PartNumber: aws.Int32(number), Body: bytes.NewReader(buf), ContentLength: aws.Int64(int64(len(buf))),
			ChecksumAlgorithm: types.ChecksumAlgorithmCrc32c,
		}, s3.WithAPIOptions(unsignedPayload))
		if err != nil {
			// The buffer is not reused: after a failed request the
			// HTTP transport may still be reading it.
			w.fail(fmt.Errorf("s3store: write %q: part %d: %w", w.key, number, w.cancelled(err)))
			return
		}
		select {
		case w.free <- buf:
		default:
		}
		w.mu.Lock()
		w.parts = append(w.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(number)})
		w.mu.Unlock()
	}()
	return nil
}

// unsignedPayload signs a request without hashing its body (SigV4's
// UNSIGNED-PAYLOAD): parts carry a CRC32C checksum that the server checks
// instead, which is far cheaper than a second SHA-256 pass. Without it the
// SDK hashes every part sent over plain HTTP.
func unsignedPayload(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("s3storeUnsignedPayload",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			return next.HandleInitialize(v4.SetPayloadHash(ctx, "UNSIGNED-PAYLOAD"), in)
		}), middleware.Before)
}

// cancelled turns S3's "no such upload" into what it means here.
func (w *writer) cancelled(err error) error {
	if hasCode(err, "NoSuchUpload") {
		return fmt.Errorf("the upload was cancelled (its prefix deleted): %w", err)
	}
	return err
}

// Commit uploads the last part, waits for the others and completes the
// upload. An empty file is stored with one PutObject instead (S3 wants at
// least one part), after aborting the upload.
func (w *writer) Commit() (artifact.Info, error) {
	if w.done {
		return artifact.Info{}, fmt.Errorf("s3store: commit %q: %w", w.key, errClosed)
	}
	w.done = true
	info, err := w.commit()
	if err != nil {
		err = fmt.Errorf("s3store: commit %q: %w", w.key, err)
		if abortErr := w.discard(); abortErr != nil {
			err = errors.Join(err, fmt.Errorf("%w (the upload stays until DeletePrefix)", abortErr))
		}
		return artifact.Info{}, err
	}
	w.committed = true
	w.cancel()
	return info, nil
}

func (w *writer) commit() (artifact.Info, error) {
	bucket, objectKey := aws.String(w.s.cfg.Bucket), aws.String(w.s.objectKey(w.key))
	var etag *string
	if w.size == 0 {
		_, err := w.s.client.AbortMultipartUpload(w.ctx, &s3.AbortMultipartUploadInput{Bucket: bucket, Key: objectKey, UploadId: w.uploadID})
		if err != nil {
			return artifact.Info{}, w.cancelled(err)
		}
		out, err := w.s.client.PutObject(w.ctx, &s3.PutObjectInput{
			Bucket: bucket, Key: objectKey, Body: bytes.NewReader(nil), ContentLength: aws.Int64(0), ContentType: w.contentType,
		})
		if err != nil {
			return artifact.Info{}, err
		}
		etag = out.ETag
	} else {
		if len(w.buf) > 0 {
			if err := w.send(); err != nil {
				return artifact.Info{}, err
			}
		}
		w.wg.Wait()
		if err := w.failure(); err != nil {
			return artifact.Info{}, err
		}
		slices.SortFunc(w.parts, func(a, b types.CompletedPart) int { return int(aws.ToInt32(a.PartNumber) - aws.ToInt32(b.PartNumber)) })
		out, err := w.s.client.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
			Bucket: bucket, Key: objectKey, UploadId: w.uploadID,
			MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts},
		})
		if err != nil {
			return artifact.Info{}, w.cancelled(err)
		}
		etag = out.ETag
	}
	return artifact.Info{
		Key: w.key, Size: w.size, ModTime: w.modTime(etag),
		SHA256: hex.EncodeToString(w.hash.Sum(nil)),
	}, nil
}

// modTime returns the stored object's modification time, as Open and List
// will report it, when the object is still the one with etag; else (a
// concurrent write replaced it, or HEAD failed) the time now.
func (w *writer) modTime(etag *string) time.Time {
	head, err := w.s.client.HeadObject(w.ctx, &s3.HeadObjectInput{
		Bucket: aws.String(w.s.cfg.Bucket), Key: aws.String(w.s.objectKey(w.key)), IfMatch: etag,
	})
	if err != nil || head.LastModified == nil {
		return time.Now().UTC().Truncate(time.Second)
	}
	return *head.LastModified
}

// Abort cancels the parts in flight and aborts the upload. After Commit it
// does nothing.
func (w *writer) Abort() error {
	if w.committed {
		return nil
	}
	if w.done && w.uploadID == nil {
		return nil
	}
	w.done = true
	return w.discard()
}

// discard stops the part uploads and aborts the multipart upload, once.
func (w *writer) discard() error {
	if w.uploadID == nil {
		return nil
	}
	w.cancel()
	w.wg.Wait()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(w.parent), abortTimeout)
	defer cancel()
	err := w.abortUpload(ctx)
	w.uploadID = nil
	w.buf = nil
	if err != nil {
		return fmt.Errorf("s3store: abort %q: %w", w.key, err)
	}
	return nil
}

// maxAborts is how many times abortUpload asks for the abort before it
// gives up on an upload that keeps coming back.
const maxAborts = 6

// abortUpload aborts the multipart upload and checks that it is gone: a
// part the server was still receiving when the abort came may be stored
// after it, so the abort is repeated, after 50, 100, 200, … ms, until
// ListParts no longer finds the upload (the check S3's documentation of
// AbortMultipartUpload asks for).
func (w *writer) abortUpload(ctx context.Context) error {
	bucket, key := aws.String(w.s.cfg.Bucket), aws.String(w.s.objectKey(w.key))
	pause := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		_, err := w.s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: bucket, Key: key, UploadId: w.uploadID})
		if err != nil && !hasCode(err, "NoSuchUpload") {
			return err
		}
		_, err = w.s.client.ListParts(ctx, &s3.ListPartsInput{Bucket: bucket, Key: key, UploadId: w.uploadID})
		switch {
		case hasCode(err, "NoSuchUpload"):
			return nil
		case err != nil:
			return fmt.Errorf("checking that the upload is gone: %w", err)
		case attempt == maxAborts:
			return fmt.Errorf("the upload was still there after %d aborts", maxAborts)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		pause *= 2
	}
}
