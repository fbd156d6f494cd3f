package ladder

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/runfiles"
)

func writeCSV(path string, rows [][]string) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(rows)
		return cw.Error()
	})
}

// fit rates every player of the kept games by Bradley–Terry (arena.FitElo)
// and returns the rows: anchors in the order given, then the other
// anchors that have games, then the generations.
func fit(s *store, anchors []string, anchor string, prior float64) ([]runfiles.Rating, error) {
	seen := map[string]bool{}
	var names []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	var others, gens []string
	for p := range s.pairs {
		for _, n := range []string{p.A, p.B} {
			if isGenerationName(n) {
				gens = append(gens, n)
			} else {
				others = append(others, n)
			}
		}
	}
	sort.Strings(others)
	sort.Strings(gens) // zero-padded: in generation order
	for _, n := range anchors {
		if seen[n] || contains(others, n) {
			add(n)
		}
	}
	for _, n := range others {
		add(n)
	}
	for _, n := range gens {
		add(n)
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	ai, ok := index[anchor]
	if !ok {
		return nil, fmt.Errorf("ladder: the anchor %s has played no game yet", anchor)
	}
	var pairs []arena.Pair
	for p, t := range s.pairs {
		pairs = append(pairs, arena.Pair{A: index[p.A], B: index[p.B], WinsA: t.WinsA, WinsB: t.WinsB})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].A != pairs[j].A {
			return pairs[i].A < pairs[j].A
		}
		return pairs[i].B < pairs[j].B
	})
	ratings, err := arena.FitElo(names, pairs, ai, prior)
	if err != nil {
		return nil, err
	}
	rows := make([]runfiles.Rating, len(names))
	for i, r := range ratings {
		g, isGen := runfiles.ParseGenDir(r.Name)
		rows[i] = runfiles.Rating{Player: r.Name, Generation: g, Anchor: !isGen, Elo: r.Elo, Low: r.Low, High: r.High, SE: r.SE,
			Games: r.Games, Wins: r.Wins, SelfplayGames: math.NaN(), Hours: math.NaN(), CPUHours: math.NaN(),
			SolverRate: math.NaN(), SolverLow: math.NaN(), SolverHigh: math.NaN(), SolverRandom: math.NaN()}
	}
	return rows, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
