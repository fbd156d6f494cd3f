package train

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"slices"
	"sync/atomic"

	"github.com/chewxy/hm"
	"github.com/konanezero/konane/net/internal/kernel"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The training graph's own Gorgonia operations, on the kernels of
// kernels.go (so that the training graph's forward outputs are the
// forward pass's, bit for bit). Each operation owns its output tensor
// and reuses it at every run. Every operation works in float32 and
// float64 (the gradient check), and the backward pass is made of further
// operations of this file, so Gorgonia's symbolic differentiation builds
// the training graph.
//
// Gorgonia's own Conv2d, BroadcastAdd, Rectify and LogSoftMax, which these
// replace, spent most of an evaluation in im2col over NCHW, transposes,
// Repeat and fresh allocations, and little in the multiply
// (docs/internals/net.md).

var opCounter atomic.Int64

// opBase holds what every operation of this file shares: a name, a unique
// id (so that Gorgonia never merges two nodes that own different
// outputs), the input ranks and output shape, and the output tensor.
type opBase struct {
	name  string
	id    int64
	ins   []int        // rank of each input
	shape tensor.Shape // output shape; nil for a scalar
	out   *tensor.Dense
}

func newBase(name string, shape tensor.Shape, ins ...*G.Node) opBase {
	b := opBase{name: name, id: opCounter.Add(1), shape: shape}
	for _, n := range ins {
		b.ins = append(b.ins, n.Dims())
	}
	return b
}

func (o *opBase) Arity() int { return len(o.ins) }

func (o *opBase) Type() hm.Type {
	a := hm.TypeVariable('a')
	ts := make([]hm.Type, 0, len(o.ins)+1)
	for _, d := range o.ins {
		ts = append(ts, tensorType(d, a))
	}
	return hm.NewFnType(append(ts, tensorType(len(o.shape), a))...)
}

func tensorType(dims int, a hm.TypeVariable) hm.Type {
	if dims == 0 {
		return a
	}
	return G.TensorType{Dims: dims, Of: a}
}

func (o *opBase) InferShape(...G.DimSizer) (tensor.Shape, error) {
	if o.shape == nil {
		return tensor.ScalarShape(), nil
	}
	return o.shape.Clone(), nil
}
func (o *opBase) ReturnsPtr() bool      { return false }
func (o *opBase) CallsExtern() bool     { return false }
func (o *opBase) OverwritesInput() int  { return -1 }
func (o *opBase) WriteHash(h hash.Hash) { fmt.Fprintf(h, "%s#%d", o.name, o.id) }
func (o *opBase) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}
func (o *opBase) String() string { return o.name }

// output returns the operation's output tensor of dtype dt, allocated at
// the first run.
func (o *opBase) output(dt tensor.Dtype) *tensor.Dense {
	if o.out == nil || o.out.Dtype() != dt {
		o.out = tensor.New(tensor.Of(dt), tensor.WithShape(o.shape...))
	}
	return o.out
}

// apply adds an operation node to the graph (it panics like G.Must on a
// type error, which buildGraph recovers).
func apply(op G.Op, ins ...*G.Node) *G.Node { return G.Must(G.ApplyOp(op, ins...)) }

// scalarOf returns a scalar Value as float64.
func scalarOf(v G.Value) float64 {
	switch d := v.Data().(type) {
	case float32:
		return float64(d)
	case float64:
		return d
	case []float32:
		return float64(d[0])
	case []float64:
		return d[0]
	}
	panic(fmt.Sprintf("train: scalar of %T", v.Data()))
}

// im2rowOp gathers the 3x3 neighbourhood of every square: x (rows, C)
// becomes (rows, 9·C) with column k·C+c holding channel c of neighbour k
// (zero off the board): whole rows are copied, and kernelOp lays the
// (F, C, 3, 3) weight out to match. Groups of positions are gathered in
// parallel.
type im2rowOp struct {
	opBase
	g kernel.Grid
	c int
	rowsJob
}

func im2row(x *G.Node, g kernel.Grid) *G.Node {
	rows, c := x.Shape()[0], x.Shape()[1]
	return apply(&im2rowOp{opBase: newBase("im2row", tensor.Shape{rows, c * 9}, x), g: g, c: c}, x)
}

