package train

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"gorgonia.org/tensor"
)

// fillTrainInputs writes a batch into a training graph the way Step does,
// without augmentation, for float32 or float64 graphs.
func fillTrainInputs(t *testing.T, gr *graph, batch []net.Sample) {
	t.Helper()
	enc := net.NewSampleEncoder(gr.cfg, gr.shape)
	inputs, slots, nn := enc.InputLen(), enc.Slots(), enc.Squares()
	x := make([]float32, gr.batch*inputs)
	mask := make([]float32, gr.batch*slots)
	tp := make([]float32, gr.batch*slots)
	tv := make([]float32, gr.batch)
	own := make([]float32, gr.batch*nn)
	aw, ml := make([]float32, gr.batch), make([]float32, gr.batch)
	for i, s := range batch {
		if err := enc.Check(s); err != nil {
			t.Fatal(err)
		}
		enc.Encode(s, x[i*inputs:(i+1)*inputs], mask[i*slots:(i+1)*slots], tp[i*slots:(i+1)*slots])
		tv[i] = s.Value
		aw[i], ml[i] = enc.AuxTargets(s, own[i*nn:(i+1)*nn])
	}
	set := func(dst any, src []float32) {
		switch d := dst.(type) {
		case []float32:
			copy(d, src)
		case []float64:
			for i, v := range src {
				d[i] = float64(v)
			}
		}
	}
	set(gr.x.Value().Data(), x)
	set(gr.mask.Value().Data(), mask)
	set(gr.targetPolicy.Value().Data(), tp)
	set(gr.targetValue.Value().Data(), tv)
	if gr.auxWeight != nil {
		set(gr.auxWeight.Value().Data(), aw)
	}
	if gr.targetOwnership != nil {
		set(gr.targetOwnership.Value().Data(), own)
	}
	if gr.targetMovesLeft != nil {
		set(gr.targetMovesLeft.Value().Data(), ml)
	}
	if gr.targetSoftPolicy != nil {
		soft := make([]float32, gr.batch*slots)
		for i := range batch {
			softTarget(mask[i*slots:(i+1)*slots], tp[i*slots:(i+1)*slots], soft[i*slots:(i+1)*slots])
		}
		set(gr.targetSoftPolicy.Value().Data(), soft)
	}
}

// withAux gives samples auxiliary targets drawn from seed (the sample
// at index skip keeps none).
func withAux(batch []net.Sample, seed uint64, skip int) []net.Sample {
	rng := rand.New(rand.NewPCG(seed, 4))
	out := slices.Clone(batch)
	for i := range out {
		if i == skip {
			continue
		}
		n := int(out[i].Position.Size)
		out[i].MovesLeft = 1 + rng.IntN(n*n)
		out[i].Final = rng.Uint64() & out[i].Position.Valid()
	}
	return out
}

// TestGradientCheck compares the symbolic gradient of the loss with
// central finite differences, in float64, on a tiny network with every
// kind of layer, for 50 draws of the weights; then on one with both
// auxiliary heads, whose batch has a sample without auxiliary targets;
// then on one with the soft policy head (and the value-only sample), and
// on a multi-board one (hop planes, capture planes) with the soft policy
// head on a rectangle.
//
// The loss has kinks (every ReLU): where a pre-activation lies within eps
// of zero, the finite difference straddles the kink and measures neither
// side's derivative. Such entries are recognised by their one-sided
// differences disagreeing and another entry is drawn; the check on
// smooth entries keeps its tight tolerance. (Before this, the weights of
// the check were drawn in map order, a different network every run, and
// about one run in seven hit a kink: the "flaky" gradient check.)
func TestGradientCheck(t *testing.T) {
	cfg := net.Config{Size: 4, Filters: 3, Blocks: 1, ValueHidden: 4, GlobalPool: true}
	batch := randomSamples(4, 3, 5)
	batch[1].Policy = nil // a value-only sample
	t.Run("plain", func(t *testing.T) { gradientCheck(t, cfg, cfg.Size, batch, 50) })
	cfg.Aux = net.AuxOwnership | net.AuxMovesLeft
	t.Run("aux", func(t *testing.T) { gradientCheck(t, cfg, cfg.Size, withAux(batch, 6, 2), 20) })
	cfg.Aux, cfg.SoftPolicy = 0, true
	t.Run("soft-policy", func(t *testing.T) { gradientCheck(t, cfg, cfg.Size, batch, 20) })
	multi := net.Config{Filters: 3, Blocks: 1, ValueHidden: 4, GlobalPool: true, Hops: net.MultiBoardHops, Captures: true, SoftPolicy: true}
	b := rules.Board{W: 5, H: 4, Start: rules.Gap}
	rect := randomBoardSamples(t, b, 3, 5)
	rect[1].Policy = nil
	t.Run("multi-board soft-policy 5x4", func(t *testing.T) { gradientCheck(t, multi, rules.ShapeCode(b.W, b.H), rect, 10) })
}

