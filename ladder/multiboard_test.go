package ladder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay/selfplaytest"
)

// TestUpdateMultiBoard rates a multi-board run's generations on one of
// its boards, a square or a rectangle with the gap start, in a ladder of
// that board (DIR/ladder/WxH); without a board, or with one not in its
// list, Update says which it takes.
func TestUpdateMultiBoard(t *testing.T) {
	dir := selfplaytest.MultiBoardRun(t, "4x4,5x4,6x6", 1, 2)
	lc := testConfig(t)
	for _, board := range []rules.Board{{}, {W: 5, H: 5}, {W: 5, H: 4}, {W: 8, H: 8}} {
		lc.Board = board
		_, err := Update(context.Background(), dir, lc, t.Logf)
		if err == nil || !strings.Contains(err.Error(), "trains the boards 4x4,5x4,6x6: give --board, one of them") {
			t.Errorf("board %v: %v", board, err)
		}
	}
	for _, board := range []rules.Board{{W: 4, H: 4}, {W: 5, H: 4, Start: rules.Gap}} {
		lc.Board = board
		sum := update(t, dir, lc)
		folder := fmt.Sprintf("%dx%d", board.W, board.H)
		if sum.Board != folder || len(sum.Rated) != 2 {
			t.Errorf("summary: board %q, rated %v", sum.Board, sum.Rated)
		}
		if _, err := os.Stat(filepath.Join(dir, runfiles.LadderDir, folder, runfiles.RatingsFile)); err != nil {
			t.Errorf("no ratings of the %s ladder: %v", folder, err)
		}
		games, _ := filepath.Glob(filepath.Join(dir, runfiles.LadderDir, folder, "games", "*", "*.txt"))
		if len(games) == 0 {
			t.Fatalf("%s: no games kept", folder)
		}
		for _, f := range games {
			rec, err := rules.ReadRecordFile(f)
			if err != nil || rec.Board() != board {
				t.Errorf("%s: board %v, %v", f, rec.Board(), err)
			}
		}
		// A second update keeps every game and plays none.
		if again := update(t, dir, lc); again.Played != 0 || again.Kept != sum.Kept+sum.Played {
			t.Errorf("%s: the second update played %d, kept %d", folder, again.Played, again.Kept)
		}
	}
	// A model anchor: a multi-board model file plays the ladder's board; a
	// single-board one of another board is refused in one line.
	multi, err := player.ParseSpec("model:" + filepath.Join(dir, "models", runfiles.ModelName(1)) + ",sims=4,name=multi")
	if err != nil {
		t.Fatal(err)
	}
	lc.Anchors = append(lc.Anchors, multi)
	if sum := update(t, dir, lc); sum.Played == 0 {
		t.Errorf("the multi-board anchor played no game on 5x4")
	}
	single, err := player.ParseSpec("model:" + agenttest.TinyModelFile(t, 4) + ",sims=4,name=single")
	if err != nil {
		t.Fatal(err)
	}
	lc.Anchors = append(lc.Anchors, single)
	if _, err := Update(context.Background(), dir, lc, t.Logf); err == nil || !strings.Contains(err.Error(), "ladder: anchor single: the model plays 4x4, not 5x4") {
		t.Errorf("a 4x4 anchor on 5x4: %v", err)
	}
}

// TestUpdateWideBoard rates a multi-board run on a board above 8x8 (9x8,
// the gap start), and a second update reads the kept games back — their
// records are of the wide layout, which the reader of kept games refused.
func TestUpdateWideBoard(t *testing.T) {
	dir := selfplaytest.MultiBoardRun(t, "5x4,9x8", 1)
	lc := testConfig(t)
	lc.Games = 2
	lc.Board = rules.Board{W: 9, H: 8, Start: rules.Gap}
	sum := update(t, dir, lc)
	if sum.Board != "9x8" || sum.Played == 0 {
		t.Fatalf("summary: board %q, played %d", sum.Board, sum.Played)
	}
	if again := update(t, dir, lc); again.Played != 0 || again.Kept != sum.Kept+sum.Played {
		t.Errorf("the second update played %d, kept %d (first: played %d, kept %d)", again.Played, again.Kept, sum.Played, sum.Kept)
	}
}

// TestModelAnchorPointer: a model anchor given a run's models/latest (a
// pointer, not a model file) is the one line naming the model to give.
func TestModelAnchorPointer(t *testing.T) {
	dir := t.TempDir()
	latest := filepath.Join(dir, "latest")
	if err := os.WriteFile(latest, []byte("gen-000007.safetensors\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := modelAnchor(player.Spec{Name: "model:x", Model: latest}, rules.SquareBoard(6))
	want := "ladder: anchor model:x: " + latest + " is a training run's pointer to its newest model, not a model file: give that model, " + filepath.Join(dir, "gen-000007.safetensors")
	if err == nil || err.Error() != want {
		t.Errorf("modelAnchor(models/latest) = %v, want %q", err, want)
	}
}
