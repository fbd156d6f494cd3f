package player

import (
	"context"
	"testing"
	"time"
)

// TestStopper: work and time limits, whichever comes first; none given,
// none applies.
func TestStopper(t *testing.T) {
	s := newStopper(10, 0)
	if s.done(9) || !s.done(10) || s.expired() || s.left(4) != 6 {
		t.Errorf("work limit 10: done(9) %v done(10) %v expired %v left(4) %v", s.done(9), s.done(10), s.expired(), s.left(4))
	}
	if ctx, cancel := s.context(context.Background()); ctx != context.Background() {
		t.Error("no time limit, but the context has changed")
	} else {
		cancel()
	}
	s = newStopper(0, time.Nanosecond)
	time.Sleep(time.Millisecond)
	if !s.expired() || !s.done(0) || s.left(5) > 0 {
		t.Errorf("1ns: expired %v done %v left %v", s.expired(), s.done(0), s.left(5))
	}
	ctx, cancel := s.context(context.Background())
	defer cancel()
	if ctx.Err() == nil {
		t.Error("the context of an expired stopper has not ended")
	}
	s = newStopper(0, time.Hour)
	if s.done(1<<30) || s.expired() || s.left(100) < 1000 {
		t.Errorf("1h: done %v expired %v left %v", s.done(1<<30), s.expired(), s.left(100))
	}
}
