package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"gorgonia.org/tensor"
)

// Trainer trains a copy of a model's weights. It is not safe for
// concurrent use; net.Model snapshots are.
//
// A multi-board network trains one board per step (every sample of a
// batch of the same board), each board on a graph of its own; the graphs
// share the trainer's one copy of the weights and its momentum, so a step
// on one board moves the weights of all. No padding, no masking: a board's
// step computes exactly what a single-board network of that board would.
type Trainer struct {
	cfg      net.Config
	opts     net.TrainOptions
	base     net.Metadata         // metadata of the model trained from
	weights  map[string][]float32 // the weights, the backing of every graph's
	graphs   map[int]*graph       // by board (shape code), built on first use
	gr       *graph               // the graph of the last step's board (or the first built)
	momentum [][]float32          // per parameter, in cfg.Params() order
	step     int64                // steps taken since the start of the run
	pcg      *rand.PCG
	rng      *rand.Rand
	// zeroPlanes lists input planes cleared after encoding: only for the
	// feature ablation of TestMeasureArchitectures.
	zeroPlanes []int
}

// New copies m's weights and builds the training graph of its
// architecture for opts.Batch samples of the board m plays (net.Model.Shape);
// a multi-board network builds each board's graph when the first batch
// of that board comes.
func New(m *net.Model, opts net.TrainOptions) (*Trainer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	cfg := m.Config()
	t := &Trainer{cfg: cfg, opts: opts, base: m.Meta(), graphs: make(map[int]*graph), weights: make(map[string][]float32)}
	for _, p := range cfg.Params() {
		w := m.Weight(p.Name)
		t.weights[p.Name] = w
		t.momentum = append(t.momentum, make([]float32, len(w)))
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
	gr, err := buildGraph(t.cfg, shape, t.opts.Batch, t.weights, tensor.Float32, true, t.opts.SoftPolicyScale())
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
func (t *Trainer) Options() net.TrainOptions { return t.opts }

// Step trains on one batch of exactly Options().Batch samples, all of one
// board, and returns the losses measured before the update. A sample that
// cannot train the network (another board than the batch's first or than
// a single-board network's, a terminal position, a policy on illegal
// moves, a value outside [-1, 1]) is an error, and then nothing is
// changed. Augment draws one of the 8 symmetries on a square board, one
// of the 4 that keep the board on a rectangle.
func (t *Trainer) Step(batch []net.Sample) (net.Losses, error) {
	if len(batch) != t.opts.Batch {
		return net.Losses{}, fmt.Errorf("train: training batch of %d samples, the trainer takes %d", len(batch), t.opts.Batch)
	}
	n := batch[0].Shape()
	enc := net.NewSampleEncoder(t.cfg, n)
	// Check every sample before drawing symmetries, so that an error leaves
	// the generator, and so the run, unchanged.
	for i, s := range batch {
		if s.Shape() != n || s.IsWide() != batch[0].IsWide() {
			return net.Losses{}, fmt.Errorf("train: training sample %d: a %s position in a batch of %s ones (one board per batch)", i, s.Dims(), batch[0].Dims())
		}
		if err := enc.Check(s); err != nil {
			return net.Losses{}, fmt.Errorf("train: training sample %d: %w", i, err)
		}
	}
	gr, err := t.graph(n)
	if err != nil {
		return net.Losses{}, err
	}
	t.gr = gr
	bw, bh := rules.ShapeDims(n)
	square := bw == bh
	slots, inputs, planes := enc.Slots(), enc.InputLen(), t.cfg.Encoding().Planes()
	nn := inputs / planes
	x := data32(t.gr.x)
	mask := data32(t.gr.mask)
	tp := data32(t.gr.targetPolicy)
	tv := data32(t.gr.targetValue)
	for i, s := range batch {
		switch {
		case t.opts.Augment && square:
			s = s.Transform(rules.Symmetry(t.rng.IntN(rules.NumSymmetries)))
		case t.opts.Augment:
			s = s.Transform(rectangleSymmetries[t.rng.IntN(len(rectangleSymmetries))])
		}
		enc.Encode(s, x[i*inputs:(i+1)*inputs], mask[i*slots:(i+1)*slots], tp[i*slots:(i+1)*slots])
		for _, pl := range t.zeroPlanes {
			for sq := 0; sq < nn; sq++ {
				x[i*inputs+sq*planes+pl] = 0
			}
		}
		tv[i] = s.Value
		t.auxTargets(enc, i, s)
		if t.gr.targetSoftPolicy != nil {
			softTarget(mask[i*slots:(i+1)*slots], tp[i*slots:(i+1)*slots], data32(t.gr.targetSoftPolicy)[i*slots:(i+1)*slots])
		}
	}
	if err := t.gr.run(); err != nil {
		return net.Losses{}, err
	}
	l := net.Losses{Policy: t.gr.policyLoss.last, Value: t.gr.valueLoss.last, LR: t.opts.LRAt(t.step)}
	if t.gr.ownershipLoss != nil {
		l.Ownership = t.gr.ownershipLoss.last
	}
	if t.gr.movesLeftLoss != nil {
		l.MovesLeft = t.gr.movesLeftLoss.last
	}
	if t.gr.softPolicyLoss != nil {
		l.SoftPolicy = t.gr.softPolicyLoss.last
		l.SoftPolicyKL = l.SoftPolicy/t.opts.SoftPolicyScale() - meanEntropy(data32(t.gr.targetSoftPolicy), slots)
	}
	if sum := l.Policy + l.Value + l.Ownership + l.MovesLeft + l.SoftPolicy; math.IsNaN(sum) || math.IsInf(sum, 0) {
		return l, errors.New("train: training step: the loss is not finite (learning rate too high?)")
	}
	l.L2 = t.update(l.LR)
	l.Total = l.Policy + l.Value + l.L2 + l.Ownership + l.MovesLeft + l.SoftPolicy
	t.step++
	return l, nil
}

// auxTargets writes the auxiliary heads' targets of sample s (already
// transformed) as row i of the batch (see SampleEncoder.AuxTargets).
func (t *Trainer) auxTargets(enc *net.SampleEncoder, i int, s net.Sample) {
	if t.gr.auxWeight == nil {
		return
	}
	nn := enc.Squares()
	var own []float32
	if t.gr.targetOwnership != nil {
		own = data32(t.gr.targetOwnership)[i*nn : (i+1)*nn]
	}
	weight, ml := enc.AuxTargets(s, own)
	data32(t.gr.auxWeight)[i] = weight
	if t.gr.targetMovesLeft != nil {
		data32(t.gr.targetMovesLeft)[i] = ml
	}
}

// softPower and softFloor make the soft policy head's target, as
// KataGo's (its python/katago/train/metrics_pytorch.py): the policy
// target plus softFloor on every legal action, raised to softPower
// (temperature 4), renormalised.
const (
	softPower = 0.25
	softFloor = 1e-7
)

// softTarget writes into soft the soft policy target of one row of a
// batch, from its mask (0 on the legal actions) and its policy target:
// (policy + softFloor)^softPower on the legal actions, 0 elsewhere,
// normalised to sum 1; all 0 for a value-only row (no policy target).
func softTarget(mask, policy, soft []float32) {
	clear(soft)
	if !slices.ContainsFunc(policy, func(v float32) bool { return v != 0 }) {
		return
	}
	var sum float64
	for j, m := range mask {
		if m == 0 {
			v := math.Pow(float64(policy[j])+softFloor, softPower)
			soft[j] = float32(v)
			sum += v
		}
	}
	for j, m := range mask {
		if m == 0 {
			soft[j] = float32(float64(soft[j]) / sum)
		}
	}
}

// meanEntropy returns the mean entropy −Σ t·ln t of the distributions
// in the rows of cols values of t, over the rows that are not all zeros
// (0 if none is): the entropy of the targets of the rows xent averages.
func meanEntropy(t []float32, cols int) float64 {
	var sum float64
	rows := 0
	for r := 0; r < len(t)/cols; r++ {
		var h float64
		nonzero := false
		for _, v := range t[r*cols : (r+1)*cols] {
			if v > 0 {
				h -= float64(v) * math.Log(float64(v))
				nonzero = true
			}
		}
		if nonzero {
			sum += h
			rows++
		}
	}
	if rows == 0 {
		return 0
	}
	return sum / float64(rows)
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
		decay := t.gr.specs[i].Decay
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
func (t *Trainer) Model(meta net.Metadata) (*net.Model, error) {
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
	return net.FromWeights(t.cfg, meta, w)
}

// SetLR sets the learning rate after the warm-up (net.TrainOptions.LR) from
// the next step on, as a schedule by generation does; a checkpoint saved
// later keeps it.
func (t *Trainer) SetLR(lr float64) error {
	if !(lr > 0 && lr < 10) {
		return fmt.Errorf("train: learning rate %v outside (0, 10)", lr)
	}
	t.opts.LR = lr
	return nil
}
