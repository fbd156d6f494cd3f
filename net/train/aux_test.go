package train

import (
	"math"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
)

// TestAuxTraining: the auxiliary losses are reported, fall when a batch is
// trained on repeatedly, count only the samples that have targets (a
// batch without any has auxiliary losses 0), and a checkpoint keeps the
// heads.
func TestAuxTraining(t *testing.T) {
	cfg := tinyConfig(5)
	cfg.Aux = net.AuxOwnership | net.AuxMovesLeft
	opts := net.DefaultTrainOptions()
	opts.Batch, opts.WarmupSteps, opts.Augment = 8, 0, true
	tr, err := New(mustModel(t, cfg, 1), opts)
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
	var last net.Losses
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
	back := reloaded(t, tr, cfg, opts)
	a, _ := tr.Model(net.Metadata{})
	b, _ := back.Model(net.Metadata{})
	for name, w := range weightsOf(a) {
		if _, ok := weightsOf(b)[name]; !ok || len(weightsOf(b)[name]) != len(w) {
			t.Fatalf("checkpoint lost %s", name)
		}
	}
	bad := batch[1]
	bad.Final = ^uint64(0)
	if _, err := tr.Step(append([]net.Sample{bad}, batch[1:]...)); err == nil || !strings.Contains(err.Error(), "off the") {
		t.Errorf("final stones off the board: %v", err)
	}
}