// gradientCheck checks the gradient of cfg's graph of the board of the
// shape code (cfg.Size for a one-board network) on batch, for draws
// draws of the weights.
func gradientCheck(t *testing.T, cfg net.Config, shape int, batch []net.Sample, draws uint64) {
	kinks := 0
	for seed := uint64(0); seed < draws; seed++ {
		m := perturbed(mustModel(t, cfg, 1), 0.3, 2+seed)
		gr, err := buildGraph(cfg, shape, len(batch), weightsOf(m), tensor.Float64, false, net.DefaultSoftPolicyWeight)
		if err != nil {
			t.Fatal(err)
		}
		fillTrainInputs(t, gr, batch)
		loss := func() float64 {
			if err := gr.run(); err != nil {
				t.Fatal(err)
			}
			l := gr.policyLoss.last + gr.valueLoss.last
			if gr.ownershipLoss != nil {
				l += gr.ownershipLoss.last
			}
			if gr.movesLeftLoss != nil {
				l += gr.movesLeftLoss.last
			}
			if gr.softPolicyLoss != nil {
				l += gr.softPolicyLoss.last
			}
			return l
		}
		base := loss()
		analytic := make([][]float64, len(gr.params))
		for i, p := range gr.params {
			g, err := p.Grad()
			if err != nil {
				t.Fatal(err)
			}
			analytic[i] = append([]float64(nil), g.Data().([]float64)...)
		}
		rng := rand.New(rand.NewPCG(7, seed))
		const eps = 1e-5
		for i, p := range gr.params {
			w := p.Value().Data().([]float64)
			// A few entries of every tensor.
			for k, tries := 0, 0; k < 3; tries++ {
				if tries == 50 {
					t.Fatalf("seed %d: %s: no entry without a kink within eps in 50 draws", seed, gr.specs[i].Name)
				}
				j := rng.IntN(len(w))
				orig := w[j]
				w[j] = orig + eps
				up := loss()
				w[j] = orig - eps
				down := loss()
				w[j] = orig
				right, left := (up-base)/eps, (base-down)/eps
				if math.Abs(right-left) > 1e-3*max(1, math.Abs(right)) {
					kinks++
					continue
				}
				num := (up - down) / (2 * eps)
				a := analytic[i][j]
				if math.Abs(num-a) > 1e-6+1e-4*math.Max(math.Abs(num), math.Abs(a)) {
					t.Errorf("seed %d: %s[%d]: symbolic gradient %.9g, numerical %.9g", seed, gr.specs[i].Name, j, a, num)
				}
				k++
			}
		}
		gr.close()
	}
	t.Logf("%d entries skipped at a kink", kinks)
}

