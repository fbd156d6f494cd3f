// Package agenttest gives the tests of the packages built on agent (gtp,
// web, the konane commands) the engines and models they play with.
//
//	func TestSomething(t *testing.T) {
//		es := agenttest.RunEngines(t) // the shipped models, running until the test ends
//		e, err := es.Get(6)
//		...
//	}
package agenttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/nettest"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// RunEngines opens the engines of every shipped model and runs their
// evaluators until the test ends; an evaluator's error fails the test.
func RunEngines(t testing.TB) *agent.Engines {
	t.Helper()
	es, err := agent.OpenEngines("")
	if err != nil {
		t.Fatal(err)
	}
	return Run(t, es)
}

// RunMultiBoard is RunEngines with a multi-board model file trained on
// the boards given (MultiBoardModelFile).
func RunMultiBoard(t testing.TB, trained ...rules.Board) *agent.Engines {
	t.Helper()
	es, err := agent.OpenEngines(MultiBoardModelFile(t, trained...))
	if err != nil {
		t.Fatal(err)
	}
	return Run(t, es)
}

// RunTable is RunEngines with a table of networks in place of the
// shipped one (agent.EnginesOf): a tiny multi-board network trained on
// trained plays exactly the boards of rows.
func RunTable(t testing.TB, trained []rules.Board, rows ...rules.Board) *agent.Engines {
	t.Helper()
	data, err := os.ReadFile(MultiBoardModelFile(t, trained...))
	if err != nil {
		t.Fatal(err)
	}
	var table []models.Row
	for _, b := range rows {
		table = append(table, models.Row{Board: b, File: models.MultiFile})
	}
	es, err := agent.EnginesOf(models.NewSet(fstest.MapFS{models.MultiFile: {Data: data}}, table))
	if err != nil {
		t.Fatal(err)
	}
	return Run(t, es)
}

// Run runs the evaluators of es until the test ends and returns es; an
// evaluator's error fails the test.
func Run(t testing.TB, es *agent.Engines) *agent.Engines {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- es.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return es
}

// TinyModel returns a small network of random weights for size×size
// boards: quick to evaluate, for tests of what plays rather than how well.
func TinyModel(t testing.TB, size int) *net.Model {
	t.Helper()
	return nettest.TinyModel(t, size, 1)
}

// TinyModelFile saves TinyModel(t, size) in the test's temporary folder
// and returns the file's path.
func TinyModelFile(t testing.TB, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.safetensors")
	if err := TinyModel(t, size).Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// MultiBoardModelFile saves a small multi-board network of random
// weights that records trained as the boards it was trained on, in the
// test's temporary folder, and returns the file's path.
func MultiBoardModelFile(t testing.TB, trained ...rules.Board) string {
	t.Helper()
	m := nettest.TinyMultiBoardModel(t, 1)
	meta := m.Meta()
	meta.Boards = trained
	path := filepath.Join(t.TempDir(), "multi.safetensors")
	if err := m.WithMeta(meta).Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// Solved returns the winning and the losing moves of the side to move
// after moves on a size×size board, by the exact solver (a board it
// settles: 4x4, 5x5, late positions of larger ones).
func Solved(t testing.TB, size int, moves []string) (wins, loses []string) {
	t.Helper()
	g, err := rules.NewGame(size)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		if _, err := g.PlayString(m); err != nil {
			t.Fatal(err)
		}
	}
	res, err := solver.New().Analyze(context.Background(), g.Position())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Wins {
			wins = append(wins, r.Move.String())
		} else {
			loses = append(loses, r.Move.String())
		}
	}
	return wins, loses
}
