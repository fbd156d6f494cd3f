package player

import (
	"context"
	"flag"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

var (
	diagPositions = flag.Int("diag.positions", 0, "TestPVSDiagnose: number of 8x8 middle-game positions (0: skip)")
	diagTime      = flag.Duration("diag.time", 500*time.Millisecond, "TestPVSDiagnose: time per search")
	diagGames     = flag.String("diag.games", "", "TestPVSLosses: a folder of arena game records (empty: skip)")
	diagPlayer    = flag.String("diag.player", "pvs", "TestPVSLosses: the player (name prefix) whose lost games are examined")
	diagSolve     = flag.Duration("diag.solve", 5*time.Second, "TestPVSLosses: the solver's time per position")
)

// TestPVSDiagnose compares PVS with AlphaBeta on the same 8x8 middle-game
// positions at the same time per search: depth completed, nodes per
// second, and for PVS the table's hit rate, the share of beta cutoffs by
// the first move and the effective branching factor (nodes of the last
// completed iteration over those of the one before):
//
//	go test ./player -run TestPVSDiagnose -v -diag.positions 30 -diag.time 500ms
func TestPVSDiagnose(t *testing.T) {
	if *diagPositions == 0 {
		t.Skip("-diag.positions not set")
	}
	var pvsNodes, abNodes uint64
	var pvsTime, abTime time.Duration
	var pvsDepths, abDepths []int
	var probes, hits, ttCuts, cuts, first uint64
	var ebfs []float64
	for i, p := range middleGame(*diagPositions) {
		e := NewPVS(0, *diagTime, uint64(i))
		start := time.Now()
		r := e.Search(context.Background(), p, 0)
		pvsTime += time.Since(start)
		pvsNodes += r.Nodes
		s := e.stats
		probes, hits, ttCuts, cuts, first = probes+s.probes, hits+s.hits, ttCuts+s.ttCuts, cuts+s.cuts, first+s.firstCuts
		d := r.Depth
		if solved, _, _ := r.Solved(); solved {
			d = 99
		}
		pvsDepths = append(pvsDepths, d)
		if d := r.Depth; d >= 4 && s.iterNodes[d-1] > s.iterNodes[d-2] && s.iterNodes[d] > 0 {
			ebfs = append(ebfs, float64(s.iterNodes[d]-s.iterNodes[d-1])/float64(s.iterNodes[d-1]-s.iterNodes[d-2]))
		}

		ab := NewAlphaBeta(0, 0, uint64(i))
		ctx, cancel := context.WithTimeout(context.Background(), *diagTime)
		start = time.Now()
		ra := ab.Search(ctx, p, 0)
		abTime += time.Since(start)
		cancel()
		abNodes += ra.Nodes
		da := ra.Depth
		if solved, _, _ := ra.Solved(); solved {
			da = 99
		}
		abDepths = append(abDepths, da)
		legal := p.LegalMoves(nil)
		for name, res := range map[string]SearchResult{"pvs": r, "alphabeta": ra} {
			if len(res.PV) == 0 || !slices.Contains(legal, res.PV[0]) {
				t.Errorf("pos %d: %s's move %v is not legal there", i, name, res.PV)
			}
		}
		if ps, pw, _ := r.Solved(); ps {
			if as, aw, _ := ra.Solved(); as && aw != pw {
				t.Errorf("pos %d: pvs proves a win %v, alphabeta %v", i, pw, aw)
			}
		}
		if s.hits > s.probes || s.firstCuts > s.cuts {
			t.Errorf("pos %d: counters: %d hits of %d probes, %d first-move cutoffs of %d", i, s.hits, s.probes, s.firstCuts, s.cuts)
		}
		same := len(r.PV) > 0 && len(ra.PV) > 0 && r.PV[0] == ra.PV[0]
		t.Logf("pos %2d: %2d stones, %2d moves | pvs %s | ab %s | same move %v",
			i, bits.OnesCount64(p.Black|p.White), len(p.LegalMoves(nil)), short(r), short(ra), same)
	}
	sort.Ints(pvsDepths)
	sort.Ints(abDepths)
	sort.Float64s(ebfs)
	n := len(pvsDepths)
	t.Logf("pvs: median depth %d (99 = solved), %.0f nodes/s, table hits %.1f%% of probes, cutoffs by the table %.1f%% of probes, first-move cutoffs %.1f%%, median EBF %.2f",
		pvsDepths[n/2], float64(pvsNodes)/pvsTime.Seconds(), 100*float64(hits)/float64(probes), 100*float64(ttCuts)/float64(probes), 100*float64(first)/float64(cuts), ebfs[len(ebfs)/2])
	t.Logf("alphabeta: median depth %d, %.0f nodes/s", abDepths[n/2], float64(abNodes)/abTime.Seconds())
	t.Logf("depths pvs %v", pvsDepths)
	t.Logf("depths ab  %v", abDepths)
}

func short(r SearchResult) string {
	s := r.String()
	if i := strings.Index(s, " pv "); i >= 0 { // keep the first move of the line
		if j := strings.IndexByte(s[i+4:], ' '); j >= 0 {
			s = s[:i+4+j]
		}
	}
	return s
}

// TestPVSLosses replays the games a player lost and finds, with the exact
// solver, its last move that turned a won position into a lost one (the
// positions small enough to solve in -diag.solve), and what the engine
// at 1 s would have played there:
//
//	go test ./player -run TestPVSLosses -v -diag.games DIR/games
func TestPVSLosses(t *testing.T) {
	if *diagGames == "" {
		t.Skip("-diag.games not set")
	}
	files, _ := filepath.Glob(filepath.Join(*diagGames, "*.txt"))
	s := solver.New()
	for _, f := range files {
		rec, err := rules.ReadRecordFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var side rules.Color
		switch {
		case strings.HasPrefix(rec.Tag("Black"), *diagPlayer):
			side = rules.Black
		case strings.HasPrefix(rec.Tag("White"), *diagPlayer):
			side = rules.White
		default:
			continue
		}
		w, ok := rec.Winner()
		if !ok || w == side {
			continue
		}
		pos, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		// From the end backwards: the positions where the player is to
		// move; the last one it won is where it erred.
		verdict := "no won position found among those solved"
		for i := len(pos) - 2; i >= 0; i-- {
			p := pos[i]
			if p.Turn != side || p.Phase() != rules.Jumping {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), *diagSolve)
			m, win, err := s.WinningMove(ctx, p)
			cancel()
			stones := bits.OnesCount64(p.Black | p.White)
			if err != nil {
				verdict = "unknown before ply " + itoa(i) + " (" + itoa(stones) + " stones: solver out of time)"
				break
			}
			if win {
				e := NewPVS(0, time.Second, 1)
				r := e.Search(context.Background(), p, 0)
				verdict = "won at ply " + itoa(i) + " (" + itoa(stones) + " stones), winning move " + m.String() +
					"; played " + pos[i+1].String()[:0] + "; pvs 1 s now: " + r.String()
				break
			}
		}
		t.Logf("%s (%s vs %s): %s", filepath.Base(f), rec.Tag("Black"), rec.Tag("White"), verdict)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

var diagSolverStones = flag.String("diag.solverstones", "", "TestSolverTime: stone counts to time the solver at, like 26,28,30 (empty: skip)")

// TestSolverTime times the exact solver on 8x8 positions from games of
// PVS at depth 4 against itself, at the given stone counts (a fresh
// solver per position, at most 4 s each):
//
//	go test ./player -run TestSolverTime -v -diag.solverstones 26,28,30,32
func TestSolverTime(t *testing.T) {
	if *diagSolverStones == "" {
		t.Skip("-diag.solverstones not set")
	}
	for _, f := range strings.Split(*diagSolverStones, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 4 || n > 64 {
			t.Fatalf("-diag.solverstones: %q is not a stone count 4..64", f)
		}
		var times []time.Duration
		for g := 0; len(times) < 8 && g < 40; g++ {
			a, b := newPVS(4, 0, uint64(2*g), 16, 1<<10), newPVS(4, 0, uint64(2*g+1), 16, 1<<10)
			p := rules.NewPosition(8)
			for ply := 0; p.HasMoves() && (p.Phase() != rules.Jumping || bits.OnesCount64(p.Black|p.White) > n); ply++ {
				e := a
				if ply%2 == 1 {
					e = b
				}
				p = p.Play(e.Search(context.Background(), p, 4).PV[0])
			}
			if !p.HasMoves() || bits.OnesCount64(p.Black|p.White) != n {
				continue
			}
			s := solver.New()
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
			start := time.Now()
			_, err := s.Solve(ctx, p)
			d := time.Since(start)
			cancel()
			if err != nil {
				d = 4 * time.Second
			}
			times = append(times, d)
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		t.Logf("%d stones: %d positions, solver times %v", n, len(times), times)
	}
}
