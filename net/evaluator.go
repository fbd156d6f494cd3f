package net

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// EvalOptions configures an Evaluator.
type EvalOptions struct {
	// Batch is the largest number of positions of one network run. The
	// evaluator also makes forward passes for the powers of two below it and
	// runs the smallest one that holds the positions waiting, padding the
	// rest of it.
	Batch int
	// Wait is how long a batch waits to fill once its first position has
	// arrived (0: run whatever is waiting at once).
	Wait time.Duration
	// CacheSize is the number of predictions remembered (0: no cache).
	CacheSize int
	// Backend is the arithmetic of the network's products: BackendFloat32
	// ("" means it) or BackendBF16.
	Backend string
}

// PlayEvalOptions returns options suited to interactive play and matches:
// a handful of games at a time, each asking for one position at a time,
// so a batch runs as soon as it arrives.
func PlayEvalOptions() EvalOptions {
	return EvalOptions{Batch: 16, Wait: 0, CacheSize: 1 << 16}
}

// DefaultEvalOptions returns options suited to 16-64 concurrent games.
func DefaultEvalOptions() EvalOptions {
	return EvalOptions{Batch: 32, Wait: time.Millisecond, CacheSize: 1 << 17}
}

// Validate reports the first option out of range.
func (o EvalOptions) Validate() error {
	switch {
	case o.Batch < 1 || o.Batch > 4096:
		return fmt.Errorf("net: evaluator batch %d outside 1..4096", o.Batch)
	case o.Wait < 0 || o.Wait > time.Second:
		return fmt.Errorf("net: evaluator wait %v outside 0..1s", o.Wait)
	case o.CacheSize < 0:
		return fmt.Errorf("net: negative cache size %d", o.CacheSize)
	}
	return CheckBackend(o.Backend)
}

// EvalStats counts what an Evaluator has done.
type EvalStats struct {
	Positions    int64 // positions asked for
	Terminal     int64 // of which had no legal move (answered without the net)
	CacheLookups int64 // cache look-ups
	CacheHits    int64 // of which found
	NetPositions int64 // positions run through the network
	Batches      int64 // network runs
	Padding      int64 // padding rows run along with them
}

// Sub returns the counts of s since an earlier reading, before.
func (s EvalStats) Sub(before EvalStats) EvalStats {
	return EvalStats{
		Positions:    s.Positions - before.Positions,
		Terminal:     s.Terminal - before.Terminal,
		CacheLookups: s.CacheLookups - before.CacheLookups,
		CacheHits:    s.CacheHits - before.CacheHits,
		NetPositions: s.NetPositions - before.NetPositions,
		Batches:      s.Batches - before.Batches,
		Padding:      s.Padding - before.Padding,
	}
}

// HitRate is CacheHits / CacheLookups (0 before any look-up).
func (s EvalStats) HitRate() float64 {
	if s.CacheLookups == 0 {
		return 0
	}
	return float64(s.CacheHits) / float64(s.CacheLookups)
}

// AvgBatch is the mean number of positions per network run.
func (s EvalStats) AvgBatch() float64 {
	if s.Batches == 0 {
		return 0
	}
	return float64(s.NetPositions) / float64(s.Batches)
}

// AvgFill is the mean fraction of a run's rows that held a position
// rather than padding.
func (s EvalStats) AvgFill() float64 {
	if s.NetPositions+s.Padding == 0 {
		return 0
	}
	return float64(s.NetPositions) / float64(s.NetPositions+s.Padding)
}

// ErrStopped is returned by Evaluate once Run has returned.
var ErrStopped = errors.New("net: evaluator stopped")

