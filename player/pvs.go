package player

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// PVS is the strongest classical player: a principal variation search
// (negascout) with iterative deepening inside the time budget, aspiration
// windows, a two-entry-bucket transposition table keyed by the position
// and the side to move (depth-preferred replacement), the table's move
// first, then killer moves and the history heuristic, late move
// reductions, and the evaluation of Weights at the leaves.
//
// Endgames are exact: a position with at most SolveStones stones goes to
// the solver first (package solver, within half the time left, or a
// fixed node budget in a search without a time limit), and a proven win
// is played as proven. Proven results found by the
// search itself (a side without a move loses) are kept in the table at
// every depth, so a win found once is not lost on the next move.
//
// Move searches to Depth plies, or until MoveTime has passed, whichever
// comes first; with neither set, until the game is solved (small boards
// only). Root moves are shuffled with the seed, so the choice among
// equally scored moves varies from game to game; a search of fixed depth
// is otherwise deterministic.
type PVS struct {
	name     string
	Depth    int           // maximum depth in plies; 0 = no depth limit
	MoveTime time.Duration // time per move; 0 = no time limit
	Eval     Weights       // the evaluation (default EvalDefault)
	// SolveStones: positions with at most this many stones (above 5x5;
	// 4x4 and 5x5 always) go to the exact solver first; 0 = never.
	SolveStones int
	// LMR enables late move reductions (on by default).
	LMR bool
	// Deepen: no new iteration starts after Deepen percent of the time
	// per move (the rest goes to finishing the iteration under way, whose
	// better move is played even when it does not finish).
	Deepen int

	rng     *rand.Rand
	tt      pvsTable
	solver  *solver.Solver
	history [64][64]int32
	killers [maxPly + 2][2]rules.Move

	// Per-search state.
	clock   clock
	nodes   uint64
	aborted bool
	stats   pvsStats
	pvTable
	moves [maxPly + 1][rules.MaxMoves]rules.Move
	keys  [maxPly + 1][rules.MaxMoves]int32
}

// DefaultSolveStones is the SolveStones of NewPVS without a time limit,
// where the solver has a fixed node budget (solverFixedNodes).
const DefaultSolveStones = 26

// DefaultTimedSolveStones is the SolveStones of NewPVS with a time limit,
// where the solver has half the time left (chosen by matches, see
// docs/results).
const DefaultTimedSolveStones = 30

// DefaultDeepen is the Deepen of NewPVS.
const DefaultDeepen = 50

// solverFixedNodes is the solver's node budget in a search without a
// time limit (fixed depth), which stays deterministic.
const solverFixedNodes = 1 << 18

// NewPVS returns a PVS player with the given limits (at least one should
// be set for boards above 5x5), the default evaluation, a transposition
// table of 2^DefaultPVSTableBits entries and root-order randomness from
// seed.
func NewPVS(depth int, moveTime time.Duration, seed uint64) *PVS {
	return newPVS(depth, moveTime, seed, DefaultPVSTableBits, pvsSolverEntries)
}

// newPVS is NewPVS with 2^tableBits table entries and a solver table of
// solverEntries (small ones for tests that make many players).
func newPVS(depth int, moveTime time.Duration, seed uint64, tableBits, solverEntries int) *PVS {
	e := &PVS{
		name:        "pvs",
		Depth:       depth,
		MoveTime:    moveTime,
		Eval:        EvalDefault,
		SolveStones: DefaultSolveStones,
		LMR:         true,
		Deepen:      DefaultDeepen,
		rng:         newRand(seed, streamPVS),
		tt:          newPVSTable(tableBits),
		solver:      solver.New(solver.WithTableEntries(solverEntries)),
	}
	if moveTime > 0 {
		e.SolveStones = DefaultTimedSolveStones
	}
	// The solver allocates its table on its first call: make that call
	// now, on a position lost at once (a lone stone), so that the
	// allocation is not charged to the clock of a move.
	lone := rules.Position{Black: 1, Size: 4, Turn: rules.Black}
	if _, err := e.solver.Solve(context.Background(), lone); err != nil {
		panic(err) // a constant, valid position
	}
	return e
}

