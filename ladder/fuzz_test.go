package ladder

import (
	"bytes"
	"context"
	"github.com/konanezero/konane/runfiles"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// seeds are files of the ladder's formats, for the fuzzers' corpora.
func seeds(f *testing.F) (game, critical, solver, ratings []byte) {
	root := f.TempDir()
	ctx := context.Background()
	cfg := arena.MatchConfig{Board: rules.SquareBoard(4), Games: 1, Parallel: 1, Seed: 1}
	s := &store{root: root, board: rules.SquareBoard(4), pairs: map[pairing]*tally{}}
	p := pairing{"random", "greedy"}
	cfg.OnGame = func(g arena.Game) error { return s.writeGame(p, cfg, g) }
	if _, err := arena.Run(ctx, cfg, []arena.Entrant{randomEntrant("random"), randomEntrant("greedy")}); err != nil {
		f.Fatal(err)
	}
	cs, err := arena.SampleCritical(ctx, arena.SampleConfig{Size: 4, Positions: 3, Seed: 1, Parallel: 1})
	if err != nil {
		f.Fatal(err)
	}
	if err := writeCritical(filepath.Join(root, criticalFile), 4, 1, cs); err != nil {
		f.Fatal(err)
	}
	check := map[string]*arena.CheckResult{"random": {Positions: 3, Kept: 1, Rate: 1. / 3, Low: 0.1, High: 0.8, RandomRate: 0.4}}
	if err := writeSolver(filepath.Join(root, runfiles.SolverFile), []string{"random"}, check); err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	rows := []runfiles.Rating{{Player: "random", Anchor: true, SelfplayGames: math.NaN(), Hours: math.NaN(), Games: 4, Wins: 1,
		SolverPositions: 3, SolverKept: 1, SolverRate: 1. / 3, SolverLow: 0.1, SolverHigh: 0.8, SolverRandom: 0.4},
		{Player: "gen-000002", Generation: 2, SelfplayGames: 24, Hours: 0.1, Elo: 120, Low: 20, High: 220, SE: 50, Games: 4, Wins: 3,
			SolverRate: math.NaN(), SolverLow: math.NaN(), SolverHigh: math.NaN(), SolverRandom: math.NaN()}}
	if err := runfiles.WriteRatings(&buf, rows); err != nil {
		f.Fatal(err)
	}
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	return read(filepath.Join(gamesDir, "random_vs_greedy", "00001.txt")), read(criticalFile), read(runfiles.SolverFile), buf.Bytes()
}

func randomEntrant(name string) arena.Entrant {
	return arena.NewEntrant(name, func(seed uint64) (player.Player, error) { return player.NewRandom(seed), nil })
}

func FuzzParseGame(f *testing.F) {
	game, _, _, _ := seeds(f)
	f.Add(game)
	f.Add(bytes.Replace(game, []byte("PlayerB"), []byte("PlayerC"), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := parseGame(data, rules.SquareBoard(4))
		if err != nil {
			return
		}
		if g.pairing.A == "" || g.pairing.A == g.pairing.B || g.index < 0 || g.index >= maxGames {
			t.Fatalf("accepted a game with pairing %+v, index %d", g.pairing, g.index)
		}
	})
}

func FuzzParseCritical(f *testing.F) {
	_, critical, _, _ := seeds(f)
	f.Add(critical)
	f.Add([]byte(`{"size":4,"positions":[{"board":"x","winning":[],"moves":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := parseCritical(data, 4)
		if err != nil {
			return
		}
		var buf [rules.MaxMoves]rules.Move
		for _, c := range cs {
			if len(c.Winning) == 0 || len(c.Winning) >= c.Moves || len(c.Position.LegalMoves(buf[:0])) != c.Moves {
				t.Fatalf("accepted a position that is not critical: %+v", c)
			}
			for _, m := range c.Winning {
				if !c.Position.Legal(m) {
					t.Fatalf("accepted the illegal winning move %v", m)
				}
			}
		}
		// What parses writes back the same.
		path := filepath.Join(t.TempDir(), "c.json")
		if err := writeCritical(path, 4, 0, cs); err != nil {
			t.Fatal(err)
		}
		data2, _ := os.ReadFile(path)
		again, err := parseCritical(data2, 4)
		if err != nil || len(again) != len(cs) {
			t.Fatalf("rewritten positions: %d, %v", len(again), err)
		}
	})
}

func FuzzParseSolver(f *testing.F) {
	_, _, solver, _ := seeds(f)
	f.Add(solver)
	f.Add([]byte("player,positions,kept,rate,ci_low,ci_high,random_rate\nx,1,2,,,,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseSolver(data)
		if err != nil {
			return
		}
		for name, r := range m {
			if name == "" || r.Kept > r.Positions || r.Positions < 1 {
				t.Fatalf("accepted %q: %+v", name, r)
			}
		}
		var names []string
		for n := range m {
			names = append(names, n)
		}
		sortNames(names)
		path := filepath.Join(t.TempDir(), "s.csv")
		if err := writeSolver(path, names, m); err != nil {
			t.Fatal(err)
		}
		data2, _ := os.ReadFile(path)
		if again, err := parseSolver(data2); err != nil || len(again) != len(m) {
			t.Fatalf("rewritten solver results: %d, %v", len(again), err)
		}
	})
}

func FuzzParseRatings(f *testing.F) {
	_, _, _, ratings := seeds(f)
	f.Add(ratings)
	f.Add([]byte("player\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := runfiles.ParseRatings(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := runfiles.WriteRatings(&buf, rows); err != nil {
			t.Fatal(err)
		}
		again, err := runfiles.ParseRatings(buf.Bytes())
		if err != nil || len(again) != len(rows) {
			t.Fatalf("rewritten ratings: %d rows, %v", len(again), err)
		}
		for i := range rows {
			if again[i].Player != rows[i].Player || again[i].Anchor != rows[i].Anchor || again[i].Games != rows[i].Games {
				t.Fatalf("row %d: %+v, then %+v", i, rows[i], again[i])
			}
		}
	})
}