// Evaluator implements mcts.Evaluator with the network: many goroutines
// call Evaluate concurrently, and the one goroutine running Run gathers
// their positions into batches and runs the network on them. Evaluate
// blocks until Run has answered, so Run must be started (go e.Run(ctx))
// before positions are evaluated. SetWeights puts new weights of the same
// architecture into its forward passes, so that a training run builds
// one evaluator and keeps it for every generation.
type Evaluator struct {
	cfg    Config
	shape  int     // the board of every position (rules.ShapeCode: a Position's Size up to 8x8, 256+32W+H above)
	slot   []int32 // cfg.slotTable(shape)
	opts   EvalOptions
	mu     sync.Mutex     // held while a pass runs or the weights change
	passes []*forward     // increasing batch sizes, the last one opts.Batch
	fw     forwardWeights // the passes' weights
	cache  *cache[rules.Position]
	// wideCache is EvaluateWide's cache, made by its first call.
	wideCache atomic.Pointer[cache[rules.WidePosition]]
	requests  chan *request
	started   atomic.Bool
	stopped   chan struct{} // closed when Run returns

	parts []batchPart // Run's, reused by every batch

	positions, terminal, netPositions, batches, padding atomic.Int64
}

// batchPart is the positions of one request in one network run.
type batchPart struct {
	r         *request
	from, row int
	n         int
}

// request is the positions of one Evaluate call that need the network.
// Requests are reused (requestPool), buffers included, once answered.
type request struct {
	n      int
	miss   []int            // the n positions' indices in Evaluate's argument
	moves  []rules.Move     // their legal moves, one after the other
	wmoves []rules.WideMove // the same for EvaluateWide's positions
	from   []int            // n+1 offsets into moves
	inputs []float32        // n encoded positions
	logits []float32        // n policy rows, written by Run
	values []float32        // n values, written by Run
	taken  int              // positions already put in a batch (Run's)
	filled int              // positions answered (Run's)
	err    error            // set by Run before signalling done
	done   chan struct{}    // Run sends one value per use: answered or failed
}

var requestPool = sync.Pool{New: func() any { return &request{done: make(chan struct{}, 1)} }}

// resize returns s with length n, reallocated only if too small.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// NewEvaluator makes the forward passes of m for opts, for the board m
// plays (Model.Shape: a multi-board network needs ForBoard first). It
// starts no goroutine: the caller runs Run.
func NewEvaluator(m *Model, opts EvalOptions) (*Evaluator, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	shape := m.Shape()
	if shape == 0 {
		return nil, fmt.Errorf("net: evaluator of the multi-board %s network: no board given (Model.ForBoard)", m.cfg.Arch())
	}
	e := &Evaluator{cfg: m.cfg, shape: shape, slot: m.cfg.slotTable(shape), opts: opts, cache: newCache[rules.Position](opts.CacheSize),
		requests: make(chan *request), stopped: make(chan struct{})}
	fw, err := newForwardWeights(m.cfg, m.weights)
	if err != nil {
		return nil, err
	}
	e.fw = fw
	for b := 1; ; b *= 2 {
		if b > opts.Batch {
			b = opts.Batch
		}
		fwd, err := newForward(m.cfg, shape, b, fw)
		if err == nil && opts.Backend == BackendBF16 {
			err = fwd.useBF16()
		}
		if err != nil {
			return nil, err
		}
		e.passes = append(e.passes, fwd)
		if b == opts.Batch {
			break
		}
	}
	return e, nil
}

