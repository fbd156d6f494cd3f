package net

import (
	"fmt"
	"math"
	"strings"

	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/rules"
)

// forward is the network's forward pass for batch positions of one
// board, in plain Go: the products and the other kernels of package
// kernel, in the order of the training graph (net/train), so that both
// give the same bits. Its weights are shared with the other passes of an
// evaluator (forwardWeights); its activations are its own, allocated at
// its first run and reused by every later one, so that a run allocates
// nothing. A forward belongs to one goroutine at a time.
type forward struct {
	cfg          Config
	shape, batch int
	nn           int // the board's squares

	x      []float32 // (batch·W·H, Encoding().Planes()): see encodeRows
	stem   *layer
	blocks []residual
	// The policy head's two 1x1 convolutions: logits (batch, slots) are
	// the second's output (see actionSlot).
	policy1, policy2 *layer
	// The value head: the tower's mean over the board, two products, and
	// tanh of the second, values (batch).
	pooled           []float32
	value1, value2   *layer
	values           []float32
	allocated, bf16s bool
}

// residual is one residual block's layers: y = relu(conv2(r) + x) with
// r = relu(conv1(x)), plus, with global pooling, pool(mean of r) added
// to r on every square before conv2.
type residual struct {
	conv1, pool, conv2 *layer
	mean, pooled       []float32 // with pool: (batch, F) each
}

// layer is one product of the forward pass: its kernel, its weight and
// bias (the forwardWeights' slices) and its output.
type layer struct {
	spec kernel.LinearSpec
	op   *kernel.Linear
	bf16 bool // op runs on the bf16 backend
	w, b []float32
	y    []float32
}

func newLayer(s kernel.LinearSpec, w, b []float32) *layer {
	return &layer{spec: s, op: kernel.NewLinear(s), w: w, b: b}
}

// forwardWeights are a model's weights as the forward pass reads them: a
// convolution's weight (F, C, taps) laid out as the (taps·C, F) matrix of
// its product (permuteKernel), the other tensors as they are.
type forwardWeights map[string][]float32

// isConvWeight reports whether the learnt tensor p is a convolution's
// weight, (F, C, kh, kw).
func isConvWeight(p Param) bool { return len(p.Shape) == 4 && strings.HasSuffix(p.Name, ".w") }

// newForwardWeights lays out the weights of a network of cfg.
func newForwardWeights(cfg Config, weights map[string][]float32) (forwardWeights, error) {
	fw := make(forwardWeights)
	for _, p := range cfg.Params() {
		fw[p.Name] = make([]float32, prod(p.Shape))
	}
	return fw, fw.set(cfg, weights)
}

// set lays out weights, a network of cfg's, into fw's slices.
func (fw forwardWeights) set(cfg Config, weights map[string][]float32) error {
	for _, p := range cfg.Params() {
		w, dst := weights[p.Name], fw[p.Name]
		if len(w) != len(dst) {
			return fmt.Errorf("net: weights of %s missing or of the wrong length", p.Name)
		}
		if isConvWeight(p) {
			kernel.PermuteKernel(w, dst, p.Shape[0], p.Shape[1], p.Shape[2]*p.Shape[3], false)
		} else {
			copy(dst, w)
		}
	}
	return nil
}

