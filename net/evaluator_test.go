package net

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
	"golang.org/x/sync/errgroup"
)

var _ mcts.Evaluator = (*Evaluator)(nil)

// startEvaluator builds an evaluator and runs it until the test (or
// benchmark) ends.
func startEvaluator(t testing.TB, m *Model, opts EvalOptions) *Evaluator {
	t.Helper()
	e, err := NewEvaluator(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	nettestutil.Run(t, e.Run)
	return e
}

func samePrediction(a, b mcts.Prediction) bool {
	if len(a.Policy) != len(b.Policy) || math.Float32bits(a.Value) != math.Float32bits(b.Value) {
		return false
	}
	for i := range a.Policy {
		if math.Float32bits(a.Policy[i]) != math.Float32bits(b.Policy[i]) {
			return false
		}
	}
	return true
}

// TestOutputsFinite evaluates positions of every phase and size, with a
// fresh net and one with large weights: every policy is a distribution
// over the legal moves and every value lies in [-1, 1].
func TestOutputsFinite(t *testing.T) {
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		for _, scale := range []float64{0, 1} {
			m := perturbed(mustModel(t, tinyConfig(n), 1), scale, 2)
			e := startEvaluator(t, m, EvalOptions{Batch: 16})
			ps := nettestutil.Positions(n, 150, uint64(n))
			for _, o := range rules.Openings(n) {
				ps = append(ps, o.Position)
			}
			preds, err := e.Evaluate(context.Background(), ps)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range ps {
				pr := preds[i]
				if len(pr.Policy) != p.CountMoves() {
					t.Fatalf("size %d: %d priors for %d legal moves", n, len(pr.Policy), p.CountMoves())
				}
				var sum float64
				for _, q := range pr.Policy {
					if !(q >= 0 && q <= 1) {
						t.Fatalf("size %d scale %v: prior %v", n, scale, q)
					}
					sum += float64(q)
				}
				if math.Abs(sum-1) > 1e-5 || !(pr.Value >= -1 && pr.Value <= 1) {
					t.Fatalf("size %d scale %v: priors sum to %v, value %v", n, scale, sum, pr.Value)
				}
			}
		}
	}
}

