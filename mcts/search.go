package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/konanezero/konane/rules"
)

// MaxSims bounds the simulations of one Run (it keeps node and edge
// indices far inside int32).
const MaxSims = 1 << 22

// maxTreeNodes and maxTreeEdges bound the tree across Runs that reuse it.
const (
	maxTreeNodes = math.MaxInt32 / 2
	maxTreeEdges = math.MaxInt32 / 2
)

// RunOptions are the per-move settings of a Run.
type RunOptions struct {
	// Sims is the number of simulations to run (0 means Config.Sims).
	// Visits kept from an earlier Run by tree reuse are extra: they are
	// not counted against this budget.
	Sims int
	// Noise turns on self-play exploration at the root: Dirichlet noise
	// on the priors in PUCT mode, Gumbel sampling of the considered moves
	// in Gumbel mode. Leave it off to play as well as possible.
	Noise bool
}

// ResultOf is the outcome of a Run of a search of moves M, seen by the
// side to move at the root: Result on the boards a Position holds,
// WideResult on every board.
type ResultOf[M any] struct {
	// Moves are the legal moves of the root, in LegalMoves order; the
	// other slices are parallel to it.
	Moves []M
	// Visits counts the simulations through each move, including visits
	// kept from earlier Runs by tree reuse.
	Visits []int
	// Q is the mean value of each move for the side to move, in [-1, 1];
	// it is 0 for a move with no visit.
	Q []float32
	// Prior is the evaluator's prior of each move (without noise, and
	// without Config.PolicyTemp).
	Prior []float32
	// Policy is the training target, summing to 1: the visit distribution
	// in PUCT mode, the improved policy softmax(log prior + σ(completed Q))
	// in Gumbel mode.
	Policy []float32
	// Value is the mean value of the root for the side to move; when
	// Proven, its exact value: 1 (won) or -1 (lost).
	Value float32
	// Proven reports that the search proved the root's value
	// (Config.Solver): every line to the end of the game, or to a
	// position the endgame solver settled, is in the tree.
	Proven bool
	// Best is the move the search recommends: the most visited in PUCT
	// mode, the winner of Sequential Halving in Gumbel mode (which, with
	// Noise, is already a sample: play it as is). With Config.Solver, a
	// proven win is always a winning move, and Best is never a move
	// proven to lose while another move is not.
	Best M
	// PV is the principal variation: Best, then the most visited reply,
	// and so on while the tree goes.
	PV []M
	// Sims is the number of simulations this Run performed. A Run stops
	// as soon as the root is proven, so it may be fewer than asked.
	Sims int
}

// MapResult is r with its moves (Moves, Best, PV) mapped by f, every
// other field as it is: r on another layout of the same moves (a
// Result on the wide layout, f rules.Move.Wide). A nil slice stays nil.
func MapResult[M, N any](r ResultOf[M], f func(M) N) ResultOf[N] {
	out := ResultOf[N]{
		Visits: r.Visits, Q: r.Q, Prior: r.Prior, Policy: r.Policy,
		Value: r.Value, Proven: r.Proven, Best: f(r.Best), Sims: r.Sims,
	}
	out.Moves, out.PV = mapMoves(r.Moves, f), mapMoves(r.PV, f)
	return out
}

// mapMoves is ms mapped by f (nil for nil).
func mapMoves[M, N any](ms []M, f func(M) N) []N {
	if ms == nil {
		return nil
	}
	out := make([]N, len(ms))
	for i, m := range ms {
		out[i] = f(m)
	}
	return out
}

// Result is the outcome of a Search's Run.
type Result = ResultOf[rules.Move]

// WideResult is the outcome of a WideSearch's Run.
type WideResult = ResultOf[rules.WideMove]

// position is what the search needs of its position type P with moves M:
// rules.Position or rules.WidePosition.
type position[P any, M comparable] interface {
	comparable
	Validate() error
	HasMoves() bool
	LegalMoves([]M) []M
	Play(M) P
}

