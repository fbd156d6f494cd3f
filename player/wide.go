package player

import (
	"context"

	"github.com/konanezero/konane/rules"
)

// The engine on the wide layout: boards of more than rules.MaxSize files
// or ranks (up to 16x16), played as rules.WidePosition. The search is
// Search's, step for step (iterative deepening, aspiration windows, the
// table, killers, history, late move reductions, the evaluation of
// Weights), on the wide types; it is a second copy of the loop because
// Go calls the methods of a type parameter through a dictionary, which
// would slow the one-word boards' search. Differences: no exact solver
// (it takes Position's boards; the search's own proven results stand),
// and the state is allocated on the first wide search (a table of the
// engine's size, and move lists for the longer ones of large boards).

// wideSearch is the engine's state for the wide layout.
type wideSearch struct {
	e       *Engine
	tt      table[rules.WideMove]
	history [256][256]int32
	killers [maxPly + 2][2]rules.WideMove
	pvTable[rules.WideMove]
	moves [maxPly + 1][rules.WideMaxMoves]rules.WideMove
	keys  [maxPly + 1][rules.WideMaxMoves]int32
}

// wideState returns the engine's wide state, made on the first call.
func (e *Engine) wideState() *wideSearch {
	if e.wide == nil {
		e.wide = &wideSearch{e: e, tt: newTable(e.tableBits, e.plain, rules.NoWideMove)}
	}
	return e.wide
}

// WideResult is a SearchResult on the wide layout.
type WideResult struct {
	Score int
	PV    []rules.WideMove
	Depth int
	Nodes uint64
}

// Solved reports whether the score is a proven result, as
// SearchResult.Solved.
func (r WideResult) Solved() (solved, wins bool, plies int) {
	return SearchResult{Score: r.Score}.Solved()
}

// MoveWide is Move on the wide layout: the first move of the principal
// variation of SearchWide with the player's limits.
func (e *Engine) MoveWide(ctx context.Context, p rules.WidePosition) (rules.WideMove, error) {
	if err := ctx.Err(); err != nil {
		return rules.NoWideMove, err
	}
	if err := p.Validate(); err != nil {
		return rules.NoWideMove, err
	}
	if !p.HasMoves() {
		return rules.NoWideMove, ErrNoMoves
	}
	res := e.SearchWide(ctx, p, e.Depth)
	if err := ctx.Err(); err != nil {
		return rules.NoWideMove, err
	}
	return res.PV[0], nil
}

// SearchWide is Search on the wide layout, for any board up to 16x16
// (without the exact solver). It keeps its own transposition table
// between calls.
func (e *Engine) SearchWide(ctx context.Context, p rules.WidePosition, depth int) WideResult {
	w := e.wideState()
	root := p.LegalMoves(w.moves[0][:0])
	if len(root) == 0 {
		return WideResult{Score: -WinScore}
	}
	e.clock = newClock(ctx, e.MoveTime)
	defer func() { e.clock.cancel(); e.clock = clock{} }()
	e.nodes = 0
	e.stats = pvsStats{}
	w.tt.newSearch()
	e.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	w.newHistory()
	if depth <= 0 || depth > maxPly {
		depth = maxPly
	}
	var best WideResult
	var rootPV [maxPly + 1]rules.WideMove
	prev := int32(0)
	for d := 1; d <= depth; d++ {
		if d > 1 && !e.clock.deepen(e.Deepen) {
			break
		}
		score, n := w.aspiration(p, root, d, prev)
		if n == 0 {
			break // aborted before any move was searched
		}
		copy(rootPV[:], w.pv[0][:w.pvLen[0]])
		best = WideResult{Score: int(score), PV: rootPV[:w.pvLen[0]], Depth: d}
		if e.aborted {
			best.Depth = d - 1 // a better move of the unfinished iteration
			break
		}
		prev = score
		e.stats.iterNodes[d] = e.nodes
		wideMoveToFront(root, best.PV[0])
		if score >= winBound || score <= -winBound {
			break // solved: deeper iterations cannot change the result
		}
	}
	best.PV = append([]rules.WideMove(nil), best.PV...)
	best.Nodes = e.nodes
	return best
}