func (o *im2rowOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	o.run(o, vs[0], out, o.g.NN())
	return out, nil
}

func (o *im2rowOp) DoBlock(blk, _ int) {
	r0, r1 := o.rows(blk)
	if o.x32 != nil {
		kernel.GatherRows(o.x32, o.y32, o.g, o.c, r0, r1)
	} else {
		kernel.GatherRows(o.x64, o.y64, o.g, o.c, r0, r1)
	}
}

// rowsJob is the state of an operation on (position·square, channel)
// rows that parallel splits into groups of whole positions: the input x
// and output y of the current run, in the run's float type.
type rowsJob struct {
	x32, y32 []float32
	x64, y64 []float64
	total    int // rows
	per      int // rows per block, a multiple of the rows of a position
}

// blockRows is about the number of rows of one block of parallel work
// of the operations on rows: enough to make handing it to another
// goroutine worthwhile.
const blockRows = 256

// run does w's blocks on x and y, nn rows per position.
func (j *rowsJob) run(w kernel.BlockWork, x, y G.Value, nn int) {
	j.x32, j.y32, j.x64, j.y64 = f32s(x), f32s(y), f64s(x), f64s(y)
	j.total = y.Shape()[0]
	j.per = max(1, blockRows/nn) * nn
	kernel.Parallel((j.total+j.per-1)/j.per, w)
	j.x32, j.y32, j.x64, j.y64 = nil, nil, nil, nil
}

// rows returns the rows of block blk.
func (j *rowsJob) rows(blk int) (r0, r1 int) {
	return blk * j.per, min((blk+1)*j.per, j.total)
}

// f32s and f64s are the backing of a value of that type, else nil.
func f32s(v G.Value) []float32 {
	if d, ok := v.(*tensor.Dense); ok && d.Dtype() == tensor.Float32 {
		return d.Float32s()
	}
	return nil
}

func f64s(v G.Value) []float64 {
	if d, ok := v.(*tensor.Dense); ok && d.Dtype() == tensor.Float64 {
		return d.Float64s()
	}
	return nil
}

func (o *im2rowOp) DiffWRT(int) []bool { return []bool{true} }

func (o *im2rowOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{apply(&row2imOp{opBase: newBase("row2im", ins[0].Shape().Clone(), grad), g: o.g, c: o.c}, grad)}, nil
}

// row2imOp is the gradient of im2rowOp: it adds every gathered entry's
// gradient back onto its square and channel. A position's rows only
// receive from the same position's, so groups of positions are done in
// parallel.
type row2imOp struct {
	opBase
	g kernel.Grid
	c int
	rowsJob
}

func (o *row2imOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	o.run(o, vs[0], out, o.g.NN())
	return out, nil
}

func (o *row2imOp) DoBlock(blk, _ int) {
	r0, r1 := o.rows(blk)
	if o.x32 != nil {
		scatterRows(o.x32, o.y32, o.g, o.c, r0, r1)
	} else {
		scatterRows(o.x64, o.y64, o.g, o.c, r0, r1)
	}
}

// scatterRows computes rows r0..r1 (whole positions) of row2im's output
// from the same rows of the gradient g.
func scatterRows[T kernel.Float](g, out []T, gr kernel.Grid, c, r0, r1 int) {
	clear(out[r0*c : r1*c])
	nn, nb := gr.NN(), gr.Neighbours()
	for r := r0; r < r1; r++ {
		base := r - r%nn
		src := g[r*c*9 : (r+1)*c*9]
		for k, s := range nb[(r%nn)*9 : (r%nn)*9+9] {
			if s < 0 {
				continue
			}
			dst := out[(base+int(s))*c : (base+int(s)+1)*c]
			src := src[k*c : (k+1)*c]
			src = src[:len(dst)]
			for ch := range dst {
				dst[ch] += src[ch]
			}
		}
	}
}

// linearNode is the training graph's node of a kernel.Linear: its
// operands are the node's inputs x, W, then b and h if the product has
// them. noGradX marks an x that needs no gradient (the input planes).
type linearNode struct {
	opBase
	rows, k, f      int
	bias, res, relu bool
	noGradX         bool
	op              *kernel.Linear
}