// SearchOf is the tree search of one game on positions P with moves M:
// Search on the boards a Position holds, WideSearch on every board. It
// keeps its tree between Runs for reuse. A search is not safe for
// concurrent use; run one per game and let the games share a
// (concurrency-safe) evaluator, which sees one call of up to
// Config.LeafBatch positions at a time from each.
//
// The one implementation serves both position types; the same seed, the
// same positions and the same evaluator give the same result whichever
// type holds the position (on the boards both hold).
type SearchOf[P position[P, M], M comparable] struct {
	eval func(context.Context, []P) ([]Prediction, error)
	cfg  Config
	rng  *rand.Rand
	t    tree[P, M]
	eg   endgame[P, M]

	// Root state of the current Run.
	noise     bool
	rootPrior []float64 // PUCT: the priors at the root, with noise
	logits    []float64 // Gumbel: log prior at the root
	gumbel    []float64 // Gumbel: the sampled g (0 without noise)
	runVisits []int32   // Gumbel: root selections of each move in this Run
	selected  int       // Gumbel: sum of runVisits
	schedule  []int32   // Gumbel: Sequential Halving's target visit count per root selection
	halving   []int32   // scratch for schedule
	sims      int

	// The batch being gathered.
	pend  []pending
	paths []int32
	batch []P

	// Scratch.
	maxMoves int       // the most legal moves a position has (rules.MaxMoves, WideMaxMoves)
	moves    []M       // capacity maxMoves
	sig      []float64 // σ(q̂) of the children of one node
	eta      []float64 // Dirichlet sample
	prior    []float64 // priors of one node, length maxMoves: tempered in expand, untempered in result
}

// Search is the tree search on the positions of the boards a Position
// holds (up to 8x8).
type Search = SearchOf[rules.Position, rules.Move]

// WideSearch is the tree search on WidePositions, for the boards a
// Position does not hold (up to 16x16). Its endgame solver is off: the
// exact solver plays Positions only, so Config.SolveNodes is ignored
// (proofs of positions without moves still back up with Config.Solver).
type WideSearch = SearchOf[rules.WidePosition, rules.WideMove]

// pending is a leaf waiting for its evaluation: the node and its path
// from the root, paths[start:end].
type pending struct {
	node       int32
	start, end int32
}

// New returns a Search that evaluates positions with eval. seed fixes its
// random choices (root noise), so that with a deterministic evaluator the
// same seed and the same calls give the same results.
func New(eval Evaluator, cfg Config, seed uint64) (*Search, error) {
	if eval == nil {
		return nil, fmt.Errorf("mcts: new: nil evaluator")
	}
	s, err := newSearch(eval.Evaluate, cfg, seed, rules.NoMove, rules.MaxMoves)
	if err != nil {
		return nil, err
	}
	s.eg.prove = proveNarrow
	return s, nil
}

// NewWide is New for WidePositions: a WideSearch evaluating positions
// with eval (net.Evaluator.EvaluateWide, or Uniform's). The same seed and
// the same calls give the same results with a deterministic evaluator.
func NewWide(eval WideEvaluator, cfg Config, seed uint64) (*WideSearch, error) {
	if eval == nil {
		return nil, fmt.Errorf("mcts: new: nil evaluator")
	}
	return newSearch(eval.EvaluateWide, cfg, seed, rules.NoWideMove, rules.WideMaxMoves)
}

// newSearch is New and NewWide: none is the move never legal, maxMoves
// the most legal moves of a position.
func newSearch[P position[P, M], M comparable](eval func(context.Context, []P) ([]Prediction, error), cfg Config, seed uint64, none M, maxMoves int) (*SearchOf[P, M], error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &SearchOf[P, M]{eval: eval, cfg: cfg, rng: rand.New(rand.NewPCG(seed, 0x6d637473)),
		maxMoves: maxMoves, moves: make([]M, 0, maxMoves), prior: make([]float64, maxMoves)}
	s.t.solver, s.t.none = cfg.Solver, none
	return s, nil
}

// Config returns the search's configuration.
func (s *SearchOf[P, M]) Config() Config { return s.cfg }

