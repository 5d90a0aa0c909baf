package viewer

import (
	"errors"
	"io/fs"
	"log"
	"os"
	"strings"
	"time"
)

// watcher polls the documents' files for Config.Watch.
type watcher struct {
	stop     chan struct{} // closed by Close
	done     chan struct{} // closed when the polling goroutine has returned
	onReload func(error)   // called after each reload the watcher makes; nil logs failures
}

// fileStamp is what a poll compares: a file counts as changed when its size
// or modification time does, or when it appears or disappears.
type fileStamp struct {
	size    int64
	modTime time.Time
	missing bool
}

// startWatch starts polling when Config.Watch is set. r.mu is held.
func (r *OpenapiViewerRouter) startWatch() {
	if r.cfg.Watch <= 0 || r.watch.stop != nil {
		return
	}
	r.watch.stop = make(chan struct{})
	r.watch.done = make(chan struct{})
	stamps := r.stamps(r.state.Load().files) // now, not when the goroutine starts
	go r.poll(r.cfg.Watch, stamps, r.watch.stop, r.watch.done)
}

// poll checks the files every interval and reloads when one has changed
// from stamps, until stop is closed.
func (r *OpenapiViewerRouter) poll(interval time.Duration, stamps map[string]fileStamp, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		now := r.stamps(stampedFiles(stamps))
		if sameStamps(stamps, now) {
			continue
		}
		r.mu.Lock()
		select {
		case <-stop: // closed while waiting for the lock
			r.mu.Unlock()
			return
		default:
		}
		err := r.reloadLocked()
		r.mu.Unlock()
		// A failed reload is not retried until a file changes again; the
		// new document may name other files, so stamp those.
		stamps = r.stamps(r.state.Load().files)
		for name, s := range now {
			if _, ok := stamps[name]; ok {
				stamps[name] = s
			}
		}
		// A file the failed reload could not read (a $ref added before
		// its file) is watched too, so that creating it reloads.
		var unread *UnreadFileError
		if errors.As(err, &unread) {
			stamps[unread.name] = r.stamps([]string{unread.name})[unread.name]
		}
		switch {
		case r.watch.onReload != nil:
			r.watch.onReload(err)
		case err != nil:
			log.Printf("viewer: Config.Watch: keeping the previous documents: %s", strings.TrimPrefix(err.Error(), "viewer: "))
		}
	}
}

func (r *OpenapiViewerRouter) stamps(files []string) map[string]fileStamp {
	out := make(map[string]fileStamp, len(files))
	for _, name := range files {
		var (
			fi  fs.FileInfo
			err error
		)
		if r.cfg.FS != nil {
			fi, err = fs.Stat(r.cfg.FS, strings.TrimLeft(name, "/"))
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil {
			out[name] = fileStamp{missing: true}
			continue
		}
		out[name] = fileStamp{size: fi.Size(), modTime: fi.ModTime()}
	}
	return out
}

// stampedFiles returns the names stamps holds.
func stampedFiles(stamps map[string]fileStamp) []string {
	names := make([]string, 0, len(stamps))
	for name := range stamps {
		names = append(names, name)
	}
	return names
}

func sameStamps(a, b map[string]fileStamp) bool {
	if len(a) != len(b) {
		return false
	}
	for name, s := range a {
		t, ok := b[name]
		if !ok || s.size != t.size || s.missing != t.missing || !s.modTime.Equal(t.modTime) {
			return false
		}
	}
	return true
}

// Close stops the polling that Config.Watch started and waits for it to
// end; the router goes on serving the documents it has. It is safe to call
// more than once, and does nothing when Watch is off. It returns nil.
func (r *OpenapiViewerRouter) Close() error {
	r.mu.Lock()
	stop, done := r.watch.stop, r.watch.done
	if stop != nil {
		select {
		case <-stop:
		default:
			close(stop)
		}
	}
	r.mu.Unlock()
	if done != nil {
		<-done
	}
	return nil
}