// SetWeights copies the weights of m, which must have the evaluator's
// architecture, into its forward passes and empties the cache: the
// evaluator then answers exactly as one newly built from m would. It is
// meant for the moments when no Evaluate call is in flight (between two
// generations of self-play); a call in flight may be answered with either
// weights. It is safe to call while Run is running.
func (e *Evaluator) SetWeights(m *Model) error {
	if m.cfg != e.cfg {
		return fmt.Errorf("net: evaluator of %s (size %d) given weights of %s (size %d)", e.cfg.Arch(), e.cfg.Size, m.cfg.Arch(), m.cfg.Size)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.fw.set(e.cfg, m.weights); err != nil {
		return err
	}
	for _, fwd := range e.passes {
		fwd.weightsChanged()
	}
	e.cache.clear()
	if c := e.wideCache.Load(); c != nil {
		c.clear()
	}
	return nil
}

// Size is the board of the network's inputs: its shape code, a
// Position's Size (N on the N×N board).
func (e *Evaluator) Size() int { return e.shape }

// Stats returns the counters so far.
func (e *Evaluator) Stats() EvalStats {
	var wideLookups, wideHits int64
	if c := e.wideCache.Load(); c != nil {
		wideLookups, wideHits = c.lookups.Load(), c.hits.Load()
	}
	return EvalStats{
		Positions:    e.positions.Load(),
		Terminal:     e.terminal.Load(),
		CacheLookups: e.cache.lookups.Load() + wideLookups,
		CacheHits:    e.cache.hits.Load() + wideHits,
		NetPositions: e.netPositions.Load(),
		Batches:      e.batches.Load(),
		Padding:      e.padding.Load(),
	}
}

// Evaluate returns the prediction of every position: the network's
// policy, softmaxed over the legal moves in LegalMoves order, and value
// (side to move's view). A position without legal moves gets an empty
// policy and value -1 without a network run. Positions must be of the
// network's size. It is safe for concurrent use.
func (e *Evaluator) Evaluate(ctx context.Context, ps []rules.Position) ([]mcts.Prediction, error) {
	preds := make([]mcts.Prediction, len(ps))
	for i, p := range ps {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("net: evaluate position %d: %w", i, err)
		}
		if int(p.Size) != e.shape {
			w, h := rules.ShapeDims(e.shape)
			return nil, fmt.Errorf("net: evaluate position %d: %w: a %s position for a %dx%d evaluator", i, ErrSize, p.Dims(), w, h)
		}
	}
	e.positions.Add(int64(len(ps)))
	r := requestPool.Get().(*request)
	r.miss, r.moves, r.from = r.miss[:0], r.moves[:0], r.from[:0]
	for i, p := range ps {
		if pred, ok := e.cache.get(p.Hash(), p); ok {
			preds[i] = pred
			continue
		}
		// The legal moves of a position are generated once: for the
		// terminal check, the input planes and the softmax over them.
		start := len(r.moves)
		r.moves = p.LegalMoves(r.moves)
		if len(r.moves) == start {
			e.terminal.Add(1)
			preds[i] = mcts.Prediction{Policy: []float32{}, Value: -1}
			continue
		}
		r.miss = append(r.miss, i)
		r.from = append(r.from, start)
	}
	if len(r.miss) == 0 {
		requestPool.Put(r)
		return preds, nil
	}
	r.from = append(r.from, len(r.moves))
	encoding := e.cfg.Encoding()
	enc, slots := encoding.EncodedLen(e.shape), e.cfg.Slots(e.shape)
	r.n, r.taken, r.filled, r.err = len(r.miss), 0, 0, nil
	r.inputs, r.logits, r.values = resize(r.inputs, r.n*enc), resize(r.logits, r.n*slots), resize(r.values, r.n)
	for k, i := range r.miss {
		encoding.encodeRows(ps[i], r.moves[r.from[k]:r.from[k+1]], r.inputs[k*enc:(k+1)*enc])
	}
	if err := e.submit(ctx, r); err != nil {
		return nil, err
	}
	// One backing array holds every policy of the call.
	pols := make([]float32, len(r.moves))
	for k, i := range r.miss {
		lo, hi := r.from[k], r.from[k+1]
		preds[i] = mcts.Prediction{Policy: pols[lo:hi:hi], Value: r.values[k]}
		softmaxMoves(r.moves[lo:hi], e.shape, e.slot, r.logits[k*slots:(k+1)*slots], preds[i].Policy)
		e.cache.put(ps[i].Hash(), ps[i], preds[i])
	}
	requestPool.Put(r)
	return preds, nil
}

// submit hands r to Run and waits for its answer.
func (e *Evaluator) submit(ctx context.Context, r *request) error {
	// A request abandoned on cancellation may still be answered by Run
	// later, so it is not returned to the pool.
	select {
	case e.requests <- r:
	case <-ctx.Done():
		return fmt.Errorf("net: evaluate: %w", ctx.Err())
	case <-e.stopped:
		return ErrStopped
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return fmt.Errorf("net: evaluate: %w", ctx.Err())
	}
}