// Reset drops the tree; the next Run starts from scratch.
func (s *SearchOf[P, M]) Reset() {
	s.t.nodes = s.t.nodes[:0]
	s.t.edges = s.t.edges[:0]
}

// Nodes returns the number of nodes in the tree.
func (s *SearchOf[P, M]) Nodes() int { return len(s.t.nodes) }

// Run searches pos and returns the statistics of its moves. With
// Config.Reuse, the subtree of the previous Run is kept when pos is its
// root or a position reached from it in one or two moves (the tree holds
// both sides' moves, so reuse works for self-play and for a player facing
// an opponent). A position without legal moves gives ErrNoMoves. After an
// error (from the evaluator, or ctx) the tree is dropped.
func (s *SearchOf[P, M]) Run(ctx context.Context, pos P, opts RunOptions) (ResultOf[M], error) {
	if err := pos.Validate(); err != nil {
		return ResultOf[M]{}, fmt.Errorf("mcts: run: %w", err)
	}
	budget := opts.Sims
	if budget == 0 {
		budget = s.cfg.Sims
	}
	if budget < 1 || budget > MaxSims {
		return ResultOf[M]{}, fmt.Errorf("mcts: run: %d simulations: want 1..%d (0 for the configured %d)", opts.Sims, MaxSims, s.cfg.Sims)
	}
	if !pos.HasMoves() {
		return ResultOf[M]{}, ErrNoMoves
	}
	if err := ctx.Err(); err != nil {
		return ResultOf[M]{}, fmt.Errorf("mcts: run: %w", err)
	}
	s.setRoot(pos)
	if err := s.run(ctx, budget, opts.Noise); err != nil {
		s.Reset()
		return ResultOf[M]{}, err
	}
	return s.result(), nil
}

// setRoot makes pos the root, reusing the matching subtree if allowed.
func (s *SearchOf[P, M]) setRoot(pos P) {
	if s.cfg.Reuse {
		if r := s.t.findDescendant(pos); r >= 0 {
			s.t.promote(r)
			return
		}
	}
	s.t.reset(pos)
}

func (s *SearchOf[P, M]) run(ctx context.Context, budget int, noise bool) error {
	if s.t.nodes[0].state == stateNew {
		// Evaluate the root on its own; this is not a simulation.
		s.pend, s.paths = s.pend[:0], append(s.paths[:0], 0)
		s.t.nodes[0].vl++
		s.t.nodes[0].state = statePending
		s.pend = append(s.pend, pending{node: 0, start: 0, end: 1})
		if err := s.evaluate(ctx); err != nil {
			return err
		}
	}
	s.proveRoot()
	s.prepareRoot(budget, noise)
	s.sims = 0
	for s.sims < budget && !s.rootProven() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("mcts: run: %w", ctx.Err())
		default:
		}
		if len(s.t.nodes) > maxTreeNodes-s.cfg.LeafBatch || len(s.t.edges) > maxTreeEdges-s.cfg.LeafBatch*s.maxMoves {
			return fmt.Errorf("mcts: run: the tree is full (%d nodes, %d edges)", len(s.t.nodes), len(s.t.edges))
		}
		s.gather(budget)
		if len(s.pend) > 0 {
			if err := s.evaluate(ctx); err != nil {
				return err
			}
			s.sims += len(s.pend)
		}
	}
	return nil
}

// gather descends from the root up to LeafBatch times, stopping early
// when a descent runs into a leaf already in the batch. Descents that end
// on a terminal node are backed up at once.
func (s *SearchOf[P, M]) gather(budget int) {
	s.pend, s.paths = s.pend[:0], s.paths[:0]
	for len(s.pend) < s.cfg.LeafBatch && s.sims+len(s.pend) < budget && !s.rootProven() {
		if !s.descend() {
			return
		}
	}
}

