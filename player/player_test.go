package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/rules/rulestest"
)

// classicSpecs are cheap settings of every classic kind.
var classicSpecs = []string{
	"random",
	"greedy",
	"alphabeta:depth=2",
	"alphabeta:time=2ms",
	"mcts:sims=30",
	"perfect", // on sizes 4 and 5 only (see TestPerfectWinsWonPositions)
}

// playGame plays one game between two players from the start, failing the
// test on an illegal move or an error, and returns the winner and moves.
func playGame(t *testing.T, size int, black, white Player) (rules.Color, []rules.Move) {
	t.Helper()
	ctx := context.Background()
	p := rules.NewPosition(size)
	var moves []rules.Move
	for p.HasMoves() {
		pl := black
		if p.Turn == rules.White {
			pl = white
		}
		m, err := pl.Move(ctx, p)
		if err != nil {
			t.Fatalf("%s on %dx%d after %v: %v", pl.Name(), size, size, moves, err)
		}
		if !p.Legal(m) {
			t.Fatalf("%s on %dx%d after %v played illegal move %v", pl.Name(), size, size, moves, m)
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	return p.Turn.Other(), moves
}

func TestPlayersPlayOnlyLegalMoves(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for _, text := range classicSpecs {
		f := mustFactory(t, text)
		t.Run(text, func(t *testing.T) {
			for size := rules.MinSize; size <= rules.MaxSize; size++ {
				if f.spec.Kind == KindPerfect && size > 5 {
					break
				}
				for g := 0; g < games; g++ {
					a, _ := f.New(uint64(2 * g))
					b, _ := f.New(uint64(2*g + 1))
					// Against a random player too, to reach varied positions.
					r := NewRandom(uint64(g))
					playGame(t, size, a, b)
					playGame(t, size, a, r)
					playGame(t, size, r, a)
				}
			}
		})
	}
}

func TestPlayersNoMovesAndCancel(t *testing.T) {
	over := rules.NewPosition(4)
	// Two lone Black stones and Black to move: no jump for anyone.
	over.Black, over.White = rules.SquareAt(0, 0).Bit()|rules.SquareAt(3, 3).Bit(), 0
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, text := range classicSpecs {
		p, _ := mustFactory(t, text).New(1)
		if _, err := p.Move(context.Background(), over); !errors.Is(err, ErrNoMoves) {
			t.Errorf("%s on a finished game: err = %v, want ErrNoMoves", text, err)
		}
		if _, err := p.Move(cancelled, rules.NewPosition(6)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", text, err)
		}
	}
}

// TestSameSeedSameGame: players with the same seed play the same game.
func TestSameSeedSameGame(t *testing.T) {
	for _, text := range []string{"random", "greedy", "alphabeta:depth=3", "mcts:sims=50"} {
		f := mustFactory(t, text)
		game := func() string {
			a, _ := f.New(7)
			b, _ := f.New(8)
			_, moves := playGame(t, 6, a, b)
			return fmt.Sprint(moves)
		}
		if g1, g2 := game(), game(); g1 != g2 {
			t.Errorf("%s: same seeds gave different games:\n%s\n%s", text, g1, g2)
		}
	}
}

// randomPositions returns the positions of n random games (removals
// included), seeded.
func randomPositions(size, n int, seed uint64) []rules.Position {
	return rulestest.Games(rand.New(rand.NewPCG(seed, 1)), size, n)
}

// TestAlphaBetaSolvesSmallBoards: searched without limit, alpha-beta
// proves the same result as plain negamax, its PV is legal and its win
// distance matches the PV length.
func TestAlphaBetaSolvesSmallBoards(t *testing.T) {
	memo := map[rules.Position]bool{}
	for _, size := range []int{4, 5} {
		ab := NewAlphaBeta(0, 0, 1)
		for _, p := range randomPositions(size, 15, uint64(size)) {
			if size == 5 && p.Phase() != rules.Jumping {
				continue // the full 5x5 tree from the start is slow for plain negamax
			}
			res := ab.Search(context.Background(), p, 0)
			solved, wins, plies := res.Solved()
			if !solved {
				t.Fatalf("%dx%d %+v: not solved: %v", size, size, p, res)
			}
			if want := rulestest.Wins(p, memo); wins != want {
				t.Fatalf("%dx%d %+v: alpha-beta says win=%v, negamax %v (%v)", size, size, p, wins, want, res)
			}
			q := p
			for _, m := range res.PV {
				if !q.Legal(m) {
					t.Fatalf("%dx%d: illegal PV move %v in %v", size, size, m, res)
				}
				q = q.Play(m)
			}
			if len(res.PV) == plies && q.HasMoves() {
				t.Fatalf("%dx%d: full PV %v does not end the game", size, size, res)
			}
		}
	}
}

// TestAlphaBetaDepthOneIsGreedy: a depth-1 search scores each move by the
// evaluation of the position it leads to, as Greedy does.
func TestAlphaBetaDepthOneIsGreedy(t *testing.T) {
	for _, p := range randomPositions(6, 3, 9) {
		if p.Phase() != rules.Jumping {
			continue
		}
		res := NewAlphaBeta(1, 0, 1).Search(context.Background(), p, 1)
		var buf [rules.MaxMoves]rules.Move
		best := -infinity
		for _, m := range p.LegalMoves(buf[:0]) {
			c := p.Play(m)
			s := -Evaluate(c)
			if !c.HasMoves() {
				s = WinScore - 1
			}
			best = max(best, s)
		}
		if res.Score != best {
			t.Fatalf("%+v: depth-1 score %d, want %d", p, res.Score, best)
		}
	}
}

func TestAlphaBetaTimeLimit(t *testing.T) {
	ab := NewAlphaBeta(0, 30*time.Millisecond, 1)
	p := rules.Openings(8)[0].Position
	start := time.Now()
	m, err := ab.Move(context.Background(), p)
	if err != nil || !p.Legal(m) {
		t.Fatalf("move %v, err %v", m, err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("a 30ms move took %v", el)
	}
}

func TestGreedyTakesAWin(t *testing.T) {
	// White to move on 4x4 can jump into the last hole and leave Black
	// with nothing: find such positions in random games and check.
	found := 0
	for _, p := range randomPositions(4, 40, 3) {
		var buf [rules.MaxMoves]rules.Move
		for _, m := range p.LegalMoves(buf[:0]) {
			c := p.Play(m)
			if c.Phase() == rules.Jumping && !c.HasMoves() {
				found++
				for seed := uint64(0); seed < 4; seed++ {
					g, _ := NewGreedy(seed).Move(context.Background(), p)
					if c := p.Play(g); c.HasMoves() {
						t.Fatalf("greedy missed the win %v in %+v, played %v", m, p, g)
					}
				}
				break
			}
		}
	}
	if found == 0 {
		t.Fatal("no winning move found to test")
	}
}

// TestStrengthOrder: on 6x6, alpha-beta beats greedy and greedy beats
// random most of the time, and pure MCTS beats random.
func TestStrengthOrder(t *testing.T) {
	games := 10
	cases := []struct{ strong, weak string }{
		{"greedy", "random"},
		{"alphabeta:depth=3", "greedy"},
		{"mcts:sims=200", "random"},
	}
	for _, c := range cases {
		fs, fw := mustFactory(t, c.strong), mustFactory(t, c.weak)
		wins := 0
		for g := 0; g < games; g++ {
			s, err := fs.New(uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			w, err := fw.New(uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			if g%2 == 0 {
				if winner, _ := playGame(t, 6, s, w); winner == rules.Black {
					wins++
				}
			} else if winner, _ := playGame(t, 6, w, s); winner == rules.White {
				wins++
			}
		}
		if wins < games*6/10 {
			t.Errorf("%s won only %d of %d games against %s", c.strong, wins, games, c.weak)
		}
	}
}

// mustFactory is the factory of the spec text, failing t if the text is
// not a spec or the spec makes no factory.
func mustFactory(t *testing.T, text string) *Factory {
	t.Helper()
	f, err := NewFactory(mustSpec(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustSpec(t *testing.T, text string) Spec {
	t.Helper()
	s, err := ParseSpec(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
