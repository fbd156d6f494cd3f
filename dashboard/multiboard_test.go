package dashboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/runfiles"
)

// TestMultiBoardLadders: a multi-board run's ladders (DIR/ladder/WxH) are
// charted per board, their titles naming the board; the status sums up
// the first.
func TestMultiBoardLadders(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, runfiles.ConfigFile), []byte(`{"size": 0, "seed": 1, "games_per_gen": 64, "boards": ["6x6", "7x6", "8x8:2"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, board := range []string{"6x6", "8x8"} {
		writeRatings(t, dir, 2)
		sub := filepath.Join(dir, runfiles.LadderDir, board)
		os.MkdirAll(sub, 0o755)
		if err := os.Rename(filepath.Join(dir, runfiles.LadderDir, runfiles.RatingsFile), filepath.Join(sub, runfiles.RatingsFile)); err != nil {
			t.Fatal(err)
		}
	}
	h := New(os.DirFS(dir), Options{Name: "multi"})
	st := getStatus(t, h)
	if st.Ladder == nil || st.Ladder.Rated != 2 || len(st.Errors) != 0 {
		t.Errorf("status: ladder %+v, errors %v", st.Ladder, st.Errors)
	}
	per := map[string]int{}
	for _, c := range getCharts(t, h) {
		if board, _, ok := strings.Cut(c.Title, ": "); ok && strings.HasPrefix(c.ID, "ladder-") {
			per[board]++
		}
	}
	if per["6x6"] != 4 || per["8x8"] != 4 || len(per) != 2 {
		t.Errorf("ladder charts by board: %v, want 4 each of 6x6 and 8x8", per)
	}
}

// TestLadderBoards: the ladder directories of a run's boards come from
// the trainer's board-list parser (weights and starts dropped, WxH as the
// ladder names them); a board list it refuses is one error line in the
// status, not a silent skip.
func TestLadderBoards(t *testing.T) {
	dir := t.TempDir()
	write := func(boards string) {
		t.Helper()
		cfg := `{"size": 0, "seed": 1, "games_per_gen": 64, "boards": [` + boards + `]}`
		if err := os.WriteFile(filepath.Join(dir, runfiles.ConfigFile), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`"6x6", "7x6:3", "5x4/removal:2"`)
	got, err := ladderBoards(os.DirFS(dir))
	if err != nil || strings.Join(got, ",") != "6x6,7x6,5x4" {
		t.Errorf("ladderBoards = %v, %v; want 6x6,7x6,5x4", got, err)
	}
	write(`"6x6", "8x8:0"`)
	st := getStatus(t, New(os.DirFS(dir), Options{Name: "bad"}))
	if len(st.Errors) != 1 || !strings.Contains(st.Errors[0], "weight") || strings.Contains(st.Errors[0], "\n") {
		t.Errorf("status errors %q, want one line about the weight", st.Errors)
	}
	write(``)
	if got, err := ladderBoards(os.DirFS(dir)); got != nil || err != nil {
		t.Errorf("single-board run: ladderBoards = %v, %v", got, err)
	}
}