// EvaluateWide is Evaluate for WidePositions, the positions of the boards
// no Position holds (and of those it does: a position both types hold
// gets the same prediction, bit for bit, either way). The policy is in
// WidePosition.LegalMoves order. Positions must be of the network's
// board. It is safe for concurrent use.
func (e *Evaluator) EvaluateWide(ctx context.Context, ps []rules.WidePosition) ([]mcts.Prediction, error) {
	w, h := rules.ShapeDims(e.shape)
	preds := make([]mcts.Prediction, len(ps))
	for i, p := range ps {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("net: evaluate position %d: %w", i, err)
		}
		if int(p.W) != w || int(p.H) != h {
			return nil, fmt.Errorf("net: evaluate position %d: %w: a %s position for a %dx%d evaluator", i, ErrSize, p.Dims(), w, h)
		}
	}
	if e.wideCache.Load() == nil {
		e.wideCache.CompareAndSwap(nil, newCache[rules.WidePosition](e.opts.CacheSize))
	}
	cache := e.wideCache.Load()
	e.positions.Add(int64(len(ps)))
	r := requestPool.Get().(*request)
	r.miss, r.wmoves, r.from = r.miss[:0], r.wmoves[:0], r.from[:0]
	for i, p := range ps {
		if pred, ok := cache.get(p.Hash(), p); ok {
			preds[i] = pred
			continue
		}
		start := len(r.wmoves)
		r.wmoves = p.LegalMoves(r.wmoves)
		if len(r.wmoves) == start {
			e.terminal.Add(1)
			preds[i] = mcts.Prediction{Policy: []float32{}, Value: -1}
			continue
		}
		r.miss = append(r.miss, i)
		r.from = append(r.from, start)
	}
	if len(r.miss) == 0 {
		requestPool.Put(r)
		return preds, nil
	}
	r.from = append(r.from, len(r.wmoves))
	encoding := e.cfg.Encoding()
	enc, slots := encoding.EncodedLen(e.shape), e.cfg.Slots(e.shape)
	r.n, r.taken, r.filled, r.err = len(r.miss), 0, 0, nil
	r.inputs, r.logits, r.values = resize(r.inputs, r.n*enc), resize(r.logits, r.n*slots), resize(r.values, r.n)
	for k, i := range r.miss {
		encoding.encodeWideRows(ps[i], r.wmoves[r.from[k]:r.from[k+1]], r.inputs[k*enc:(k+1)*enc])
	}
	if err := e.submit(ctx, r); err != nil {
		return nil, err
	}
	pols := make([]float32, len(r.wmoves))
	hops := e.cfg.hops()
	for k, i := range r.miss {
		lo, hi := r.from[k], r.from[k+1]
		preds[i] = mcts.Prediction{Policy: pols[lo:hi:hi], Value: r.values[k]}
		softmaxWideMoves(r.wmoves[lo:hi], w, hops, r.logits[k*slots:(k+1)*slots], preds[i].Policy)
		cache.put(ps[i].Hash(), ps[i], preds[i])
	}
	requestPool.Put(r)
	return preds, nil
}

// softmaxWideMoves is softmaxMoves for the moves of a WidePosition of a
// board of w files, for a network of hops hop counts per direction; it
// computes the same numbers in the same order.
func softmaxWideMoves(moves []rules.WideMove, w, hops int, logits, pol []float32) {
	exps := make([]float64, len(moves))
	maxL := math.Inf(-1)
	for _, m := range moves {
		maxL = max(maxL, float64(logits[wideSlot(m, w, hops)]))
	}
	var sum float64
	for j, m := range moves {
		exps[j] = math.Exp(float64(logits[wideSlot(m, w, hops)]) - maxL)
		sum += exps[j]
	}
	for j := range moves {
		pol[j] = float32(exps[j] / sum)
	}
}

