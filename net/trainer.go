package net

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/konanezero/konane/rules"
	"gorgonia.org/tensor"
)

// TrainOptions configures a Trainer: stochastic gradient descent with
// momentum, L2 weight decay and a step schedule of the learning rate.
type TrainOptions struct {
	Batch       int     // samples per step; every Step gets exactly this many
	LR          float64 // learning rate after the warm-up
	Momentum    float64 // heavy-ball momentum, 0..1
	WeightDecay float64 // c of the loss term c·Σw² over the weights (not the biases)
	// The learning rate rises linearly from LR/WarmupSteps to LR over the
	// first WarmupSteps steps, then is multiplied by DecayFactor at each
	// step listed in DecaySteps (in increasing order).
	WarmupSteps int64
	DecaySteps  []int64
	DecayFactor float64
	// Augment applies a random symmetry of the board to each sample, drawn
	// from a generator seeded with Seed.
	Augment bool
	Seed    uint64
}

// DefaultTrainOptions returns the options used by self-play training.
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{Batch: 64, LR: 0.02, Momentum: 0.9, WeightDecay: 1e-4, WarmupSteps: 50, DecayFactor: 0.1, Augment: true}
}

// Validate reports the first option out of range.
func (o TrainOptions) Validate() error {
	switch {
	case o.Batch < 1 || o.Batch > 4096:
		return fmt.Errorf("net: batch %d outside 1..4096", o.Batch)
	case !(o.LR > 0 && o.LR < 10):
		return fmt.Errorf("net: learning rate %v outside (0, 10)", o.LR)
	case !(o.Momentum >= 0 && o.Momentum < 1):
		return fmt.Errorf("net: momentum %v outside [0, 1)", o.Momentum)
	case !(o.WeightDecay >= 0 && o.WeightDecay < 1):
		return fmt.Errorf("net: weight decay %v outside [0, 1)", o.WeightDecay)
	case o.WarmupSteps < 0:
		return fmt.Errorf("net: negative warm-up %d", o.WarmupSteps)
	case len(o.DecaySteps) > 0 && !(o.DecayFactor > 0 && o.DecayFactor <= 1):
		return fmt.Errorf("net: decay factor %v outside (0, 1]", o.DecayFactor)
	}
	for i, s := range o.DecaySteps {
		if s < 0 || i > 0 && s <= o.DecaySteps[i-1] {
			return fmt.Errorf("net: decay steps %v are not increasing and non-negative", o.DecaySteps)
		}
	}
	return nil
}

// LRAt returns the learning rate of step (counted from 0).
func (o TrainOptions) LRAt(step int64) float64 {
	lr := o.LR
	if step < o.WarmupSteps {
		lr *= float64(step+1) / float64(o.WarmupSteps)
	}
	for _, s := range o.DecaySteps {
		if step >= s {
			lr *= o.DecayFactor
		}
	}
	return lr
}

// Losses are the terms of the loss of one step, averaged over the batch
// and measured before the step's update.
type Losses struct {
	Policy float64 // cross-entropy of the masked policy against the target
	Value  float64 // squared error of the value
	L2     float64 // WeightDecay · Σw²
	// The auxiliary heads' terms (Config.Aux), weighted as in the loss;
	// 0 for a head the network does not have.
	Ownership, MovesLeft float64
	Total                float64 // Policy + Value + L2 + Ownership + MovesLeft
	LR                   float64 // learning rate used by the step
}

// Trainer trains a copy of a model's weights. It is not safe for
// concurrent use; Model snapshots are.
//
// A multi-board network trains one board per step (every sample of a
// batch of the same board), each board on a graph of its own; the graphs
// share the trainer's one copy of the weights and its momentum, so a step
// on one board moves the weights of all. No padding, no masking: a board's
// step computes exactly what a single-board network of that board would.
type Trainer struct {
	cfg      Config
	opts     TrainOptions
	base     Metadata             // metadata of the model trained from
	weights  map[string][]float32 // the weights, the backing of every graph's
	graphs   map[int]*graph       // by board (shape code), built on first use
	gr       *graph               // the graph of the last step's board (or the first built)
	momentum [][]float32          // per parameter, in cfg.params() order
	step     int64                // steps taken since the start of the run
	pcg      *rand.PCG
	rng      *rand.Rand
	legal    []rules.Move
	// wideLegal receives a wide sample's legal moves.
	wideLegal []rules.WideMove
	// zeroPlanes lists input planes cleared after encoding: only for the
	// feature ablation of TestMeasureArchitectures.
	zeroPlanes []int
}