// descend walks from the root to a leaf, adding a virtual loss to every
// node on the way. It reports false on a collision with a pending leaf
// (the walk is undone).
func (s *SearchOf[P, M]) descend() bool {
	start := int32(len(s.paths))
	rootMove := int32(-1)
	for idx := int32(0); ; {
		nd := &s.t.nodes[idx]
		nd.vl++
		s.paths = append(s.paths, idx)
		if idx != 0 && s.cfg.Solver && (nd.proof != 0 || nd.state == stateNew && s.solveLeaf(idx)) {
			// A proven node (the search never chooses one while an
			// unproven move remains; kept safe here) or a leaf the
			// endgame solver just settled: back up the exact value.
			s.backup(s.paths[start:], float32(s.t.nodes[idx].proof))
			s.paths = s.paths[:start]
			s.sims++
			return true
		}
		switch nd.state {
		case stateTerminal:
			s.backup(s.paths[start:], -1)
			s.paths = s.paths[:start]
			s.sims++
			return true
		case stateNew:
			nd.state = statePending
			s.pend = append(s.pend, pending{node: idx, start: start, end: int32(len(s.paths))})
			return true
		case statePending:
			for _, i := range s.paths[start:] {
				s.t.nodes[i].vl--
			}
			s.paths = s.paths[:start]
			if rootMove >= 0 && s.cfg.Gumbel {
				s.runVisits[rootMove]--
				s.selected--
			}
			return false
		}
		var e int32
		if idx == 0 {
			e = s.selectRoot()
			rootMove = e - nd.first
		} else if s.cfg.Gumbel {
			e = s.selectGumbel(idx)
		} else {
			e = s.selectPUCT(idx, nil)
		}
		child := s.t.edges[e].child
		if child == 0 {
			child = s.t.newChild(idx, e)
		}
		idx = child
	}
}

// backup adds the value v, seen by the side to move at the last node of
// path, to every node of path, and removes their virtual losses. With
// proofs on, it then carries a proof of the leaf up the path.
func (s *SearchOf[P, M]) backup(path []int32, v float32) {
	x := -float64(v) // for the player who moved into the leaf
	for i := len(path) - 1; i >= 0; i-- {
		nd := &s.t.nodes[path[i]]
		nd.n++
		nd.vl--
		nd.w += x
		x = -x
	}
	if s.cfg.Solver {
		s.propagate(path)
	}
}

// evaluate sends the pending leaves to the evaluator, expands them and
// backs up their values.
func (s *SearchOf[P, M]) evaluate(ctx context.Context) error {
	s.batch = s.batch[:0]
	for _, p := range s.pend {
		s.batch = append(s.batch, s.t.nodes[p.node].pos)
	}
	preds, err := s.eval(ctx, s.batch)
	if err != nil {
		return fmt.Errorf("mcts: evaluate: %w", err)
	}
	if len(preds) != len(s.batch) {
		return fmt.Errorf("mcts: evaluate: %d predictions for %d positions", len(preds), len(s.batch))
	}
	for k, p := range s.pend {
		v, err := s.expand(p.node, preds[k])
		if err != nil {
			return err
		}
		s.backup(s.paths[p.start:p.end], v)
	}
	return nil
}

// tempered returns the evaluator's prior p raised to 1/PolicyTemp (not yet
// renormalized).
func (s *SearchOf[P, M]) tempered(p float32) float64 {
	if s.cfg.PolicyTemp == 0 || s.cfg.PolicyTemp == 1 {
		return float64(p)
	}
	return math.Pow(float64(p), 1/s.cfg.PolicyTemp)
}

// untemper turns the tempered priors of one node's moves back into the
// evaluator's: (p^(1/T))^T, renormalized, is p.
func (s *SearchOf[P, M]) untemper(prior []float32) {
	if s.cfg.PolicyTemp == 0 || s.cfg.PolicyTemp == 1 {
		return
	}
	p := s.prior[:len(prior)]
	var sum float64
	for i, x := range prior {
		p[i] = math.Pow(float64(x), s.cfg.PolicyTemp)
		sum += p[i]
	}
	for i := range prior {
		prior[i] = float32(p[i] / sum)
	}
}