// pvsSolverEntries sizes the table of a PVS player's solver (8 MiB).
const pvsSolverEntries = 1 << 19

// Name implements Player.
func (e *PVS) Name() string { return e.name }

// Move implements Player: the first move of the principal variation of
// Search with the player's limits.
func (e *PVS) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	res := e.Search(ctx, p, e.Depth)
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	return res.PV[0], nil
}

// clock is the time control of one search: the package's stopper for
// the budget, and ctx ending at the hard limit (the budget or ctx's own
// deadline, whichever comes first). The search stops when ctx ends, and
// starts no new iteration after PVS.Deepen percent of the budget.
type clock struct {
	ctx    context.Context
	cancel context.CancelFunc
	stop   stopper
}

func newClock(ctx context.Context, budget time.Duration) clock {
	st := newStopper(0, budget)
	ctx, cancel := st.context(ctx)
	return clock{ctx: ctx, cancel: cancel, stop: st}
}

// expired reports whether the search must stop now.
func (c *clock) expired() bool { return c.ctx.Err() != nil || c.stop.expired() }

// deepen reports whether another iteration may start: less than pct
// percent of the time to the hard limit has passed.
func (c *clock) deepen(pct int) bool {
	if c.ctx.Err() != nil {
		return false
	}
	d, ok := c.ctx.Deadline()
	return !ok || time.Since(c.stop.start) < d.Sub(c.stop.start)*time.Duration(pct)/100
}

// left is the time until the hard limit (0: no limit).
func (c *clock) left() time.Duration {
	d, ok := c.ctx.Deadline()
	if !ok {
		return 0
	}
	return max(time.Until(d), time.Millisecond)
}

// Search runs iterative deepening from p up to depth plies (0: until the
// game is solved or the time is up) within the player's MoveTime and
// ctx, and returns the deepest completed iteration (or a better move
// found by an unfinished one). The first iteration always completes, so a
// position with a legal move always gets a best move. A result proven by
// the solver has Depth 0 and a Score of ±winBound (Solved reports it,
// with the plies unknown). Search keeps its transposition table between
// calls.
func (e *PVS) Search(ctx context.Context, p rules.Position, depth int) SearchResult {
	root := p.LegalMoves(e.moves[0][:0])
	if len(root) == 0 {
		return SearchResult{Score: -WinScore}
	}
	e.clock = newClock(ctx, e.MoveTime)
	defer func() { e.clock.cancel(); e.clock = clock{} }()
	e.nodes = 0
	e.stats = pvsStats{}
	e.tt.newSearch()
	if res, ok := e.solve(p); ok {
		return res
	}
	e.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	for i := range e.history {
		for j := range e.history[i] {
			e.history[i][j] >>= 3
		}
	}
	e.killers = [maxPly + 2][2]rules.Move{}
	if depth <= 0 || depth > maxPly {
		depth = maxPly
	}
	var best SearchResult
	var rootPV [maxPly + 1]rules.Move
	prev := int32(0)
	for d := 1; d <= depth; d++ {
		if d > 1 && !e.clock.deepen(e.Deepen) {
			break
		}
		score, n := e.aspiration(p, root, d, prev)
		if n == 0 {
			break // aborted before any move was searched
		}
		copy(rootPV[:], e.pv[0][:e.pvLen[0]])
		best = SearchResult{Score: int(score), PV: rootPV[:e.pvLen[0]], Depth: d}
		if e.aborted {
			best.Depth = d - 1 // a better move of the unfinished iteration
			break
		}
		prev = score
		e.stats.iterNodes[d] = e.nodes
		moveToFront(root, best.PV[0])
		if score >= winBound || score <= -winBound {
			break // solved: deeper iterations cannot change the result
		}
	}
	best.PV = append([]rules.Move(nil), best.PV...)
	best.Nodes = e.nodes
	return best
}