// NewTrainer copies m's weights and builds the training graph of its
// architecture for opts.Batch samples of the board m plays (Model.Shape);
// a multi-board network builds each board's graph when the first batch
// of that board comes.
func NewTrainer(m *Model, opts TrainOptions) (*Trainer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	t := &Trainer{cfg: m.cfg, opts: opts, base: m.meta, graphs: make(map[int]*graph),
		weights: make(map[string][]float32, len(m.weights)), legal: make([]rules.Move, 0, rules.MaxMoves),
		wideLegal: make([]rules.WideMove, 0, rules.WideMaxMoves)}
	for _, p := range m.cfg.params() {
		t.weights[p.name] = slices.Clone(m.weights[p.name])
		t.momentum = append(t.momentum, make([]float32, prod(p.shape)))
	}
	if shape := m.Shape(); shape != 0 {
		gr, err := t.graph(shape)
		if err != nil {
			return nil, err
		}
		t.gr = gr
	}
	t.pcg = rand.NewPCG(opts.Seed, 0x747261696e) // stream "train"
	t.rng = rand.New(t.pcg)
	return t, nil
}

// graph returns the training graph of the board of the shape code,
// building it on first use.
func (t *Trainer) graph(shape int) (*graph, error) {
	if gr, ok := t.graphs[shape]; ok {
		return gr, nil
	}
	gr, err := buildGraph(t.cfg, shape, t.opts.Batch, t.weights, tensor.Float32, true)
	if err != nil {
		return nil, err
	}
	t.graphs[shape] = gr
	return gr, nil
}

// rectangleSymmetries are the symmetries that keep a rectangle's shape.
var rectangleSymmetries = [4]rules.Symmetry{rules.Identity, rules.Rotate180, rules.FlipFiles, rules.FlipRanks}

// Steps returns the number of steps taken (including those of a loaded
// checkpoint).
func (t *Trainer) Steps() int64 { return t.step }

// Options returns the options in force (those of a loaded checkpoint).
func (t *Trainer) Options() TrainOptions { return t.opts }

// Step trains on one batch of exactly Options().Batch samples, all of one
// board, and returns the losses measured before the update. A sample that
// cannot train the network (another board than the batch's first or than
// a single-board network's, a terminal position, a policy on illegal
// moves, a value outside [-1, 1]) is an error, and then nothing is
// changed. Augment draws one of the 8 symmetries on a square board, one
// of the 4 that keep the board on a rectangle.
func (t *Trainer) Step(batch []Sample) (Losses, error) {
	if len(batch) != t.opts.Batch {
		return Losses{}, fmt.Errorf("net: training batch of %d samples, the trainer takes %d", len(batch), t.opts.Batch)
	}
	n := batch[0].Shape()
	// Check every sample before drawing symmetries, so that an error leaves
	// the generator, and so the run, unchanged.
	for i, s := range batch {
		if s.Shape() != n || s.IsWide() != batch[0].IsWide() {
			return Losses{}, fmt.Errorf("net: training sample %d: a %s position in a batch of %s ones (one board per batch)", i, s.Dims(), batch[0].Dims())
		}
		var err error
		if s.IsWide() {
			_, err = s.checkWide(t.cfg, t.wideLegal)
		} else {
			_, err = s.check(t.cfg, t.legal)
		}
		if err != nil {
			return Losses{}, fmt.Errorf("net: training sample %d: %w", i, err)
		}
	}
	gr, err := t.graph(n)
	if err != nil {
		return Losses{}, err
	}
	t.gr = gr
	slot := t.cfg.slotTable(n)
	bw, bh := rules.ShapeDims(n)
	square := bw == bh
	encoding := t.cfg.Encoding()
	slots, enc, planes := t.cfg.slots(n), encoding.EncodedLen(n), encoding.Planes()
	nn := enc / planes
	x := data32(t.gr.x)
	mask := data32(t.gr.mask)
	tp := data32(t.gr.targetPolicy)
	tv := data32(t.gr.targetValue)
	clear(tp)
	for i := range mask {
		mask[i] = maskedLogit
	}
	for i, s := range batch {
		switch {
		case t.opts.Augment && square:
			s = s.Transform(rules.Symmetry(t.rng.IntN(rules.NumSymmetries)))
		case t.opts.Augment:
			s = s.Transform(rectangleSymmetries[t.rng.IntN(len(rectangleSymmetries))])
		}
		row := mask[i*slots : (i+1)*slots]
		var sum float32
		for _, ap := range s.Policy {
			sum += ap.Prob
		}
		if s.IsWide() {
			moves := s.Wide.LegalMoves(t.wideLegal[:0])
			encoding.encodeWideRows(s.Wide, moves, x[i*enc:(i+1)*enc])
			hops := t.cfg.hops()
			for _, m := range moves {
				row[wideSlot(m, bw, hops)] = 0
			}
			for _, ap := range s.Policy {
				tp[i*slots+wideSlot(rules.WideActionMove(int(ap.Action), bw, bh), bw, hops)] += ap.Prob / sum
			}
		} else {
			moves := s.Position.LegalMoves(t.legal[:0])
			encoding.encodeRows(s.Position, moves, x[i*enc:(i+1)*enc])
			for _, m := range moves {
				row[slot[rules.ActionIndex(m, n)]] = 0
			}
			for _, ap := range s.Policy {
				tp[i*slots+int(slot[ap.Action])] += ap.Prob / sum
			}
		}
		for _, pl := range t.zeroPlanes {
			for sq := 0; sq < nn; sq++ {
				x[i*enc+sq*planes+pl] = 0
			}
		}
		tv[i] = s.Value
		t.auxTargets(i, s)
	}
	if err := t.gr.run(); err != nil {
		return Losses{}, err
	}
	l := Losses{Policy: t.gr.policyLoss.last, Value: t.gr.valueLoss.last, LR: t.opts.LRAt(t.step)}
	if t.gr.ownershipLoss != nil {
		l.Ownership = t.gr.ownershipLoss.last
	}
	if t.gr.movesLeftLoss != nil {
		l.MovesLeft = t.gr.movesLeftLoss.last
	}
	if sum := l.Policy + l.Value + l.Ownership + l.MovesLeft; math.IsNaN(sum) || math.IsInf(sum, 0) {
		return l, errors.New("net: training step: the loss is not finite (learning rate too high?)")
	}
	l.L2 = t.update(l.LR)
	l.Total = l.Policy + l.Value + l.L2 + l.Ownership + l.MovesLeft
	t.step++
	return l, nil
}

