package net

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

// multiConfig is a small multi-board network.
func multiConfig() Config {
	c := tinyConfig(0)
	c.Hops, c.Captures, c.Aux = MultiBoardHops, true, AuxOwnership|AuxMovesLeft
	return c
}

// TestMultiBoardHops pins MultiBoardHops to the longest jump of the
// largest board the rules describe.
func TestMultiBoardHops(t *testing.T) {
	if MultiBoardHops != rules.MaxHops(rules.MaxSide) {
		t.Fatalf("MultiBoardHops %d, want MaxHops(%d) = %d", MultiBoardHops, rules.MaxSide, rules.MaxHops(rules.MaxSide))
	}
}

// TestPlays checks which boards a network plays: a multi-board one every
// board a Position holds; a single-board one those its planes cover.
func TestPlays(t *testing.T) {
	multi, six, eight := DefaultMultiBoardConfig(), DefaultConfig(6), DefaultConfig(8)
	for w := rules.MinSize; w <= rules.MaxSize; w++ {
		for h := rules.MinSize; h <= rules.MaxSize; h++ {
			shape := rules.ShapeCode(w, h)
			if !multi.Plays(shape) || !eight.Plays(shape) {
				t.Errorf("%dx%d: multi-board %v, 8x8 %v, want both", w, h, multi.Plays(shape), eight.Plays(shape))
			}
			if want := max(w, h) <= 6; six.Plays(shape) != want {
				t.Errorf("%dx%d: a 6x6 network plays it %v, want %v", w, h, six.Plays(shape), want)
			}
		}
	}
	// The boards no Position holds: a multi-board network plays every one
	// (as WidePositions), a single-board network none.
	for w := rules.MinSide; w <= rules.MaxSide; w++ {
		for h := rules.MinSide; h <= rules.MaxSide; h++ {
			if shape := rules.ShapeCode(w, h); shape >= 256 && (!multi.Plays(shape) || eight.Plays(shape)) {
				t.Errorf("%dx%d: multi-board %v, 8x8 %v, want true, false", w, h, multi.Plays(shape), eight.Plays(shape))
			}
		}
	}
	if multi.Plays(0) || multi.Plays(16*9+8) {
		t.Error("a multi-board network plays a number that is no shape code")
	}
	if err := (Config{Filters: 8, ValueHidden: 8}).Validate(); err == nil {
		t.Error("a network of size 0 without hop planes validated")
	}
	if err := (Config{Size: 8, Hops: 2, Filters: 8, ValueHidden: 8}).Validate(); err == nil {
		t.Error("an 8x8 network with fewer hop planes than its jumps validated")
	}
}

// TestMultiBoardSlots checks that on every board the actions of a
// multi-board network use distinct slots of its policy row, and that a
// jump uses the same plane on every board.
func TestMultiBoardSlots(t *testing.T) {
	cfg := DefaultMultiBoardConfig()
	planes := cfg.actionPlanes()
	planeOf := make(map[[2]int]int) // (direction, hops) → plane
	for w := rules.MinSize; w <= rules.MaxSize; w++ {
		for h := rules.MinSize; h <= rules.MaxSize; h++ {
			shape := rules.ShapeCode(w, h)
			seen := make(map[int32]bool)
			for a, s := range cfg.slotTable(shape) {
				if s < 0 || int(s) >= cfg.Slots(shape) || seen[s] {
					t.Fatalf("%dx%d: action %d has slot %d (outside 0..%d or shared)", w, h, a, s, cfg.Slots(shape)-1)
				}
				seen[s] = true
				m := rules.ActionMove(a, shape)
				if sq := int(s) / planes; sq != m.From.Row()*w+m.From.Col() {
					t.Fatalf("%dx%d: action %d (%v) in the row of square %d", w, h, a, m, sq)
				}
				if m.IsRemoval() {
					continue
				}
				key := [2]int{int(m.Direction()), m.Hops()}
				if p, ok := planeOf[key]; ok && p != int(s)%planes {
					t.Fatalf("%dx%d: %v on plane %d, another board puts it on %d", w, h, m, int(s)%planes, p)
				}
				planeOf[key] = int(s) % planes
			}
		}
	}
}

