package player

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// Scores of the search, from the side to move's view. A won position
// scores WinScore minus the number of plies to the win, so that faster
// wins score higher; the evaluation stays far below it.
const (
	WinScore = 1 << 20
	// maxPly bounds the length of a game (each jump captures at least
	// one of the at most 62 stones left after the removals) and so the
	// depth of a search.
	maxPly = 72
	// winBound: scores at or beyond ±winBound are proven wins or losses.
	winBound = WinScore - 2*maxPly
	infinity = WinScore + 1
)

// Engine is the package's alpha-beta searcher, in two configurations:
//
// NewPVS, the strongest classical player: a principal variation search
// (negascout) with iterative deepening inside the time budget, aspiration
// windows, a two-entry-bucket transposition table keyed by the position
// and the side to move (depth-preferred replacement), the table's move
// first, then killer moves and the history heuristic, late move
// reductions, and the evaluation of Weights at the leaves. Endgames are
// exact: a position with at most SolveStones stones goes to the solver
// first (package solver, within half the time left, or a fixed node
// budget in a search without a time limit), and a proven win is played
// as proven. Proven results found by the search itself (a side without a
// move loses) are kept in the table at every depth, so a win found once
// is not lost on the next move.
//
// NewAlphaBeta, the plain baseline: negamax alpha-beta with every move
// searched in the full window, iterative deepening, a table of single
// entries always replaced, move ordering by the table's move then the
// history heuristic (cleared at each search), and the mobility
// evaluation (EvalPlain, which is Evaluate) at the leaves; no killers,
// reductions, aspiration windows or solver.
//
// Move searches to Depth plies, or until MoveTime has passed, whichever
// comes first; with neither set, until the game is solved (small boards
// only). Root moves are shuffled with the seed, so the choice among
// equally scored moves varies from game to game; a search of fixed depth
// is otherwise deterministic.
type Engine struct {
	name     string
	Depth    int           // maximum depth in plies; 0 = no depth limit
	MoveTime time.Duration // time per move; 0 = no time limit
	Eval     Weights       // the evaluation
	// SolveStones: positions with at most this many stones (above 5x5;
	// 4x4 and 5x5 always) go to the exact solver first; 0 = never.
	SolveStones int
	// LMR enables late move reductions.
	LMR bool
	// Deepen: no new iteration starts after Deepen percent of the time
	// per move (the rest goes to finishing the iteration under way, whose
	// better move is played even when it does not finish).
	Deepen int

	// plain: the plain alpha-beta configuration (NewAlphaBeta): full
	// windows, no killers, moves sorted stably, history cleared per
	// search.
	plain bool
	rng   *rand.Rand
	// tableBits: the tables (Search's, SearchWide's) have 2^tableBits
	// entries; solverEntries sizes the solver's (0: no solver).
	tableBits     int
	solverEntries int
	// tt and solver: Search's, made on its first call (narrowState).
	tt      table[rules.Move]
	solver  *solver.Solver
	history [64][64]int32
	killers [maxPly + 2][2]rules.Move

	// Per-search state.
	clock   clock
	nodes   uint64
	aborted bool
	stats   pvsStats
	pvTable[rules.Move]
	moves [maxPly + 1][rules.MaxMoves]rules.Move
	keys  [maxPly + 1][rules.MaxMoves]int32
	// wide: the state of SearchWide, made on its first call.
	wide *wideSearch
}

// EvalPlain is the evaluation of NewAlphaBeta: the mobility difference,
// Evaluate.
var EvalPlain = Weights{Mobility: 1}

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

// NewPVS returns the PVS configuration of the engine with the given
// limits (at least one should be set for boards above 5x5), the default
// evaluation, a transposition table of 2^DefaultPVSTableBits entries and
// root-order randomness from seed.
func NewPVS(depth int, moveTime time.Duration, seed uint64) *Engine {
	return newPVS(depth, moveTime, seed, DefaultPVSTableBits, pvsSolverEntries)
}