type linearSpec struct {
	trans, relu, noGradX bool
	// perPosition: x has a row per (position, square), and the forward
	// product is computed by blocks of one position's rows (see
	// kernel.RowBLAS).
	perPosition int
	bias, res   *G.Node
	shape       tensor.Shape // of the output; (rows, F) if nil
}

func linear(x, w *G.Node, s linearSpec) *G.Node {
	rows, k := x.Shape()[0], x.Shape()[1]
	if s.trans {
		ws := w.Shape()
		taps := ws.TotalSize() / (ws[0] * ws[1])
		w = apply(&kernelOp{opBase: newBase("kernel", tensor.Shape{ws.TotalSize() / ws[0], ws[0]}, w), f: ws[0], c: ws[1], taps: taps}, w)
	}
	f := w.Shape()[1]
	shape := s.shape
	if shape == nil {
		shape = tensor.Shape{rows, f}
	}
	ins := G.Nodes{x, w}
	if s.bias != nil {
		ins = append(ins, s.bias)
	}
	if s.res != nil {
		ins = append(ins, s.res)
	}
	op := &linearNode{opBase: newBase("linear", shape, ins...), rows: rows, k: k, f: f,
		bias: s.bias != nil, res: s.res != nil, relu: s.relu, noGradX: s.noGradX,
		op: kernel.NewLinear(kernel.LinearSpec{Rows: rows, K: k, F: f, Block: s.perPosition, Bias: s.bias != nil, Res: s.res != nil, ReLU: s.relu})}
	return apply(op, ins...)
}

func (o *linearNode) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	var b, h G.Value
	if o.bias {
		b = vs[2]
	}
	if o.res {
		h = vs[len(vs)-1]
	}
	switch vs[0].Dtype() {
	case tensor.Float32:
		kernel.Run(o.op, f32(vs[0]), f32(vs[1]), f32(b), f32(h), out.Float32s())
	case tensor.Float64:
		kernel.Run(o.op, f64(vs[0]), f64(vs[1]), f64(b), f64(h), out.Float64s())
	}
	return out, nil
}

// f32 and f64 are the backing of a tensor value (nil for nil), read
// without Data, which allocates.
func f32(v G.Value) []float32 {
	if v == nil {
		return nil
	}
	return v.(*tensor.Dense).Float32s()
}

func f64(v G.Value) []float64 {
	if v == nil {
		return nil
	}
	return v.(*tensor.Dense).Float64s()
}

func (o *linearNode) DiffWRT(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	d[0] = !o.noGradX
	return d
}

func (o *linearNode) SymDiff(ins G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	gz := grad
	if o.relu {
		gz = apply(&reluGradOp{opBase: newBase("relugrad", out.Shape().Clone(), out, grad)}, out, grad)
	}
	x, w := ins[0], ins[1]
	gs := make(G.Nodes, len(ins))
	if !o.noGradX {
		gs[0] = apply(&linearGradXOp{opBase: newBase("lineargradx", x.Shape().Clone(), gz, w), l: o}, gz, w)
	}
	gs[1] = apply(&linearGradWOp{opBase: newBase("lineargradw", w.Shape().Clone(), gz, x), l: o}, gz, x)
	i := 2
	if o.bias {
		gs[i] = apply(&colSumOp{newBase("colsum", ins[i].Shape().Clone(), gz), o.f}, gz)
		i++
	}
	if o.res {
		gs[i] = gz
	}
	return gs, nil
}

// reluGradOp is g where y > 0, else 0, in parallel chunks.
type reluGradOp struct {
	opBase
	y32, g32, o32 []float32
	y64, g64, o64 []float64
}

// elemBlock is the number of entries of one block of parallel work of an
// elementwise operation.
const elemBlock = 1 << 14

func (o *reluGradOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	o.y32, o.g32, o.o32 = f32s(vs[0]), f32s(vs[1]), f32s(out)
	o.y64, o.g64, o.o64 = f64s(vs[0]), f64s(vs[1]), f64s(out)
	kernel.Parallel((out.Size()+elemBlock-1)/elemBlock, o)
	o.y32, o.g32, o.o32, o.y64, o.g64, o.o64 = nil, nil, nil, nil, nil, nil
	return out, nil
}

