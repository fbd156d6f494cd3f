package net

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net/internal/kernel"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// TestSoftPolicyRoundTrip: a model with the soft policy head saves and
// loads with it (the file and the architecture's name say so) and its
// weights bit for bit, the head has the main policy's shape, and the
// model plays exactly as its weights without the head do.
func TestSoftPolicyRoundTrip(t *testing.T) {
	cfg := tinyConfig(6)
	cfg.SoftPolicy = true
	testSaveLoadRoundTrip(t, cfg)
	if got := cfg.Arch(); !strings.HasSuffix(got, "-sp") {
		t.Errorf("arch %s, want the suffix -sp", got)
	}
	if got := tinyConfig(6).Arch(); strings.Contains(got, "-sp") {
		t.Errorf("arch without the head %s", got)
	}
	shapes := map[string][]int{}
	for _, p := range cfg.Params() {
		shapes[p.Name] = p.Shape
	}
	if !reflect.DeepEqual(shapes["softpolicy.w"], shapes["policy.conv2.w"]) || !reflect.DeepEqual(shapes["softpolicy.b"], shapes["policy.conv2.b"]) {
		t.Fatalf("soft policy head %v %v, the policy's %v %v", shapes["softpolicy.w"], shapes["softpolicy.b"], shapes["policy.conv2.w"], shapes["policy.conv2.b"])
	}
	m := perturbed(mustModel(t, cfg, 3), 0.05, 2)
	l := roundTrip(t, m) // the head saved and read back, bit for bit
	plain, err := m.WithTrainingHeads(0, false, 9)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Config().SoftPolicy || plain.NumParams() >= m.NumParams() {
		t.Fatalf("WithTrainingHeads(0, false): soft policy %v, %d params (from %d)", plain.Config().SoftPolicy, plain.NumParams(), m.NumParams())
	}
	ps := nettestutil.Positions(6, 20, 4)
	a, b := evalAll(t, l, 4, ps), evalAll(t, plain, 4, ps)
	for i := range a {
		if !samePrediction(a[i], b[i]) {
			t.Fatalf("position %d: %v with the head, %v without", i, a[i], b[i])
		}
	}
}