// TestEvaluateConcurrent has many goroutines evaluate 1..4 positions at a
// time; every answer must equal, bit for bit, the evaluation of the same
// position alone (so batching, padding and the choice of graph change
// nothing). Run it with -race.
func TestEvaluateConcurrent(t *testing.T) {
	m := perturbed(mustModel(t, tinyConfig(5), 3), 0.2, 4)
	ps := nettestutil.Positions(5, 64, 5)
	solo := startEvaluator(t, m, EvalOptions{Batch: 1})
	want := make([]mcts.Prediction, len(ps))
	for i, p := range ps {
		pr, err := solo.Evaluate(context.Background(), []rules.Position{p})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = pr[0]
	}
	e := startEvaluator(t, m, EvalOptions{Batch: 16, Wait: 2 * time.Millisecond})
	g, ctx := errgroup.WithContext(context.Background())
	for w := 0; w < 16; w++ {
		g.Go(func() error {
			for k := 0; k < 8; k++ {
				start, count := (w*7+k*5)%len(ps), 1+(w+k)%4
				idx := make([]int, count)
				batch := make([]rules.Position, count)
				for j := range idx {
					idx[j] = (start + j) % len(ps)
					batch[j] = ps[idx[j]]
				}
				preds, err := e.Evaluate(ctx, batch)
				if err != nil {
					return err
				}
				for j, i := range idx {
					if !samePrediction(preds[j], want[i]) {
						return fmt.Errorf("position %d: batched %v, alone %v", i, preds[j], want[i])
					}
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if st.Positions == 0 || st.NetPositions+st.CacheHits != st.Positions || st.AvgBatch() <= 1 {
		t.Errorf("stats %+v: want positions = net + cache hits and batches of more than one (avg %.2f)", st, st.AvgBatch())
	}
	t.Logf("stats %+v, avg batch %.2f, fill %.2f, hit rate %.2f", st, st.AvgBatch(), st.AvgFill(), st.HitRate())
}

func TestEvaluateCache(t *testing.T) {
	m := mustModel(t, tinyConfig(4), 1)
	ps := nettestutil.Positions(4, 10, 1)
	e := startEvaluator(t, m, EvalOptions{Batch: 4, CacheSize: 6})
	first, err := e.Evaluate(context.Background(), ps[:5])
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Stats(); st.CacheLookups != 5 || st.CacheHits != 0 || st.NetPositions != 5 {
		t.Fatalf("after first call: %+v", st)
	}
	again, err := e.Evaluate(context.Background(), ps[:5])
	if err != nil {
		t.Fatal(err)
	}
	for i := range first {
		if !samePrediction(first[i], again[i]) {
			t.Fatalf("cached prediction %d differs", i)
		}
	}
	again[0].Policy[0] = 42 // callers may modify what they get
	st := e.Stats()
	if st.CacheLookups != 10 || st.CacheHits != 5 || st.NetPositions != 5 || st.HitRate() != 0.5 {
		t.Fatalf("after second call: %+v", st)
	}
	if d := st.Sub(EvalStats{Positions: 5, CacheLookups: 5, NetPositions: 5, Batches: 2}); d != (EvalStats{Positions: 5, CacheLookups: 5, CacheHits: 5, Batches: st.Batches - 2, Padding: st.Padding}) {
		t.Errorf("the second call's counts: %+v", d)
	}
	// Five more positions overflow the capacity of 6: the oldest go.
	if _, err := e.Evaluate(context.Background(), ps[5:]); err != nil {
		t.Fatal(err)
	}
	if e.cache.len() != 6 {
		t.Errorf("cache holds %d entries, capacity 6", e.cache.len())
	}
	third, err := e.Evaluate(context.Background(), ps[:1])
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Stats(); st.CacheHits != 5 || !samePrediction(third[0], first[0]) {
		t.Errorf("evicted position: stats %+v; prediction changed %v", st, !samePrediction(third[0], first[0]))
	}
	// No cache: no look-ups.
	nc := startEvaluator(t, m, EvalOptions{Batch: 4})
	nc.Evaluate(context.Background(), ps[:3])
	nc.Evaluate(context.Background(), ps[:3])
	if st := nc.Stats(); st.CacheLookups != 0 || st.NetPositions != 6 {
		t.Errorf("without cache: %+v", st)
	}
}

func TestEvaluateTerminalAndErrors(t *testing.T) {
	m := mustModel(t, tinyConfig(4), 1)
	e := startEvaluator(t, m, EvalOptions{Batch: 4})
	// A position where the side to move has no jump.
	var buf [rules.MaxMoves]rules.Move
	var end rules.Position
	for _, o := range rules.Openings(4) {
		p := o.Position
		for p.HasMoves() {
			p = p.Play(p.LegalMoves(buf[:0])[0])
		}
		end = p
		break
	}
	preds, err := e.Evaluate(context.Background(), []rules.Position{end, rules.NewPosition(4)})
	if err != nil {
		t.Fatal(err)
	}
	if len(preds[0].Policy) != 0 || preds[0].Value != -1 || len(preds[1].Policy) != 4 {
		t.Errorf("terminal %+v, start %d priors", preds[0], len(preds[1].Policy))
	}
	if _, err := e.Evaluate(context.Background(), []rules.Position{rules.NewPosition(5)}); !errors.Is(err, ErrSize) {
		t.Errorf("5x5 position on a 4x4 net: err = %v", err)
	}
	bad := rules.NewPosition(4)
	bad.White |= 1 // a1 holds two stones
	if _, err := e.Evaluate(context.Background(), []rules.Position{bad}); err == nil {
		t.Error("invalid position accepted")
	}
	if preds, err := e.Evaluate(context.Background(), nil); err != nil || len(preds) != 0 {
		t.Errorf("empty call: %v, %v", preds, err)
	}
	for _, o := range []EvalOptions{{Batch: 0}, {Batch: 1, Wait: -1}, {Batch: 1, CacheSize: -1}} {
		if _, err := NewEvaluator(m, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestEvaluatorShutdown(t *testing.T) {
	m := mustModel(t, tinyConfig(4), 1)
	e, err := NewEvaluator(m, EvalOptions{Batch: 4, Wait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := []rules.Position{rules.NewPosition(4)}
	// Before Run, a call waits until its own context ends.
	short, cancelShort := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelShort()
	if _, err := e.Evaluate(short, p); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("before Run: err = %v, want deadline exceeded", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	if _, err := e.Evaluate(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	// Callers in flight while the evaluator stops get an answer or
	// ErrStopped, never a hang.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				if _, err := e.Evaluate(context.Background(), p); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	time.Sleep(5 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrStopped) {
			t.Errorf("in-flight call: %v, want ErrStopped", err)
		}
	}
	if _, err := e.Evaluate(context.Background(), p); !errors.Is(err, ErrStopped) {
		t.Errorf("after Run: err = %v, want ErrStopped", err)
	}
	if err := e.Run(context.Background()); err == nil {
		t.Error("second Run accepted")
	}
}

// TestSetWeights checks that an evaluator given new weights answers
// bit for bit as one built from them, with every compiled batch size and
// without stale cache entries, and that it refuses another architecture.
func TestSetWeights(t *testing.T) {
	a := perturbed(mustModel(t, tinyConfig(5), 1), 0.3, 1)
	b := perturbed(mustModel(t, tinyConfig(5), 2), 0.3, 2)
	ps := nettestutil.Positions(5, 13, 3)
	opts := EvalOptions{Batch: 8, CacheSize: 64} // graphs of 1, 2, 4 and 8
	evalAll := func(e *Evaluator) []mcts.Prediction {
		t.Helper()
		var out []mcts.Prediction
		for _, k := range []int{1, 2, 3, 7} { // calls that fill each graph size
			for i := 0; i+k <= len(ps); i += k {
				pr, err := e.Evaluate(context.Background(), ps[i:i+k])
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, pr...)
			}
		}
		return out
	}
	reused := startEvaluator(t, a, opts)
	before := evalAll(reused)
	if err := reused.SetWeights(b); err != nil {
		t.Fatal(err)
	}
	got := evalAll(reused)
	want := evalAll(startEvaluator(t, b, opts))
	changed := 0
	for i := range want {
		if !samePrediction(got[i], want[i]) {
			t.Fatalf("prediction %d after SetWeights differs from a fresh evaluator's", i)
		}
		if !samePrediction(before[i], want[i]) {
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("the two models predict alike: the test shows nothing")
	}
	if err := reused.SetWeights(mustModel(t, Config{Size: 5, Filters: 4, Blocks: 1, ValueHidden: 8}, 1)); err == nil {
		t.Error("weights of another architecture accepted")
	}
	if err := reused.SetWeights(mustModel(t, tinyConfig(6), 1)); err == nil {
		t.Error("weights of another board size accepted")
	}
}

// TestRunAllocatesNothing: after its first run, a forward pass reuses
// every buffer, so a network run allocates nothing (BenchmarkEvaluate
// shows what Evaluate itself allocates: its results).
func TestRunAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	m := mustModel(t, tinyConfig(8), 1)
	fw, err := newForwardWeights(m.cfg, m.weights)
	if err != nil {
		t.Fatal(err)
	}
	fwd, err := newForward(m.cfg, m.Shape(), 3, fw)
	if err != nil {
		t.Fatal(err)
	}
	fwd.run()
	if n := testing.AllocsPerRun(5, fwd.run); n != 0 {
		t.Errorf("a network run allocates %v times", n)
	}
}

// TestDeepen: a network deepened by two blocks predicts what it did
// before (the new blocks are the identity) and has their weights to
// learn; fewer blocks is refused.
func TestDeepen(t *testing.T) {
	m := perturbed(mustModel(t, tinyConfig(5), 1), 0.2, 4)
	d, err := m.Deepen(3, 9)
	if err != nil {
		t.Fatal(err)
	}
	if d.Config().Blocks != 3 || d.NumParams() <= m.NumParams() || d.Meta().Arch != d.Config().Arch() {
		t.Fatalf("deepened: %v, %d params (was %d), arch %q", d.Config(), d.NumParams(), m.NumParams(), d.Meta().Arch)
	}
	ps := nettestutil.Positions(5, 40, 3)
	want, got := evalAll(t, m, 8, ps), evalAll(t, d, 8, ps)
	for i := range ps {
		if math.Abs(float64(got[i].Value-want[i].Value)) > 1e-5 {
			t.Fatalf("position %d: value %v after deepening, %v before", i, got[i].Value, want[i].Value)
		}
		for j := range want[i].Policy {
			if math.Abs(float64(got[i].Policy[j]-want[i].Policy[j])) > 1e-5 {
				t.Fatalf("position %d move %d: prior %v after deepening, %v before", i, j, got[i].Policy[j], want[i].Policy[j])
			}
		}
	}
	if w := d.weights["block2.conv1.w"]; !slices.ContainsFunc(w, func(v float32) bool { return v != 0 }) {
		t.Error("a new block's first convolution is all zeros: it could not learn")
	}
	if _, err := m.Deepen(0, 1); err == nil || !strings.Contains(err.Error(), "it has 1") {
		t.Errorf("deepen to fewer blocks: %v", err)
	}
}

// TestWithCaptures: a network given the capture planes predicts what it
// did (on positions of every phase, where the new planes are mostly not
// empty); package train's TestCapturePlanesLearn trains them.
func TestWithCaptures(t *testing.T) {
	cfg := tinyConfig(6)
	cfg.Captures = false
	m := perturbed(mustModel(t, cfg, 1), 0.2, 4)
	c, err := m.WithCaptures()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Config().Captures || c.Meta().Arch != c.Config().Arch() || c.Meta().EncodingVersion != int(EncodingCaptures) {
		t.Fatalf("widened: %+v, metadata %+v", c.Config(), c.Meta())
	}
	if got, want := c.NumParams()-m.NumParams(), cfg.Filters*(EncodingCaptures.Planes()-EncodingOrigins.Planes())*9; got != want {
		t.Errorf("widening added %d weights, want %d", got, want)
	}
	ps := nettestutil.Positions(6, 40, 3)
	want, got := evalAll(t, m, 8, ps), evalAll(t, c, 8, ps)
	for i := range ps {
		if got[i].Value != want[i].Value || !slices.Equal(got[i].Policy, want[i].Policy) {
			t.Fatalf("position %d: %v with the capture planes, %v without", i, got[i], want[i])
		}
	}
	if _, err := c.WithCaptures(); err == nil {
		t.Error("widening a network that has the capture planes: no error")
	}
}