func (o *reluGradOp) DoBlock(blk, _ int) {
	i0 := blk * elemBlock
	if o.o32 != nil {
		i1 := min(i0+elemBlock, len(o.o32))
		reluGrad(o.y32[i0:i1], o.g32[i0:i1], o.o32[i0:i1])
	} else {
		i1 := min(i0+elemBlock, len(o.o64))
		reluGrad(o.y64[i0:i1], o.g64[i0:i1], o.o64[i0:i1])
	}
}

// reluGrad is g where y > 0, else 0. y is a ReLU's output, +0 or
// positive (see relu): in float32 the test is on the bits, without a
// branch per entry.
func reluGrad[T kernel.Float](y, g, out []T) {
	if y, ok := any(y).([]float32); ok {
		g, out := any(g).([]float32), any(out).([]float32)
		g, out = g[:len(y)], out[:len(y)]
		for i, v := range y {
			b := math.Float32bits(v)
			mask := uint32(int32(b|-b) >> 31) // all ones unless b == 0
			out[i] = math.Float32frombits(math.Float32bits(g[i]) & mask)
		}
		return
	}
	for i, v := range y {
		if v > 0 {
			out[i] = g[i]
		} else {
			out[i] = 0
		}
	}
}

// linearGradXOp is the gradient of linearNode's x: gz·Wᵀ, computed as
// gz·W' with W' = Wᵀ laid out first, (F, K): gonum's kernel then runs
// along rows of K entries rather than dot products of F.
type linearGradXOp struct {
	opBase
	l    *linearNode
	wt32 []float32
	wt64 []float64
}

func (o *linearGradXOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		o.wt32 = slices.Grow(o.wt32[:0], o.l.k*o.l.f)[:o.l.k*o.l.f]
		linearGradX(o.l, f32(vs[0]), f32(vs[1]), o.wt32, out.Float32s())
	case tensor.Float64:
		o.wt64 = slices.Grow(o.wt64[:0], o.l.k*o.l.f)[:o.l.k*o.l.f]
		linearGradX(o.l, f64(vs[0]), f64(vs[1]), o.wt64, out.Float64s())
	}
	return out, nil
}

func linearGradX[T kernel.Float](l *linearNode, gz, w, wt, gx []T) {
	transpose(w, wt, l.k, l.f)
	kernel.Gemm(kernel.NoTrans, kernel.NoTrans, l.rows, l.k, l.f, 1, gz, l.f, wt, l.k, 0, gx, l.k)
}

// transpose writes the transpose of a (rows, cols) into t (cols, rows).
func transpose[T kernel.Float](a, t []T, rows, cols int) {
	for i := 0; i < rows; i++ {
		for j, v := range a[i*cols : (i+1)*cols] {
			t[j*rows+i] = v
		}
	}
}

// linearGradWOp is the gradient of linearNode's W, xᵀ·gz, computed as its
// transpose gzᵀ·x, (F, K), by parts of K columns in parallel, then laid
// out as (K, F). gonum's kernel then runs along rows of K entries rather
// than F, and the parts balance on two cores. The parts depend only on
// K, not on the number of cores.
type linearGradWOp struct {
	opBase
	l              *linearNode
	parts          int
	gz32, x32, t32 []float32
	gz64, x64, t64 []float64
}

func (o *linearGradWOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	l := o.l
	o.parts = 2 * ((l.k + 127) / 128)
	switch vs[0].Dtype() {
	case tensor.Float32:
		o.gz32, o.x32, o.t32 = f32(vs[0]), f32(vs[1]), slices.Grow(o.t32[:0], l.k*l.f)[:l.k*l.f]
		kernel.Parallel(o.parts, o)
		transpose(o.t32, out.Float32s(), l.f, l.k)
		o.gz32, o.x32 = nil, nil
	case tensor.Float64:
		o.gz64, o.x64, o.t64 = f64(vs[0]), f64(vs[1]), slices.Grow(o.t64[:0], l.k*l.f)[:l.k*l.f]
		kernel.Parallel(o.parts, o)
		transpose(o.t64, out.Float64s(), l.f, l.k)
		o.gz64, o.x64 = nil, nil
	}
	return out, nil
}