// pvsStats counts what one search did, for diagnostics.
type pvsStats struct {
	probes, hits, ttCuts uint64 // table probes, entries found, cutoffs by an entry
	cuts, firstCuts      uint64 // beta cutoffs, those by the first move searched
	// iterNodes[d] is the node count when iteration d completed.
	iterNodes [maxPly + 1]uint64
}

// solve asks the exact solver about a small enough endgame.
func (e *PVS) solve(p rules.Position) (SearchResult, bool) {
	if e.SolveStones <= 0 || p.Phase() != rules.Jumping || !solver.Solvable(p, e.SolveStones) {
		return SearchResult{}, false
	}
	if left := e.clock.left(); left > 0 {
		// Within half the time left; the search gets the rest.
		ctx, cancel := context.WithTimeout(e.clock.ctx, left/2)
		defer cancel()
		before := e.solver.Stats().Nodes
		m, win, err := e.solver.WinningMove(ctx, p)
		e.nodes += e.solver.Stats().Nodes - before
		if err == nil && win {
			return SearchResult{Score: winBound, PV: []rules.Move{m}, Nodes: e.nodes}, true
		}
		return SearchResult{}, false
	}
	pr, err := e.solver.Prove(p, solverFixedNodes)
	e.nodes += pr.Nodes
	if err != nil || !pr.Known {
		return SearchResult{}, false
	}
	if pr.Win {
		return SearchResult{Score: winBound, PV: []rules.Move{pr.Move}, Nodes: e.nodes}, true
	}
	// Lost: the search picks the move that resists best, and the table
	// learns nothing wrong from the solver.
	return SearchResult{}, false
}

func moveToFront(moves []rules.Move, m rules.Move) {
	for i, x := range moves {
		if x == m {
			copy(moves[1:i+1], moves[:i])
			moves[0] = m
			return
		}
	}
}

// aspiration searches the root to depth d in a window around the previous
// iteration's score, widening it on a fail. It returns the score and the
// number of root moves searched in the last window (0: aborted at once).
func (e *PVS) aspiration(p rules.Position, root []rules.Move, d int, prev int32) (int32, int) {
	if d < 4 || prev >= winBound || prev <= -winBound {
		return e.searchRoot(p, root, d, -infinity, infinity)
	}
	delta := int32(8)
	alpha, beta := prev-delta, prev+delta
	for {
		score, n := e.searchRoot(p, root, d, alpha, beta)
		switch {
		case e.aborted:
			return score, n
		case score <= alpha:
			alpha = max(score-delta, -infinity)
		case score >= beta:
			beta = min(score+delta, infinity)
		default:
			return score, n
		}
		delta *= 4
		if delta > 512 {
			alpha, beta = -infinity, infinity
		}
	}
}

// searchRoot searches the root moves in their order with the window
// (alpha, beta). It returns the best score and how many moves completed
// before an abort (len(root) when none). The root's principal variation
// is left in e.pv[0]; after an abort it holds the best of the moves that
// completed (the first one, or a later one that raised alpha).
func (e *PVS) searchRoot(p rules.Position, root []rules.Move, depth int, alpha, beta int32) (int32, int) {
	e.aborted = false
	e.pvLen[0] = 0
	best := int32(-infinity)
	alpha0 := alpha
	abortable := depth > 1
	for i, m := range root {
		c := p.Play(m)
		var score int32
		if i == 0 {
			score = -e.search(c, depth-1, 1, -beta, -alpha, true, abortable)
		} else {
			score = -e.search(c, depth-1, 1, -alpha-1, -alpha, false, abortable)
			if !e.aborted && score > alpha && score < beta {
				score = -e.search(c, depth-1, 1, -beta, -alpha, true, abortable)
			}
		}
		if e.aborted {
			return best, i
		}
		if score > best {
			best = score
			if score > alpha || i == 0 {
				e.setPV(0, m)
			}
		}
		if score > alpha {
			alpha = score
			if score >= beta {
				break
			}
		}
	}
	flag := ttExact
	switch {
	case best >= beta:
		flag = ttLower
	case best <= alpha0:
		flag = ttUpper
	}
	e.tt.store(p.Hash(), best, e.pv[0][0], depth, 0, flag)
	return best, len(root)
}

