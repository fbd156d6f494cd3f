package player

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/rules"
)

// tinyNet is a network of random weights for size×size boards, with its
// evaluator, as agent.Engine makes one from a model file.
type tinyNet struct {
	*net.Evaluator
	size int
}

func (n tinyNet) Size() int { return n.size }

func newTinyNet(t *testing.T, size int) tinyNet {
	t.Helper()
	ev, err := net.NewEvaluator(nettest.TinyModel(t, size, uint64(size)), net.EvalOptions{Batch: 16, CacheSize: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	return tinyNet{ev, size}
}

// TestNeuralPlaysLegalMoves: a neural player with a random-weights net
// plays only legal moves on every size, limited by simulations or time.
func TestNeuralPlaysLegalMoves(t *testing.T) {
	games := 3
	if testing.Short() {
		games = 1
	}
	for size := rules.MinSize; size <= rules.MaxSize; size++ {
		for _, limits := range []Limits{{Sims: 12}, {Time: 3 * time.Millisecond}} {
			f, err := NewNeuralFactory("net", newTinyNet(t, size), mcts.DefaultConfig(), limits)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.CheckBoard(rules.SquareBoard(size)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- f.Run(ctx) }()
			for g := 0; g < games; g++ {
				a, err := f.New(uint64(g))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := f.New(uint64(g + 100))
				r := NewRandom(uint64(g))
				playGame(t, size, a, r)
				playGame(t, size, r, b)
				playGame(t, size, a, b)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("%dx%d: evaluator: %v", size, size, err)
			}
		}
	}
}

func TestNeuralErrors(t *testing.T) {
	f, err := NewNeuralFactory("net", newTinyNet(t, 5), mcts.DefaultConfig(), Limits{Sims: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CheckBoard(rules.SquareBoard(6)); err == nil || !strings.Contains(err.Error(), "the model plays 5x5, not 6x6") {
		t.Errorf("CheckBoard(6x6): %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Run(ctx)
	p, _ := f.New(1)
	if _, err := p.Move(ctx, rules.Openings(6)[0].Position); err == nil || !strings.Contains(err.Error(), "not 6x6") {
		t.Errorf("move on 6x6 with a 5x5 model: %v", err)
	}
	// A cancelled context while searching is an error, not a move.
	short, stop := context.WithTimeout(ctx, time.Nanosecond)
	defer stop()
	<-short.Done()
	if _, err := p.Move(short, rules.Openings(5)[0].Position); err == nil {
		t.Error("move with an expired context: no error")
	}
	if _, err := NewNeuralFactory("net", newTinyNet(t, 5), mcts.DefaultConfig(), Limits{}); err == nil {
		t.Error("a neural factory without limits: no error")
	}
	if _, err := NewFactory(mustSpec(t, "model:x.safetensors,sims=4")); err == nil || !strings.Contains(err.Error(), "needs its network") {
		t.Errorf("NewFactory of a model spec: %v", err)
	}
}

// TestLimitsValidate: Validate names the limit out of range in a
// LimitsError, and refuses limits without any limit.
func TestLimitsValidate(t *testing.T) {
	for _, tc := range []struct {
		l     Limits
		field string
		ok    bool
	}{
		{Limits{Sims: 1}, "", true},
		{Limits{Time: time.Second}, "", true},
		{Limits{}, "", false},
		{Limits{Sims: -1}, "sims", false},
		{Limits{Sims: MaxSims + 1, Time: time.Second}, "sims", false},
		{Limits{Sims: 5, Time: -time.Second}, "time", false},
		{Limits{Time: MaxTime + 1}, "time", false},
	} {
		err := tc.l.Validate()
		var le *LimitsError
		switch {
		case tc.ok && err != nil, !tc.ok && !errors.As(err, &le):
			t.Errorf("%+v: %v", tc.l, err)
		case !tc.ok && le.Field != tc.field:
			t.Errorf("%+v: field %q, want %q (%v)", tc.l, le.Field, tc.field, err)
		}
	}
}
