package kernel

import (
	"math"

	"github.com/konanezero/konane/rules"
)

// Float is the float types of the kernels.
type Float interface{ ~float32 | ~float64 }

// Gemm computes C = alpha·op(A)·op(B) + beta·C with the package's BLAS
// (RowBLAS: blocks of rows, so every row gets the same operations).
func Gemm[T Float](tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	GemmBlocks(RowBlock, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmBlocks is gemm by blocks of size rows of C (float32 only; float64
// products, for the gradient check, are not blocked).
func GemmBlocks[T Float](size int, tA, tB Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		Default.SgemmBlocks(size, tA, tB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		Dgemm(tA, tB, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// Grid is the board of a batch's positions: w files and h ranks, square
// (row, col) at row w·row + col of a position's rows.
type Grid struct{ w, h int }

// NewGrid returns the Grid of w files and h ranks.
func NewGrid(w, h int) Grid { return Grid{w, h} }

// NN is the number of squares.
func (g Grid) NN() int { return g.w * g.h }

// Neighbours returns g's neighbour table: [sq*9+k] is the square at
// offset (k/3-1, k%3-1) of square sq, or -1 off the board.
func (g Grid) Neighbours() []int32 { return neighbourTables[g.w][g.h] }

// neighbourTables[w][h] is the neighbour table of the w×h grid, for every
// board up to rules.MaxSide (and the smaller grids of tests).
var neighbourTables [rules.MaxSide + 1][rules.MaxSide + 1][]int32

func init() {
	for w := 1; w < len(neighbourTables); w++ {
		for h := 1; h < len(neighbourTables[w]); h++ {
			t := make([]int32, w*h*9)
			for sq := range w * h {
				r, c := sq/w, sq%w
				for k := range 9 {
					rr, cc := r+k/3-1, c+k%3-1
					t[sq*9+k] = -1
					if rr >= 0 && rr < h && cc >= 0 && cc < w {
						t[sq*9+k] = int32(rr*w + cc)
					}
				}
			}
			neighbourTables[w][h] = t
		}
	}
}

// GatherRows writes rows r0..r1 of im2row's output.
func GatherRows[T Float](x, out []T, g Grid, c, r0, r1 int) {
	nn, nb := g.NN(), g.Neighbours()
	for r := r0; r < r1; r++ {
		base := r - r%nn
		nbr := nb[(r%nn)*9 : (r%nn)*9+9]
		dst := out[r*c*9 : (r+1)*c*9]
		for k, s := range nbr {
			if s < 0 {
				clear(dst[k*c : (k+1)*c])
				continue
			}
			copy(dst[k*c:(k+1)*c], x[(base+int(s))*c:(base+int(s)+1)*c])
		}
	}
}

// Linear is the arithmetic of y = relu?(x·W + b + h): x (rows, K); W
// (K, F); b, if any, F numbers; h, if any, a residual input of y's shape.
// A convolution's weight, (F, K…), is laid out first (PermuteKernel):
// products of the form A·B, unlike A·Bᵀ, give every row the same
// operations in OpenBLAS whatever its position in a block of rows (see
// RowBLAS). It holds the product's shape and the scratch of its runs, and
// no operands: the forward pass runs it (Run), and so does the
// training graph's linear node.
type Linear struct {
	rows, k, f      int // see LinearSpec
	block           int // rows per BLAS call in the forward product; 0: no BLAS
	bias, res, relu bool
	// gather: x is (rows, C) and the product's x is its im2row on this
	// board, gathered block by block into scratch of the worker computing
	// the block rather than in full (inference only: no gradient); the
	// zero grid for none.
	gather    Grid
	a32       linearArgs[float32] // operands of the current run
	a64       linearArgs[float64]
	scratch32 [][]float32 // per worker, the gathered x of a block
	scratch64 [][]float64
	offs      []int32     // the fused kernel's offsets of A's rows (rows8Offsets)
	tail32    [][]float32 // per worker, the fused kernel's last 8 rows (linearRows8)
	offsDone  bool

	// The bf16 backend (set by the evaluator on the per-position products
	// of its forward passes; see BackendBF16): the weight as bfloat16
	// pairs (bf16Weight, set with the weights) and per worker the block's
	// input rows as bfloat16.
	bf16 bool
	wbf  []uint32
	xbf  [][]uint16
}

// LinearSpec is the shape of a Linear: x (Rows, K), W (K, F).
type LinearSpec struct {
	Rows, K, F int
	// Block is the number of rows per BLAS call (one position's rows:
	// see RowBLAS); 0 for a plain loop per row (products with a row per
	// position).
	Block           int
	Bias, Res, ReLU bool // whether b and h are given, and the ReLU
	// Gather, if not the zero Grid, is the board of a 3x3 convolution
	// whose x is (Rows, C), K = 9·C: each block's im2row is gathered
	// into the scratch of the worker computing it (inference only: no
	// gradient).
	Gather Grid
}

// NewLinear returns the Linear of the spec.
func NewLinear(s LinearSpec) *Linear {
	return &Linear{rows: s.Rows, k: s.K, f: s.F, block: s.Block, bias: s.Bias, res: s.Res, relu: s.ReLU, gather: s.Gather}
}

// UseBF16 makes o run on the bf16 backend and reports whether its fused
// kernel can compute o (else o must not be run); SetBF16Weight must
// then give it its weight, and again whenever the weight changes.
func (o *Linear) UseBF16() bool {
	o.bf16 = true
	o.prepareFused()
	return o.offs != nil
}

// SetBF16Weight gives a Linear on the bf16 backend its weight w (K, F).
func (o *Linear) SetBF16Weight(w []float32) { o.wbf = bf16Weight(o, w) }

// prepareFused sets up the fused kernel's offsets and scratch, if it can
// compute o (see linearRows8, linearRowsBF16).
func (o *Linear) prepareFused() {
	o.offsDone = true
	if o.bf16 {
		c := o.k
		if o.gather.w > 0 {
			c = o.k / 9
		}
		cp := c + c%2
		o.offs = rows8Offsets(o, 2*cp)
		o.xbf = make([][]uint16, MaxWorkers)
		for i := range o.xbf {
			o.xbf[i] = make([]uint16, o.block*cp)
		}
	} else {
		o.offs = rows8Offsets(o, 0)
	}
	if o.offs != nil && o.block%8 != 0 {
		o.tail32 = make([][]float32, MaxWorkers)
		for i := range o.tail32 {
			o.tail32[i] = make([]float32, 8*o.f)
		}
	}
}

// Run computes y = relu?(x·w + b + h) with o (b and h nil if o has
// none), its blocks spread over the cores (see Parallel).
func Run[T Float](o *Linear, x, w, b, h, y []T) {
	run(o, linearArgs[T]{x: x, w: w, b: b, h: h, y: y})
}

func run[T Float](o *Linear, a linearArgs[T]) {
	blocks := 1
	if o.block > 0 {
		blocks = (o.rows + o.block - 1) / o.block
	}
	if o.gather.w > 0 && o.scratch32 == nil && o.scratch64 == nil {
		per := o.block * o.k
		if o.block == 0 {
			per = o.rows * o.k
		}
		switch any(a).(type) {
		case linearArgs[float32]:
			o.scratch32 = make([][]float32, MaxWorkers)
			for i := range o.scratch32 {
				o.scratch32[i] = make([]float32, per)
			}
		case linearArgs[float64]:
			o.scratch64 = make([][]float64, MaxWorkers)
			for i := range o.scratch64 {
				o.scratch64[i] = make([]float64, per)
			}
		}
	}
	if !o.offsDone {
		o.prepareFused()
	}
	switch a := any(a).(type) {
	case linearArgs[float32]:
		o.a32 = a
		Parallel(blocks, o)
		o.a32 = linearArgs[float32]{}
	case linearArgs[float64]:
		o.a64 = a
		Parallel(blocks, o)
		o.a64 = linearArgs[float64]{}
	}
}

// linearArgs are the operands of one run of a Linear.
type linearArgs[T Float] struct{ x, w, b, h, y []T }

// DoBlock computes one block of the product's rows with its bias,
// residual and ReLU (all rows when there is no block size).
func (o *Linear) DoBlock(blk, worker int) {
	r0, r1 := 0, o.rows
	if o.block > 0 {
		r0, r1 = blk*o.block, min((blk+1)*o.block, o.rows)
	}
	if o.a32.y != nil {
		linearForward(o, o.a32, o.scratch32, r0, r1, worker)
	} else {
		linearForward(o, o.a64, o.scratch64, r0, r1, worker)
	}
}

// linearForward computes rows r0..r1 of the output; worker's scratch
// holds the block's gathered x if o.gather.
func linearForward[T Float](o *Linear, a linearArgs[T], scratch [][]T, r0, r1, worker int) {
	p0 := r0 // the block's first row, a whole position's if o.block > 0
	if a, ok := any(a).(linearArgs[float32]); ok && o.block > 0 {
		// The rows the fused kernel computes, if any (from r0); the
		// others, below, give the same numbers.
		if o.bf16 {
			linearRowsBF16(o, a, r0, r1, worker)
			return
		}
		var tail []float32
		if o.tail32 != nil {
			tail = o.tail32[worker]
		}
		if r0 += linearRows8(o, a, r0, r1, tail); r0 == r1 {
			return
		}
	}
	var x []T
	if o.gather.w > 0 {
		c := o.k / 9
		// The rows of the gathered x, from p0 on, are the block's: base 0
		// is then the block's first row, a whole position's.
		x = scratch[worker][:(r1-p0)*o.k]
		GatherRows(a.x[p0*c:r1*c], x, o.gather, c, r0-p0, r1-p0)
		x = x[(r0-p0)*o.k:]
	} else {
		x = a.x[r0*o.k : r1*o.k]
	}
	w, b, h := a.w, a.b, a.h
	y := a.y[r0*o.f : r1*o.f]
	if h != nil {
		h = h[r0*o.f : r1*o.f]
	}
	rows := r1 - r0
	var beta T
	if b != nil || h != nil {
		beta = 1
		for r := 0; r < rows; r++ {
			row := y[r*o.f : (r+1)*o.f]
			switch {
			case b != nil && h != nil:
				for j, h := range h[r*o.f : (r+1)*o.f] {
					row[j] = b[j] + h
				}
			case b != nil:
				copy(row, b)
			default:
				copy(row, h[r*o.f:(r+1)*o.f])
			}
		}
	}
	if o.block == 0 {
		// A product with a row per position (the value head and the
		// global pooling): small, and in OpenBLAS a row's result depends
		// on its place in the block, so it is a plain loop, the same for
		// every row.
		for r := 0; r < rows; r++ {
			yr, xr := y[r*o.f:(r+1)*o.f], x[r*o.k:(r+1)*o.k]
			if beta == 0 {
				clear(yr)
			}
			if y, ok := any(yr).([]float32); ok && mulAddRow32(y, any(xr).([]float32), any(w).([]float32), o.k, o.f) {
				continue // the same products and sums, by vectors of columns
			}
			for i, xv := range xr {
				for j, wv := range w[i*o.f : (i+1)*o.f] {
					yr[j] += T(xv * wv) // T(…): rounded apart, never fused into an FMA (GOAMD64=v3), as the vector path
				}
			}
		}
	} else {
		// One block of one position's rows (see RowBLAS).
		switch x := any(x).(type) {
		case []float32:
			r := Default
			if o.block != RowBlock {
				r.padTail = false
			}
			r.block(NoTrans, NoTrans, rows, o.f, o.k, 1, x, o.k, any(w).([]float32), o.f, float32(beta), any(y).([]float32), o.f)
		case []float64:
			Dgemm(NoTrans, NoTrans, rows, o.f, o.k, 1, x, o.k, any(w).([]float64), o.f, float64(beta), any(y).([]float64), o.f)
		}
	}
	if o.relu {
		ReLU(y)
	}
}

// ReLU sets the negative entries of y to zero. In float32 it works on
// the bits, without a branch per entry (half of them are negative, at
// random: a branch mispredicts every other time); a negative zero
// becomes a positive one.
func ReLU[T Float](y []T) {
	if y, ok := any(y).([]float32); ok {
		for i, v := range y {
			b := math.Float32bits(v)
			y[i] = math.Float32frombits(b &^ uint32(int32(b)>>31))
		}
		return
	}
	for i, v := range y {
		if v < 0 {
			y[i] = 0
		}
	}
}

// PermuteKernel lays out a convolution's weight in (F, C, taps) as the
// matrix (taps·C, F) of im2row's columns, out: row t·C+c, column f. With
// inverse it does the opposite.
func PermuteKernel[T Float](in, out []T, f, c, taps int, inverse bool) {
	for fi := 0; fi < f; fi++ {
		for ci := 0; ci < c; ci++ {
			for t := 0; t < taps; t++ {
				w, m := (fi*c+ci)*taps+t, (t*c+ci)*f+fi
				if inverse {
					out[w] = in[m]
				} else {
					out[m] = in[w]
				}
			}
		}
	}
}

// SpatialSum sums each position's rows, times scale: x (batch·nn, F)
// becomes out (batch, F). Scale 1/nn is the mean over the board.
func SpatialSum[T Float](x, out []T, nn, f int, scale T) {
	for b := 0; b < len(out)/f; b++ {
		o := out[b*f : (b+1)*f]
		if o, ok := any(o).([]float32); ok && sumRows32(o, any(x).([]float32)[b*nn*f:(b+1)*nn*f], nn, f, float32(scale)) {
			continue // the same additions, by vectors of columns
		}
		clear(o)
		for sq := 0; sq < nn; sq++ {
			for j, v := range x[(b*nn+sq)*f : (b*nn+sq+1)*f] {
				o[j] += v
			}
		}
		for j := range o {
			o[j] *= scale
		}
	}
}

// SpreadRows writes into out (batch·nn, F) every row of g (batch, F)
// on each of its position's rows: times scale, or, with x (batch·nn, F)
// non-nil, added to x's row (a per-position bias).
func SpreadRows[T Float](x, g, out []T, nn, f int, scale T) {
	if x, ok := any(x).([]float32); ok && x != nil && len(out) > 0 && len(out)%(nn*f) == 0 {
		g, out := any(g).([]float32), any(out).([]float32)
		done := true
		for b := 0; done && b < len(out)/(nn*f); b++ {
			// The same additions, by vectors of columns.
			done = addRow32(out[b*nn*f:(b+1)*nn*f], x[b*nn*f:(b+1)*nn*f], g[b*f:(b+1)*f], nn, f)
		}
		if done {
			return
		}
	}
	for r := 0; r < len(out)/f; r++ {
		src, dst := g[(r/nn)*f:(r/nn+1)*f], out[r*f:(r+1)*f]
		if x != nil {
			for j, x := range x[r*f : (r+1)*f] {
				dst[j] = x + src[j]
			}
			continue
		}
		for j, v := range src {
			dst[j] = v * scale
		}
	}
}