// search returns the score of p for its side to move, searching depth
// plies in the window (alpha, beta); ply is the distance from the root.
// pvNode marks the nodes of the principal variation (open windows);
// abortable is false during the first iteration, which always completes.
func (e *PVS) search(p rules.Position, depth, ply int, alpha, beta int32, pvNode, abortable bool) int32 {
	e.pvLen[ply] = 0
	e.nodes++
	if abortable && e.nodes&1023 == 0 && e.clock.expired() {
		e.aborted = true
	}
	if e.aborted {
		return 0
	}
	jumping := bits.OnesCount64(p.Empty()) > 1
	if depth <= 0 || ply >= maxPly {
		if !jumping {
			return 0
		}
		score, moves := e.Eval.evaluate(p)
		if moves == 0 {
			return -(WinScore - int32(ply))
		}
		return score
	}
	key := p.Hash()
	ttMove := rules.NoMove
	e.stats.probes++
	if t := e.tt.probe(key); t != nil {
		e.stats.hits++
		ttMove = t.move
		if int(t.depth) >= depth {
			score := scoreFromTT(t.score, ply)
			f := t.bound()
			proven := score >= winBound || score <= -winBound
			if (!pvNode || proven) && (f == ttExact || f == ttLower && score >= beta || f == ttUpper && score <= alpha) {
				if ttMove != rules.NoMove {
					e.pv[ply][0] = ttMove
					e.pvLen[ply] = 1
				}
				e.stats.ttCuts++
				return score
			}
		}
	}
	moves := p.LegalMoves(e.moves[ply][:0])
	if len(moves) == 0 {
		return -(WinScore - int32(ply))
	}
	keys := e.keys[ply][:len(moves)]
	k0, k1 := e.killers[ply][0], e.killers[ply][1]
	for i, m := range moves {
		switch m {
		case ttMove:
			keys[i] = 1 << 30
		case k0:
			keys[i] = 1 << 29
		case k1:
			keys[i] = 1<<29 - 1
		default:
			keys[i] = e.history[m.From][m.To]
		}
	}
	alpha0 := alpha
	best, bestMove := int32(-infinity), rules.NoMove
	for i := range moves {
		// Selection: the best remaining move goes to position i.
		j := i
		for k := i + 1; k < len(moves); k++ {
			if keys[k] > keys[j] {
				j = k
			}
		}
		moves[i], moves[j] = moves[j], moves[i]
		keys[i], keys[j] = keys[j], keys[i]
		m := moves[i]
		c := p.Play(m)
		var score int32
		if i == 0 {
			score = -e.search(c, depth-1, ply+1, -beta, -alpha, pvNode, abortable)
		} else {
			r := 0
			if e.LMR && depth >= 3 && i >= 3 && keys[i] < 1<<29-1 {
				r = 1
				if i >= 8 && depth >= 5 {
					r = 2
				}
			}
			score = -e.search(c, depth-1-r, ply+1, -alpha-1, -alpha, false, abortable)
			if r > 0 && score > alpha && !e.aborted {
				score = -e.search(c, depth-1, ply+1, -alpha-1, -alpha, false, abortable)
			}
			if pvNode && score > alpha && score < beta && !e.aborted {
				score = -e.search(c, depth-1, ply+1, -beta, -alpha, true, abortable)
			}
		}
		if e.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				e.setPV(ply, m)
				if score >= beta {
					e.stats.cuts++
					if i == 0 {
						e.stats.firstCuts++
					}
					if m != k0 {
						e.killers[ply][1], e.killers[ply][0] = k0, m
					}
					if h := &e.history[m.From][m.To]; *h < 1<<24 {
						*h += int32(depth * depth)
					}
					break
				}
			}
		}
	}
	flag := ttExact
	switch {
	case best >= beta:
		flag = ttLower
	case best <= alpha0:
		flag, bestMove = ttUpper, rules.NoMove // no move known to be best
	}
	e.tt.store(key, best, bestMove, depth, ply, flag)
	return best
}