// DoBlock computes columns c0..c1 of gzᵀ·x.
func (o *linearGradWOp) DoBlock(part, _ int) {
	l := o.l
	width := (l.k + o.parts - 1) / o.parts
	c0 := part * width
	c1 := min(c0+width, l.k)
	if c0 >= c1 {
		return
	}
	if o.gz32 != nil {
		kernel.Default.Base.Sgemm(kernel.Trans, kernel.NoTrans, l.f, c1-c0, l.rows, 1, o.gz32, l.f, o.x32[c0:], l.k, 0, o.t32[c0:], l.k)
	} else {
		kernel.Dgemm(kernel.Trans, kernel.NoTrans, l.f, c1-c0, l.rows, 1, o.gz64, l.f, o.x64[c0:], l.k, 0, o.t64[c0:], l.k)
	}
}

// kernelOp lays out a convolution's weight (F, C, taps) as the matrix
// (taps·C, F) of im2row's columns (permuteKernel). With inverse it does
// the opposite (its gradient).
type kernelOp struct {
	opBase
	f, c, taps int
	inverse    bool
}

func (o *kernelOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		kernel.PermuteKernel(f32(vs[0]), out.Float32s(), o.f, o.c, o.taps, o.inverse)
	case tensor.Float64:
		kernel.PermuteKernel(f64(vs[0]), out.Float64s(), o.f, o.c, o.taps, o.inverse)
	}
	return out, nil
}

func (o *kernelOp) DiffWRT(int) []bool { return []bool{true} }

func (o *kernelOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{apply(&kernelOp{opBase: newBase("kernelgrad", ins[0].Shape().Clone(), grad), f: o.f, c: o.c, taps: o.taps, inverse: !o.inverse}, grad)}, nil
}

// colSumOp sums the rows of g (rows, F) into F numbers (a bias gradient).
type colSumOp struct {
	opBase
	f int
}

func (o *colSumOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		g := f32(vs[0])
		colSum(g, out.Float32s(), o.f)
	case tensor.Float64:
		g := f64(vs[0])
		colSum(g, out.Float64s(), o.f)
	}
	return out, nil
}

func colSum[T kernel.Float](g, out []T, f int) {
	clear(out)
	for r := 0; r < len(g)/f; r++ {
		for j, v := range g[r*f : (r+1)*f] {
			out[j] += v
		}
	}
}

// spatialOp sums each position's rows, times scale: x (batch·nn, F)
// becomes (batch, F). Scale 1/nn is the mean over the board.
type spatialOp struct {
	opBase
	nn    int
	scale float64
}

func spatial(x *G.Node, nn int, scale float64) *G.Node {
	rows, f := x.Shape()[0], x.Shape()[1]
	return apply(&spatialOp{newBase("spatial", tensor.Shape{rows / nn, f}, x), nn, scale}, x)
}

func (o *spatialOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		x := f32(vs[0])
		kernel.SpatialSum(x, out.Float32s(), o.nn, o.shape[1], float32(o.scale))
	case tensor.Float64:
		x := f64(vs[0])
		kernel.SpatialSum(x, out.Float64s(), o.nn, o.shape[1], o.scale)
	}
	return out, nil
}

func (o *spatialOp) DiffWRT(int) []bool { return []bool{true} }

func (o *spatialOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{spread(grad, ins[0], o.nn, o.scale)}, nil
}

// spreadOp is the gradient of spatialOp: x (batch, F) becomes (batch·nn,
// F), every row of a position its row times scale; with a first input
// (batch·nn, F) it is added to that instead (a per-position bias).
type spreadOp struct {
	opBase
	nn    int
	scale float64
	add   bool
}

func spread(g, like *G.Node, nn int, scale float64) *G.Node {
	return apply(&spreadOp{newBase("spread", like.Shape().Clone(), g), nn, scale, false}, g)
}

