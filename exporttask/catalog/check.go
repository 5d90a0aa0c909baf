package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// State is what [Source.Check] found of a source against its record.
type State int

// The states of a source.
const (
	// StateOK: the source is what was registered.
	StateOK State = iota
	// StateRefreshed: the source's content is what was registered, but its
	// modification time is not (a touch, a copy without -p, a restore from
	// backup); the record can take the new time ([Refresh]).
	StateRefreshed
	// StateChanged: the source holds other data than was registered.
	StateChanged
	// StateMissing: the source cannot be found or read.
	StateMissing
)

// String returns the state as catalog verify prints it: ok, refreshed,
// changed or missing.
func (s State) String() string {
	switch s {
	case StateOK:
		return "ok"
	case StateRefreshed:
		return "refreshed"
	case StateChanged:
		return "changed"
	case StateMissing:
		return "missing"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Finding is the result of [Source.Check].
type Finding struct {
	State State
	// Info is the checked file's when it could be read: a StateRefreshed
	// record takes its ModTime.
	Info fs.FileInfo
	// Why says what differs (StateChanged) or why the file cannot be
	// read (StateMissing); empty otherwise.
	Why string
	// Err is the error behind a StateMissing, or one met while hashing.
	Err error
}

// Check compares the file path (the source file, or a directory source's
// index file: the file Size and ModTime are those of) with what s
// recorded. A different size is a change. The same size and modification
// time is checked with the quick fingerprint (2 × [QuickBytes] read),
// unless full asks for the content fingerprint; another modification time
// with the same size is checked with the content fingerprint (the whole
// file read once): the same content is StateRefreshed, other content
// StateChanged. A record registered before fingerprints (empty Content)
// is checked by size and modification time only. A GeoPackage's
// write-ahead log is checked separately ([Source.WALChanged]).
func (s *Source) Check(ctx context.Context, path string, full bool) Finding {
	st, err := os.Stat(path)
	if err != nil {
		why := "cannot be read"
		if errors.Is(err, fs.ErrNotExist) {
			why = "does not exist"
		}
		return Finding{State: StateMissing, Why: why, Err: err}
	}
	stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
	if st.Size() != s.Size {
		return Finding{State: StateChanged, Info: st,
			Why: fmt.Sprintf("%d bytes, registered with %d", st.Size(), s.Size)}
	}
	sameTime := st.ModTime().Equal(s.ModTime)
	switch {
	case s.Content == "" && sameTime:
		return Finding{State: StateOK, Info: st}
	case s.Content == "":
		return Finding{State: StateChanged, Info: st, Why: fmt.Sprintf("modified %s, registered when modified %s "+
			"(the record has no content fingerprint to compare)", stamp(st.ModTime()), stamp(s.ModTime))}
	case sameTime && !full:
		q, err := QuickFingerprint(path)
		if err != nil {
			return Finding{State: StateMissing, Info: st, Why: "cannot be read", Err: err}
		}
		if q != s.Quick {
			return Finding{State: StateChanged, Info: st,
				Why: "its first or last bytes differ from those registered, with the same size and modification time"}
		}
		return Finding{State: StateOK, Info: st}
	}
	content, _, err := Fingerprints(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return Finding{State: StateMissing, Info: st, Why: "was not read to its end", Err: err}
		}
		return Finding{State: StateMissing, Info: st, Why: "cannot be read", Err: err}
	}
	switch {
	case content != s.Content && sameTime:
		return Finding{State: StateChanged, Info: st, Why: "its content differs from that registered, with the same size and modification time"}
	case content != s.Content:
		return Finding{State: StateChanged, Info: st,
			Why: fmt.Sprintf("its content differs from that registered (modified %s)", stamp(st.ModTime()))}
	case !sameTime:
		return Finding{State: StateRefreshed, Info: st}
	}
	return Finding{State: StateOK, Info: st}
}

// Refresh records in the manifest of the record in dir that its source,
// found with the content it was registered with ([StateRefreshed]), now
// has the modification time mod. The manifest is rewritten in one step (a
// temporary file renamed over it), and only while it still holds src: a
// record registered again meanwhile is left alone (and Refresh returns
// nil).
func Refresh(dir string, src Source, mod time.Time) error {
	path := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("catalog: refreshing %s: %w", path, err)
	}
	rec, err := decodeManifest(b)
	if err != nil {
		return fmt.Errorf("catalog: refreshing %s: %w", path, err)
	}
	if rec.Source == nil || rec.Source.Version() != src.Version() || !rec.Source.ModTime.Equal(src.ModTime) {
		return nil
	}
	rec.Source.ModTime = mod
	return writeManifest(dir, rec)
}
