package net

import (
	"fmt"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// buildMu serialises graph construction: Gorgonia numbers nodes with a
// global counter that is not safe for concurrent use. Running separate
// machines in parallel is safe.
var buildMu sync.Mutex

// maskedLogit is added to the logit of every illegal action before the
// softmax: exp of it is exactly 0 in float32 and float64, and it stays
// finite, so a zero target times its log-probability is 0, not NaN.
const maskedLogit = -1e9

// graph is one compiled network for a fixed batch size: the input and
// output nodes, the learnt tensors, and the machine that runs it. A graph
// belongs to one goroutine at a time.
type graph struct {
	cfg    Config
	batch  int
	dtype  tensor.Dtype
	g      *G.ExprGraph
	vm     G.VM
	params []*G.Node // in cfg.params() order
	specs  []paramSpec

	x      *G.Node // (batch, NumPlanes, N, N)
	logits *G.Node // (batch, slots)
	value  *G.Node // (batch, 1)

	out *outputs

	// Training graphs only.
	mask, targetPolicy, targetValue *G.Node // (batch, slots), (batch, 1+slots), (batch, 1)
	cost                            *G.Node
}

// outputs holds copies of a graph's outputs, taken by Read nodes when they
// are computed: Gorgonia may later overwrite a node's memory in place (the
// training graph's value is, by the loss), so outputs are read only from
// here.
//
// It is allocated apart from the graph on purpose. The machine keeps a
// pointer to each Read's destination, and Gorgonia sets a finalizer on
// the machine; were the destinations fields of the graph, the graph
// (which points to the machine) and the machine would form a cycle
// holding an object with a finalizer, which Go never collects. Every
// graph built would then stay in memory for good.
type outputs struct {
	logits, value         G.Value
	policyLoss, valueLoss G.Value // training graphs only
}

// buildGraph compiles the network of cfg for batch positions with the
// given weights (copied). A training graph also takes targets and a mask
// and computes the loss and the gradient of every learnt tensor. dtype is
// Float32 except in the numerical gradient test, which uses Float64.
func buildGraph(cfg Config, batch int, weights map[string][]float32, dtype tensor.Dtype, train bool) (gr *graph, err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	// Gorgonia's graph constructors report shape and type errors by
	// panicking through G.Must. The shapes here follow from a validated
	// Config, so such a panic is a bug of this package; it is returned as
	// an error rather than crashing the caller.
	defer func() {
		if r := recover(); r != nil {
			gr, err = nil, fmt.Errorf("net: building the %s graph for batch %d: %v", cfg.Arch(), batch, r)
		}
	}()
	gr = &graph{cfg: cfg, batch: batch, dtype: dtype, g: G.NewGraph(), specs: cfg.params(), out: new(outputs)}
	g := gr.g
	p := make(map[string]*G.Node)
	for _, s := range gr.specs {
		w, ok := weights[s.name]
		if !ok || len(w) != prod(s.shape) {
			return nil, fmt.Errorf("net: weights of %s missing or of the wrong length", s.name)
		}
		n := G.NewTensor(g, dtype, len(s.shape), G.WithShape(s.shape...), G.WithName(s.name),
			G.WithValue(tensor.New(tensor.WithShape(s.shape...), tensor.WithBacking(convert(w, dtype)))))
		p[s.name] = n
		gr.params = append(gr.params, n)
	}
	n := cfg.Size
	gr.x = input(g, dtype, "x", batch, NumPlanes, n, n)

	conv := func(x *G.Node, name string, k int) *G.Node {
		pad := (k - 1) / 2
		y := G.Must(G.Conv2d(x, p[name+".w"], tensor.Shape{k, k}, []int{pad, pad}, []int{1, 1}, []int{1, 1}))
		return G.Must(G.BroadcastAdd(y, p[name+".b"], nil, []byte{0, 2, 3}))
	}
	dense := func(x *G.Node, name string) *G.Node {
		y := G.Must(G.Mul(x, p[name+".w"]))
		return G.Must(G.BroadcastAdd(y, p[name+".b"], nil, []byte{0}))
	}
	relu := func(x *G.Node) *G.Node { return G.Must(G.Rectify(x)) }
	// spatialMean is the mean over the board of each channel, (batch, C).
	// Gorgonia's Sum over two axes at once has a wrong gradient (and so
	// Mean and GlobalAveragePool2D); one axis at a time is right.
	spatialMean := func(x *G.Node) *G.Node { return G.Must(G.Mean(G.Must(G.Mean(x, 3)), 2)) }

	h := relu(conv(gr.x, "stem", 3))
	for i := 0; i < cfg.Blocks; i++ {
		pre := fmt.Sprintf("block%d.", i)
		r := relu(conv(h, pre+"conv1", 3))
		if cfg.GlobalPool {
			mean := spatialMean(r)                       // (batch, F)
			bias := G.Must(G.Mul(mean, p[pre+"pool.w"])) // (batch, F)
			bias = G.Must(G.Reshape(bias, tensor.Shape{batch, cfg.Filters, 1, 1}))
			r = G.Must(G.BroadcastAdd(r, bias, nil, []byte{2, 3}))
		}
		h = relu(G.Must(G.Add(h, conv(r, pre+"conv2", 3))))
	}

	pol := relu(conv(h, "policy.conv1", 1))
	pol = conv(pol, "policy.conv2", 1) // (batch, planes, N, N)
	gr.logits = G.Must(G.Reshape(pol, tensor.Shape{batch, cfg.slots()}))

	v := spatialMean(h) // (batch, F)
	v = relu(dense(v, "value.fc1"))
	// The value stays (batch, 1): reshaping it to (batch) makes a view that
	// the loss's subtraction overwrites in place, corrupting the gradient
	// of tanh, which reads tanh's output.
	gr.value = G.Must(G.Tanh(dense(v, "value.fc2"))) // (batch, 1)
	G.Read(gr.logits, &gr.out.logits)
	G.Read(gr.value, &gr.out.value)

	if !train {
		gr.vm = G.NewTapeMachine(g, G.EvalMode())
		return gr, nil
	}
	gr.mask = input(g, dtype, "mask", batch, cfg.slots())
	gr.targetPolicy = input(g, dtype, "target_policy", batch, 1+cfg.slots())
	gr.targetValue = input(g, dtype, "target_value", batch, 1)
	// Gorgonia's LogSoftMax (tensor v0.9.24) starts every row's maximum at
	// the first element of the whole tensor and skips the row's own first
	// element, so a large first logit overflows exp and gives NaN. Every
	// row therefore starts with a pad column holding maskedLogit: it is
	// never the maximum, and the maximum then starts below every row's. The
	// targets have a matching zero column.
	pad := input(g, dtype, "pad", batch, 1)
	setAll(pad, maskedLogit)
	padded := G.Must(G.Concat(1, pad, G.Must(G.Add(gr.logits, gr.mask))))
	logp := G.Must(G.LogSoftMax(padded))
	xent := G.Must(G.Sum(G.Must(G.HadamardProd(gr.targetPolicy, logp)), 1))
	policyLoss := G.Must(G.Neg(G.Must(G.Mean(xent))))
	valueLoss := G.Must(G.Mean(G.Must(G.Square(G.Must(G.Sub(gr.value, gr.targetValue))))))
	G.Read(policyLoss, &gr.out.policyLoss)
	G.Read(valueLoss, &gr.out.valueLoss)
	gr.cost = G.Must(G.Add(policyLoss, valueLoss))
	if _, err := G.Grad(gr.cost, gr.params...); err != nil {
		return nil, fmt.Errorf("net: gradient of the %s graph: %w", cfg.Arch(), err)
	}
	gr.vm = G.NewTapeMachine(g, G.BindDualValues(gr.params...))
	return gr, nil
}

// input makes an input node of the given shape bound to a zero tensor.
func input(g *G.ExprGraph, dtype tensor.Dtype, name string, shape ...int) *G.Node {
	return G.NewTensor(g, dtype, len(shape), G.WithShape(shape...), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.Of(dtype))))
}

// setAll sets every element of an input node's value to v.
func setAll(n *G.Node, v float64) {
	switch d := n.Value().Data().(type) {
	case []float32:
		for i := range d {
			d[i] = float32(v)
		}
	case []float64:
		for i := range d {
			d[i] = v
		}
	}
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
		return fmt.Errorf("net: running the %s graph: %w", gr.cfg.Arch(), err)
	}
	return nil
}

// data32 returns the float32 backing of a node's current value.
func data32(n *G.Node) []float32 { return n.Value().Data().([]float32) }

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
func (gr *graph) close() {
	if gr.vm != nil {
		gr.vm.Close()
	}
}