// expand gives node idx its edges from the prediction and returns the
// predicted value.
func (s *SearchOf[P, M]) expand(idx int32, pred Prediction) (float32, error) {
	pos := s.t.nodes[idx].pos
	moves := pos.LegalMoves(s.moves[:0])
	if len(pred.Policy) != len(moves) {
		return 0, fmt.Errorf("mcts: evaluate: %d priors for the %d legal moves of a position", len(pred.Policy), len(moves))
	}
	v := pred.Value
	if !(v >= -1.001 && v <= 1.001) {
		return 0, fmt.Errorf("mcts: evaluate: value %v outside [-1, 1]", v)
	}
	v = min(max(v, -1), 1)
	for _, p := range pred.Policy {
		if !(p >= 0) || math.IsInf(float64(p), 1) {
			return 0, fmt.Errorf("mcts: evaluate: prior %v is not a probability", p)
		}
	}
	prior := s.prior[:len(moves)]
	var sum float64
	for i, p := range pred.Policy {
		prior[i] = s.tempered(p)
		sum += prior[i]
	}
	if !(sum > 0) || math.IsInf(sum, 1) {
		return 0, fmt.Errorf("mcts: evaluate: the priors sum to %v", sum)
	}
	first := int32(len(s.t.edges))
	for i, m := range moves {
		s.t.edges = append(s.t.edges, edge[M]{move: m, prior: float32(prior[i] / sum)})
	}
	nd := &s.t.nodes[idx]
	nd.first, nd.nEdges, nd.value, nd.state = first, uint16(len(moves)), v, stateExpanded
	if s.cfg.Solver && nd.proof == 0 {
		// A move that leaves the opponent without a move wins at once.
		for k, m := range moves {
			if !pos.Play(m).HasMoves() {
				s.t.newChild(idx, first+int32(k))
				nd = &s.t.nodes[idx]
				nd.proof, nd.win = 1, m
				break
			}
		}
	}
	if s.cfg.Solver && nd.proof != 0 {
		v = float32(nd.proof)
	}
	return v, nil
}

// selectRoot picks the move to try at the root.
func (s *SearchOf[P, M]) selectRoot() int32 {
	if s.cfg.Gumbel {
		return s.selectGumbelRoot()
	}
	return s.selectPUCT(0, s.rootPrior)
}

// prepareRoot sets up the root noise and, in Gumbel mode, the
// Sequential Halving schedule for a Run of budget simulations.
func (s *SearchOf[P, M]) prepareRoot(budget int, noise bool) {
	s.noise = noise
	edges := s.t.children(0)
	n := len(edges)
	if !s.cfg.Gumbel {
		s.rootPrior = resize(s.rootPrior, n)
		for i := range edges {
			s.rootPrior[i] = float64(edges[i].prior)
		}
		if noise && s.cfg.NoiseFraction > 0 {
			s.addDirichlet(s.rootPrior)
		}
		return
	}
	s.logits = resize(s.logits, n)
	s.gumbel = resize(s.gumbel, n)
	s.runVisits = resize(s.runVisits, n)
	for i := range edges {
		s.logits[i] = logPrior(edges[i].prior)
		s.gumbel[i] = 0
		if noise {
			s.gumbel[i] = sampleGumbel(s.rng)
		}
		s.runVisits[i] = 0
	}
	s.selected = 0
	s.schedule, s.halving = halvingSchedule(min(s.cfg.GumbelSampled, n), budget, s.schedule, s.halving)
}

// addDirichlet mixes Dirichlet noise of concentration
// DirichletAlpha/len(prior) into prior.
func (s *SearchOf[P, M]) addDirichlet(prior []float64) {
	eps := s.cfg.NoiseFraction
	s.eta = dirichlet(s.rng, s.cfg.DirichletAlpha/float64(len(prior)), s.eta[:0], len(prior))
	eta := s.eta
	for i := range prior {
		prior[i] = (1-eps)*prior[i] + eps*eta[i]
	}
}