// TestPolicyLossValueOnlyRows: rows without a policy target (value-only
// samples) neither count in the policy loss's mean nor get a gradient; a
// batch of only such rows has loss 0.
func TestPolicyLossValueOnlyRows(t *testing.T) {
	const cols = 3
	z := []float64{0.5, -1, 2, 0.3, 0.1, -0.7}
	mask := []float64{0, 0, -1e9, 0, 0, 0} // -1e9: a masked action, as SampleEncoder.Encode writes
	one := []float64{0.25, 0.75, 0}
	alone := xent(z[:cols], mask[:cols], one, cols, nil, 0)
	t2 := append(append([]float64(nil), one...), 0, 0, 0)
	if got := xent(z, mask, t2, cols, nil, 0); math.Abs(got-alone) > 1e-12 {
		t.Errorf("loss with a value-only row %v, want the other row's %v", got, alone)
	}
	grad := make([]float64, len(z))
	for i := range grad {
		grad[i] = 9 // stale
	}
	xent(z, mask, t2, cols, grad, 1)
	g1 := make([]float64, cols)
	xent(z[:cols], mask[:cols], one, cols, g1, 1)
	for j := 0; j < cols; j++ {
		if math.Abs(grad[j]-g1[j]) > 1e-12 || grad[cols+j] != 0 {
			t.Fatalf("gradient %v, want %v then zeros", grad, g1)
		}
	}
	if got := xent(z, mask, make([]float64, len(z)), cols, grad, 1); got != 0 || slices.ContainsFunc(grad, func(v float64) bool { return v != 0 }) {
		t.Errorf("only value-only rows: loss %v, gradient %v; want 0 and zeros", got, grad)
	}
}

