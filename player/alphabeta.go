package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/konanezero/konane/rules"
)

// Scores of the alpha-beta search, from the side to move's view. A won
// position scores WinScore minus the number of plies to the win, so that
// faster wins score higher; everything else is a mobility evaluation far
// below it.
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

// DefaultTTBits is the log2 of the number of transposition table entries
// of an AlphaBeta player (16 bytes each: 4 MiB).
const DefaultTTBits = 18

// AlphaBeta is a negamax alpha-beta searcher with iterative deepening, a
// transposition table, move ordering (the table's move, then the history
// heuristic) and the mobility evaluation of Evaluate at the leaves.
//
// Move searches to Depth plies, or until MoveTime has passed, whichever
// comes first, and plays the best move of the deepest completed iteration.
// It stops early once the game is solved (a forced win or loss found).
// With neither limit set it searches until the game is solved, which is
// only practical on small boards. Root moves are shuffled with the seed
// before the search, so among equally scored moves the choice varies from
// game to game.
type AlphaBeta struct {
	name     string
	Depth    int           // maximum depth in plies; 0 = no depth limit
	MoveTime time.Duration // time per move; 0 = no time limit

	rng     *rand.Rand
	tt      []ttEntry
	ttMask  uint64
	history [64][64]int32

	// Per-search state.
	ctx     context.Context
	nodes   uint64
	aborted bool
	pvTable
}

type ttFlag uint8

const (
	ttExact ttFlag = iota + 1
	ttLower        // the score is a lower bound (a beta cutoff)
	ttUpper        // the score is an upper bound (no move raised alpha)
)

type ttEntry struct {
	key   uint64
	score int32
	move  rules.Move
	depth int8
	flag  ttFlag
}

// NewAlphaBeta returns an alpha-beta player with the given limits (at
// least one should be set for boards above 5x5), a transposition table of
// 2^DefaultTTBits entries, and root-order randomness from seed.
func NewAlphaBeta(depth int, moveTime time.Duration, seed uint64) *AlphaBeta {
	return newAlphaBeta(depth, moveTime, DefaultTTBits, seed)
}

func newAlphaBeta(depth int, moveTime time.Duration, ttBits int, seed uint64) *AlphaBeta {
	n := 1 << ttBits
	return &AlphaBeta{
		name:     "alphabeta",
		Depth:    depth,
		MoveTime: moveTime,
		rng:      newRand(seed, streamAlphaBeta),
		tt:       make([]ttEntry, n),
		ttMask:   uint64(n - 1),
	}
}

// Name implements Player.
func (a *AlphaBeta) Name() string { return a.name }

// Move implements Player: the first move of the principal variation of
// Search with the player's limits.
func (a *AlphaBeta) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	if err := checkMove(ctx, p); err != nil {
		return rules.NoMove, err
	}
	sctx, cancel := newStopper(a.Depth, a.MoveTime).context(ctx)
	defer cancel()
	res := a.Search(sctx, p, a.Depth)
	if err := ctx.Err(); err != nil {
		return rules.NoMove, err
	}
	return res.PV[0], nil
}