// TestSoftPolicyMultiBoard: a multi-board network with the soft policy
// head (and the auxiliary heads) loads and plays a rectangle and a wide
// board exactly as its weights without the head.
func TestSoftPolicyMultiBoard(t *testing.T) {
	cfg := multiConfig()
	cfg.SoftPolicy = true
	m := perturbed(mustModel(t, cfg, 5), 0.05, 6)
	l := roundTrip(t, m)
	plain, err := m.WithTrainingHeads(cfg.Aux, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	narrow := rules.Board{W: 7, H: 6, Start: rules.Gap}
	ps := nettestutil.BoardPositions(t, narrow, 12, 3)
	wide := rules.Board{W: 9, H: 8, Start: rules.Gap}
	wps := nettestutil.WideBoardPositions(t, wide, 12, 3)
	evals := func(mm *Model) (narrowP, wideP []mcts.Prediction) {
		for _, c := range []struct {
			b    rules.Board
			wide bool
		}{{narrow, false}, {wide, true}} {
			mb, err := mm.ForBoard(c.b)
			if err != nil {
				t.Fatal(err)
			}
			e := startEvaluator(t, mb, EvalOptions{Batch: 4})
			if c.wide {
				if wideP, err = e.EvaluateWide(ctx, wps); err != nil {
					t.Fatal(err)
				}
			} else if narrowP, err = e.Evaluate(ctx, ps); err != nil {
				t.Fatal(err)
			}
		}
		return narrowP, wideP
	}
	an, aw := evals(l)
	bn, bw := evals(plain)
	for i := range an {
		if !samePrediction(an[i], bn[i]) {
			t.Fatalf("7x6 position %d: %v with the head, %v without", i, an[i], bn[i])
		}
	}
	for i := range aw {
		if !samePrediction(aw[i], bw[i]) {
			t.Fatalf("9x8 position %d: %v with the head, %v without", i, aw[i], bw[i])
		}
	}
}

// TestSoftPolicyOldFiles: files and config.json written before the head
// (the per-size models shipped at 7cecfee, kept in testdata, and every
// file of a network without it) read as
// networks without it, a network without it writes neither, and New
// draws the same weights for the rest of the network with or without it.
func TestSoftPolicyOldFiles(t *testing.T) {
	for _, size := range []int{6, 8} {
		m, err := Load(filepath.Join("testdata", "konane-"+rules.SquareBoard(size).String()+"-7cecfee.safetensors"))
		if err != nil {
			t.Fatal(err)
		}
		if m.Config().SoftPolicy || strings.Contains(m.Config().Arch(), "-sp") {
			t.Errorf("%dx%d model of 7cecfee: %s, soft policy %v", size, size, m.Config().Arch(), m.Config().SoftPolicy)
		}
	}
	for _, cfg := range []Config{tinyConfig(5), multiConfig()} {
		if _, ok := configMeta(cfg)["soft_policy"]; ok {
			t.Errorf("%s: a model without the soft policy head writes soft_policy metadata", cfg.Arch())
		}
		m := mustModel(t, cfg, 1)
		cfg.SoftPolicy = true
		soft := mustModel(t, cfg, 1)
		for name, w := range m.weights {
			for i := range w {
				if w[i] != soft.weights[name][i] {
					t.Fatalf("%s: %s[%d] differs when the network has the soft policy head", cfg.Arch(), name, i)
				}
			}
		}
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"Size":8,"Filters":32,"Blocks":2,"ValueHidden":32,"GlobalPool":true,"Captures":true}`), &c); err != nil || c.SoftPolicy {
		t.Fatalf("old config: %+v, %v", c, err)
	}
	if b, _ := json.Marshal(c); strings.Contains(string(b), "SoftPolicy") {
		t.Errorf("a config without the head writes %s", b)
	}
	c.SoftPolicy = true
	b, _ := json.Marshal(c)
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
}

// TestPolicySurprise: the surprise is KL(target ‖ prior) in nats over the
// target's actions, found in prior by action whatever the order, a prior
// below 1e-6 or missing counted as 1e-6, 0 for a search that agreed with
// its priors.
func TestPolicySurprise(t *testing.T) {
	ap := func(pairs ...float32) []ActionProb {
		var out []ActionProb
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, ActionProb{Action: int32(pairs[i]), Prob: pairs[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		target, prior []ActionProb
		want          float64
	}{
		{ap(3, 0.5, 7, 0.5), ap(3, 0.25, 7, 0.75), 0.5*math.Log(2) + 0.5*math.Log(0.5/0.75)},
		{ap(7, 0.5, 3, 0.5), ap(3, 0.25, 7, 0.75), 0.5*math.Log(2) + 0.5*math.Log(0.5/0.75)},
		{ap(9, 1), ap(2, 0.2, 5, 0.3, 9, 0.5), math.Log(2)},
		{ap(2, 0.25, 5, 0.75), ap(5, 0.75, 2, 0.25), 0},
		{ap(4, 1), ap(4, 1), 0},
		{ap(1, 1), ap(0, 1, 1, 1e-9), math.Log(1e6)},
		{ap(1, 1), ap(0, 1), math.Log(1e6)},
	} {
		if got := PolicySurprise(tc.target, tc.prior); math.Abs(got-tc.want) > 1e-6*max(1, tc.want) {
			t.Errorf("PolicySurprise(%v, %v) = %v, want %v", tc.target, tc.prior, got, tc.want)
		}
	}
}

// TestOldMultiBoardFile: a multi-board model file written before the soft
// policy head (testdata/multiboard-fb34b05.safetensors, a tiny network
// with the auxiliary heads saved by commit fb34b05, with the evaluations
// of 6x6 and 7x6 positions that build made, bit for bit) loads without
// the head, under its old architecture name, and evaluates exactly as
// it did.
func TestOldMultiBoardFile(t *testing.T) {
	m, err := Load(filepath.Join("testdata", "multiboard-fb34b05.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.SoftPolicy || c.Arch() != "res8x1gp-v8-e2-own-ml-h7" {
		t.Fatalf("old multi-board file: %s, soft policy %v", c.Arch(), c.SoftPolicy)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "multiboard-fb34b05.evaluations"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	ctx := context.Background()
	for _, board := range []rules.Board{{W: 6, H: 6}, {W: 7, H: 6, Start: rules.Gap}} {
		mb, err := m.ForBoard(board)
		if err != nil {
			t.Fatal(err)
		}
		e := startEvaluator(t, mb, EvalOptions{Batch: 4})
		preds, err := e.Evaluate(ctx, nettestutil.BoardPositions(t, board, 6, 3))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range preds {
			fmt.Fprintf(&b, "%s %d %08x", board, i, math.Float32bits(p.Value))
			for _, x := range p.Policy {
				fmt.Fprintf(&b, " %08x", math.Float32bits(x))
			}
			b.WriteString("\n")
		}
	}
	if !sameEvaluations(b.String(), string(want), kernel.Backend == "OpenBLAS") {
		t.Errorf("the old multi-board file evaluates differently (%s):\n%s\nwant (fb34b05's)\n%s", kernel.Backend, b.String(), want)
	}
}

// sameEvaluations compares two listings of TestOldMultiBoardFile: bit
// for bit, or, with loose (OpenBLAS, which sums in another order than
// the kernels that wrote the file), each number within 1e-5 of the other.
func sameEvaluations(got, want string, loose bool) bool {
	if !loose {
		return got == want
	}
	g, w := strings.Fields(got), strings.Fields(want)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] == w[i] {
			continue
		}
		x, err1 := strconv.ParseUint(g[i], 16, 32)
		y, err2 := strconv.ParseUint(w[i], 16, 32)
		if err1 != nil || err2 != nil || len(g[i]) != 8 || len(w[i]) != 8 ||
			math.Abs(float64(math.Float32frombits(uint32(x))-math.Float32frombits(uint32(y)))) > 1e-5 {
			return false
		}
	}
	return true
}