// addPerPosition is x (batch·nn, F) plus bias (batch, F) on every square
// of each position.
func addPerPosition(x, bias *G.Node, nn int) *G.Node {
	return apply(&spreadOp{newBase("addperposition", x.Shape().Clone(), x, bias), nn, 1, true}, x, bias)
}

func (o *spreadOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	var x G.Value
	if o.add {
		x = vs[0]
	}
	g := vs[len(vs)-1]
	switch out.Dtype() {
	case tensor.Float32:
		kernel.SpreadRows(f32(x), f32(g), out.Float32s(), o.nn, o.shape[1], float32(o.scale))
	case tensor.Float64:
		kernel.SpreadRows(f64(x), f64(g), out.Float64s(), o.nn, o.shape[1], o.scale)
	}
	return out, nil
}

func (o *spreadOp) DiffWRT(n int) []bool { return []bool{true, true}[:n] }

func (o *spreadOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	if !o.add {
		return nil, fmt.Errorf("train: %s has no gradient", o.name)
	}
	return G.Nodes{grad, spatial(grad, o.nn, 1)}, nil
}

// tanhOp is the elementwise tanh.
type tanhOp struct{ opBase }

func tanhNode(x *G.Node) *G.Node {
	return apply(&tanhOp{newBase("tanh", x.Shape().Clone(), x)}, x)
}

func (o *tanhOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		x := f32(vs[0])
		for i, v := range x {
			out.Float32s()[i] = float32(math.Tanh(float64(v)))
		}
	case tensor.Float64:
		x := f64(vs[0])
		for i, v := range x {
			out.Float64s()[i] = math.Tanh(v)
		}
	}
	return out, nil
}

func (o *tanhOp) DiffWRT(int) []bool { return []bool{true} }

func (o *tanhOp) SymDiff(_ G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{apply(&tanhGradOp{newBase("tanhgrad", out.Shape().Clone(), out, grad)}, out, grad)}, nil
}

// tanhGradOp is g·(1-y²) for y = tanh(x).
type tanhGradOp struct{ opBase }

func (o *tanhGradOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	switch vs[0].Dtype() {
	case tensor.Float32:
		y := f32(vs[0])
		g, d := f32(vs[1]), out.Float32s()
		for i, v := range y {
			d[i] = g[i] * (1 - v*v)
		}
	case tensor.Float64:
		y := f64(vs[0])
		g, d := f64(vs[1]), out.Float64s()
		for i, v := range y {
			d[i] = g[i] * (1 - v*v)
		}
	}
	return out, nil
}

// policyLossOp is coef times the mean over the rows of the batch that
// have a target (value-only samples have none: their row of t is all
// zeros) of the cross-entropy of the target distribution t against the
// softmax of logits+mask (the mask holds 0 for legal actions and
// maskedLogit for the others), computed in float64 per row with the row's
// own maximum subtracted. The policy's coef is 1, the soft policy's
// net.TrainOptions.SoftPolicyScale().
type policyLossOp struct {
	opBase
	coef float64
	last float64 // the loss of the last run (times coef)
}

func policyLoss(name string, logits, mask, target *G.Node, coef float64) *G.Node {
	return apply(&policyLossOp{opBase: newBase(name, nil, logits, mask, target), coef: coef}, logits, mask, target)
}

func (o *policyLossOp) Do(vs ...G.Value) (G.Value, error) {
	cols := vs[0].Shape()[1]
	switch vs[0].Dtype() {
	case tensor.Float32:
		o.last = o.coef * xent(f32(vs[0]), f32(vs[1]), f32(vs[2]), cols, nil, 0)
		return G.NewF32(float32(o.last)), nil
	case tensor.Float64:
		o.last = o.coef * xent(f64(vs[0]), f64(vs[1]), f64(vs[2]), cols, nil, 0)
		return G.NewF64(o.last), nil
	}
	return nil, fmt.Errorf("train: %s of %v", o.name, vs[0].Dtype())
}

