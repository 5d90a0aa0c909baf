package raster

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// maxCachedCells bounds the cells of the selection indexes an [Exporter]
// keeps in memory (about 96 bytes each: 24 MiB); the least recently used
// are dropped beyond it, and read again from their files when next
// needed.
const maxCachedCells = 1 << 18

// indexCache keeps the selection indexes an Exporter loaded, by record
// directory and source identity, so that a create reads neither the
// source nor the index file: the first use of a record in a process
// reads its index file (written at catalog add, see WriteIndex), or
// builds the index from the source when there is none or it is of other
// data, and writes the file for the next process. An index is loaded once
// per key, also by concurrent callers. A source with too many cells for
// an index (errIndexTooLarge) is remembered as such. Safe for concurrent
// use.
type indexCache struct {
	mu      sync.Mutex
	entries map[string]*cachedIndex
	order   []string // keys, least recently used first
	cells   int      // of the loaded indexes in entries
}

// cachedIndex is one index, loaded or being loaded.
type cachedIndex struct {
	ready chan struct{} // closed once ix and err are set
	ix    *selectionIndex
	err   error
}

// load returns the selection index of rec's source src (opened by
// openSource, so unchanged since it was registered).
func (c *indexCache) load(ctx context.Context, rec catalog.Record, src *source) (*selectionIndex, error) {
	identity := indexIdentity(rec, src)
	key := rec.Location + "\x00" + identity
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cachedIndex{}
	}
	if e, ok := c.entries[key]; ok {
		c.touch(key)
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		if e.err == nil || errors.Is(e.err, errIndexTooLarge) {
			return e.ix, e.err
		}
		return loadIndex(ctx, rec, src, identity) // the first load failed; try on our own
	}
	e := &cachedIndex{ready: make(chan struct{})}
	c.entries[key] = e
	c.touch(key)
	c.mu.Unlock()

	e.ix, e.err = loadIndex(ctx, rec, src, identity)
	close(e.ready)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[key] != e {
		return e.ix, e.err
	}
	if e.err != nil && !errors.Is(e.err, errIndexTooLarge) {
		delete(c.entries, key)
		c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
		return e.ix, e.err
	}
	if e.ix != nil {
		c.cells += e.ix.cells()
	}
	for c.cells > maxCachedCells && len(c.order) > 1 {
		c.drop(c.order[0])
	}
	return e.ix, e.err
}

// touch makes key the most recently used. c.mu is held.
func (c *indexCache) touch(key string) {
	c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
	c.order = append(c.order, key)
}

// drop forgets key. c.mu is held.
func (c *indexCache) drop(key string) {
	if e := c.entries[key]; e != nil {
		select {
		case <-e.ready:
			if e.ix != nil {
				c.cells -= e.ix.cells()
			}
		default: // being loaded: its loader finds it gone and counts nothing
		}
	}
	delete(c.entries, key)
	c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
}

// loadIndex reads rec's index file when it is of src's identity, else
// builds the index from src and writes the file for later (a catalog that
// cannot take it, read-only say, only means that the next process builds
// the index again).
func loadIndex(ctx context.Context, rec catalog.Record, src *source, identity string) (*selectionIndex, error) {
	path := indexPath(rec)
	if ix, err := readIndexFile(path, identity); err == nil {
		if ix == nil {
			return nil, errIndexTooLarge
		}
		return ix, nil
	}
	ix, err := buildIndex(ctx, src, identity)
	if err != nil && !errors.Is(err, errIndexTooLarge) {
		return nil, err
	}
	if path != "" && path != src.path {
		_ = writeIndexFile(path, identity, ix)
	}
	return ix, err
}
