package solver

import (
	"testing"
	"unsafe"

	"github.com/konanezero/konane/rules"
)

func TestTableLayout(t *testing.T) {
	if size := unsafe.Sizeof(bucket{}); size != 64 {
		t.Errorf("a bucket takes %d bytes, want one 64-byte cache line", size)
	}
	for _, tc := range []struct{ max, buckets int }{
		{0, 1}, {2, 1}, {5, 1}, {6, 2}, {1 << 16, 1 << 14}, {DefaultTableEntries, 1 << 20},
	} {
		if got := len(newTable(tc.max).buckets); got != tc.buckets {
			t.Errorf("newTable(%d): %d buckets, want %d", tc.max, got, tc.buckets)
		}
	}
}

// The key is the whole position: positions that differ only by the side
// to move or the board size are different entries.
func TestTableKeysAreExact(t *testing.T) {
	tt := newTable(3) // one bucket: every position collides
	p := rules.Position{Black: 0b101, White: 0b010, Size: 4, Turn: rules.Black}
	other := p
	other.Turn = rules.White
	bigger := p
	bigger.Size = 5
	// c1 recoloured: (black ^ black') | white ^ white' is zero for it,
	// so a probe that left out the parentheses would find p's entry.
	recoloured := rules.Position{Black: 0b001, White: 0b110, Size: 4, Turn: rules.Black}
	tt.store(p, p.Hash(), true, 10)
	for _, q := range []rules.Position{other, bigger, recoloured} {
		if _, ok := tt.probe(q, q.Hash()); ok {
			t.Errorf("probe(%+v) found the entry of %+v", q, p)
		}
	}
	tt.store(other, other.Hash(), false, 1)
	tt.store(bigger, bigger.Hash(), false, 1)
	for _, tc := range []struct {
		p   rules.Position
		win bool
	}{{p, true}, {other, false}, {bigger, false}} {
		if e, ok := tt.probe(tc.p, tc.p.Hash()); !ok || e.win() != tc.win {
			t.Errorf("probe(%+v) = %v, %v; want win %v", tc.p, e.win(), ok, tc.win)
		}
	}
}

// The most expensive results stay; a cheap newcomer takes the third slot.
func TestTableReplacement(t *testing.T) {
	tt := newTable(3)
	pos := func(i int) rules.Position { return rules.Position{Black: 1 << i, Size: 8} }
	tt.store(pos(0), pos(0).Hash(), true, 1<<20)
	tt.store(pos(1), pos(1).Hash(), true, 1<<10)
	tt.store(pos(2), pos(2).Hash(), true, 1)
	tt.store(pos(3), pos(3).Hash(), true, 1) // evicts pos(2), the only cheap entry left in slot 2
	tt.store(pos(4), pos(4).Hash(), true, 1<<15)
	// pos(4) displaces pos(1) from the kept slots; pos(1) goes to slot 2.
	for i, want := range []bool{true, true, false, false, true} {
		if _, ok := tt.probe(pos(i), pos(i).Hash()); ok != want {
			t.Errorf("position %d in the table: %v, want %v", i, ok, want)
		}
	}
	tt.store(pos(1), pos(1).Hash(), false, 1) // an update keeps the slot
	if e, ok := tt.probe(pos(1), pos(1).Hash()); !ok || e.win() {
		t.Errorf("after the update: %v, %v; want a loss", e.win(), ok)
	}
	tt.clear()
	if _, ok := tt.probe(pos(0), pos(0).Hash()); ok {
		t.Error("an entry survived clear")
	}
}
