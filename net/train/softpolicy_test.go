package train

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// TestSoftTarget: the soft policy target is KataGo's, (p + 1e-7)^(1/4)
// on the legal actions renormalised: 0 on the illegal ones, summing to 1,
// flatter than the target and in the same order; a row without a policy
// target (a value-only sample) has none.
func TestSoftTarget(t *testing.T) {
	const legal, illegal = 0, -1e9
	mask := []float32{legal, illegal, legal, legal, legal}
	policy := []float32{0.6, 0, 0.36, 0.04, 0}
	soft := make([]float32, len(mask))
	softTarget(mask, policy, soft)
	var want [5]float64
	var sum float64
	for j, p := range policy {
		if mask[j] == legal {
			want[j] = math.Pow(float64(p)+1e-7, 0.25)
			sum += want[j]
		}
	}
	var got float64
	for j := range soft {
		if math.Abs(float64(soft[j])-want[j]/sum) > 1e-6 {
			t.Errorf("slot %d: %v, want %v", j, soft[j], want[j]/sum)
		}
		got += float64(soft[j])
	}
	if soft[1] != 0 || math.Abs(got-1) > 1e-6 || !(soft[0] > soft[2] && soft[2] > soft[3] && soft[3] > soft[4] && soft[4] > 0) {
		t.Errorf("soft target %v (sum %v)", soft, got)
	}
	if !(soft[0] < policy[0] && soft[3] > policy[3]) {
		t.Errorf("soft target %v is not flatter than %v", soft, policy)
	}
	softTarget(mask, make([]float32, len(mask)), soft)
	for j, v := range soft {
		if v != 0 {
			t.Fatalf("value-only row: slot %d is %v", j, v)
		}
	}
}

