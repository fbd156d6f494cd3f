package train

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// TestTrainingMatchesInference: the trainer's graph (graph.go, on
// Gorgonia) and the evaluator (net's forward pass) are separate code for
// the same function; on each network and board of the table, over a few
// training steps, the values and the move probabilities (the logits
// softmaxed over the legal moves as the evaluator does, each move's slot
// found by encoding it as a one-hot target) of the training batch are
// bit-identical: a tiny 6x6 network, the default 8x8 network with three
// blocks and the capture planes, the multi-board network with the
// auxiliary heads on a wide board (9x8, EvaluateWide) and on 7x6, and
// with the soft policy head too on 7x6 (the evaluator skips that head).
func TestTrainingMatchesInference(t *testing.T) {
	deep := net.DefaultConfig(8)
	deep.Blocks = 3
	soft := multiConfig()
	soft.SoftPolicy = true
	for _, c := range []struct {
		name  string
		cfg   net.Config
		board rules.Board
	}{
		{"6x6 tiny", tinyConfig(6), rules.Board{W: 6, H: 6}},
		{"8x8 32x3 captures", deep, rules.Board{W: 8, H: 8}},
		{"multi-board aux 9x8", multiConfig(), rules.Board{W: 9, H: 8, Start: rules.Gap}},
		{"multi-board aux 7x6", multiConfig(), rules.Board{W: 7, H: 6, Start: rules.Gap}},
		{"multi-board aux soft policy 7x6", soft, rules.Board{W: 7, H: 6, Start: rules.Gap}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const batchSize = 8
			batch := randomBoardSamples(t, c.board, batchSize, 11)
			for i := range batch {
				batch[i].MovesLeft, batch[i].Final, batch[i].WideFinal = 3, batch[i].Position.Black, batch[i].Wide.Black
			}
			opts := net.TrainOptions{Batch: batchSize, LR: 0.01, Momentum: 0.9}
			tr, err := New(perturbed(mustModel(t, c.cfg, 3), 0.1, 4), opts)
			if err != nil {
				t.Fatal(err)
			}
			enc := net.NewSampleEncoder(c.cfg, batch[0].Shape())
			x, mask, target := make([]float32, enc.InputLen()), make([]float32, enc.Slots()), make([]float32, enc.Slots())
			// slotOf is the logit slot of action a in sample s's position.
			slotOf := func(s net.Sample, a int) int {
				s.Policy = []net.ActionProb{{Action: int32(a), Prob: 1}}
				enc.Encode(s, x, mask, target)
				return slices.Index(target, 1)
			}
			for step := range 3 {
				snap, err := tr.Model(net.Metadata{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tr.Step(batch); err != nil { // the forward pass is of snap's weights
					t.Fatal(err)
				}
				preds := evaluateSamples(t, snap, c.board, batch)
				logits, values := tr.gr.out.logits.Data().([]float32), tr.gr.out.value.Data().([]float32)
				slots := enc.Slots()
				for i, s := range batch {
					if math.Float32bits(values[i]) != math.Float32bits(preds[i].Value) {
						t.Fatalf("step %d: value %d: training %v, inference %v", step, i, values[i], preds[i].Value)
					}
					actions := legalActions(s, c.board)
					if len(actions) != len(preds[i].Policy) {
						t.Fatalf("step %d: position %d: %d legal moves, inference gave %d probabilities", step, i, len(actions), len(preds[i].Policy))
					}
					exps := make([]float64, len(actions))
					maxL := math.Inf(-1)
					for j, a := range actions {
						exps[j] = float64(logits[i*slots+slotOf(s, a)])
						maxL = max(maxL, exps[j])
					}
					var sum float64
					for j := range exps {
						exps[j] = math.Exp(exps[j] - maxL)
						sum += exps[j]
					}
					for j := range actions {
						if got, want := float32(exps[j]/sum), preds[i].Policy[j]; math.Float32bits(got) != math.Float32bits(want) {
							t.Fatalf("step %d: position %d, action %d: training %v, inference %v", step, i, actions[j], got, want)
						}
					}
				}
			}
		})
	}
}

// legalActions returns the action indexes of s's legal moves, in the
// order of the evaluator's policy.
func legalActions(s net.Sample, b rules.Board) []int {
	var out []int
	if s.IsWide() {
		for _, m := range s.Wide.LegalMoves(nil) {
			out = append(out, rules.WideActionIndex(m, b.W, b.H))
		}
		return out
	}
	for _, m := range s.Position.LegalMoves(nil) {
		out = append(out, rules.ActionIndex(m, int(s.Position.Size)))
	}
	return out
}

// evaluateSamples returns m's predictions of the samples' positions of
// board b (all narrow or all wide), from an evaluator of batch 8.
func evaluateSamples(t *testing.T, m *net.Model, b rules.Board, batch []net.Sample) []mcts.Prediction {
	t.Helper()
	m, err := m.ForBoard(b)
	if err != nil {
		t.Fatal(err)
	}
	if !batch[0].IsWide() {
		ps := make([]rules.Position, len(batch))
		for i, s := range batch {
			ps[i] = s.Position
		}
		return evaluate(t, m, ps)
	}
	e, err := net.NewEvaluator(m, net.EvalOptions{Batch: 8})
	if err != nil {
		t.Fatal(err)
	}
	nettestutil.Run(t, e.Run)
	ps := make([]rules.WidePosition, len(batch))
	for i, s := range batch {
		ps[i] = s.Wide
	}
	preds, err := e.EvaluateWide(context.Background(), ps)
	if err != nil {
		t.Fatal(err)
	}
	return preds
}
