package arena

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

// runInto plays cfg into dir as konane arena --out does (Resume, each
// game kept as it ends, the tables at the end); with stopAfter > 0 the
// match stops after that many games played. It returns the games played.
func runInto(t *testing.T, dir string, cfg MatchConfig, specs []string, stopAfter int) (int, error) {
	t.Helper()
	entrants := factories(t, specs...)
	kept, err := Resume(dir, cfg, specs, specs)
	if err != nil {
		return 0, err
	}
	cfg.Kept = kept
	partial := &Results{Config: cfg, Names: specs}
	played := 0
	errStop := errors.New("stop")
	cfg.OnGame = func(g Game) error {
		played++
		if err := partial.SaveGame(dir, g); err != nil {
			return err
		}
		if played == stopAfter {
			return errStop
		}
		return nil
	}
	first, last := -1, -1
	cfg.Progress = func(done, total int) {
		if first < 0 {
			first = done
		}
		last = done
	}
	res, err := Run(context.Background(), cfg, entrants)
	if err != nil {
		return played, err
	}
	if total := cfg.Games * len(Pairings(len(specs), false)); len(kept) > 0 && first != len(kept) || last != total {
		t.Errorf("progress from %d to %d, want from the %d games kept to %d", first, last, len(kept), total)
	}
	return played, NewReport(res, 0, 1).SaveTables(dir)
}

// sameFiles fails unless dirs a and b hold the same files, byte for byte.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	n := 0
	filepath.WalkDir(a, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs (%v):\n%s\n---\n%s", rel, err, x, y)
		}
		n++
		return nil
	})
	m := 0
	filepath.WalkDir(b, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			m++
		}
		return err
	})
	if n != m || n == 0 {
		t.Errorf("%d files in %s, %d in %s", n, a, m, b)
	}
}

func TestResumeGivesTheUninterruptedResults(t *testing.T) {
	specs := []string{"random", "greedy", "alphabeta:depth=2"}
	for _, tc := range []struct {
		name string
		sprt *SPRT
	}{{"plain", nil}, {"sprt", &SPRT{Elo0: 0, Elo1: 200, Alpha: 0.1, Beta: 0.1}}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 10, Parallel: 1, RandomPlies: 2, Seed: 3, SPRT: tc.sprt}
			full := t.TempDir()
			played, err := runInto(t, full, cfg, specs, 0)
			if err != nil {
				t.Fatal(err)
			}
			part := t.TempDir()
			if _, err := runInto(t, part, cfg, specs, 7); err == nil || err.Error() != "stop" {
				t.Fatalf("a match stopped after 7 games: %v", err)
			}
			// Stopped again, then to the end.
			if n, err := runInto(t, part, cfg, specs, 5); err == nil || n != 5 {
				t.Fatalf("the second run played %d games before stopping: %v", n, err)
			}
			rest, err := runInto(t, part, cfg, specs, 0)
			if err != nil {
				t.Fatal(err)
			}
			if rest != played-12 {
				t.Errorf("the last run played %d games, want %d of %d", rest, played-12, played)
			}
			sameFiles(t, full, part)
			if tc.sprt != nil {
				data, _ := os.ReadFile(filepath.Join(full, "results.json"))
				if !bytes.Contains(data, []byte(`"decided_after"`)) || played == 30 {
					t.Errorf("no SPRT decided (%d games played): the test checks little\n%s", played, data)
				}
			}
		})
	}
}

func TestResumeRefuses(t *testing.T) {
	specs := []string{"random", "greedy"}
	cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 4, Parallel: 1, RandomPlies: 2, Seed: 3}
	dir := t.TempDir()
	if _, err := runInto(t, dir, cfg, specs, 2); err == nil {
		t.Fatal("the match did not stop")
	}
	other := cfg
	other.Seed = 4
	if _, err := Resume(dir, other, specs, specs); err == nil || !strings.Contains(err.Error(), "another match: seed 3, not 4") {
		t.Errorf("another seed: %v", err)
	}
	other = cfg
	other.Games = 6
	if _, err := Resume(dir, other, specs, specs); err == nil || !strings.Contains(err.Error(), "4 games per pair, not 6") {
		t.Errorf("other games per pair: %v", err)
	}
	if _, err := Resume(dir, cfg, []string{"random", "gr"}, []string{"random", "greedy"}); err == nil || !strings.Contains(err.Error(), "players") {
		t.Errorf("other names: %v", err)
	}
	kept, err := Resume(dir, cfg, specs, specs)
	if err != nil || len(kept) != 2 || kept[0].Index != 0 || kept[1].Index != 1 {
		t.Fatalf("kept %v: %v", kept, err)
	}

	// A game that does not parse, or is not the schedule's, is refused by name.
	bad := filepath.Join(dir, "games", "00002.txt")
	good, _ := os.ReadFile(bad)
	for _, data := range []string{"not a game", strings.Replace(string(good), `[Round "2"]`, `[Round "3"]`, 1),
		strings.Replace(string(good), `[Black "greedy"]`, `[Black "random"]`, 1)} {
		os.WriteFile(bad, []byte(data), 0o644)
		if _, err := Resume(dir, cfg, specs, specs); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v", data, err)
		}
	}
	os.WriteFile(bad, good, 0o644)

	// Games kept before match.json was: taken if they are the schedule's.
	os.Remove(filepath.Join(dir, MatchFile))
	other = cfg
	other.Seed = 4
	if _, err := Resume(dir, other, specs, specs); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "games")) {
		t.Errorf("games of another match without match.json: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, MatchFile)); err == nil {
		t.Error("match.json written for games that are not the match's")
	}
	if kept, err := Resume(dir, cfg, specs, specs); err != nil || len(kept) != 2 {
		t.Errorf("games without match.json: kept %d: %v", len(kept), err)
	}
	if _, err := Resume(dir, other, specs, specs); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Errorf("match.json not written back: %v", err)
	}

	// A folder without games takes another match.
	empty := t.TempDir()
	if _, err := Resume(empty, cfg, specs, specs); err != nil {
		t.Fatal(err)
	}
	if kept, err := Resume(empty, other, specs, specs); err != nil || len(kept) != 0 {
		t.Errorf("a folder without games refused another match: %v %v", kept, err)
	}
}

func TestRunRefusesKeptGamesOfAnotherSchedule(t *testing.T) {
	cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 2, Parallel: 1, RandomPlies: 2, Seed: 3}
	res, err := Run(context.Background(), cfg, factories(t, "random", "greedy"))
	if err != nil {
		t.Fatal(err)
	}
	g := res.Games[1]
	g.Index = 0 // colours swapped
	cfg.Kept = []Game{g}
	if _, err := Run(context.Background(), cfg, factories(t, "random", "greedy")); err == nil || !strings.Contains(err.Error(), "kept game 1") {
		t.Errorf("a kept game of the wrong colours: %v", err)
	}
	cfg.Kept = []Game{res.Games[0], res.Games[0]}
	if _, err := Run(context.Background(), cfg, factories(t, "random", "greedy")); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a game kept twice: %v", err)
	}
}
