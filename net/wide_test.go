package net

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// TestEncodeWideAgrees checks that on every board Position holds (squares
// and rectangles, each start), a position and its Wide form encode to the
// same numbers, in both layouts and both encodings, and that a wide move's
// slot is the slot of its narrow form.
func TestEncodeWideAgrees(t *testing.T) {
	for w := rules.MinSize; w <= rules.MaxSize; w++ {
		for h := rules.MinSize; h <= rules.MaxSize; h++ {
			for _, start := range []rules.Start{rules.Removal, rules.Gap} {
				b := rules.Board{W: w, H: h, Start: start}
				if b.Validate() != nil {
					continue
				}
				shape := rules.ShapeCode(w, h)
				for _, p := range nettestutil.BoardPositions(t, b, 40, uint64(shape)) {
					wp := p.Wide()
					var buf [rules.MaxMoves]rules.Move
					var wbuf [rules.WideMaxMoves]rules.WideMove
					moves, wmoves := p.LegalMoves(buf[:0]), wp.LegalMoves(wbuf[:0])
					for _, e := range []Encoding{EncodingOrigins, EncodingCaptures} {
						n := e.EncodedLen(shape)
						want, got := e.Encode(p, make([]float32, n)), e.EncodeWide(wp, make([]float32, n))
						if !slices.Equal(got, want) {
							t.Fatalf("%v %v encoding %d: EncodeWide differs from Encode", b, p, e)
						}
						wantRows, gotRows := make([]float32, n), make([]float32, n)
						e.encodeRows(p, moves, wantRows)
						e.encodeWideRows(wp, wmoves, gotRows)
						if !slices.Equal(gotRows, wantRows) {
							t.Fatalf("%v %v encoding %d: encodeWideRows differs from encodeRows", b, p, e)
						}
					}
					for _, cfg := range []Config{DefaultMultiBoardConfig(), DefaultConfig(max(w, h, 6))} {
						slot := cfg.slotTable(shape)
						for i, m := range moves {
							if got, want := wideSlot(wmoves[i], w, cfg.hops()), int(slot[rules.ActionIndex(m, shape)]); got != want {
								t.Fatalf("%v %v: wide slot %d, narrow %d", b, m, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestEvaluateWide checks a multi-board network on boards no Position
// holds (15x12 and 9x8): priors over every legal move summing to 1 and
// finite values, the same answer alone as in a batch, and the refusals of
// a position of another board. On 8x8 the answer for a WidePosition is
// the answer for its Position, bit for bit.
func TestEvaluateWide(t *testing.T) {
	m := mustModel(t, multiConfig(), 5)
	ctx := context.Background()
	for _, b := range []rules.Board{{W: 15, H: 12, Start: rules.Gap}, {W: 9, H: 8, Start: rules.Gap}} {
		mb, err := m.ForBoard(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := mb.Check(); err != nil {
			t.Fatalf("%v: Check: %v", b, err)
		}
		e := startEvaluator(t, mb, EvalOptions{Batch: 4})
		ps := nettestutil.WideBoardPositions(t, b, 7, 3)
		preds, err := e.EvaluateWide(ctx, ps)
		if err != nil {
			t.Fatal(err)
		}
		for i, pr := range preds {
			var buf [rules.WideMaxMoves]rules.WideMove
			if n := len(ps[i].LegalMoves(buf[:0])); len(pr.Policy) != n {
				t.Fatalf("%v position %d: %d priors for %d moves", b, i, len(pr.Policy), n)
			}
			var sum float64
			for _, p := range pr.Policy {
				sum += float64(p)
			}
			if math.Abs(sum-1) > 1e-3 || !(pr.Value >= -1 && pr.Value <= 1) {
				t.Errorf("%v position %d: priors sum to %v, value %v", b, i, sum, pr.Value)
			}
		}
		alone := startEvaluator(t, mb, EvalOptions{Batch: 1})
		for i, p := range ps {
			pr, err := alone.EvaluateWide(ctx, []rules.WidePosition{p})
			if err != nil {
				t.Fatal(err)
			}
			if pr[0].Value != preds[i].Value || !slices.Equal(pr[0].Policy, preds[i].Policy) {
				t.Errorf("%v position %d: alone %v, in a batch %v", b, i, pr[0].Value, preds[i].Value)
			}
		}
		other := nettestutil.WideBoardPositions(t, rules.Board{W: 11, H: 8, Start: rules.Gap}, 1, 1)
		if _, err := e.EvaluateWide(ctx, other); !errors.Is(err, ErrSize) {
			t.Errorf("%v evaluator given an 11x8 position: %v", b, err)
		}
		if _, err := e.Evaluate(ctx, nettestutil.Positions(8, 1, 1)); !errors.Is(err, ErrSize) {
			t.Errorf("%v evaluator given an 8x8 Position: %v", b, err)
		}
	}
	// The single-board 8x8 network cannot play 9x8.
	if _, err := mustModel(t, tinyConfig(8), 1).ForBoard(rules.Board{W: 9, H: 8, Start: rules.Gap}); !errors.Is(err, ErrSize) {
		t.Errorf("8x8 network for 9x8: %v", err)
	}
	for _, cfg := range []Config{multiConfig(), tinyConfig(8)} {
		mb, err := mustModel(t, cfg, 7).ForBoard(rules.SquareBoard(8))
		if err != nil {
			t.Fatal(err)
		}
		e := startEvaluator(t, mb, EvalOptions{Batch: 8, CacheSize: 64})
		ps := nettestutil.BoardPositions(t, rules.SquareBoard(8), 20, 9)
		wps := make([]rules.WidePosition, len(ps))
		for i, p := range ps {
			wps[i] = p.Wide()
		}
		want, err := e.Evaluate(ctx, ps)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.EvaluateWide(ctx, wps)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ps {
			if math.Float32bits(got[i].Value) != math.Float32bits(want[i].Value) || !slices.Equal(got[i].Policy, want[i].Policy) {
				t.Fatalf("%s 8x8 position %d: wide %v %v, narrow %v %v", cfg.Arch(), i, got[i].Value, got[i].Policy, want[i].Value, want[i].Policy)
			}
		}
		if st := e.Stats(); st.CacheLookups != int64(2*len(ps)) {
			t.Errorf("cache lookups %d, want %d", st.CacheLookups, 2*len(ps))
		}
	}
}

// TestWideSamples checks wide samples: on boards a Position holds, the
// wide form of a sample maps under every symmetry as the sample does
// (same actions, the wide action space being the action space there); on
// 15x12 a mapped sample is still a valid one; and checkWide refuses a
// policy on an illegal move, a board a Position holds, stones off the
// board.
func TestWideSamples(t *testing.T) {
	cfg := multiConfig()
	for _, b := range []rules.Board{{W: 7, H: 6, Start: rules.Gap}, rules.SquareBoard(8)} {
		for _, s := range randomBoardSamples(t, b, 10, 4) {
			s.MovesLeft, s.Final = 5, s.Position.White
			ws := Sample{Wide: s.Position.Wide(), Policy: s.Policy, Value: s.Value, MovesLeft: 5,
				WideFinal: (rules.Position{Size: s.Position.Size, Black: s.Final}).Wide().Black}
			for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
				if !b.Square() && sym.SwapsAxes() {
					continue
				}
				n, w := s.Transform(sym), ws.transformWide(sym)
				if w.Wide != n.Position.Wide() || !slices.Equal(w.Policy, n.Policy) || w.WideFinal != (rules.Position{Size: n.Position.Size, Black: n.Final}).Wide().Black {
					t.Fatalf("%v %v: the wide form maps differently", b, sym)
				}
			}
			if _, err := ws.checkWide(cfg, nil); err == nil {
				t.Errorf("%v: a wide sample of a board a Position holds was accepted", b)
			}
		}
	}
	b := rules.Board{W: 15, H: 12, Start: rules.Gap}
	for _, s := range randomBoardSamples(t, b, 10, 5) {
		s.MovesLeft, s.WideFinal = 100, s.Wide.Black
		for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
			if sym.SwapsAxes() {
				continue
			}
			if _, err := s.Transform(sym).checkWide(cfg, nil); err != nil {
				t.Fatalf("15x12 %v: %v", sym, err)
			}
		}
		bad := s
		bad.Policy = append(slices.Clone(s.Policy), ActionProb{Action: int32(rules.WideActionIndex(rules.WideMove{From: 0, To: 0}, 15, 12)), Prob: 1})
		if _, err := bad.checkWide(cfg, nil); err == nil && s.Wide.Phase() == rules.Jumping {
			t.Errorf("15x12: a policy on the removal a1 in the jumping phase was accepted")
		}
		off := s
		off.WideFinal = rules.WideSquareAt(15, 15).Bit()
		if _, err := off.checkWide(cfg, nil); err == nil {
			t.Errorf("15x12: final stones off the board accepted")
		}
	}
}
