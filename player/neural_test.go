package player

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// smallModel writes a tiny random-weights network for size×size boards
// and returns its path.
func smallModel(t *testing.T, size int) string {
	t.Helper()
	m, err := net.New(net.Config{Size: size, Filters: 8, Blocks: 1, ValueHidden: 8}, uint64(size))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("tiny%d.safetensors", size))
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNeuralPlaysLegalMoves: a neural player with a random-weights net
// plays only legal moves on every size, limited by simulations or time.
func TestNeuralPlaysLegalMoves(t *testing.T) {
	games := 3
	if testing.Short() {
		games = 1
	}
	for size := rules.MinSize; size <= rules.MaxSize; size++ {
		path := smallModel(t, size)
		for _, settings := range []string{"sims=12", "time=3ms"} {
			f, err := NewFactory(mustSpec(t, "model:"+path+","+settings+",name=net"))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.CheckSize(size); err != nil {
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
	path := smallModel(t, 5)
	f, err := NewFactory(mustSpec(t, "model:"+path+",sims=4"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.CheckSize(6); err == nil || !strings.Contains(err.Error(), "the model plays 5x5, not 6x6") {
		t.Errorf("CheckSize(6): %v", err)
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
	if _, err := NewFactory(mustSpec(t, "model:"+filepath.Join(t.TempDir(), "missing.safetensors")+",sims=4")); err == nil || !strings.Contains(err.Error(), "missing.safetensors") {
		t.Errorf("missing model file: %v", err)
	}
}