// xent returns the mean cross-entropy over the rows whose target is not
// all zeros (0 if there are none); with grad non-nil it writes there the
// gradient of that mean times scale instead: softmax·Σt − t per row, zero
// on the rows without a target.
func xent[T kernel.Float](z, mask, t []T, cols int, grad []T, scale float64) float64 {
	rows := len(z) / cols
	targets := 0
	for r := 0; r < rows; r++ {
		if slices.ContainsFunc(t[r*cols:(r+1)*cols], func(v T) bool { return v != 0 }) {
			targets++
		}
	}
	if targets == 0 {
		clear(grad)
		return 0
	}
	var loss float64
	for r := 0; r < rows; r++ {
		zr, mr, tr := z[r*cols:(r+1)*cols], mask[r*cols:(r+1)*cols], t[r*cols:(r+1)*cols]
		m := math.Inf(-1)
		for j, v := range zr {
			m = max(m, float64(v)+float64(mr[j]))
		}
		// A masked action's exponential is exactly 0 (see maskedLogit):
		// it is not computed.
		var sum, tsum, tz float64
		for j, v := range zr {
			if mr[j] == 0 {
				sum += math.Exp(float64(v) - m)
			}
			if tr[j] != 0 {
				tsum += float64(tr[j])
				tz += float64(tr[j]) * (float64(v) + float64(mr[j]) - m)
			}
		}
		lse := math.Log(sum)
		loss += tsum*lse - tz
		if grad != nil {
			gr := grad[r*cols : (r+1)*cols]
			for j, v := range zr {
				var p float64
				if mr[j] == 0 {
					p = math.Exp(float64(v)-m) / sum
				}
				gr[j] = T((p*tsum - float64(tr[j])) * scale / float64(targets))
			}
		}
	}
	return loss / float64(targets)
}

func (o *policyLossOp) DiffWRT(int) []bool { return []bool{true, false, false} }

func (o *policyLossOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	g := apply(&policyLossGradOp{newBase(o.name+"grad", ins[0].Shape().Clone(), ins[0], ins[1], ins[2], grad), o.coef},
		ins[0], ins[1], ins[2], grad)
	return G.Nodes{g, nil, nil}, nil
}

// policyLossGradOp is the gradient of policyLossOp with respect to the
// logits.
type policyLossGradOp struct {
	opBase
	coef float64
}

func (o *policyLossGradOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	cols, scale := vs[0].Shape()[1], o.coef*scalarOf(vs[3])
	switch vs[0].Dtype() {
	case tensor.Float32:
		z := f32(vs[0])
		xent(z, f32(vs[1]), f32(vs[2]), cols, out.Float32s(), scale)
	case tensor.Float64:
		z := f64(vs[0])
		xent(z, f64(vs[1]), f64(vs[2]), cols, out.Float64s(), scale)
	}
	return out, nil
}

// valueLossOp is the mean squared difference of v and t.
type valueLossOp struct {
	opBase
	last float64 // the loss of the last run
}

func valueLoss(v, t *G.Node) *G.Node {
	return apply(&valueLossOp{opBase: newBase("valueloss", nil, v, t)}, v, t)
}

func (o *valueLossOp) Do(vs ...G.Value) (G.Value, error) {
	switch vs[0].Dtype() {
	case tensor.Float32:
		o.last = mse(f32(vs[0]), f32(vs[1]))
		return G.NewF32(float32(o.last)), nil
	case tensor.Float64:
		o.last = mse(f64(vs[0]), f64(vs[1]))
		return G.NewF64(o.last), nil
	}
	return nil, fmt.Errorf("train: value loss of %v", vs[0].Dtype())
}

func mse[T kernel.Float](v, t []T) float64 {
	var s float64
	for i := range v {
		d := float64(v[i]) - float64(t[i])
		s += d * d
	}
	return s / float64(len(v))
}

func (o *valueLossOp) DiffWRT(int) []bool { return []bool{true, false} }

func (o *valueLossOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	g := apply(&valueLossGradOp{newBase("valuelossgrad", ins[0].Shape().Clone(), ins[0], ins[1], grad)}, ins[0], ins[1], grad)
	return G.Nodes{g, nil}, nil
}

// valueLossGradOp is 2(v−t)/len(v) times the incoming gradient.
type valueLossGradOp struct{ opBase }

