package raster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// artifactSet writes an export's files through an Output: every file is
// written first and committed only once all are, so a failure before the
// commits leaves nothing.
type artifactSet struct {
	out     export.Output
	pending []pendingArtifact
}

type pendingArtifact struct {
	w artifact.Writer
	a exporttask.Artifact
}

// add writes r to a new file name of type typ, hashing it on the way.
func (s *artifactSet) add(ctx context.Context, name string, typ exporttask.ArtifactType, r io.Reader) error {
	w, err := s.out.Create(ctx, name)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	n, sum, err := copyHashed(ctx, w, r)
	if err != nil {
		return errors.Join(fmt.Errorf("writing %s: %w", name, err), w.Abort())
	}
	s.pending = append(s.pending, pendingArtifact{w: w, a: exporttask.Artifact{
		Name: name, Type: typ, Size: n, SHA256: hex.EncodeToString(sum)}})
	return nil
}

// copyChunk is the size of the reads of copyHashed.
const copyChunk = 1 << 20

// copyHashed copies r to w and returns the SHA-256 of what it copied. Each
// chunk is hashed on another goroutine while it is written and the next
// one read, so that a large file costs about the longest of the three, not
// their sum; between chunks the copy stops if ctx ends.
func copyHashed(ctx context.Context, w io.Writer, r io.Reader) (int64, []byte, error) {
	h := sha256.New()
	chunks := make(chan []byte)
	hashed := make(chan struct{})
	go func() {
		defer close(hashed)
		for b := range chunks {
			h.Write(b)
			hashed <- struct{}{}
		}
	}()
	bufs := [2][]byte{make([]byte, copyChunk), make([]byte, copyChunk)}
	busy := false // the hasher has a chunk
	var n int64
	var err error
	for i := 0; err == nil; i++ {
		if err = ctx.Err(); err != nil {
			break
		}
		b := bufs[i%2]
		m, rerr := io.ReadFull(r, b)
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			err = rerr
			break
		}
		if busy {
			<-hashed
			busy = false
		}
		if m == 0 {
			break
		}
		chunks <- b[:m]
		busy = true
		if _, err = w.Write(b[:m]); err == nil {
			n += int64(m)
		}
		if rerr != nil {
			break
		}
	}
	if busy {
		<-hashed
	}
	close(chunks)
	<-hashed
	if err != nil {
		return n, nil, err
	}
	return n, h.Sum(nil), nil
}

// addFile adds the finished file at path as name: the output moves it
// where it can (see [artifact.StoreFile]), so path may be gone after.
func (s *artifactSet) addFile(ctx context.Context, name string, typ exporttask.ArtifactType, path string) error {
	w, err := s.out.Create(ctx, name)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	n, sum, err := artifact.StoreFile(w, path)
	if err != nil {
		return errors.Join(fmt.Errorf("writing %s: %w", name, err), w.Abort())
	}
	s.pending = append(s.pending, pendingArtifact{w: w, a: exporttask.Artifact{Name: name, Type: typ, Size: n, SHA256: sum}})
	return nil
}

// artifacts returns the files added so far.
func (s *artifactSet) artifacts() []exporttask.Artifact {
	out := make([]exporttask.Artifact, len(s.pending))
	for i, p := range s.pending {
		out[i] = p.a
	}
	return out
}

// commit commits every file, in the order added. When one fails, the
// rest are aborted.
func (s *artifactSet) commit() ([]exporttask.Artifact, error) {
	arts := s.artifacts()
	for i, p := range s.pending {
		if _, err := p.w.Commit(); err != nil {
			s.pending = s.pending[i+1:]
			return nil, errors.Join(fmt.Errorf("committing %s: %w", p.a.Name, err), s.abort())
		}
	}
	s.pending = nil
	return arts, nil
}

// abort discards every file not committed.
func (s *artifactSet) abort() error {
	var errs []error
	for _, p := range s.pending {
		errs = append(errs, p.w.Abort())
	}
	s.pending = nil
	return errors.Join(errs...)
}