func wideMoveToFront(moves []rules.WideMove, m rules.WideMove) {
	for i, x := range moves {
		if x == m {
			copy(moves[1:i+1], moves[:i])
			moves[0] = m
			return
		}
	}
}

// newHistory is Engine.newHistory.
func (w *wideSearch) newHistory() {
	for i := range w.history {
		for j := range w.history[i] {
			if w.e.plain {
				w.history[i][j] = 0
			} else {
				w.history[i][j] >>= 3
			}
		}
	}
	w.killers = [maxPly + 2][2]rules.WideMove{}
}

// aspiration is Engine.aspiration.
func (w *wideSearch) aspiration(p rules.WidePosition, root []rules.WideMove, d int, prev int32) (int32, int) {
	if w.e.plain || d < 4 || prev >= winBound || prev <= -winBound {
		return w.searchRoot(p, root, d, -infinity, infinity)
	}
	delta := int32(8)
	alpha, beta := prev-delta, prev+delta
	for {
		score, n := w.searchRoot(p, root, d, alpha, beta)
		switch {
		case w.e.aborted:
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

// searchRoot is Engine.searchRoot.
func (w *wideSearch) searchRoot(p rules.WidePosition, root []rules.WideMove, depth int, alpha, beta int32) (int32, int) {
	w.e.aborted = false
	w.pvLen[0] = 0
	best := int32(-infinity)
	alpha0 := alpha
	abortable := depth > 1
	for i, m := range root {
		score := w.searchMove(p.Play(m), i, 0, depth, 0, alpha, beta, true, abortable)
		if w.e.aborted {
			return best, i
		}
		if score > best {
			best = score
			if score > alpha || i == 0 {
				w.setPV(0, m)
			}
		}
		if score > alpha {
			alpha = score
			if score >= beta {
				break
			}
		}
	}
	w.tt.store(p.Hash(), best, w.pv[0][0], depth, 0, boundOf(best, alpha0, beta))
	return best, len(root)
}

// search is Engine.search.
func (w *wideSearch) search(p rules.WidePosition, depth, ply int, alpha, beta int32, pvNode, abortable bool) int32 {
	e := w.e
	w.pvLen[ply] = 0
	e.nodes++
	if abortable && e.nodes&1023 == 0 && e.clock.expired() {
		e.aborted = true
	}
	if e.aborted {
		return 0
	}
	if depth <= 0 || ply >= maxPly {
		return w.leaf(p, ply)
	}
	key := p.Hash()
	ttMove, score, cut := w.probe(key, depth, ply, alpha, beta, pvNode)
	if cut {
		return score
	}
	moves := p.LegalMoves(w.moves[ply][:0])
	if len(moves) == 0 {
		return -(WinScore - int32(ply))
	}
	keys := w.orderKeys(moves, ply, ttMove)
	alpha0 := alpha
	best, bestMove := int32(-infinity), rules.NoWideMove
	for i := range moves {
		wideSelectMove(moves, keys, i)
		m := moves[i]
		score := w.searchMove(p.Play(m), i, e.reduction(i, depth, keys[i]), depth, ply, alpha, beta, pvNode, abortable)
		if e.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				w.setPV(ply, m)
				if score >= beta {
					w.cutoff(m, i, depth, ply)
					break
				}
			}
		}
	}
	w.tt.store(key, best, bestMove, depth, ply, boundOf(best, alpha0, beta))
	return best
}

// leaf is Engine.leaf.
func (w *wideSearch) leaf(p rules.WidePosition, ply int) int32 {
	if p.Empty().Count() <= 1 {
		return 0
	}
	score, moves := w.e.Eval.evaluateWide(p)
	if moves == 0 {
		return -(WinScore - int32(ply))
	}
	return score
}

// probe is Engine.probe.
func (w *wideSearch) probe(key uint64, depth, ply int, alpha, beta int32, pvNode bool) (rules.WideMove, int32, bool) {
	e := w.e
	e.stats.probes++
	t := w.tt.probe(key)
	if t == nil {
		return rules.NoWideMove, 0, false
	}
	e.stats.hits++
	if int(t.depth) < depth {
		return t.move, 0, false
	}
	score := scoreFromTT(t.score, ply)
	f := t.bound()
	proven := score >= winBound || score <= -winBound
	if (!pvNode || proven) && (f == ttExact || f == ttLower && score >= beta || f == ttUpper && score <= alpha) {
		if t.move != rules.NoWideMove {
			w.pv[ply][0] = t.move
			w.pvLen[ply] = 1
		}
		e.stats.ttCuts++
		return t.move, score, true
	}
	return t.move, 0, false
}

// orderKeys is Engine.orderKeys.
func (w *wideSearch) orderKeys(moves []rules.WideMove, ply int, ttMove rules.WideMove) []int32 {
	keys := w.keys[ply][:len(moves)]
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	for i, m := range moves {
		switch m {
		case ttMove:
			keys[i] = 1 << 30
		case k0:
			keys[i] = 1 << 29
		case k1:
			keys[i] = 1<<29 - 1
		default:
			keys[i] = w.history[m.From][m.To]
		}
	}
	if w.e.plain {
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

// wideSelectMove is selectMove.
func wideSelectMove(moves []rules.WideMove, keys []int32, i int) {
	j := i
	for k := i + 1; k < len(moves); k++ {
		if keys[k] > keys[j] {
			j = k
		}
	}
	moves[i], moves[j] = moves[j], moves[i]
	keys[i], keys[j] = keys[j], keys[i]
}

// searchMove is Engine.searchMove.
func (w *wideSearch) searchMove(c rules.WidePosition, i, r, depth, ply int, alpha, beta int32, pvNode, abortable bool) int32 {
	switch {
	case w.e.plain:
		return -w.search(c, depth-1, ply+1, -beta, -alpha, false, abortable)
	case i == 0:
		return -w.search(c, depth-1, ply+1, -beta, -alpha, pvNode, abortable)
	}
	score := -w.search(c, depth-1-r, ply+1, -alpha-1, -alpha, false, abortable)
	if r > 0 && score > alpha && !w.e.aborted {
		score = -w.search(c, depth-1, ply+1, -alpha-1, -alpha, false, abortable)
	}
	if pvNode && score > alpha && score < beta && !w.e.aborted {
		score = -w.search(c, depth-1, ply+1, -beta, -alpha, true, abortable)
	}
	return score
}

// cutoff is Engine.cutoff.
func (w *wideSearch) cutoff(m rules.WideMove, i, depth, ply int) {
	e := w.e
	e.stats.cuts++
	if i == 0 {
		e.stats.firstCuts++
	}
	if k0 := w.killers[ply][0]; !e.plain && m != k0 {
		w.killers[ply][1], w.killers[ply][0] = k0, m
	}
	if h := &w.history[m.From][m.To]; *h < 1<<24 {
		*h += int32(depth * depth)
	}
}

// evaluateWide is evaluate on the wide layout: the same features, the
// same score.
func (w *Weights) evaluateWide(p rules.WidePosition) (score int32, moves int32) {
	valid := p.Valid()
	own, opp := p.Black, p.White
	if p.Turn == rules.White {
		own, opp = opp, own
	}
	empty := valid.AndNot(own.Or(opp))
	us := wideSideFeatures(own, opp, empty, valid)
	if us.moves == 0 {
		return 0, 0
	}
	them := wideSideFeatures(opp, own, empty, valid)
	score = w.Mobility*(us.moves-them.moves) + w.Safe*(us.safe-them.safe) +
		w.Potential*(us.potential-them.potential) + w.Tempo
	if w.Jumpers != 0 {
		score += w.Jumpers * int32(us.jumpers.Count()-them.jumpers.Count())
	}
	if w.Region != 0 {
		score += w.Region * wideReserve(us.jumpers, them.jumpers, own.Or(opp), valid)
	}
	return score, us.moves
}

// wideFeatures are features on the wide layout.
type wideFeatures struct {
	moves, safe, potential int32
	jumpers                rules.WideBitboard
}

// wideSideFeatures is sideFeatures on the wide layout, written out
// direction by direction (the direction steps inline; a loop over Step
// does not).
func wideSideFeatures(own, opp, empty, valid rules.WideBitboard) wideFeatures {
	n := func(b rules.WideBitboard) rules.WideBitboard { return b.North(valid) }
	s := func(b rules.WideBitboard) rules.WideBitboard { return b.South(valid) }
	e := func(b rules.WideBitboard) rules.WideBitboard { return b.East(valid) }
	w := func(b rules.WideBitboard) rules.WideBitboard { return b.West(valid) }
	pinchH := w(opp).And(e(empty)).Or(e(opp).And(w(empty)))
	pinchV := s(opp).And(n(empty)).Or(n(opp).And(s(empty)))
	var f wideFeatures
	f.jumpers = s(s(n(n(own).And(opp)).And(empty))).
		Or(n(n(s(s(own).And(opp)).And(empty)))).
		Or(w(w(e(e(own).And(opp)).And(empty)))).
		Or(e(e(w(w(own).And(opp)).And(empty))))
	// North.
	vuln := s(opp).Or(pinchH)
	for l := own; ; {
		if l = n(n(l).And(opp)).And(empty); l.IsZero() {
			break
		}
		f.moves += int32(l.Count())
		f.safe += int32(l.AndNot(vuln).Count())
	}
	f.potential += int32(n(n(own).And(opp)).AndNot(empty).Count())
	// South.
	vuln = n(opp).Or(pinchH)
	for l := own; ; {
		if l = s(s(l).And(opp)).And(empty); l.IsZero() {
			break
		}
		f.moves += int32(l.Count())
		f.safe += int32(l.AndNot(vuln).Count())
	}
	f.potential += int32(s(s(own).And(opp)).AndNot(empty).Count())
	// East.
	vuln = w(opp).Or(pinchV)
	for l := own; ; {
		if l = e(e(l).And(opp)).And(empty); l.IsZero() {
			break
		}
		f.moves += int32(l.Count())
		f.safe += int32(l.AndNot(vuln).Count())
	}
	f.potential += int32(e(e(own).And(opp)).AndNot(empty).Count())
	// West.
	vuln = e(opp).Or(pinchV)
	for l := own; ; {
		if l = w(w(l).And(opp)).And(empty); l.IsZero() {
			break
		}
		f.moves += int32(l.Count())
		f.safe += int32(l.AndNot(vuln).Count())
	}
	f.potential += int32(w(w(own).And(opp)).AndNot(empty).Count())
	return f
}

// wideReserve is reserve on the wide layout.
func wideReserve(ours, theirs, occ, valid rules.WideBitboard) int32 {
	var n int32
	for rest := ours.Or(theirs); !rest.IsZero(); {
		low := rest
		r := low.PopLSB().Bit()
		for {
			g := r
			for _, d := range rules.Directions {
				g = g.Or(r.Step(d, valid))
			}
			g = g.And(occ)
			if g == r {
				break
			}
			r = g
		}
		rest = rest.AndNot(r)
		switch a, b := ours.And(r), theirs.And(r); {
		case b.IsZero():
			n += int32(a.Count())
		case a.IsZero():
			n -= int32(b.Count())
		}
	}
	return n
}