func (o *valueLossGradOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	s := scalarOf(vs[2])
	switch vs[0].Dtype() {
	case tensor.Float32:
		v := f32(vs[0])
		t, d := f32(vs[1]), out.Float32s()
		for i := range v {
			d[i] = float32(2 * (float64(v[i]) - float64(t[i])) * s / float64(len(v)))
		}
	case tensor.Float64:
		v := f64(vs[0])
		t, d := f64(vs[1]), out.Float64s()
		for i := range v {
			d[i] = 2 * (v[i] - t[i]) * s / float64(len(v))
		}
	}
	return out, nil
}

// auxLossOp is an auxiliary head's loss: coef times the mean, over the
// rows whose weight is not 0 (samples with auxiliary targets), of the
// mean over the row's columns of the binary cross-entropy of the target t
// (in [0, 1]) against sigmoid(z). z and t are (batch, cols), w (batch, 1)
// of 0 or 1.
type auxLossOp struct {
	opBase
	coef float64
	last float64 // the loss of the last run (times coef)
}

func auxLoss(name string, z, t, w *G.Node, coef float64) *G.Node {
	return apply(&auxLossOp{opBase: newBase(name, nil, z, t, w), coef: coef}, z, t, w)
}

func (o *auxLossOp) Do(vs ...G.Value) (G.Value, error) {
	cols := vs[0].Shape()[1]
	switch vs[0].Dtype() {
	case tensor.Float32:
		o.last = sigmoidXent(f32(vs[0]), f32(vs[1]), f32(vs[2]), cols, o.coef, nil, 0)
		return G.NewF32(float32(o.last)), nil
	case tensor.Float64:
		o.last = sigmoidXent(f64(vs[0]), f64(vs[1]), f64(vs[2]), cols, o.coef, nil, 0)
		return G.NewF64(o.last), nil
	}
	return nil, fmt.Errorf("train: %s of %v", o.name, vs[0].Dtype())
}

// sigmoidXent returns coef times the weighted mean binary cross-entropy
// of auxLossOp (0 if every weight is 0); with grad non-nil it writes there
// the gradient of that with respect to z, times scale:
// coef·w·(sigmoid(z) − t)/(cols·Σw) per entry.
func sigmoidXent[T kernel.Float](z, t, w []T, cols int, coef float64, grad []T, scale float64) float64 {
	var weight float64
	for _, v := range w {
		weight += float64(v)
	}
	if weight == 0 {
		clear(grad)
		return 0
	}
	norm := coef / (weight * float64(cols))
	var loss float64
	for r, wr := range w {
		for j := r * cols; j < (r+1)*cols; j++ {
			x, y := float64(z[j]), float64(t[j])
			if wr != 0 {
				// max(x, 0) − x·y + log(1 + e^−|x|), stable for any x.
				loss += float64(wr) * (math.Max(x, 0) - x*y + math.Log1p(math.Exp(-math.Abs(x))))
			}
			if grad != nil {
				grad[j] = T(float64(wr) * (1/(1+math.Exp(-x)) - y) * norm * scale)
			}
		}
	}
	return loss * norm
}

func (o *auxLossOp) DiffWRT(int) []bool { return []bool{true, false, false} }

func (o *auxLossOp) SymDiff(ins G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	g := apply(&auxLossGradOp{newBase(o.name+"grad", ins[0].Shape().Clone(), ins[0], ins[1], ins[2], grad), o.coef},
		ins[0], ins[1], ins[2], grad)
	return G.Nodes{g, nil, nil}, nil
}

// auxLossGradOp is the gradient of auxLossOp with respect to z.
type auxLossGradOp struct {
	opBase
	coef float64
}

func (o *auxLossGradOp) Do(vs ...G.Value) (G.Value, error) {
	out := o.output(vs[0].Dtype())
	cols, scale := vs[0].Shape()[1], scalarOf(vs[3])
	switch vs[0].Dtype() {
	case tensor.Float32:
		sigmoidXent(f32(vs[0]), f32(vs[1]), f32(vs[2]), cols, o.coef, out.Float32s(), scale)
	case tensor.Float64:
		sigmoidXent(f64(vs[0]), f64(vs[1]), f64(vs[2]), cols, o.coef, out.Float64s(), scale)
	}
	return out, nil
}
