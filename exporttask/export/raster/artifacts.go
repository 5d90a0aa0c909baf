package raster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/openapi-viewer/viewer/exporttask"
)

// artifactSet writes an export's files through an Output: every file is
// written first and committed only once all are, so a failure before the
// commits leaves nothing.
type artifactSet struct {
	out     exporttask.Output
	pending []pendingArtifact
}

type pendingArtifact struct {
	w exporttask.ArtifactWriter
	a exporttask.Artifact
}

// add writes r to a new file name of type typ, hashing it on the way.
func (s *artifactSet) add(ctx context.Context, name string, typ exporttask.ArtifactType, r io.Reader) error {
	w, err := s.out.Create(ctx, name)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), r)
	if err != nil {
		return errors.Join(fmt.Errorf("writing %s: %w", name, err), w.Abort())
	}
	s.pending = append(s.pending, pendingArtifact{w: w, a: exporttask.Artifact{
		Name: name, Type: typ, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}})
	return nil
}

// addFile adds the finished file at path as name: the output moves it
// where it can (see [exporttask.StoreFile]), so path may be gone after.
func (s *artifactSet) addFile(ctx context.Context, name string, typ exporttask.ArtifactType, path string) error {
	w, err := s.out.Create(ctx, name)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	n, sum, err := exporttask.StoreFile(w, path)
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
