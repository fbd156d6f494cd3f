package nettestutil

import (
	"reflect"
	"testing"

	"github.com/konanezero/konane/rules"
)

type actionProb struct {
	Action int32
	Prob   float32
}

// TestBoardTargets: the same seed draws the same targets; every target
// has a value of ±1 and one probability in [0, 1) per legal move, at that
// move's slot, on a narrow board and on a wide one.
func TestBoardTargets(t *testing.T) {
	for _, b := range []rules.Board{rules.SquareBoard(6), {W: 9, H: 8, Start: rules.Gap}} {
		ts := BoardTargets[actionProb](t, b, 20, 7)
		if len(ts) != 20 || !reflect.DeepEqual(ts, BoardTargets[actionProb](t, b, 20, 7)) {
			t.Fatalf("%v: %d targets, or another draw from the same seed", b, len(ts))
		}
		for i, x := range ts {
			var slots []int32
			if b.Narrow() {
				for _, m := range x.Position.LegalMoves(nil) {
					slots = append(slots, int32(rules.ActionIndex(m, int(x.Position.Size))))
				}
			} else {
				for _, m := range x.Wide.LegalMoves(nil) {
					slots = append(slots, int32(rules.WideActionIndex(m, b.W, b.H)))
				}
			}
			if x.Value != 1 && x.Value != -1 || len(slots) == 0 || len(x.Policy) != len(slots) {
				t.Fatalf("%v target %d: value %v, %d policy entries for %d moves", b, i, x.Value, len(x.Policy), len(slots))
			}
			for j, ap := range x.Policy {
				if ap.Action != slots[j] || !(ap.Prob >= 0 && ap.Prob < 1) {
					t.Fatalf("%v target %d entry %d: %+v, want slot %d", b, i, j, ap, slots[j])
				}
			}
		}
	}
}

// TestPerturb: the noise depends on the seed only, not on map order, and
// moves every weight.
func TestPerturb(t *testing.T) {
	draw := func(seed uint64) map[string][]float32 {
		w := map[string][]float32{"a": make([]float32, 5), "b": make([]float32, 3), "c": make([]float32, 4)}
		Perturb(w, 0.1, seed)
		return w
	}
	a := draw(1)
	if !reflect.DeepEqual(a, draw(1)) || reflect.DeepEqual(a, draw(2)) {
		t.Fatal("the noise is not a function of the seed")
	}
	for k, w := range a {
		for i, v := range w {
			if v == 0 {
				t.Errorf("%s[%d] kept its weight", k, i)
			}
		}
	}
}
