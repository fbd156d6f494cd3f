package solver

import (
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestProveMatchesReference checks Prove without a budget against the
// reference negamax, and that its winning move wins.
func TestProveMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		size, count, lo, hi int
		seed                uint64
	}{{4, 200, 2, 12, 11}, {5, 150, 2, 16, 12}, {6, 40, 16, 28, 13}} {
		s := New(WithTableEntries(1 << 14))
		for _, p := range randomPositions(tc.size, tc.count, tc.lo, tc.hi, tc.seed) {
			if p.Phase() != rules.Jumping {
				continue
			}
			pr, err := s.Prove(p, 0)
			if err != nil {
				t.Fatalf("%v: %v", p, err)
			}
			want := refWin(p)
			if !pr.Known || pr.Win != want {
				t.Fatalf("%v: Prove = %+v, reference win %v", p, pr, want)
			}
			switch {
			case want && (!p.Legal(pr.Move) || refWin(p.Play(pr.Move))):
				t.Fatalf("%v: winning move %v does not win", p, pr.Move)
			case !want && pr.Move != rules.NoMove:
				t.Fatalf("%v: lost, but move %v", p, pr.Move)
			}
		}
	}
}

// TestProveBudget: a budget too small gives Known false and leaves the
// table exact (later answers of the same Solver agree with a fresh one);
// the same calls on two Solvers give the same answers.
func TestProveBudget(t *testing.T) {
	ps := randomPositions(6, 60, 12, 20, 21)
	a, b := New(WithTableEntries(1<<14)), New(WithTableEntries(1<<14))
	unknown := 0
	for _, p := range ps {
		if p.Phase() != rules.Jumping {
			continue
		}
		for _, budget := range []uint64{50, 0} {
			pa, err := a.Prove(p, budget)
			if err != nil {
				t.Fatal(err)
			}
			pb, _ := b.Prove(p, budget)
			if pa != pb {
				t.Fatalf("%v: two Solvers disagree: %+v, %+v", p, pa, pb)
			}
			if budget > 0 && pa.Nodes > budget {
				t.Fatalf("%v: %d nodes within a budget of %d", p, pa.Nodes, budget)
			}
			if !pa.Known {
				unknown++
				continue
			}
			fresh, _ := New(WithTableEntries(1<<14)).Prove(p, 0)
			if pa.Win != fresh.Win {
				t.Fatalf("%v: Prove(budget %d) = %+v after earlier budgeted searches, a fresh Solver says %+v", p, budget, pa, fresh)
			}
		}
	}
	if unknown == 0 {
		t.Fatal("no position ran out of a budget of 50 nodes: the test does not test the budget")
	}
}
