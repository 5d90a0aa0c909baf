// Package pacetest has an [export.Pacer] for tests of exporters: it
// counts the turns at CPU work an export takes and can refuse one, so a
// test can check that an exporter paces its work (see export.Pace).
package pacetest

import (
	"context"
	"errors"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// ErrRefused is the error of the turn a Pacer made by [Refusing] refuses.
var ErrRefused = errors.New("pacetest: turn refused")

// Pacer grants every turn at once and counts them; one made by Refusing
// refuses a turn. It is safe for concurrent use.
type Pacer struct {
	refuse int // the turn (1-based) refused; 0: none

	mu    sync.Mutex
	turns int // turns asked for
	held  int // turns granted and not ended
}

var _ export.Pacer = (*Pacer)(nil)

// New returns a Pacer that grants every turn.
func New() *Pacer { return &Pacer{} }

// Refusing returns a Pacer that grants n turns and refuses the next with
// ErrRefused (and grants those after).
func Refusing(n int) *Pacer { return &Pacer{refuse: n + 1} }

// Context returns a copy of ctx carrying p for export.Pace.
func (p *Pacer) Context(ctx context.Context) context.Context {
	return export.WithPacer(ctx, p)
}

// Turn grants a turn, or refuses the one Refusing names.
func (p *Pacer) Turn(ctx context.Context) (func(), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.turns++
	if p.turns == p.refuse {
		return nil, ErrRefused
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.held++
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.held--
		})
	}, nil
}

// Turns returns the turns asked for so far.
func (p *Pacer) Turns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.turns
}

// Held returns the turns granted and not yet ended.
func (p *Pacer) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}
