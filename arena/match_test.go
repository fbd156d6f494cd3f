package arena

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

func factories(t *testing.T, specs ...string) []Entrant {
	t.Helper()
	var out []Entrant
	for _, text := range specs {
		s, err := player.ParseSpec(text)
		if err != nil {
			t.Fatal(err)
		}
		f, err := player.NewFactory(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

func TestOpenings(t *testing.T) {
	for size := rules.MinSize; size <= rules.MaxSize; size++ {
		all := rules.Openings(size)
		lines, err := Openings(rules.SquareBoard(size), 2*len(all), 3, 9)
		if err != nil {
			t.Fatal(err)
		}
		pairs := map[[2]rules.Move]int{}
		distinct := map[string]bool{}
		for _, line := range lines {
			p := rules.NewPosition(size)
			for _, wm := range line {
				m := wm.Narrow()
				if !p.Legal(m) {
					t.Fatalf("%dx%d: line %v has an illegal move %v", size, size, line, m)
				}
				p = p.Play(m)
			}
			if !p.HasMoves() || len(line) < 2 || len(line) > 5 {
				t.Fatalf("%dx%d: line %v ends the game or has a wrong length", size, size, line)
			}
			pairs[[2]rules.Move{line[0].Narrow(), line[1].Narrow()}]++
			distinct[fmt.Sprint(line)] = true
		}
		// Every removal pair is used, each twice.
		if len(pairs) != len(all) {
			t.Errorf("%dx%d: %d removal pairs used of %d", size, size, len(pairs), len(all))
		}
		for pr, n := range pairs {
			if n != 2 {
				t.Errorf("%dx%d: removal pair %v used %d times, want 2", size, size, pr, n)
			}
		}
		if len(distinct) < len(lines)*3/4 {
			t.Errorf("%dx%d: only %d distinct lines of %d", size, size, len(distinct), len(lines))
		}
		again, _ := Openings(rules.SquareBoard(size), 10, 3, 9)
		if a, b := fmt.Sprint(again), fmt.Sprint(lines[:10]); a != b {
			t.Errorf("%dx%d: the same seed gave other lines", size, size)
		}
	}
}

// TestOpeningsEveryBoard: on rectangles and wide boards, gap and
// removal starts, the lines are legal from the board's start, leave a
// move, have the removals only where the start has them, and differ.
func TestOpeningsEveryBoard(t *testing.T) {
	for _, text := range []string{"7x6", "6x7", "8x7", "7x6/removal", "9x8", "11x8", "15x12", "16x16", "10x9/removal"} {
		b, err := rules.ParseBoard(text)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := Openings(b, 12, 4, 5)
		if err != nil {
			t.Fatal(err)
		}
		distinct := map[string]bool{}
		for _, line := range lines {
			g, err := rules.NewWideGame(b)
			if err != nil {
				t.Fatal(err)
			}
			removals := 0
			for _, m := range line {
				if err := g.Play(m); err != nil {
					t.Fatalf("%s: line %v: %v", b, line, err)
				}
				if m.IsRemoval() {
					removals++
				}
			}
			want := 2
			if b.Start == rules.Gap {
				want = 0
			}
			if g.Over() || removals != want || len(line) != want+4 {
				t.Errorf("%s: line %v: over %v, %d removals, want %d and 4 jumps", b, line, g.Over(), removals, want)
			}
			distinct[fmt.Sprint(line)] = true
		}
		if len(distinct) < 11 {
			t.Errorf("%s: %d distinct lines of 12", b, len(distinct))
		}
	}
}

func TestRunRoundRobin(t *testing.T) {
	entrants := factories(t, "random", "greedy", "alphabeta:depth=2")
	cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 6, Parallel: 2, RandomPlies: 2, Seed: 11}
	calls := 0
	cfg.Progress = func(done, total int) {
		calls++
		if done != calls || total != 18 {
			t.Errorf("progress(%d, %d) at call %d", done, total, calls)
		}
	}
	res, err := Run(context.Background(), cfg, entrants)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 3 || len(res.Games) != 18 || calls != 18 || res.Skipped != 0 {
		t.Fatalf("%d pairs, %d games, %d progress calls", len(res.Pairs), len(res.Games), calls)
	}
	black := map[[2]int]int{} // (pair, player) → games as Black
	for i, g := range res.Games {
		if g.Index != i {
			t.Errorf("game %d has index %d", i, g.Index)
		}
		// The record replays legally and agrees with the winner.
		rec, err := res.Record(g)
		if err != nil {
			t.Fatal(err)
		}
		final, err := rec.Final()
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if final.HasMoves() || final.Turn.Other() != g.Winner {
			t.Errorf("game %d: final position does not show %v winning", i, g.Winner)
		}
		if g.Forced < 2 || g.Forced > 4 {
			t.Errorf("game %d: %d forced moves", i, g.Forced)
		}
		black[[2]int{i % 3, g.Black}]++
		// Games 2k and 2k+1 of a pair share the opening line.
		if j := i + 3; j < len(res.Games) && (i/3)%2 == 0 {
			h := res.Games[j]
			if h.Line != g.Line || h.Black != g.White || fmt.Sprint(h.Moves[:h.Forced]) != fmt.Sprint(g.Moves[:g.Forced]) {
				t.Errorf("games %d and %d: not the same line with colours swapped", i, j)
			}
		}
	}
	for k, n := range black {
		if n != 3 {
			t.Errorf("pair %d: player %d had Black %d times, want 3", k[0], k[1], n)
		}
	}
	for _, p := range res.Pairs {
		if p.Games() != 6 {
			t.Errorf("pair %v played %d games", p, p.Games())
		}
	}
	if d := res.Distinct(); d < 1 || d > 18 {
		t.Errorf("distinct = %d", d)
	}
	// The same seed gives the same games, whatever the parallelism.
	cfg.Parallel, cfg.Progress = 1, nil
	again, err := Run(context.Background(), cfg, entrants)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Games {
		if fmt.Sprint(res.Games[i]) != fmt.Sprint(again.Games[i]) {
			t.Fatalf("game %d differs between runs with the same seed", i)
		}
	}
}

func TestRunGauntletAndSPRT(t *testing.T) {
	entrants := factories(t, "random", "alphabeta:depth=3", "greedy")
	sprt := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	cfg := MatchConfig{Board: rules.SquareBoard(6), Games: 200, Parallel: 1, Gauntlet: true, RandomPlies: 1, Seed: 5, SPRT: &sprt}
	res, err := Run(context.Background(), cfg, entrants)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 2 || res.Pairs[0].A != 0 || res.Pairs[1].A != 0 {
		t.Fatalf("gauntlet pairs %+v", res.Pairs)
	}
	for _, p := range res.Pairs {
		if p.Decision != AcceptH1 {
			t.Errorf("%s against random: %v after %d-%d", res.Names[p.B], p.Decision, p.WinsB, p.WinsA)
		}
		if p.Games() > 100 {
			t.Errorf("%s against random: the SPRT did not stop the pair early (%d games)", res.Names[p.B], p.Games())
		}
	}
	if res.Skipped+len(res.Games) != 400 || res.Skipped < 200 {
		t.Errorf("%d skipped, %d played", res.Skipped, len(res.Games))
	}
}

// fake is an entrant whose players misbehave on demand.
type fake struct {
	name    string
	illegal bool
	fail    error
	runs    *atomic.Int32
}

func (f fake) Name() string { return f.name }
func (f fake) New(seed uint64) (player.Player, error) {
	return fakePlayer{f, player.NewRandom(seed)}, nil
}
func (f fake) Run(ctx context.Context) error {
	if f.runs == nil {
		return nil
	}
	f.runs.Add(1)
	<-ctx.Done()
	f.runs.Add(1)
	return ctx.Err()
}

type fakePlayer struct {
	fake
	r *player.Random
}

func (p fakePlayer) Move(ctx context.Context, pos rules.Position) (rules.Move, error) {
	switch {
	case p.fail != nil && pos.Phase() == rules.Jumping:
		return rules.NoMove, p.fail
	case p.illegal && pos.Phase() == rules.Jumping:
		return rules.Move{From: 0, To: 63}, nil
	}
	return p.r.Move(ctx, pos)
}

func TestNewEntrant(t *testing.T) {
	seeds := map[uint64]bool{}
	e := NewEntrant("r", func(seed uint64) (player.Player, error) {
		seeds[seed] = true
		return player.NewRandom(seed), nil
	})
	res, err := Run(context.Background(), MatchConfig{Board: rules.SquareBoard(4), Games: 4, Parallel: 1}, []Entrant{e, factories(t, "greedy")[0]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Names[0] != "r" || len(seeds) != 4 {
		t.Errorf("names %v, %d different seeds for 4 games", res.Names, len(seeds))
	}
}

func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	// One game at a time, so that the first failing game is game 1 (the
	// misbehaving player has White there).
	cfg := MatchConfig{Board: rules.SquareBoard(4), Games: 2, Parallel: 1, Seed: 1}
	tests := []struct {
		name     string
		cfg      MatchConfig
		entrants []Entrant
		want     string
	}{
		{"player error", cfg, []Entrant{fake{name: "x"}, fake{name: "bad", fail: boom}}, "arena: bad (white) at move 4: boom (game 1)"},
		{"illegal", cfg, []Entrant{fake{name: "x"}, fake{name: "cheat", illegal: true}}, "arena: cheat (white) played the illegal move a1-h8 at move 4 (game 1)"},
		{"same names", cfg, []Entrant{fake{name: "x"}, fake{name: "x"}}, `two players are named "x"`},
		{"one player", cfg, []Entrant{fake{name: "x"}}, "at least 2 players"},
		{"board", MatchConfig{Board: rules.Board{W: 17, H: 8}, Games: 2, Parallel: 1}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "17 files: want 4..16"},
		{"gap on a square", MatchConfig{Board: rules.Board{W: 6, H: 6, Start: rules.Gap}, Games: 2, Parallel: 1}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "the gap start needs"},
		{"games", MatchConfig{Board: rules.SquareBoard(4), Games: 0, Parallel: 1}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "0 games per pair"},
		{"parallel", MatchConfig{Board: rules.SquareBoard(4), Games: 1, Parallel: 0}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "0 parallel games"},
		{"too many games", MatchConfig{Board: rules.SquareBoard(4), Games: math.MaxInt, Parallel: 1}, []Entrant{fake{name: "x"}, fake{name: "y"}, fake{name: "z"}}, "games per pair: want at most 349525 with 3 players (1048576 games in all)"},
		{"random plies", MatchConfig{Board: rules.SquareBoard(4), Games: 1, Parallel: 1, RandomPlies: 17}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "17 random plies: want 0..16 on 4x4"},
		{"negative random plies", MatchConfig{Board: rules.SquareBoard(4), Games: 1, Parallel: 1, RandomPlies: -1}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "-1 random plies"},
		{"sprt", MatchConfig{Board: rules.SquareBoard(4), Games: 1, Parallel: 1, SPRT: &SPRT{Elo0: 5, Elo1: 1, Alpha: .05, Beta: .05}}, []Entrant{fake{name: "x"}, fake{name: "y"}}, "elo1 (1) must be greater"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.cfg, tt.entrants)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
		if tt.name == "player error" && !errors.Is(err, boom) {
			t.Errorf("player error does not wrap the player's error: %v", err)
		}
	}
}

func TestRunRunsEntrants(t *testing.T) {
	var runs atomic.Int32
	cfg := MatchConfig{Board: rules.SquareBoard(4), Games: 4, Parallel: 2, Seed: 1}
	if _, err := Run(context.Background(), cfg, []Entrant{fake{name: "x", runs: &runs}, fake{name: "y"}}); err != nil {
		t.Fatal(err)
	}
	if runs.Load() != 2 {
		t.Errorf("the entrant's Run was started and stopped %d times in all, want 1 each", runs.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, cfg, []Entrant{fake{name: "x"}, fake{name: "y"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled match: %v", err)
	}
}

// TestRunSkipResumes checks that a match resumed with Skip plays exactly
// the games an uninterrupted match plays that were not kept.
func TestRunSkipResumes(t *testing.T) {
	ctx := context.Background()
	cfg := MatchConfig{Board: rules.SquareBoard(5), Games: 8, Parallel: 2, RandomPlies: 2, Seed: 7}
	full, err := Run(ctx, cfg, factories(t, "random", "greedy"))
	if err != nil {
		t.Fatal(err)
	}
	kept := map[int]bool{0: true, 3: true, 4: true}
	cfg.Skip = func(i int) bool { return kept[i] }
	done := 0
	cfg.Progress = func(d, total int) { done = d }
	rest, err := Run(ctx, cfg, factories(t, "random", "greedy"))
	if err != nil {
		t.Fatal(err)
	}
	if done != cfg.Games {
		t.Errorf("progress reached %d of %d", done, cfg.Games)
	}
	if len(rest.Games) != cfg.Games-len(kept) || rest.Skipped != 0 || rest.Pairs[0].Games() != len(rest.Games) {
		t.Fatalf("resumed match: %d games, %d skipped, pair %+v; want %d games", len(rest.Games), rest.Skipped, rest.Pairs[0], cfg.Games-len(kept))
	}
	byIndex := map[int]Game{}
	for _, g := range full.Games {
		byIndex[g.Index] = g
	}
	for _, g := range rest.Games {
		if kept[g.Index] {
			t.Errorf("game %d was kept but played again", g.Index)
		}
		if want := byIndex[g.Index]; g.Key() != want.Key() || g.Winner != want.Winner {
			t.Errorf("game %d differs from the uninterrupted match's", g.Index)
		}
	}
	if rest.Config.Skip != nil {
		t.Error("Results.Config keeps the Skip function")
	}
}

// TestRunEveryBoard: short matches of pvs against greedy on a rectangle
// (7x6, gap start), a wide board (9x8) and a removal rectangle give
// legal games whose saved records name the board and its start and
// replay to the same winner; a player that plays only Position's boards
// is refused on a wide board in one line.
func TestRunEveryBoard(t *testing.T) {
	for _, text := range []string{"7x6", "9x8", "8x7/removal"} {
		b, err := rules.ParseBoard(text)
		if err != nil {
			t.Fatal(err)
		}
		cfg := MatchConfig{Board: b, Games: 2, Parallel: 2, RandomPlies: 2, Seed: 3}
		res, err := Run(context.Background(), cfg, factories(t, "pvs:depth=2", "greedy"))
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if len(res.Games) != 2 || !strings.HasPrefix(cfg.Describe(2), "arena: "+text+", ") {
			t.Fatalf("%s: %d games, %q", b, len(res.Games), cfg.Describe(2))
		}
		dir := t.TempDir()
		if err := NewReport(res, 0, 1).Save(dir); err != nil {
			t.Fatal(err)
		}
		for _, g := range res.Games {
			rec, err := rules.ReadRecordFile(fmt.Sprintf("%s/games/%05d.txt", dir, g.Index+1))
			if err != nil {
				t.Fatalf("%s: game %d: %v", b, g.Index+1, err)
			}
			if rec.Board() != b || rec.Len() != len(g.Moves) {
				t.Errorf("%s: game %d: the record's board is %s with %d moves, want %d", b, g.Index+1, rec.Board(), rec.Len(), len(g.Moves))
			}
			wg, err := rec.WideGame()
			if err != nil {
				t.Fatalf("%s: game %d: %v", b, g.Index+1, err)
			}
			if w, ok := wg.Winner(); !ok || w != g.Winner || !wg.Over() {
				t.Errorf("%s: game %d: the record replays to winner %v (over %v), want %v", b, g.Index+1, w, ok, g.Winner)
			}
			text, err := rec.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(text), fmt.Sprintf("[Board \"%dx%d\"]", b.W, b.H)) {
				t.Errorf("%s: the record does not name its board:\n%s", b, text)
			}
		}
	}
	b, _ := rules.ParseBoard("9x8")
	_, err := Run(context.Background(), MatchConfig{Board: b, Games: 2, Parallel: 1}, factories(t, "pvs:depth=2", "mcts:sims=10"))
	if err == nil || !strings.Contains(err.Error(), "a mcts player plays boards of at most 8 files and ranks, not 9x8") {
		t.Errorf("mcts on 9x8: %v", err)
	}
}