// TestOverfit trains repeatedly on one fixed batch with one-hot policy
// targets: both losses must fall to a small fraction of their start.
func TestOverfit(t *testing.T) {
	batch := randomSamples(5, 16, 3)
	for i := range batch {
		batch[i].Policy = batch[i].Policy[i%len(batch[i].Policy):][:1]
	}
	opts := net.TrainOptions{Batch: 16, LR: 0.05, Momentum: 0.9, WeightDecay: 1e-4, WarmupSteps: 5}
	tr, err := New(mustModel(t, tinyConfig(5), 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	first, err := tr.Step(batch)
	if err != nil {
		t.Fatal(err)
	}
	var last net.Losses
	for i := 0; i < 150; i++ {
		if last, err = tr.Step(batch); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("first %+v\nlast %+v", first, last)
	if last.Value > first.Value/10 {
		t.Errorf("value loss %v → %v: did not fall to a tenth", first.Value, last.Value)
	}
	if last.Policy > first.Policy/4 {
		t.Errorf("policy loss %v → %v: did not fall to a quarter", first.Policy, last.Policy)
	}
	if tr.Steps() != 151 {
		t.Errorf("Steps() = %d, want 151", tr.Steps())
	}
}

// TestGraphsCollected checks that a trainer's graphs are garbage once
// they are no longer used. Gorgonia puts a finalizer on each machine, and
// Go never collects a cycle through an object with a finalizer: a graph
// that pointed to its machine while the machine pointed back into it
// stayed in memory for good (every generation of a training run leaked
// its evaluator's graphs that way, when inference ran on Gorgonia).
func TestGraphsCollected(t *testing.T) {
	m := mustModel(t, tinyConfig(4), 1)
	var graphs []weak.Pointer[graph]
	func() {
		tr, err := New(m, net.TrainOptions{Batch: 4, LR: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Step(randomSamples(4, 4, 1)); err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, weak.Make(tr.gr))
	}()
	runtime.GC()
	runtime.GC()
	for i, w := range graphs {
		if w.Value() != nil {
			t.Errorf("graph %d of %d still in memory", i, len(graphs))
		}
	}
}

// TestCheckpointResume trains, checkpoints, trains on; a second trainer
// restored from the checkpoint must then reach bit-identical weights and
// losses (augmentation on, so the generator state is restored too).
func TestCheckpointResume(t *testing.T) {
	samples := randomSamples(5, 40, 21)
	opts := net.TrainOptions{Batch: 8, LR: 0.03, Momentum: 0.9, WeightDecay: 1e-3, WarmupSteps: 3,
		DecaySteps: []int64{4}, DecayFactor: 0.5, Augment: true, Seed: 9}
	m := mustModel(t, tinyConfig(5), 5)
	batchAt := func(i int) []net.Sample { return samples[(i*8)%32 : (i*8)%32+8] }
	a, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := a.Step(batchAt(i)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "run.ckpt")
	if err := a.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	var lossA []net.Losses
	for i := 3; i < 7; i++ {
		l, err := a.Step(batchAt(i))
		if err != nil {
			t.Fatal(err)
		}
		lossA = append(lossA, l)
	}
	// The second trainer starts from other weights and options: the
	// checkpoint replaces them.
	other := opts
	other.LR, other.Seed, other.Augment = 0.5, 1, false
	b, err := New(mustModel(t, tinyConfig(5), 99), other)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.LoadCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	if b.Steps() != 3 || b.Options().LR != opts.LR {
		t.Fatalf("restored step %d LR %v, want 3 and %v", b.Steps(), b.Options().LR, opts.LR)
	}
	for i := 3; i < 7; i++ {
		l, err := b.Step(batchAt(i))
		if err != nil {
			t.Fatal(err)
		}
		if l != lossA[i-3] {
			t.Fatalf("step %d: resumed losses %+v, original %+v", i, l, lossA[i-3])
		}
	}
	ma, _ := a.Model(net.Metadata{})
	mb, _ := b.Model(net.Metadata{})
	for name, w := range weightsOf(ma) {
		for i := range w {
			if math.Float32bits(w[i]) != math.Float32bits(weightsOf(mb)[name][i]) {
				t.Fatalf("%s[%d]: resumed %v, original %v", name, i, weightsOf(mb)[name][i], w[i])
			}
		}
	}
	// A checkpoint of another architecture or batch size is refused.
	c, _ := New(mustModel(t, net.Config{Size: 5, Filters: 4, Blocks: 1, ValueHidden: 8}, 1), opts)
	if err := c.LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "network") {
		t.Errorf("other architecture: err = %v", err)
	}
	small := opts
	small.Batch = 4
	d, _ := New(m, small)
	if err := d.LoadCheckpoint(path); err == nil || !strings.Contains(err.Error(), "batches") {
		t.Errorf("other batch: err = %v", err)
	}
}

func TestStepRejectsBadBatches(t *testing.T) {
	tr, err := New(mustModel(t, tinyConfig(4), 1), net.TrainOptions{Batch: 2, LR: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	good := randomSamples(4, 2, 1)
	illegal := append([]net.Sample(nil), good...)
	illegal[1].Policy = []net.ActionProb{{Action: int32(rules.NumActions(4) - 1), Prob: 1}}
	if illegal[1].Position.Legal(rules.ActionMove(rules.NumActions(4)-1, 4)) {
		t.Fatal("test setup: action should be illegal")
	}
	badValue := append([]net.Sample(nil), good...)
	badValue[0].Value = 2
	otherSize := append([]net.Sample(nil), good...)
	otherSize[0] = randomSamples(5, 1, 1)[0]
	zero := append([]net.Sample(nil), good...)
	zero[0].Policy = []net.ActionProb{{Action: good[0].Policy[0].Action, Prob: 0}}
	terminal := append([]net.Sample(nil), good...)
	terminal[1] = net.Sample{Position: rules.Position{Size: 4, Black: 1}, Value: 1} // value-only, but no move
	for _, tc := range []struct {
		name  string
		batch []net.Sample
		want  string
	}{
		{"short", good[:1], "batch of 1 samples"},
		{"illegal", illegal, "sample 1: policy action"},
		{"value", badValue, "value 2 outside"},
		{"size", otherSize, "size 5 for a 4x4"},
		{"zero policy", zero, "sample 0: policy sums to 0"},
		{"terminal value-only", terminal, "sample 1: position has no legal move"},
	} {
		_, err := tr.Step(tc.batch)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if tr.Steps() != 0 {
		t.Errorf("failed steps counted: %d", tr.Steps())
	}
	valueOnly := append([]net.Sample(nil), good...)
	valueOnly[0].Policy = nil
	if l, err := tr.Step(valueOnly); err != nil || tr.Steps() != 1 || l.Policy <= 0 {
		t.Errorf("a batch with a value-only sample: %+v, %v, %d steps; want a step with the other sample's policy loss", l, err, tr.Steps())
	}
}

func TestLRSchedule(t *testing.T) {
	o := net.TrainOptions{Batch: 1, LR: 0.1, WarmupSteps: 4, DecaySteps: []int64{10, 20}, DecayFactor: 0.1}
	for _, tc := range []struct {
		step int64
		want float64
	}{{0, 0.025}, {3, 0.1}, {9, 0.1}, {10, 0.01}, {19, 0.01}, {20, 0.001}} {
		if got := o.LRAt(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("LRAt(%d) = %v, want %v", tc.step, got, tc.want)
		}
	}
	for _, bad := range []net.TrainOptions{
		{Batch: 0, LR: 0.1},
		{Batch: 1, LR: 0},
		{Batch: 1, LR: 0.1, Momentum: 1},
		{Batch: 1, LR: 0.1, DecaySteps: []int64{5, 5}, DecayFactor: 0.5},
		{Batch: 1, LR: 0.1, DecaySteps: []int64{5}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := net.DefaultTrainOptions().Validate(); err != nil {
		t.Error(err)
	}
}

// TestLossFiniteWithLargeLogits guards the work-around of Gorgonia's
// LogSoftMax, which took every row's maximum from the first element of
// the whole batch and skipped the row's own first element: a batch whose
// first row is a jumping position (slot 0, removing a1, masked) and whose
// other rows are removal positions where a1 has a large logit overflowed
// to NaN. With weights large enough for logits in the hundreds, the loss
// and the updated weights must stay finite.
func TestLossFiniteWithLargeLogits(t *testing.T) {
	jump := randomSamples(4, 1, 1)[0]
	jump.Position = rules.Openings(4)[0].Position
	var buf [rules.MaxMoves]rules.Move
	mv := jump.Position.LegalMoves(buf[:0])[0]
	jump.Policy = []net.ActionProb{{Action: int32(rules.ActionIndex(mv, 4)), Prob: 1}}
	start := rules.NewPosition(4)
	batch := []net.Sample{jump}
	for _, mv := range start.LegalMoves(buf[:0]) {
		batch = append(batch, net.Sample{Position: start, Policy: []net.ActionProb{{Action: int32(rules.ActionIndex(mv, 4)), Prob: 1}}, Value: 1})
	}
	for seed := uint64(0); seed < 20; seed++ {
		m := perturbed(mustModel(t, tinyConfig(4), seed), 5, seed)
		tr, err := New(m, net.TrainOptions{Batch: len(batch), LR: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		l, err := tr.Step(batch)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) || l.Policy < 10 {
			t.Errorf("seed %d: losses %+v: want a finite, large policy loss", seed, l)
		}
		snap, _ := tr.Model(net.Metadata{})
		for name, w := range weightsOf(snap) {
			for _, v := range w {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("seed %d: %s holds %v after the step", seed, name, v)
				}
			}
		}
	}
}

// TestCapturePlanesLearn: one training step moves the stem weights of
// the capture planes that Model.WithCaptures added off zero.
func TestCapturePlanesLearn(t *testing.T) {
	cfg := tinyConfig(6)
	cfg.Captures = false
	c, err := perturbed(mustModel(t, cfg, 1), 0.2, 4).WithCaptures()
	if err != nil {
		t.Fatal(err)
	}
	// One training step moves the new planes' weights off zero.
	tr, err := New(c, net.TrainOptions{Batch: 8, LR: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(randomSamples(6, 8, 5)); err != nil {
		t.Fatal(err)
	}
	trained, err := tr.Model(c.Meta())
	if err != nil {
		t.Fatal(err)
	}
	planes := net.EncodingCaptures.Planes()
	moved := false
	for f := 0; f < cfg.Filters; f++ {
		for _, v := range trained.Weight("stem.w")[(f*planes+net.EncodingOrigins.Planes())*9 : (f+1)*planes*9] {
			moved = moved || v != 0
		}
	}
	if !moved {
		t.Error("the capture planes' stem weights are still zero after a training step")
	}
}