// auxTargets writes the auxiliary heads' targets of sample s (already
// transformed) as row i of the batch (see auxRow).
func (t *Trainer) auxTargets(i int, s Sample) {
	if t.gr.auxWeight == nil {
		return
	}
	w, h := rules.ShapeDims(s.Shape())
	nn := w * h
	var own []float32
	if t.gr.targetOwnership != nil {
		own = data32(t.gr.targetOwnership)[i*nn : (i+1)*nn]
	}
	weight, ml := auxRow(s, w, h, own)
	data32(t.gr.auxWeight)[i] = weight
	if t.gr.targetMovesLeft != nil {
		data32(t.gr.targetMovesLeft)[i] = ml
	}
}

// auxRow writes the ownership target of s, a sample of a board of w files
// and h ranks (1 on every square holding a stone at the game's end,
// square (row, col) at row·W + col), into own, unless it is nil, and
// returns the sample's weight in the auxiliary losses (1 if it has
// auxiliary targets, else 0) and its moves-left target.
func auxRow(s Sample, w, h int, own []float32) (weight, movesLeft float32) {
	for r := 0; r < h && own != nil; r++ {
		for c := 0; c < w; c++ {
			if s.IsWide() {
				own[r*w+c] = 0
				if s.WideFinal.Has(rules.WideSquareAt(r, c)) {
					own[r*w+c] = 1
				}
				continue
			}
			own[r*w+c] = float32(s.Final >> rules.SquareAt(r, c) & 1)
		}
	}
	if !s.HasAux() {
		return 0, 0
	}
	return 1, movesLeftTarget(s.MovesLeft, w*h)
}

// update applies one step of momentum SGD to every parameter, with the
// gradient of the weight decay term added, clears the gradients, and
// returns the weight decay term before the update.
func (t *Trainer) update(lr float64) (l2 float64) {
	wd, mu := float32(t.opts.WeightDecay), float32(t.opts.Momentum)
	for i, p := range t.gr.params {
		w := data32(p)
		gv, _ := p.Grad()
		g := gv.Data().([]float32)
		v := t.momentum[i]
		decay := t.gr.specs[i].decay
		var sq float64
		for j := range w {
			d := g[j]
			if decay {
				sq += float64(w[j]) * float64(w[j])
				d += 2 * wd * w[j]
			}
			v[j] = mu*v[j] + d
			w[j] -= float32(lr) * v[j]
			g[j] = 0
		}
		l2 += float64(wd) * sq
	}
	return l2
}

// Model returns a snapshot of the current weights as an immutable Model
// with the given metadata; Steps, if zero, is set to the trainer's step
// count and Created, if zero, to now.
func (t *Trainer) Model(meta Metadata) (*Model, error) {
	w := make(map[string][]float32, len(t.weights))
	for name, x := range t.weights {
		w[name] = slices.Clone(x) // every graph's weights: they share them
	}
	if meta.Steps == 0 {
		meta.Steps = t.step
	}
	if meta.Created.IsZero() {
		meta.Created = time.Now().UTC()
	}
	m := &Model{cfg: t.cfg, meta: meta, weights: w}
	m.fixMeta()
	return m, nil
}

// SetLR sets the learning rate after the warm-up (TrainOptions.LR) from
// the next step on, as a schedule by generation does; a checkpoint saved
// later keeps it.
func (t *Trainer) SetLR(lr float64) error {
	if !(lr > 0 && lr < 10) {
		return fmt.Errorf("net: learning rate %v outside (0, 10)", lr)
	}
	t.opts.LR = lr
	return nil
}