// softmaxMoves writes into pol the softmax of the logits of the moves of
// a position of the shape code, whose actions' slots are slot.
func softmaxMoves(moves []rules.Move, shape int, slot []int32, logits, pol []float32) {
	var exps [rules.MaxMoves]float64
	maxL := math.Inf(-1)
	for _, m := range moves {
		maxL = max(maxL, float64(logits[slot[rules.ActionIndex(m, shape)]]))
	}
	var sum float64
	for j, m := range moves {
		exps[j] = math.Exp(float64(logits[slot[rules.ActionIndex(m, shape)]]) - maxL)
		sum += exps[j]
	}
	for j := range moves {
		pol[j] = float32(exps[j] / sum)
	}
}

// Run gathers the positions of concurrent Evaluate calls into batches and
// runs the network on them, until ctx is done; then the calls waiting get
// ErrStopped and so do later ones. It returns nil after ctx is done. Run
// may be called once.
func (e *Evaluator) Run(ctx context.Context) error {
	if !e.started.CompareAndSwap(false, true) {
		return errors.New("net: Evaluator.Run called twice")
	}
	defer close(e.stopped)
	var queue []*request // requests with positions not yet answered
	fail := func(err error) {
		for _, r := range queue {
			r.err = err
			r.done <- struct{}{}
		}
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		waiting := 0
		for _, r := range queue {
			waiting += r.n - r.taken
		}
		if waiting == 0 {
			select {
			case r := <-e.requests:
				queue = append(queue, r)
				waiting = r.n
			case <-ctx.Done():
				fail(ErrStopped)
				return nil
			}
		}
		// Fill the batch: take what is ready, then wait up to opts.Wait.
		timer.Reset(e.opts.Wait)
	fill:
		for waiting < e.opts.Batch {
			select {
			case r := <-e.requests:
				queue = append(queue, r)
				waiting += r.n
				continue
			default:
			}
			if e.opts.Wait == 0 {
				break fill
			}
			select {
			case r := <-e.requests:
				queue = append(queue, r)
				waiting += r.n
			case <-timer.C:
				break fill
			case <-ctx.Done():
				fail(ErrStopped)
				return nil
			}
		}
		timer.Stop()
		queue = e.runBatch(queue, min(waiting, e.opts.Batch))
	}
}

// runBatch runs the network on the first count waiting positions of the
// queue, answers them, and returns the queue without the requests fully
// answered.
func (e *Evaluator) runBatch(queue []*request, count int) []*request {
	fwd := e.passes[len(e.passes)-1]
	for _, f := range e.passes {
		if f.batch >= count {
			fwd = f
			break
		}
	}
	enc, slots := e.cfg.Encoding().EncodedLen(e.shape), e.cfg.Slots(e.shape)
	x := fwd.x
	parts := e.parts[:0]
	row := 0
	for _, r := range queue {
		if row == count {
			break
		}
		k := min(r.n-r.taken, count-row)
		if k == 0 {
			continue
		}
		copy(x[row*enc:(row+k)*enc], r.inputs[r.taken*enc:(r.taken+k)*enc])
		parts = append(parts, batchPart{r, r.taken, row, k})
		r.taken += k
		row += k
	}
	clear(x[row*enc:])
	e.mu.Lock()
	fwd.run()
	e.mu.Unlock()
	logits, values := fwd.logits(), fwd.values
	for _, p := range parts {
		copy(p.r.logits[p.from*slots:(p.from+p.n)*slots], logits[p.row*slots:(p.row+p.n)*slots])
		copy(p.r.values[p.from:p.from+p.n], values[p.row:p.row+p.n])
		p.r.filled += p.n
	}
	e.batches.Add(1)
	e.netPositions.Add(int64(count))
	e.padding.Add(int64(fwd.batch - count))
	rest := queue[:0]
	for _, r := range queue {
		if r.filled < r.n {
			rest = append(rest, r)
		}
	}
	// Only now answer the complete requests: once answered, a request
	// may be reused by another Evaluate call.
	for _, p := range parts {
		if p.r.filled == p.r.n {
			p.r.done <- struct{}{}
		}
	}
	clear(parts)
	e.parts = parts[:0]
	return rest
}