// newPVS is NewPVS with 2^tableBits table entries and a solver table of
// solverEntries (small ones for tests that make many players).
func newPVS(depth int, moveTime time.Duration, seed uint64, tableBits, solverEntries int) *Engine {
	e := &Engine{
		name:          "pvs",
		Depth:         depth,
		MoveTime:      moveTime,
		Eval:          EvalDefault,
		SolveStones:   DefaultSolveStones,
		LMR:           true,
		Deepen:        DefaultDeepen,
		rng:           newRand(seed, streamPVS),
		tableBits:     tableBits,
		solverEntries: solverEntries,
	}
	if moveTime > 0 {
		e.SolveStones = DefaultTimedSolveStones
	}
	return e
}

// narrowState makes the table and the solver of Search on its first call
// (a big board's engine never needs them). The solver allocates its table
// on its first call: narrowState makes that call, on a position lost at
// once (a lone stone), so that the allocation is not charged to the clock
// of a move.
func (e *Engine) narrowState() {
	if e.tt.entries == nil {
		e.tt = newTable(e.tableBits, e.plain, rules.NoMove)
	}
	if e.solver == nil && e.solverEntries > 0 {
		e.solver = solver.New(solver.WithTableEntries(e.solverEntries))
		lone := rules.Position{Black: 1, Size: 4, Turn: rules.Black}
		if _, err := e.solver.Solve(context.Background(), lone); err != nil {
			panic(err) // a constant, valid position
		}
	}
}

// pvsSolverEntries sizes the table of a PVS player's solver (8 MiB).
const pvsSolverEntries = 1 << 19

// NewAlphaBeta returns the plain alpha-beta configuration of the engine
// with the given limits (at least one should be set for boards above
// 5x5), a transposition table of 2^DefaultTTBits single entries, and
// root-order randomness from seed.
func NewAlphaBeta(depth int, moveTime time.Duration, seed uint64) *Engine {
	return &Engine{
		name:      "alphabeta",
		Depth:     depth,
		MoveTime:  moveTime,
		Eval:      EvalPlain,
		Deepen:    100,
		plain:     true,
		rng:       newRand(seed, streamAlphaBeta),
		tableBits: DefaultTTBits,
	}
}

// Name implements Player.
func (e *Engine) Name() string { return e.name }

// Move implements Player: the first move of the principal variation of
// Search with the player's limits.
func (e *Engine) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	res := e.Search(ctx, p, e.Depth)
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	return res.PV[0], nil
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	// Score is from the side to move's view: the evaluation at the end of
	// the principal variation, or ±(WinScore - plies) for a proven win or
	// loss (see Solved).
	Score int
	// PV is the principal variation, starting with the best move. It is
	// empty only when the position has no legal move.
	PV []rules.Move
	// Depth is the depth of the deepest completed iteration.
	Depth int
	// Nodes counts the positions visited, over all iterations.
	Nodes uint64
}

// Solved reports whether the score is a proven result, and if so whether
// the side to move wins and in how many plies.
func (r SearchResult) Solved() (solved, wins bool, plies int) {
	switch {
	case r.Score >= winBound:
		return true, true, WinScore - r.Score
	case r.Score <= -winBound:
		return true, false, WinScore + r.Score
	}
	return false, false, 0
}

// String writes the result like "depth 6 score +3 pv f4-d4 c5-e5".
func (r SearchResult) String() string {
	score := fmt.Sprintf("%+d", r.Score)
	if solved, wins, plies := r.Solved(); solved {
		if wins {
			score = fmt.Sprintf("win in %d", plies)
		} else {
			score = fmt.Sprintf("loss in %d", plies)
		}
	}
	s := fmt.Sprintf("depth %d score %s pv", r.Depth, score)
	for _, m := range r.PV {
		s += " " + m.String()
	}
	return s
}

