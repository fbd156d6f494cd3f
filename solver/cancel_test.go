package solver

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
)

// countdownCtx is a context whose Err turns to context.Canceled after a
// given number of calls: it cancels a search at a reproducible node.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func newCountdownCtx(calls int64) *countdownCtx {
	c := &countdownCtx{Context: context.Background()}
	c.left.Store(calls)
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := New()
	p := rules.NewPosition(4)
	if _, err := s.Solve(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve: error %v, want context.Canceled", err)
	}
	if _, err := s.Analyze(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze: error %v, want context.Canceled", err)
	}
	if _, _, err := s.WinningMove(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("WinningMove: error %v, want context.Canceled", err)
	}
	if _, err := s.SolveStart(ctx, 4, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("SolveStart: error %v, want context.Canceled", err)
	}
}

func TestDeadlineStopsLongSearch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := New(WithTableEntries(1<<16)).Solve(ctx, rules.NewPosition(8))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
	if el := time.Since(began); el > 5*time.Second {
		t.Errorf("the search stopped %v after its start, long after its 50ms deadline", el)
	}
}

// A search cancelled halfway must leave nothing wrong in the table: the
// same Solver then gives the same answers as a fresh one.
func TestCancelledSearchLeavesTableExact(t *testing.T) {
	// Find positions that take from 4 to 16 cancellation checks to solve
	// (a countdown context stops the search of larger ones early).
	var hard []rules.Position
	for _, p := range randomPositions(6, 100, 6, 12, 11) {
		fresh := New(WithTableEntries(1 << 18))
		if _, err := fresh.Solve(newCountdownCtx(17), p); err == nil && fresh.Stats().Nodes > 4*checkEvery {
			hard = append(hard, p)
		}
		if len(hard) == 3 {
			break
		}
	}
	if len(hard) == 0 {
		t.Fatal("no position found that takes long enough to cancel")
	}
	for i, p := range hard {
		s := New(WithTableEntries(1 << 18))
		if _, err := s.Solve(newCountdownCtx(3), p); !errors.Is(err, context.Canceled) {
			t.Fatalf("position %d: error %v, want context.Canceled", i, err)
		}
		results, err := s.Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := New(WithTableEntries(1<<18)).Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			if results[j] != want[j] {
				t.Fatalf("position %d: after a cancelled search, %v wins = %v; a fresh solver says %v", i, results[j].Move, results[j].Wins, want[j].Wins)
			}
		}
	}
}