// result builds the Result of the finished Run.
func (s *SearchOf[P, M]) result() ResultOf[M] {
	edges := s.t.children(0)
	n := len(edges)
	r := ResultOf[M]{
		Moves:  make([]M, n),
		Visits: make([]int, n),
		Q:      make([]float32, n),
		Prior:  make([]float32, n),
		Policy: make([]float32, n),
		Sims:   s.sims,
	}
	root := &s.t.nodes[0]
	r.Value = float32(-root.w / float64(root.n))
	if s.rootProven() {
		r.Value, r.Proven = float32(root.proof), true
	}
	for i := range edges {
		r.Moves[i] = edges[i].move
		r.Prior[i] = edges[i].prior
		visits, q := s.t.childStats(&edges[i])
		r.Visits[i], r.Q[i] = int(visits), float32(q)
	}
	s.untemper(r.Prior)
	var best int
	if s.cfg.Gumbel {
		s.improvedPolicy(0, r.Policy)
		best = s.gumbelWinner()
	} else {
		for i := range edges {
			r.Policy[i] = float32(r.Visits[i])
		}
		best = s.bestChild(0)
	}
	s.maskPolicy(r.Policy, best)
	r.Best = edges[best].move
	r.PV = append(r.PV, r.Best)
	for idx := edges[best].child; idx != 0 && s.t.nodes[idx].state == stateExpanded; {
		i := s.bestChild(idx)
		e := s.t.children(idx)[i]
		if e.child == 0 {
			break
		}
		r.PV = append(r.PV, e.move)
		idx = e.child
	}
	return r
}

// maskPolicy makes policy (unnormalized weights of the root's moves)
// a distribution over the moves the proofs allow (see allowed), one-hot
// on best when those have no weight.
func (s *SearchOf[P, M]) maskPolicy(policy []float32, best int) {
	edges := s.t.children(0)
	mask := s.allowed(0)
	var sum float64
	for i := range policy {
		if !s.t.allows(mask, &edges[i]) {
			policy[i] = 0
		}
		sum += float64(policy[i])
	}
	if !(sum > 0) {
		clear(policy)
		policy[best] = 1
		return
	}
	for i := range policy {
		policy[i] = float32(float64(policy[i]) / sum)
	}
}

// allowance is the test of the moves of a node that the proofs leave to
// choose from (see allowed).
type allowance uint8

const (
	allowAll      allowance = iota // every move
	allowWins                      // the proven wins
	allowNotLosts                  // the moves not proven to lose
)

// allows reports whether a lets the move behind edge e be chosen.
func (t *tree[P, M]) allows(a allowance, e *edge[M]) bool {
	switch a {
	case allowWins:
		return t.provenWin(e)
	case allowNotLosts:
		return !t.provenLoss(e)
	}
	return true
}

// allowed returns the test of the moves of node idx that the proofs
// leave to choose from: the proven wins if the node is proven won, else
// the moves not proven to lose if there is one, else every move. (A
// value, not a closure: a closure of the generic search would be
// allocated on every call.)
func (s *SearchOf[P, M]) allowed(idx int32) allowance {
	if !s.cfg.Solver {
		return allowAll
	}
	edges := s.t.children(idx)
	if s.t.nodes[idx].proof > 0 {
		for i := range edges {
			if s.t.provenWin(&edges[i]) {
				return allowWins
			}
		}
		return allowAll // cannot happen: proveRoot and propagate create the winning child
	}
	for i := range edges {
		if !s.t.provenLoss(&edges[i]) {
			return allowNotLosts
		}
	}
	return allowAll
}

// bestChild returns the index (among its edges) of node idx's most
// visited move among those allowed by the proofs; ties go to the higher
// mean value, then the higher prior.
func (s *SearchOf[P, M]) bestChild(idx int32) int {
	edges := s.t.children(idx)
	ok := s.allowed(idx)
	best, bestN, bestQ, bestP := -1, int32(-1), 0.0, float32(0)
	for i := range edges {
		if !s.t.allows(ok, &edges[i]) {
			continue
		}
		n, q := s.t.childStats(&edges[i])
		p := edges[i].prior
		if n > bestN || n == bestN && (q > bestQ || q == bestQ && p > bestP) {
			best, bestN, bestQ, bestP = i, n, q, p
		}
	}
	return best
}

func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}
