package train

import (
	"fmt"
	"sync"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/rules"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Gorgonia's own operations use the network's float32 products, as the
// package's do (and gonum's other routines).
func init() { G.Use(gorgoniaBLAS{}) }

// gorgoniaBLAS is gonum's BLAS with the network's Sgemm (kernel.Default).
type gorgoniaBLAS struct{ gonum.Implementation }

func (gorgoniaBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	kernel.Default.Sgemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// buildMu serialises graph construction: Gorgonia numbers nodes with a
// global counter that is not safe for concurrent use. Running separate
// machines in parallel is safe.
var buildMu sync.Mutex

// graph is one compiled training network for a fixed batch size: the
// input and output nodes, the learnt tensors, the losses and gradients,
// and the machine that runs it. A graph belongs to one goroutine at a
// time. (Inference does not use Gorgonia: see forward.)
type graph struct {
	cfg   net.Config
	shape int // the board's shape code (Position.Size)
	batch int
	dtype tensor.Dtype
	// softWeight is the soft policy loss's weight (buildGraph's).
	softWeight float64
	g          *G.ExprGraph
	vm         G.VM
	params     []*G.Node // in cfg.Params() order
	specs      []net.Param

	x      *G.Node // (batch·W·H, net.Encoding().Planes()): see encodeRows
	logits *G.Node // (batch, slots): see net.Config.Slots
	value  *G.Node // (batch, 1)

	out *outputs

	mask, targetPolicy, targetValue *G.Node // (batch, slots), (batch, slots), (batch, 1)
	cost                            *G.Node
	// The losses of the last run, kept by their operations rather than
	// read through Read nodes: the tape machine may update a scalar in
	// place (the cost's addition) before a Read of it runs.
	policyLoss *policyLossOp
	valueLoss  *valueLossOp

	// The auxiliary heads (net.Config.Aux): targets, the
	// weight of each sample (1 if it has auxiliary targets, else 0) and
	// losses, nil for a head the network does not have.
	targetOwnership, targetMovesLeft, auxWeight *G.Node // (batch, N·N), (batch, 1), (batch, 1)
	ownershipLoss, movesLeftLoss                *auxLossOp

	// The soft policy head (net.Config.SoftPolicy): its target (the
	// policy target softened by softTarget) and loss, nil without it.
	targetSoftPolicy *G.Node // (batch, slots)
	softPolicyLoss   *policyLossOp
}

// The weights of the auxiliary heads' losses in the training loss, beside
// the policy's and the value's (1 each).
const (
	ownershipLossWeight = 0.5
	movesLeftLossWeight = 0.5
)

// outputs holds a graph's outputs after a run: copies taken by Read
// nodes when the outputs are computed (Gorgonia may later reuse their
// memory).
//
// It is allocated apart from the graph on purpose. The machine keeps a
// pointer to each Read's destination, and Gorgonia sets a finalizer on
// the machine; were the destinations fields of the graph, the graph
// (which points to the machine) and the machine would form a cycle
// holding an object with a finalizer, which Go never collects. Every
// graph built would then stay in memory for good.
type outputs struct {
	logits, value G.Value
}

// buildGraph compiles the training network of cfg for batch positions of
// the board of the shape code (Position.Size) with the given weights
// (copied; with share, the graph's tensors use the slices themselves, so
// that the graphs of several boards built from the same slices share
// their weights). It takes targets and a mask and computes the loss and
// the gradient of every learnt tensor. dtype is Float32 except in the
// numerical gradient test, which uses Float64. softWeight is the soft
// policy loss's weight (net.TrainOptions.SoftPolicyScale), read only when
// cfg.SoftPolicy.
func buildGraph(cfg net.Config, shape, batch int, weights map[string][]float32, dtype tensor.Dtype, share bool, softWeight float64) (gr *graph, err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	// Gorgonia's graph constructors report shape and type errors by
	// panicking through G.Must. The shapes here follow from a validated
	// net.Config, so such a panic is a bug of this package; it is returned as
	// an error rather than crashing the caller.
	defer func() {
		if r := recover(); r != nil {
			gr, err = nil, fmt.Errorf("train: building the %s graph for batch %d: %v", cfg.Arch(), batch, r)
		}
	}()
	if !cfg.Plays(shape) {
		return nil, fmt.Errorf("train: the %s network cannot play the board of shape %d", cfg.Arch(), shape)
	}
	gr = &graph{cfg: cfg, shape: shape, batch: batch, dtype: dtype, softWeight: softWeight, g: G.NewGraph(), specs: cfg.Params(), out: new(outputs)}
	g := gr.g
	p := make(map[string]*G.Node)
	for _, s := range gr.specs {
		w, ok := weights[s.Name]
		if !ok || len(w) != tensor.Shape(s.Shape).TotalSize() {
			return nil, fmt.Errorf("train: weights of %s missing or of the wrong length", s.Name)
		}
		var backing any = w
		if !share || dtype != tensor.Float32 {
			backing = convert(w, dtype)
		}
		n := G.NewTensor(g, dtype, len(s.Shape), G.WithShape(s.Shape...), G.WithName(s.Name),
			G.WithValue(tensor.New(tensor.WithShape(s.Shape...), tensor.WithBacking(backing))))
		p[s.Name] = n
		gr.params = append(gr.params, n)
	}
	bw, bh := rules.ShapeDims(shape)
	board := kernel.NewGrid(bw, bh)
	nn := board.NN()
	// Activations are (batch·W·H, channels): a row per (position, square).
	gr.x = input(g, dtype, "x", batch*nn, cfg.Encoding().Planes())
	conv3 := func(x *G.Node, name string, s linearSpec) *G.Node {
		s.trans, s.bias, s.perPosition = true, p[name+".b"], nn
		return linear(im2row(x, board), p[name+".w"], s)
	}
	h := conv3(gr.x, "stem", linearSpec{relu: true, noGradX: true})
	for i := 0; i < cfg.Blocks; i++ {
		pre := fmt.Sprintf("block%d.", i)
		r := conv3(h, pre+"conv1", linearSpec{relu: true})
		if cfg.GlobalPool {
			mean := spatial(r, nn, 1/float64(nn))               // (batch, F)
			bias := linear(mean, p[pre+"pool.w"], linearSpec{}) // (batch, F)
			r = addPerPosition(r, bias, nn)
		}
		h = conv3(r, pre+"conv2", linearSpec{relu: true, res: h})
	}

	pol := linear(h, p["policy.conv1.w"], linearSpec{trans: true, bias: p["policy.conv1.b"], relu: true, perPosition: nn})
	gr.logits = linear(pol, p["policy.conv2.w"], linearSpec{trans: true, bias: p["policy.conv2.b"], perPosition: nn,
		shape: tensor.Shape{batch, cfg.Slots(shape)}}) // (batch, W·H·planes): see net.Config.Slots

	pooled := spatial(h, nn, 1/float64(nn)) // (batch, F)
	v := linear(pooled, p["value.fc1.w"], linearSpec{bias: p["value.fc1.b"], relu: true})
	gr.value = tanhNode(linear(v, p["value.fc2.w"], linearSpec{bias: p["value.fc2.b"]})) // (batch, 1)
	if err := gr.addTraining(p, h, pol, pooled, nn); err != nil {
		return nil, err
	}
	return gr, nil
}

// addTraining adds to gr its mask and targets, the policy and value
// losses and those of the auxiliary heads and the soft policy head of
// its net.Config (inference has no use for them), the gradient of every
// learnt tensor, and the tape machine that runs it. p holds the weights'
// nodes, h is the tower's output, pol the policy head's hidden features,
// pooled the tower's means over the board, nn the board's squares. Like
// buildGraph, it is called with buildMu held, and a panic of Gorgonia's
// constructors is buildGraph's to recover.
func (gr *graph) addTraining(p map[string]*G.Node, h, pol, pooled *G.Node, nn int) error {
	g, dtype, batch, cfg, shape := gr.g, gr.dtype, gr.batch, gr.cfg, gr.shape
	G.Read(gr.logits, &gr.out.logits)
	G.Read(gr.value, &gr.out.value)
	gr.mask = input(g, dtype, "mask", batch, cfg.Slots(shape))
	gr.targetPolicy = input(g, dtype, "target_policy", batch, cfg.Slots(shape))
	gr.targetValue = input(g, dtype, "target_value", batch, 1)
	pl := policyLoss("policyloss", gr.logits, gr.mask, gr.targetPolicy, 1)
	vl := valueLoss(gr.value, gr.targetValue)
	gr.policyLoss, gr.valueLoss = pl.Op().(*policyLossOp), vl.Op().(*valueLossOp)
	gr.cost = G.Must(G.Add(pl, vl))
	if cfg.Aux != 0 {
		gr.auxWeight = input(g, dtype, "aux_weight", batch, 1)
	}
	if cfg.Aux&net.AuxOwnership != 0 {
		z := linear(h, p["ownership.w"], linearSpec{trans: true, bias: p["ownership.b"], perPosition: nn,
			shape: tensor.Shape{batch, nn}}) // (batch, W·H): a logit per square
		gr.targetOwnership = input(g, dtype, "target_ownership", batch, nn)
		l := auxLoss("ownershiploss", z, gr.targetOwnership, gr.auxWeight, ownershipLossWeight)
		gr.ownershipLoss = l.Op().(*auxLossOp)
		gr.cost = G.Must(G.Add(gr.cost, l))
	}
	if cfg.Aux&net.AuxMovesLeft != 0 {
		m := linear(pooled, p["movesleft.fc1.w"], linearSpec{bias: p["movesleft.fc1.b"], relu: true})
		z := linear(m, p["movesleft.fc2.w"], linearSpec{bias: p["movesleft.fc2.b"]}) // (batch, 1)
		gr.targetMovesLeft = input(g, dtype, "target_movesleft", batch, 1)
		l := auxLoss("movesleftloss", z, gr.targetMovesLeft, gr.auxWeight, movesLeftLossWeight)
		gr.movesLeftLoss = l.Op().(*auxLossOp)
		gr.cost = G.Must(G.Add(gr.cost, l))
	}
	if cfg.SoftPolicy {
		z := linear(pol, p["softpolicy.w"], linearSpec{trans: true, bias: p["softpolicy.b"], perPosition: nn,
			shape: tensor.Shape{batch, cfg.Slots(shape)}}) // the main policy's layout
		gr.targetSoftPolicy = input(g, dtype, "target_softpolicy", batch, cfg.Slots(shape))
		l := policyLoss("softpolicyloss", z, gr.mask, gr.targetSoftPolicy, gr.softWeight)
		gr.softPolicyLoss = l.Op().(*policyLossOp)
		gr.cost = G.Must(G.Add(gr.cost, l))
	}
	if _, err := G.Grad(gr.cost, gr.params...); err != nil {
		return fmt.Errorf("train: gradient of the %s graph: %w", cfg.Arch(), err)
	}
	gr.vm = G.NewTapeMachine(g, G.BindDualValues(gr.params...))
	return nil
}

// input makes an input node of the given shape bound to a zero tensor.
func input(g *G.ExprGraph, dtype tensor.Dtype, name string, shape ...int) *G.Node {
	return G.NewTensor(g, dtype, len(shape), G.WithShape(shape...), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.Of(dtype))))
}

// convert copies w into a new backing slice of the dtype.
func convert(w []float32, dtype tensor.Dtype) any {
	if dtype == tensor.Float64 {
		out := make([]float64, len(w))
		for i, v := range w {
			out[i] = float64(v)
		}
		return out
	}
	return append([]float32(nil), w...)
}

// run executes the graph once on the values bound to its inputs.
func (gr *graph) run() error {
	gr.vm.Reset()
	if err := gr.vm.RunAll(); err != nil {
		return fmt.Errorf("train: running the %s graph: %w", gr.cfg.Arch(), err)
	}
	return nil
}

// data32 returns the float32 backing of a node's current value.
func data32(n *G.Node) []float32 { return f32(n.Value()) }

// floats returns the backing of a value read by a Read node, converted to
// float64 (for losses and the float64 test graphs).
func floats(v G.Value) []float64 {
	switch d := v.Data().(type) {
	case []float32:
		out := make([]float64, len(d))
		for i, x := range d {
			out[i] = float64(x)
		}
		return out
	case []float64:
		return d
	case float32:
		return []float64{float64(d)}
	case float64:
		return []float64{d}
	}
	return nil
}

// close releases the machine.
func (gr *graph) close() { gr.vm.Close() }
