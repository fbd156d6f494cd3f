package player

import (
	"context"
	"time"
)

// stopper says when a search under limits stops: once it has done max
// units of work (simulations, nodes, plies), or once its time is up,
// whichever comes first. One stopper serves every player of this package
// that takes a time limit (Analyze, UCT, Engine); a search checks it
// between units of its own choosing, and ctx's end on its own.
type stopper struct {
	start    time.Time
	deadline time.Time // zero: no time limit
	max      int       // 0: no limit on the work
}

// newStopper starts the clock: a search of at most max units (0: no
// limit) and at most limit of time (0 or less: no limit).
func newStopper(max int, limit time.Duration) stopper {
	s := stopper{start: time.Now(), max: max}
	if limit > 0 {
		s.deadline = s.start.Add(limit)
	}
	return s
}

// expired reports whether the time is up.
func (s stopper) expired() bool {
	return !s.deadline.IsZero() && !time.Now().Before(s.deadline)
}

// done reports whether a search that has done n units stops: its work is
// done or its time is up.
func (s stopper) done(n int) bool {
	return s.max > 0 && n >= s.max || s.expired()
}

// left estimates the units that a search that has done n units will still
// do: those that fit in the time left at its rate so far (unbounded
// without a time limit), and at most the work left.
func (s stopper) left(n int) float64 {
	left := float64(s.max - n)
	if !s.deadline.IsZero() {
		now := time.Now()
		byTime := float64(n) / max(now.Sub(s.start).Seconds(), 1e-9) * s.deadline.Sub(now).Seconds()
		if s.max <= 0 {
			return byTime
		}
		left = min(left, byTime)
	}
	return left
}

// context is ctx that also ends when the time is up, for a search that
// watches a context (Engine); call cancel once the search returns.
func (s stopper) context(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.deadline.IsZero() {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, s.deadline)
}