// clock is the time control of one search: the package's stopper for
// the budget, and ctx ending at the hard limit (the budget or ctx's own
// deadline, whichever comes first). The search stops when ctx ends, and
// starts no new iteration after Engine.Deepen percent of the budget.
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
func (e *Engine) Search(ctx context.Context, p rules.Position, depth int) SearchResult {
	e.narrowState()
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
	e.newHistory()
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
func (e *Engine) solve(p rules.Position) (SearchResult, bool) {
	if e.solver == nil || e.SolveStones <= 0 || p.Phase() != rules.Jumping || !solver.Solvable(p, e.SolveStones) {
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

// newHistory starts the move ordering of a search: the history of the
// previous search aged (cleared, in the plain configuration), and no
// killer moves.
func (e *Engine) newHistory() {
	for i := range e.history {
		for j := range e.history[i] {
			if e.plain {
				e.history[i][j] = 0
			} else {
				e.history[i][j] >>= 3
			}
		}
	}
	e.killers = [maxPly + 2][2]rules.Move{}
}

// aspiration searches the root to depth d in a window around the previous
// iteration's score, widening it on a fail (in the full window in the
// plain configuration, and below depth 4). It returns the score and the
// number of root moves searched in the last window (0: aborted at once).
func (e *Engine) aspiration(p rules.Position, root []rules.Move, d int, prev int32) (int32, int) {
	if e.plain || d < 4 || prev >= winBound || prev <= -winBound {
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
func (e *Engine) searchRoot(p rules.Position, root []rules.Move, depth int, alpha, beta int32) (int32, int) {
	e.aborted = false
	e.pvLen[0] = 0
	best := int32(-infinity)
	alpha0 := alpha
	abortable := depth > 1
	for i, m := range root {
		score := e.searchMove(p.Play(m), i, 0, depth, 0, alpha, beta, true, abortable)
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
	e.tt.store(p.Hash(), best, e.pv[0][0], depth, 0, boundOf(best, alpha0, beta))
	return best, len(root)
}

// search returns the score of p for its side to move, searching depth
// plies in the window (alpha, beta); ply is the distance from the root.
// pvNode marks the nodes of the principal variation (open windows);
// abortable is false during the first iteration, which always completes.
func (e *Engine) search(p rules.Position, depth, ply int, alpha, beta int32, pvNode, abortable bool) int32 {
	e.pvLen[ply] = 0
	e.nodes++
	if abortable && e.nodes&1023 == 0 && e.clock.expired() {
		e.aborted = true
	}
	if e.aborted {
		return 0
	}
	if depth <= 0 || ply >= maxPly {
		return e.leaf(p, ply)
	}
	key := p.Hash()
	ttMove, score, cut := e.probe(key, depth, ply, alpha, beta, pvNode)
	if cut {
		return score
	}
	moves := p.LegalMoves(e.moves[ply][:0])
	if len(moves) == 0 {
		return -(WinScore - int32(ply))
	}
	keys := e.orderKeys(moves, ply, ttMove)
	alpha0 := alpha
	best, bestMove := int32(-infinity), rules.NoMove
	for i := range moves {
		selectMove(moves, keys, i)
		m := moves[i]
		score := e.searchMove(p.Play(m), i, e.reduction(i, depth, keys[i]), depth, ply, alpha, beta, pvNode, abortable)
		if e.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				e.setPV(ply, m)
				if score >= beta {
					e.cutoff(m, i, depth, ply)
					break
				}
			}
		}
	}
	e.tt.store(key, best, bestMove, depth, ply, boundOf(best, alpha0, beta))
	return best
}

// leaf is the score of p at the search's horizon: the evaluation, or a
// loss when the side to move has no jump (0 in the opening's removals).
func (e *Engine) leaf(p rules.Position, ply int) int32 {
	if bits.OnesCount64(p.Empty()) <= 1 {
		return 0
	}
	score, moves := e.Eval.evaluate(p)
	if moves == 0 {
		return -(WinScore - int32(ply))
	}
	return score
}

// probe looks p's key up in the table: it returns the table's move, and
// whether the entry answers the search of depth plies in the window
// (alpha, beta) at once, with the score then. At nodes of the principal
// variation only proven results answer (in the PVS configuration).
func (e *Engine) probe(key uint64, depth, ply int, alpha, beta int32, pvNode bool) (rules.Move, int32, bool) {
	e.stats.probes++
	t := e.tt.probe(key)
	if t == nil {
		return rules.NoMove, 0, false
	}
	e.stats.hits++
	if int(t.depth) < depth {
		return t.move, 0, false
	}
	score := scoreFromTT(t.score, ply)
	f := t.bound()
	proven := score >= winBound || score <= -winBound
	if (!pvNode || proven) && (f == ttExact || f == ttLower && score >= beta || f == ttUpper && score <= alpha) {
		if t.move != rules.NoMove {
			e.pv[ply][0] = t.move
			e.pvLen[ply] = 1
		}
		e.stats.ttCuts++
		return t.move, score, true
	}
	return t.move, 0, false
}

// orderKeys returns the ordering keys of moves at ply: the table's move
// first, then the killers (PVS configuration), then by history. In the
// plain configuration the moves are sorted by their keys here, stably.
func (e *Engine) orderKeys(moves []rules.Move, ply int, ttMove rules.Move) []int32 {
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
	if e.plain {
		// An insertion sort, stable: the lists are short.
		for i := 1; i < len(moves); i++ {
			m, k := moves[i], keys[i]
			j := i
			for ; j > 0 && keys[j-1] < k; j-- {
				moves[j], keys[j] = moves[j-1], keys[j-1]
			}
			moves[j], keys[j] = m, k
		}
	}
	return keys
}

// selectMove puts the move of the highest key from i on (the first of
// them) at i.
func selectMove(moves []rules.Move, keys []int32, i int) {
	j := i
	for k := i + 1; k < len(moves); k++ {
		if keys[k] > keys[j] {
			j = k
		}
	}
	moves[i], moves[j] = moves[j], moves[i]
	keys[i], keys[j] = keys[j], keys[i]
}

// reduction is the late move reduction of the i-th move searched, of
// ordering key key, at a node of depth plies: 0 without LMR, for the first
// moves, and for the table's and killer moves.
func (e *Engine) reduction(i, depth int, key int32) int {
	if !e.LMR || depth < 3 || i < 3 || key >= 1<<29-1 {
		return 0
	}
	if i >= 8 && depth >= 5 {
		return 2
	}
	return 1
}

// searchMove returns the score of c, the i-th move searched at a node of
// depth plies at ply with the window (alpha, beta), for the node's side
// to move: in the full window (the first move, or every move in the plain
// configuration), else in a null window at depth reduced by r, searched
// again in full depth when it beats alpha, and in the full window at
// nodes of the principal variation when it falls inside it.
func (e *Engine) searchMove(c rules.Position, i, r, depth, ply int, alpha, beta int32, pvNode, abortable bool) int32 {
	switch {
	case e.plain:
		return -e.search(c, depth-1, ply+1, -beta, -alpha, false, abortable)
	case i == 0:
		return -e.search(c, depth-1, ply+1, -beta, -alpha, pvNode, abortable)
	}
	score := -e.search(c, depth-1-r, ply+1, -alpha-1, -alpha, false, abortable)
	if r > 0 && score > alpha && !e.aborted {
		score = -e.search(c, depth-1, ply+1, -alpha-1, -alpha, false, abortable)
	}
	if pvNode && score > alpha && score < beta && !e.aborted {
		score = -e.search(c, depth-1, ply+1, -beta, -alpha, true, abortable)
	}
	return score
}

// cutoff records the beta cutoff of move m, the i-th searched, at a node
// of depth plies at ply: as a killer (PVS configuration) and in the
// history.
func (e *Engine) cutoff(m rules.Move, i, depth, ply int) {
	e.stats.cuts++
	if i == 0 {
		e.stats.firstCuts++
	}
	if k0 := e.killers[ply][0]; !e.plain && m != k0 {
		e.killers[ply][1], e.killers[ply][0] = k0, m
	}
	if h := &e.history[m.From][m.To]; *h < 1<<24 {
		*h += int32(depth * depth)
	}
}