// TestMultiBoardModel saves and loads a multi-board model with its boards,
// plays it on a board it was trained on and on one it was not (which
// BoardNote names), and refuses a board a single-board model cannot play.
func TestMultiBoardModel(t *testing.T) {
	m := mustModel(t, multiConfig(), 3)
	boards := []rules.Board{{W: 6, H: 6}, {W: 7, H: 6, Start: rules.Gap}, {W: 8, H: 8}}
	meta := m.Meta()
	meta.Boards = boards
	m = m.WithMeta(meta)
	path := filepath.Join(t.TempDir(), "multi.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l.Boards(), boards) || l.Config() != m.Config() || l.Shape() != 0 {
		t.Fatalf("loaded boards %v config %+v shape %d, want %v %+v 0", l.Boards(), l.Config(), l.Shape(), boards, m.Config())
	}
	if !strings.HasPrefix(l.String(), "boards 6x6,7x6,8x8 ") {
		t.Errorf("String() = %q", l.String())
	}
	if _, err := NewEvaluator(l, EvalOptions{Batch: 2}); err == nil {
		t.Error("an evaluator of a multi-board network without a board was built")
	}
	for _, b := range []rules.Board{{W: 7, H: 6, Start: rules.Gap}, {W: 5, H: 7, Start: rules.Removal}} {
		mb, err := LoadForBoard(path, b)
		if err != nil {
			t.Fatal(err)
		}
		note := mb.BoardNote(b)
		if trained := slices.Contains(boards, b); trained != (note == "") {
			t.Errorf("%v: note %q", b, note)
		}
		if note != "" && note != "the network was not trained on 5x7/removal (it was on 6x6,7x6,8x8)" && note != "the network was not trained on 5x7 (it was on 6x6,7x6,8x8)" {
			t.Errorf("%v: note %q", b, note)
		}
		e := startEvaluator(t, mb, EvalOptions{Batch: 4})
		ps := nettestutil.BoardPositions(t, b, 6, 1)
		preds, err := e.Evaluate(context.Background(), ps)
		if err != nil {
			t.Fatal(err)
		}
		for i, pr := range preds {
			var sum float32
			for _, p := range pr.Policy {
				sum += p
			}
			if len(pr.Policy) > 0 && (sum < 0.999 || sum > 1.001) {
				t.Errorf("%v position %d: priors sum to %v", b, i, sum)
			}
		}
		if _, err := e.Evaluate(context.Background(), nettestutil.Positions(8, 1, 1)); !errors.Is(err, ErrSize) {
			t.Errorf("%v evaluator given an 8x8 position: %v", b, err)
		}
	}
	// The same weights on a square board through LoadForSize.
	if mb, err := LoadForSize(path, 6); err != nil || mb.Shape() != 6 || mb.BoardNote(rules.SquareBoard(6)) != "" {
		t.Errorf("LoadForSize 6: %v", err)
	}
	// An old single-board 6x6 network cannot play 7x6 (its planes stop at
	// two hops) and says so; it plays 5x5, untrained there.
	six := mustModel(t, tinyConfig(6), 1)
	if _, err := six.ForBoard(rules.Board{W: 7, H: 6, Start: rules.Gap}); !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), "cannot play 7x6") {
		t.Errorf("6x6 network for 7x6: %v", err)
	}
	if mb, err := six.ForBoard(rules.SquareBoard(5)); err != nil || mb.BoardNote(rules.SquareBoard(5)) != "the network was not trained on 5x5 (it was on 6x6)" {
		t.Errorf("6x6 network for 5x5: %v %q", err, mb.BoardNote(rules.SquareBoard(5)))
	}
}

// TestParseBoardList reads board lists and refuses bad ones in one line.
func TestParseBoardList(t *testing.T) {
	bs, err := ParseBoardList("6x6, 7x6,7x7,8")
	if err != nil || BoardList(bs) != "6x6,7x6,7x7,8x8" {
		t.Fatalf("ParseBoardList: %v %v", BoardList(bs), err)
	}
	for _, bad := range []string{"", "6x6,6x6", "6x6,8x8,6", "6x6,banana", "6x6,"} {
		if _, err := ParseBoardList(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseBoardList(%q) = %v", bad, err)
		}
	}
}
