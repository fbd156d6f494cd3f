package net

import (
	"context"
	"math"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// referenceForward is the network written out plainly, in float64, from
// the description in doc.go and the weight shapes of Config.params: direct
// 3x3 convolutions over (channel, row, column) arrays with zero padding,
// no im2row, no matrix library, on p's board of W files and H ranks. It
// returns the logit of every action of that board and the value.
func referenceForward(m *Model, p rules.Position) (logits []float64, value float64) {
	cfg := m.cfg
	shape, f := int(p.Size), cfg.Filters
	bw, bh := p.Width(), p.Height()
	nn := bw * bh
	w := func(name string) []float32 { return m.weights[name] }
	enc := cfg.Encoding()
	planes := enc.Encode(p, make([]float32, enc.EncodedLen(shape)))
	x := make([][]float64, enc.Planes()) // x[c][row*W+col]
	for c := range x {
		x[c] = make([]float64, nn)
		for s := range x[c] {
			x[c][s] = float64(planes[c*nn+s])
		}
	}
	conv := func(in [][]float64, name string, out, k int) [][]float64 {
		wt, b := w(name+".w"), w(name+".b")
		cin := len(in)
		y := make([][]float64, out)
		for o := range y {
			y[o] = make([]float64, nn)
			for r := 0; r < bh; r++ {
				for c := 0; c < bw; c++ {
					sum := float64(b[o])
					for ci := 0; ci < cin; ci++ {
						for ky := 0; ky < k; ky++ {
							for kx := 0; kx < k; kx++ {
								rr, cc := r+ky-k/2, c+kx-k/2
								if rr < 0 || rr >= bh || cc < 0 || cc >= bw {
									continue
								}
								sum += float64(wt[((o*cin+ci)*k+ky)*k+kx]) * in[ci][rr*bw+cc]
							}
						}
					}
					y[o][r*bw+c] = sum
				}
			}
		}
		return y
	}
	relu := func(a [][]float64) [][]float64 {
		for _, ch := range a {
			for i, v := range ch {
				ch[i] = max(v, 0)
			}
		}
		return a
	}
	mean := func(a [][]float64) []float64 {
		out := make([]float64, len(a))
		for i, ch := range a {
			for _, v := range ch {
				out[i] += v / float64(nn)
			}
		}
		return out
	}
	dense := func(in []float64, name string, outN int) []float64 { // weight (in, out)
		wt := w(name + ".w")
		out := make([]float64, outN)
		for o := range out {
			if b := w(name + ".b"); b != nil {
				out[o] = float64(b[o])
			}
			for i, v := range in {
				out[o] += v * float64(wt[i*outN+o])
			}
		}
		return out
	}
	h := relu(conv(x, "stem", f, 3))
	for i := 0; i < cfg.Blocks; i++ {
		pre := "block" + string(rune('0'+i)) + "."
		r := relu(conv(h, pre+"conv1", f, 3))
		if cfg.GlobalPool {
			bias := dense(mean(r), pre+"pool", f)
			for c := range r {
				for s := range r[c] {
					r[c][s] += bias[c]
				}
			}
		}
		r = conv(r, pre+"conv2", f, 3)
		for c := range h {
			for s := range h[c] {
				h[c][s] = max(h[c][s]+r[c][s], 0)
			}
		}
	}
	pol := conv(relu(conv(h, "policy.conv1", f, 1)), "policy.conv2", cfg.actionPlanes(), 1)
	hops := cfg.Hops // the plane of a jump: by direction, then hop count
	if hops == 0 {
		hops = rules.MaxHops(cfg.Size)
	}
	logits = make([]float64, rules.NumActions(shape))
	for a := range logits {
		mv := rules.ActionMove(a, shape)
		plane := 0
		if !mv.IsRemoval() {
			plane = 1 + int(mv.Direction())*hops + mv.Hops() - 1
		}
		logits[a] = pol[plane][mv.From.Row()*bw+mv.From.Col()]
	}
	v := relu([][]float64{dense(mean(h), "value.fc1", cfg.ValueHidden)})[0]
	return logits, math.Tanh(dense(v, "value.fc2", 1)[0])
}

// TestReferenceForward checks the evaluator against referenceForward on
// positions of every phase, for boards 4..8, both encodings and a network
// with every kind of layer (perturbed, so that no path is zero), and for a
// multi-board network on squares and rectangles of both starts: the
// policy over the legal moves and the value agree to float32 rounding.
func TestReferenceForward(t *testing.T) {
	type tc struct {
		board rules.Board
		multi bool
	}
	cases := []tc{{rules.SquareBoard(4), false}, {rules.SquareBoard(5), false}, {rules.SquareBoard(8), false}}
	for _, b := range []rules.Board{{W: 7, H: 6, Start: rules.Gap}, {W: 7, H: 6, Start: rules.Removal}, {W: 5, H: 8, Start: rules.Gap}, {W: 6, H: 6}, {W: 8, H: 8}} {
		cases = append(cases, tc{b, true})
	}
	for _, c := range cases {
		n := c.board.W
		cfg := Config{Size: n, Filters: 6, Blocks: 2, ValueHidden: 5, GlobalPool: true, Captures: n != 5}
		if c.multi {
			cfg.Size, cfg.Hops = 0, MultiBoardHops
		}
		m := perturbed(mustModel(t, cfg, 1), 0.2, 2)
		if c.multi {
			var err error
			if m, err = m.ForBoard(c.board); err != nil {
				t.Fatal(err)
			}
		}
		e := startEvaluator(t, m, EvalOptions{Batch: 4})
		ps := nettestutil.BoardPositions(t, c.board, 12, uint64(n))
		preds, err := e.Evaluate(context.Background(), ps)
		if err != nil {
			t.Fatal(err)
		}
		var buf [rules.MaxMoves]rules.Move
		for i, p := range ps {
			logits, value := referenceForward(m, p)
			want := mcts.Prediction{Value: float32(value)}
			moves := p.LegalMoves(buf[:0])
			maxL := math.Inf(-1)
			shape := int(p.Size)
			for _, mv := range moves {
				maxL = max(maxL, logits[rules.ActionIndex(mv, shape)])
			}
			var sum float64
			for _, mv := range moves {
				sum += math.Exp(logits[rules.ActionIndex(mv, shape)] - maxL)
			}
			for _, mv := range moves {
				want.Policy = append(want.Policy, float32(math.Exp(logits[rules.ActionIndex(mv, shape)]-maxL)/sum))
			}
			got := preds[i]
			if math.Abs(float64(got.Value-want.Value)) > 1e-5 {
				t.Errorf("%v (multi %v) position %d: value %v, reference %v", c.board, c.multi, i, got.Value, want.Value)
			}
			for j := range want.Policy {
				if math.Abs(float64(got.Policy[j]-want.Policy[j])) > 1e-5 {
					t.Errorf("%v (multi %v) position %d: prior of %v %v, reference %v", c.board, c.multi, i, moves[j], got.Policy[j], want.Policy[j])
					break
				}
			}
		}
	}
}
