package player

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenOpening plays plies random legal moves from the start of a
// size×size game, drawn with seed.
func goldenOpening(size, plies int, seed uint64) rules.Position {
	rng := rand.New(rand.NewPCG(seed, 0))
	p := rules.NewPosition(size)
	var buf [rules.MaxMoves]rules.Move
	for i := 0; i < plies && p.HasMoves(); i++ {
		moves := p.LegalMoves(buf[:0])
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	return p
}

// goldenGame plays black against white from p and writes the moves.
func goldenGame(t *testing.T, p rules.Position, black, white string, seed uint64) string {
	t.Helper()
	players := [2]Player{}
	for i, text := range []string{black, white} {
		var err error
		if players[i], err = mustFactory(t, text).New(seed + uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	var moves []rules.Move
	for p.HasMoves() {
		m, err := players[p.Turn].Move(t.Context(), p)
		if err != nil {
			t.Fatalf("%s after %v: %v", players[p.Turn].Name(), moves, err)
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	return fmt.Sprintf("%s %s %s wins: %s\n", black, white, p.Turn.Other(), rules.MovesText(moves))
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s: line %d:\ngot  %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: got %d lines, want %d", path, len(gl), len(wl))
	}
}

// goldenGames plays the games of kind at depths 1..maxDepth against each
// other and against greedy on 6x6 and 8x8, from seeded random openings.
func goldenGames(t *testing.T, kind string, maxDepth int) string {
	var b strings.Builder
	for _, size := range []int{6, 8} {
		for opening := range uint64(2) {
			p := goldenOpening(size, 4+int(opening)*2, 100*uint64(size)+opening)
			fmt.Fprintf(&b, "%dx%d opening %d\n", size, size, opening)
			for a := 1; a <= maxDepth; a++ {
				sa := fmt.Sprintf("%s:depth=%d", kind, a)
				for c := 1; c <= maxDepth; c++ {
					sc := fmt.Sprintf("%s:depth=%d", kind, c)
					b.WriteString(goldenGame(t, p, sa, sc, uint64(10*a+c)))
				}
				b.WriteString(goldenGame(t, p, sa, "greedy", uint64(a)))
				b.WriteString(goldenGame(t, p, "greedy", sa, uint64(a)))
			}
		}
	}
	return b.String()
}

// TestAlphaBetaGolden pins the games of the alphabeta:depth=N specs: their
// moves must not change when the engine's code does (-update rewrites).
func TestAlphaBetaGolden(t *testing.T) {
	maxDepth := 4
	if testing.Short() {
		maxDepth = 3
	}
	got := goldenGames(t, KindAlphaBeta, maxDepth)
	if testing.Short() {
		// The short run checks the games it played, a prefix of the file.
		want, err := os.ReadFile(filepath.Join("testdata", "alphabeta.golden"))
		if err != nil {
			t.Fatal(err)
		}
		checkLinesIn(t, got, string(want))
		return
	}
	checkGolden(t, "alphabeta.golden", got)
}

// TestPVSGolden pins the games of the pvs:depth=N specs likewise.
func TestPVSGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	checkGolden(t, "pvs.golden", goldenGames(t, KindPVS, 3))
}

// checkLinesIn fails unless every line of got is a line of want.
func checkLinesIn(t *testing.T, got, want string) {
	t.Helper()
	lines := map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		lines[l] = true
	}
	for _, l := range strings.Split(got, "\n") {
		if !lines[l] {
			t.Fatalf("testdata/alphabeta.golden has no line %q", l)
		}
	}
}

// TestAlphaBetaSearchGolden pins what an alpha-beta search reports (score,
// principal variation, nodes) on positions of the golden openings, one
// player searching them in turn, so that its table carries over as in a
// game.
func TestAlphaBetaSearchGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var b strings.Builder
	for _, size := range []int{6, 8} {
		a := NewAlphaBeta(0, 0, 7)
		for i := range uint64(4) {
			p := goldenOpening(size, 4+3*int(i), 1000+i)
			for d := 1; d <= 5; d++ {
				r := a.Search(t.Context(), p, d)
				fmt.Fprintf(&b, "%dx%d %d depth %d: %v nodes %d\n", size, size, i, d, r, r.Nodes)
			}
		}
	}
	checkGolden(t, "alphabeta-search.golden", b.String())
}
