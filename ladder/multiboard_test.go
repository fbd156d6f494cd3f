package ladder

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay"
)

// TestUpdateMultiBoard rates a multi-board run's generations on one of
// its square boards, in a ladder of that board (DIR/ladder/NxN); without
// a board, or with one not in its list, Update says which it takes.
func TestUpdateMultiBoard(t *testing.T) {
	dir := t.TempDir()
	bs, err := selfplay.ParseBoardShares("4x4,5x4,6x6")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := json.Marshal(selfplay.DefaultMultiBoardConfig(bs))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	nc := net.DefaultMultiBoardConfig()
	nc.Filters, nc.Blocks, nc.ValueHidden = 4, 1, 4
	m, err := net.New(nc, 1)
	if err != nil {
		t.Fatal(err)
	}
	meta := m.Meta()
	meta.Boards = []rules.Board{{W: 4, H: 4}, {W: 5, H: 4, Start: rules.Gap}, {W: 6, H: 6}}
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	for _, g := range []int{1, 2} {
		if err := m.WithMeta(meta).Save(filepath.Join(dir, "models", runfiles.ModelName(g))); err != nil {
			t.Fatal(err)
		}
	}
	lc := testConfig(t)
	for _, board := range []int{0, 5, 8} {
		lc.Board = board
		_, err := Update(context.Background(), dir, lc, t.Logf)
		if err == nil || !strings.Contains(err.Error(), "give --board, one of its square boards (4x4, 6x6") {
			t.Errorf("board %d: %v", board, err)
		}
	}
	lc.Board = 4
	sum := update(t, dir, lc)
	if sum.Board != "4x4" || len(sum.Rated) != 2 {
		t.Errorf("summary: board %q, rated %v", sum.Board, sum.Rated)
	}
	if _, err := os.Stat(filepath.Join(dir, runfiles.LadderDir, "4x4", runfiles.RatingsFile)); err != nil {
		t.Errorf("no ratings of the 4x4 ladder: %v", err)
	}
}
