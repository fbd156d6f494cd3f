package net

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestAuxRoundTrip: a model with both auxiliary heads saves and loads
// with them (the file says so, the architecture's name too), and plays
// exactly as its weights without the heads do.
func TestAuxRoundTrip(t *testing.T) {
	cfg := tinyConfig(6)
	cfg.Aux = AuxOwnership | AuxMovesLeft
	testSaveLoadRoundTrip(t, cfg)
	m := perturbed(mustModel(t, cfg, 3), 0.05, 2)
	if got := m.Config().Arch(); !strings.HasSuffix(got, "-own-ml") {
		t.Errorf("arch %s, want the suffix -own-ml", got)
	}
	plain, err := m.WithAux(0, 9)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Config().Aux != 0 || plain.NumParams() >= m.NumParams() {
		t.Fatalf("WithAux(0): %v, %d params (from %d)", plain.Config().Aux, plain.NumParams(), m.NumParams())
	}
	ps := randomPositions(6, 20, 4)
	a, b := evalAll(t, m, 4, ps), evalAll(t, plain, 4, ps)
	for i := range a {
		if a[i].Value != b[i].Value {
			t.Fatalf("position %d: value %v with the heads, %v without", i, a[i].Value, b[i].Value)
		}
		for j := range a[i].Policy {
			if a[i].Policy[j] != b[i].Policy[j] {
				t.Fatalf("position %d: prior %d differs", i, j)
			}
		}
	}
}

// TestAuxOldFiles: a file written without auxiliary heads (every file
// before them, such as the shipped models, has no aux_heads metadata)
// loads as a network with none, and New draws the same weights for the
// rest of the network whatever the heads.
func TestAuxOldFiles(t *testing.T) {
	for _, size := range []int{6, 8} {
		m, err := Load(filepath.Join("..", "models", fmt.Sprintf("konane-%dx%d.safetensors", size, size)))
		if err != nil {
			t.Fatal(err)
		}
		if m.Config().Aux != 0 {
			t.Errorf("%dx%d shipped model: auxiliary heads %v, want none", size, size, m.Config().Aux)
		}
	}
	cfg := tinyConfig(5)
	m := mustModel(t, cfg, 1)
	if _, ok := configMeta(cfg)["aux_heads"]; ok {
		t.Error("a model without auxiliary heads writes aux_heads metadata")
	}
	cfg.Aux = AuxMovesLeft
	aux := mustModel(t, cfg, 1)
	for name, w := range m.weights {
		for i := range w {
			if w[i] != aux.weights[name][i] {
				t.Fatalf("%s[%d] differs when the network has a moves-left head", name, i)
			}
		}
	}
	// config.json: the net of a run made before the heads.
	var c Config
	if err := json.Unmarshal([]byte(`{"Size":8,"Filters":32,"Blocks":2,"ValueHidden":32,"GlobalPool":true,"Captures":true}`), &c); err != nil || c.Aux != 0 {
		t.Fatalf("old config: %+v, %v", c, err)
	}
	if b, _ := json.Marshal(c); strings.Contains(string(b), "Aux") {
		t.Errorf("a config without heads writes %s", b)
	}
	c.Aux = AuxOwnership | AuxMovesLeft
	b, _ := json.Marshal(c)
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back != c || !strings.Contains(string(b), `"Aux":"ownership,moves-left"`) {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
	for _, bad := range []string{"owner", "ownership,x"} {
		if _, err := ParseAuxHeads(bad); err == nil {
			t.Errorf("ParseAuxHeads(%q) accepted", bad)
		}
	}
}

// TestAuxTraining: the auxiliary losses are reported, fall when a batch is
// trained on repeatedly, count only the samples that have targets (a
// batch without any has auxiliary losses 0), and a checkpoint keeps the
// heads.
func TestAuxTraining(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.Aux = AuxOwnership | AuxMovesLeft
	opts := DefaultTrainOptions()
	opts.Batch, opts.WarmupSteps, opts.Augment = 8, 0, true
	tr, err := NewTrainer(mustModel(t, cfg, 1), opts)
	if err != nil {
		t.Fatal(err)
	}
	batch := withAux(randomSamples(5, 8, 3), 5, 0)
	for i := 1; i < len(batch); i++ { // a target the input shows: the stones of the position
		batch[i].Final = batch[i].Position.Black | batch[i].Position.White
	}
	first, err := tr.Step(batch)
	if err != nil {
		t.Fatal(err)
	}
	if !(first.Ownership > 0 && first.MovesLeft > 0) || math.Abs(first.Total-(first.Policy+first.Value+first.L2+first.Ownership+first.MovesLeft)) > 1e-9 {
		t.Fatalf("losses %+v", first)
	}
	var last Losses
	for range 60 {
		if last, err = tr.Step(batch); err != nil {
			t.Fatal(err)
		}
	}
	if !(last.Ownership < 0.8*first.Ownership && last.MovesLeft < first.MovesLeft) {
		t.Errorf("auxiliary losses %v, %v after 60 steps, from %v, %v", last.Ownership, last.MovesLeft, first.Ownership, first.MovesLeft)
	}
	none := randomSamples(5, 8, 3)
	l, err := tr.Step(none)
	if err != nil {
		t.Fatal(err)
	}
	if l.Ownership != 0 || l.MovesLeft != 0 {
		t.Errorf("a batch without auxiliary targets: losses %v, %v", l.Ownership, l.MovesLeft)
	}
	path := filepath.Join(t.TempDir(), "ckpt.safetensors")
	if err := tr.SaveCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	back, err := NewTrainer(mustModel(t, cfg, 2), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.LoadCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	a, _ := tr.Model(Metadata{})
	b, _ := back.Model(Metadata{})
	for name, w := range a.weights {
		if _, ok := b.weights[name]; !ok || len(b.weights[name]) != len(w) {
			t.Fatalf("checkpoint lost %s", name)
		}
	}
	bad := batch[1]
	bad.Final = ^uint64(0)
	if _, err := tr.Step(append([]Sample{bad}, batch[1:]...)); err == nil || !strings.Contains(err.Error(), "off the") {
		t.Errorf("final stones off the board: %v", err)
	}
}

// TestAuxTransform: a symmetry moves the final stones with the position.
func TestAuxTransform(t *testing.T) {
	s := withAux(randomSamples(6, 1, 8), 3, -1)[0]
	for sym := rules.Symmetry(0); sym < rules.NumSymmetries; sym++ {
		x := s.Transform(sym)
		if x.MovesLeft != s.MovesLeft {
			t.Fatalf("%v: moves left %d, want %d", sym, x.MovesLeft, s.MovesLeft)
		}
		for sq := rules.Square(0); sq < 64; sq++ {
			if s.Final>>sq&1 != x.Final>>sym.Square(sq, 6)&1 && s.Position.OnBoard(sq) {
				t.Fatalf("%v: square %v not moved", sym, sq)
			}
		}
	}
}
