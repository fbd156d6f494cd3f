package gtp

import (
	"context"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/golden"
)

// TestGameGolden pins every answer of a whole 4x4 game played by genmove,
// with moves and take-backs after its end: the game's history (play,
// genmove, undo, showboard, the errors of a finished game) answers as
// testdata/game.golden says, byte for byte.
func TestGameGolden(t *testing.T) {
	es := agenttest.RunEngines(t)
	e := newEngine(t, es, 4)
	lines := []string{"boardsize 4", "clear_board"}
	for range 9 {
		lines = append(lines, "genmove b", "genmove w")
	}
	lines = append(lines,
		"showboard", "konane-legal_moves", "konane-eval", "konane-solve",
		"play b a1", "play w a1", "play white a1",
		"undo", "showboard", "konane-legal_moves", "konane-solve",
		"undo", "undo", "showboard",
		"play b d4", "play black a1-a3",
		"clear_board", "play b a1", "play w a2", "play b c1-a1", "undo", "undo", "undo", "undo",
		"showboard",
	)
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	var transcript strings.Builder
	for i, answer := range strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n") {
		transcript.WriteString(lines[i] + "\n" + answer + "\n\n")
	}
	golden.Check(t, "game.golden", []byte(transcript.String()))
}
