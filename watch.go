package viewer

import (
	"log"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/internal/specdoc"
)

// watcher polls the documents' files for Config.Watch.
type watcher struct {
	stop     chan struct{} // closed by Close
	done     chan struct{} // closed when the polling goroutine has returned
	onReload func(error)   // called after each reload the watcher makes; nil logs failures
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
func (r *OpenapiViewerRouter) poll(interval time.Duration, stamps specdoc.Stamps, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		now := r.stamps(stamps.Files())
		if stamps.Same(now) {
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
		if name, ok := specdoc.UnreadFile(err); ok {
			stamps[name] = r.stamps([]string{name})[name]
		}
		switch {
		case r.watch.onReload != nil:
			r.watch.onReload(err)
		case err != nil:
			log.Printf("viewer: Config.Watch: keeping the previous documents: %s", strings.TrimPrefix(err.Error(), "viewer: "))
		}
	}
}

// stamps stamps files, read from Config.FS when it is set.
func (r *OpenapiViewerRouter) stamps(files []string) specdoc.Stamps {
	return specdoc.Stamp(r.cfg.FS, files)
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