// SearchResult is the outcome of an alpha-beta search.
type SearchResult struct {
	// Score is from the side to move's view: the mobility evaluation at
	// the end of the principal variation, or ±(WinScore - plies) for a
	// proven win or loss (see Solved).
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

// Search runs iterative deepening from p up to depth plies (0: until the
// game is solved or ctx ends) and returns the deepest completed iteration.
// The first iteration (depth 1) always completes, so a position with a
// legal move always gets a best move, even when ctx has already ended;
// callers that must tell a cancellation apart check ctx themselves.
// Search keeps its transposition table between calls.
func (a *AlphaBeta) Search(ctx context.Context, p rules.Position, depth int) SearchResult {
	var buf [rules.MaxMoves]rules.Move
	root := p.LegalMoves(buf[:0])
	if len(root) == 0 {
		return SearchResult{Score: -WinScore}
	}
	a.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	a.history = [64][64]int32{}
	a.ctx, a.nodes = ctx, 0
	defer func() { a.ctx = nil }()
	if depth <= 0 || depth > maxPly {
		depth = maxPly
	}
	var best SearchResult
	for d := 1; d <= depth; d++ {
		a.aborted = false
		score := a.searchRoot(p, root, d)
		if a.aborted {
			break
		}
		best = SearchResult{Score: int(score), PV: append([]rules.Move(nil), a.pv[0][:a.pvLen[0]]...), Depth: d}
		// The best move goes first in the next iteration.
		for i, m := range root {
			if m == best.PV[0] {
				copy(root[1:i+1], root[:i])
				root[0] = m
				break
			}
		}
		if score >= winBound || score <= -winBound {
			break // solved: deeper iterations cannot change the result
		}
	}
	best.Nodes = a.nodes
	return best
}

func (a *AlphaBeta) searchRoot(p rules.Position, moves []rules.Move, depth int) int32 {
	alpha, beta := int32(-infinity), int32(infinity)
	a.pvLen[0] = 0
	best := int32(-infinity)
	for _, m := range moves {
		score := -a.negamax(p.Play(m), depth-1, 1, -beta, -alpha, depth > 1)
		if a.aborted {
			return 0
		}
		if score > best {
			best = score
			a.setPV(0, m)
		}
		if score > alpha {
			alpha = score
		}
	}
	a.store(p.Hash(), best, a.pv[0][0], depth, 0, ttExact)
	return best
}

// negamax returns the score of p for its side to move, searching depth
// plies; ply is the distance from the root. abortable is false during the
// first iteration, which always completes.
func (a *AlphaBeta) negamax(p rules.Position, depth, ply int, alpha, beta int32, abortable bool) int32 {
	a.pvLen[ply] = 0
	a.nodes++
	if abortable && a.nodes&1023 == 0 && a.ctx.Err() != nil {
		a.aborted = true
	}
	if a.aborted {
		return 0
	}
	var buf [rules.MaxMoves]rules.Move
	moves := p.LegalMoves(buf[:0])
	if len(moves) == 0 {
		return -(WinScore - int32(ply))
	}
	if depth == 0 || ply >= maxPly {
		return int32(Evaluate(p))
	}
	key := p.Hash()
	ttMove := rules.NoMove
	if e := &a.tt[key&a.ttMask]; e.key == key {
		ttMove = e.move
		if int(e.depth) >= depth {
			score := scoreFromTT(e.score, ply)
			if e.flag == ttExact || (e.flag == ttLower && score >= beta) || (e.flag == ttUpper && score <= alpha) {
				a.setPV(ply, e.move)
				a.pvLen[ply] = 1
				return score
			}
		}
	}
	a.order(moves, ttMove)
	alpha0 := alpha
	best, bestMove := int32(-infinity), moves[0]
	for _, m := range moves {
		score := -a.negamax(p.Play(m), depth-1, ply+1, -beta, -alpha, abortable)
		if a.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				a.setPV(ply, m)
				if score >= beta {
					a.history[m.From][m.To] += int32(depth * depth)
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
		flag = ttUpper
	}
	a.store(key, best, bestMove, depth, ply, flag)
	return best
}

// order puts the table's move first and the others by decreasing history
// score (an insertion sort: the lists are short).
func (a *AlphaBeta) order(moves []rules.Move, ttMove rules.Move) {
	for i := 1; i < len(moves); i++ {
		m := moves[i]
		k := a.orderKey(m, ttMove)
		j := i
		for ; j > 0 && a.orderKey(moves[j-1], ttMove) < k; j-- {
			moves[j] = moves[j-1]
		}
		moves[j] = m
	}
}

func (a *AlphaBeta) orderKey(m, ttMove rules.Move) int32 {
	if m == ttMove {
		return 1 << 30
	}
	return a.history[m.From][m.To]
}

func (a *AlphaBeta) store(key uint64, score int32, m rules.Move, depth, ply int, flag ttFlag) {
	a.tt[key&a.ttMask] = ttEntry{key: key, score: scoreToTT(score, ply), move: m, depth: int8(depth), flag: flag}
}

// Proven scores are stored relative to the stored position, not the root,
// so that an entry stays right when reached at another ply.
func scoreToTT(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s + int32(ply)
	case s <= -winBound:
		return s - int32(ply)
	}
	return s
}

func scoreFromTT(s int32, ply int) int32 {
	switch {
	case s >= winBound:
		return s - int32(ply)
	case s <= -winBound:
		return s + int32(ply)
	}
	return s
}