// newForward makes the forward pass of cfg for batch positions of the
// board of the shape code (Position.Size), reading the weights fw.
func newForward(cfg Config, shape, batch int, fw forwardWeights) (*forward, error) {
	if !cfg.Plays(shape) {
		return nil, fmt.Errorf("net: the %s network cannot play the board of shape %d", cfg.Arch(), shape)
	}
	bw, bh := rules.ShapeDims(shape)
	board := kernel.NewGrid(bw, bh)
	nn := board.NN()
	rows, f, planes := batch*nn, cfg.Filters, cfg.Encoding().Planes()
	fwd := &forward{cfg: cfg, shape: shape, batch: batch, nn: nn, x: make([]float32, rows*planes)}
	// conv3 is a 3x3 convolution of c input channels, each position's
	// im2row gathered just before its block is multiplied.
	conv3 := func(name string, c int, relu, res bool) *layer {
		return newLayer(kernel.LinearSpec{Rows: rows, K: 9 * c, F: f, Block: nn, Bias: true, Res: res, ReLU: relu, Gather: board},
			fw[name+".w"], fw[name+".b"])
	}
	fwd.stem = conv3("stem", planes, true, false)
	for i := range cfg.Blocks {
		pre := fmt.Sprintf("block%d.", i)
		b := residual{conv1: conv3(pre+"conv1", f, true, false), conv2: conv3(pre+"conv2", f, true, true)}
		if cfg.GlobalPool {
			b.pool = newLayer(kernel.LinearSpec{Rows: batch, K: f, F: f}, fw[pre+"pool.w"], nil)
		}
		fwd.blocks = append(fwd.blocks, b)
	}
	a := cfg.actionPlanes()
	fwd.policy1 = newLayer(kernel.LinearSpec{Rows: rows, K: f, F: f, Block: nn, Bias: true, ReLU: true},
		fw["policy.conv1.w"], fw["policy.conv1.b"])
	fwd.policy2 = newLayer(kernel.LinearSpec{Rows: rows, K: f, F: a, Block: nn, Bias: true},
		fw["policy.conv2.w"], fw["policy.conv2.b"])
	fwd.value1 = newLayer(kernel.LinearSpec{Rows: batch, K: f, F: cfg.ValueHidden, Bias: true, ReLU: true},
		fw["value.fc1.w"], fw["value.fc1.b"])
	fwd.value2 = newLayer(kernel.LinearSpec{Rows: batch, K: cfg.ValueHidden, F: 1, Bias: true},
		fw["value.fc2.w"], fw["value.fc2.b"])
	return fwd, nil
}

// layers lists the pass's products.
func (fwd *forward) layers() []*layer {
	ls := []*layer{fwd.stem}
	for _, b := range fwd.blocks {
		ls = append(ls, b.conv1)
		if b.pool != nil {
			ls = append(ls, b.pool)
		}
		ls = append(ls, b.conv2)
	}
	return append(ls, fwd.policy1, fwd.policy2, fwd.value1, fwd.value2)
}

// useBF16 makes the per-position products run on the bf16 backend.
func (fwd *forward) useBF16() error {
	for _, l := range fwd.layers() {
		if l.spec.Block == 0 {
			continue
		}
		if !l.op.UseBF16() {
			return fmt.Errorf("net: the bf16 backend cannot compute the %s network's %d×%d products", fwd.cfg.Arch(), l.spec.K, l.spec.F)
		}
		l.bf16 = true
	}
	fwd.bf16s = true
	fwd.weightsChanged()
	return nil
}

// weightsChanged updates what the pass derives from its weights (the
// bf16 backend's weights), once they have been set.
func (fwd *forward) weightsChanged() {
	if !fwd.bf16s {
		return
	}
	for _, l := range fwd.layers() {
		if l.bf16 {
			l.op.SetBF16Weight(l.w)
		}
	}
}

// run computes the logits and values of the positions encoded in x.
func (fwd *forward) run() {
	nn, f := fwd.nn, fwd.cfg.Filters
	if !fwd.allocated {
		for _, l := range fwd.layers() {
			l.y = make([]float32, l.spec.Rows*l.spec.F)
		}
		for i := range fwd.blocks {
			if b := &fwd.blocks[i]; b.pool != nil {
				b.mean, b.pooled = make([]float32, fwd.batch*f), make([]float32, fwd.batch*nn*f)
			}
		}
		fwd.pooled, fwd.values = make([]float32, fwd.batch*f), make([]float32, fwd.batch)
		fwd.allocated = true
	}
	scale := 1 / float64(nn) // the mean over the board
	h := fwd.stem.run(fwd.x, nil)
	for _, b := range fwd.blocks {
		r := b.conv1.run(h, nil)
		if b.pool != nil {
			kernel.SpatialSum(r, b.mean, nn, f, float32(scale))
			kernel.SpreadRows(r, b.pool.run(b.mean, nil), b.pooled, nn, f, 1)
			r = b.pooled
		}
		h = b.conv2.run(r, h)
	}
	fwd.policy2.run(fwd.policy1.run(h, nil), nil)
	kernel.SpatialSum(h, fwd.pooled, nn, f, float32(scale))
	for i, v := range fwd.value2.run(fwd.value1.run(fwd.pooled, nil), nil) {
		fwd.values[i] = float32(math.Tanh(float64(v)))
	}
}

// logits returns the policy logits of the last run, (batch, slots).
func (fwd *forward) logits() []float32 { return fwd.policy2.y }

// run computes the layer's output from x and the residual input h (nil
// for none) and returns it.
func (l *layer) run(x, h []float32) []float32 {
	kernel.Run(l.op, x, l.w, l.b, h, l.y)
	return l.y
}
