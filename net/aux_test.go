package net

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/internal/nettestutil"
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
	plain, err := m.WithTrainingHeads(0, false, 9)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Config().Aux != 0 || plain.NumParams() >= m.NumParams() {
		t.Fatalf("WithTrainingHeads(0, false): %v, %d params (from %d)", plain.Config().Aux, plain.NumParams(), m.NumParams())
	}
	ps := nettestutil.Positions(6, 20, 4)
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
// before them, such as the per-size models shipped at 7cecfee, kept in
// testdata, has no aux_heads metadata)
// loads as a network with none, and New draws the same weights for the
// rest of the network whatever the heads.
func TestAuxOldFiles(t *testing.T) {
	for _, size := range []int{6, 8} {
		m, err := Load(filepath.Join("testdata", fmt.Sprintf("konane-%dx%d-7cecfee.safetensors", size, size)))
		if err != nil {
			t.Fatal(err)
		}
		if m.Config().Aux != 0 {
			t.Errorf("%dx%d model of 7cecfee: auxiliary heads %v, want none", size, size, m.Config().Aux)
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

// TestAuxTransform: a symmetry moves the final stones with the position.
func TestAuxTransform(t *testing.T) {
	s := randomSamples(6, 1, 8)[0]
	s.MovesLeft, s.Final = 3, 0x0123_4567_89ab_cdef&s.Position.Valid()
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