// TestSoftPolicyTraining: the soft policy loss is reported (weighted, in
// the total), falls when a batch is trained on repeatedly, and a
// checkpoint keeps the head's weights and momentum.
func TestSoftPolicyTraining(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.SoftPolicy = true
	opts := net.DefaultTrainOptions()
	opts.Batch, opts.WarmupSteps, opts.Augment = 8, 0, true
	tr, err := New(mustModel(t, cfg, 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	batch := randomSamples(5, 8, 3)
	batch[2].Policy = nil // a value-only sample
	first, err := tr.Step(batch)
	if err != nil {
		t.Fatal(err)
	}
	if !(first.SoftPolicy > 0) || math.Abs(first.Total-(first.Policy+first.Value+first.L2+first.SoftPolicy)) > 1e-9 {
		t.Fatalf("losses %+v", first)
	}
	var last net.Losses
	for range 60 {
		if last, err = tr.Step(batch); err != nil {
			t.Fatal(err)
		}
	}
	if !(last.SoftPolicy < first.SoftPolicy) {
		t.Errorf("soft policy loss %v after 60 steps, from %v", last.SoftPolicy, first.SoftPolicy)
	}
	back := reloaded(t, tr, cfg, opts)
	a, b := weightsOf(mustSnapshot(t, tr)), weightsOf(mustSnapshot(t, back))
	for _, name := range []string{"softpolicy.w", "softpolicy.b"} {
		if len(a[name]) == 0 || len(a[name]) != len(b[name]) {
			t.Fatalf("%s: %d values, %d after the checkpoint", name, len(a[name]), len(b[name]))
		}
		for i := range a[name] {
			if math.Float32bits(a[name][i]) != math.Float32bits(b[name][i]) {
				t.Fatalf("%s[%d]: %v, %v after the checkpoint", name, i, a[name][i], b[name][i])
			}
		}
	}
	// The same next step from both: the momentum came back too.
	la, err := tr.Step(batch)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := back.Step(batch)
	if err != nil {
		t.Fatal(err)
	}
	if la != lb {
		t.Errorf("the step after the checkpoint: %+v, resumed %+v", la, lb)
	}
}

func mustSnapshot(t *testing.T, tr *Trainer) *net.Model {
	t.Helper()
	m, err := tr.Model(net.Metadata{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSoftPolicyKL: the soft policy head's KL is its loss term divided by
// its weight 8 less the mean entropy of the soft targets, here computed
// by hand from the samples ((p + 1e-7)^(1/4) on every legal move,
// normalised, over the samples with a policy); it is never negative and
// falls towards 0 as the head learns a batch.
func TestSoftPolicyKL(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.SoftPolicy = true
	opts := net.DefaultTrainOptions()
	opts.Batch, opts.WarmupSteps, opts.Augment = 8, 0, false
	tr, err := New(mustModel(t, cfg, 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	batch := randomSamples(5, 8, 4)
	batch[5].Policy = nil // a value-only sample
	var entropy float64
	rows := 0
	for _, s := range batch {
		if s.Policy == nil {
			continue
		}
		var soft []float64
		var sum float64
		for _, m := range s.Position.LegalMoves(nil) {
			p := 0.0
			for _, ap := range s.Policy {
				if int(ap.Action) == rules.ActionIndex(m, 5) {
					p = float64(ap.Prob)
				}
			}
			soft = append(soft, math.Pow(p+1e-7, 0.25))
			sum += soft[len(soft)-1]
		}
		for _, v := range soft {
			entropy -= v / sum * math.Log(v/sum)
		}
		rows++
	}
	entropy /= float64(rows)
	var first, last net.Losses
	for i := range 80 {
		l, err := tr.Step(batch)
		if err != nil {
			t.Fatal(err)
		}
		if want := l.SoftPolicy/8 - entropy; math.Abs(l.SoftPolicyKL-want) > 1e-4 || l.SoftPolicyKL < -1e-6 {
			t.Fatalf("step %d: KL %v, want %v (loss %v, target entropy %v)", i, l.SoftPolicyKL, want, l.SoftPolicy, entropy)
		}
		if i == 0 {
			first = l
		}
		last = l
	}
	if !(last.SoftPolicyKL < first.SoftPolicyKL/2) {
		t.Errorf("KL %v after 80 steps, from %v", last.SoftPolicyKL, first.SoftPolicyKL)
	}
}

// TestSoftPolicyLossByHand: the soft policy loss term is the weight
// (net.TrainOptions.SoftPolicyWeight, KataGo's 8 by default) times the
// soft head's mean cross-entropy against the soft targets over the rows
// with a policy target, computed here by hand. The soft head is given the
// policy head's last weights, so that its softmax is the policy the
// evaluator gives; the policy loss is checked alike (weight 1).
func TestSoftPolicyLossByHand(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.SoftPolicy = true
	w := weightsOf(mustModel(t, cfg, 3))
	w["softpolicy.w"], w["softpolicy.b"] = w["policy.conv2.w"], w["policy.conv2.b"]
	m, err := net.FromWeights(cfg, net.Metadata{}, w)
	if err != nil {
		t.Fatal(err)
	}
	batch := randomSamples(5, 4, 9)
	batch[1].Policy = nil     // a value-only sample
	for _, s := range batch { // targets summing to 1, as the games'
		var sum float32
		for _, ap := range s.Policy {
			sum += ap.Prob
		}
		for j := range s.Policy {
			s.Policy[j].Prob /= sum
		}
	}
	e, err := net.NewEvaluator(m, net.EvalOptions{Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	nettestutil.Run(t, e.Run)
	ctx := context.Background()
	var ps []rules.Position
	for _, s := range batch {
		ps = append(ps, s.Position)
	}
	preds, err := e.Evaluate(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	var xent, softXent float64
	rows := 0
	for i, s := range batch {
		if s.Policy == nil {
			continue
		}
		var soft []float64
		var sum float64
		for j, mv := range s.Position.LegalMoves(nil) {
			p := 0.0
			for _, ap := range s.Policy {
				if int(ap.Action) == rules.ActionIndex(mv, 5) {
					p = float64(ap.Prob)
				}
			}
			xent -= p * math.Log(float64(preds[i].Policy[j]))
			soft = append(soft, math.Pow(p+1e-7, 0.25))
			sum += soft[j]
		}
		for j, v := range soft {
			softXent -= v / sum * math.Log(float64(preds[i].Policy[j]))
		}
		rows++
	}
	xent /= float64(rows)
	softXent /= float64(rows)
	// The weight given (0 stands for KataGo's 8) scales the soft term.
	for _, c := range []struct{ given, want float64 }{{0, 8}, {1, 1}, {2.5, 2.5}} {
		opts := net.DefaultTrainOptions()
		opts.Batch, opts.WarmupSteps, opts.Augment, opts.SoftPolicyWeight = 4, 0, false, c.given
		tr, err := New(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		l, err := tr.Step(batch)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(l.Policy-xent) > 1e-4*xent || math.Abs(l.SoftPolicy-c.want*softXent) > 1e-4*c.want*softXent {
			t.Errorf("weight %v: policy loss %v, soft policy loss %v; by hand %v and %v × %v", c.given, l.Policy, l.SoftPolicy, xent, c.want, softXent)
		}
		if kl := l.SoftPolicyKL; math.IsNaN(kl) || kl < -1e-4 {
			t.Errorf("weight %v: soft policy KL %v, want ≥ 0 (the weight divided out)", c.given, kl)
		}
	}
}

// TestSoftPolicyWeightResume: a checkpoint restores only into a trainer
// that weighs the soft policy loss alike (0 and 8 are the same weight),
// and the restored options keep the checkpoint's weight.
func TestSoftPolicyWeightResume(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.SoftPolicy = true
	m := mustModel(t, cfg, 3)
	trainer := func(weight float64) *Trainer {
		opts := net.DefaultTrainOptions()
		opts.Batch, opts.SoftPolicyWeight = 4, weight
		tr, err := New(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	save := func(weight float64) []byte {
		tr := trainer(weight)
		if _, err := tr.Step(randomSamples(5, 4, 9)); err != nil {
			t.Fatal(err)
		}
		data, err := tr.MarshalCheckpoint()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, c := range []struct {
		saved, resumed float64
		ok             bool
	}{{1, 1, true}, {0, 8, true}, {8, 0, true}, {1, 0, false}, {0, 2, false}} {
		tr := trainer(c.resumed)
		err := tr.RestoreCheckpoint(save(c.saved), "ckpt")
		switch {
		case c.ok && err != nil:
			t.Errorf("weight %v resumed with %v: %v", c.saved, c.resumed, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "soft policy loss")):
			t.Errorf("weight %v resumed with %v: error %v, want one naming the soft policy loss", c.saved, c.resumed, err)
		case c.ok && tr.Options().SoftPolicyScale() != c.resumed && !(c.resumed == 0 && tr.Options().SoftPolicyScale() == 8):
			t.Errorf("weight %v resumed with %v: options weigh it %v", c.saved, c.resumed, tr.Options().SoftPolicyScale())
		}
	}
	if err := (net.TrainOptions{Batch: 4, LR: 0.1, SoftPolicyWeight: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "soft policy weight") {
		t.Errorf("a negative soft policy weight: %v", err)
	}
}
