package agent_test

import (
	"slices"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// TestMultiBoardModelEngines: a multi-board model file gives an engine
// for every square board, each saying whether the network was trained
// there; LoadModel without a size gives it 8x8.
func TestMultiBoardModelEngines(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.Board{W: 6, H: 6}, rules.Board{W: 8, H: 8})
	es, err := agent.OpenEngines(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := es.Sizes(); !slices.Equal(got, []int{4, 5, 6, 7, 8}) {
		t.Fatalf("sizes %v", got)
	}
	for n := 4; n <= 8; n++ {
		e, err := es.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if trained := n == 6 || n == 8; (e.Note() == "") != trained || e.Size() != n {
			t.Errorf("%dx%d: size %d, note %q", n, n, e.Size(), e.Note())
		}
	}
	if lm, err := agent.LoadModel(path, 0); err != nil || lm.Shape() != 8 {
		t.Errorf("agent.LoadModel(path, 0): %v", err)
	}
}

// TestGetBoardNoteOnStart: GetBoard makes one engine per shape, for both
// of its starts; NoteOn says, per start, whether the network was trained
// there (7x6 from the gap: yes; 7x6 with the removals: no).
func TestGetBoardNoteOnStart(t *testing.T) {
	gap := rules.Board{W: 7, H: 6, Start: rules.Gap}
	removal := rules.Board{W: 7, H: 6, Start: rules.Removal}
	es, err := agent.OpenEngines(agenttest.MultiBoardModelFile(t, gap, rules.SquareBoard(8)))
	if err != nil {
		t.Fatal(err)
	}
	eg, err := es.GetBoard(gap)
	if err != nil {
		t.Fatal(err)
	}
	er, err := es.GetBoard(removal)
	if err != nil {
		t.Fatal(err)
	}
	if eg != er {
		t.Fatal("GetBoard made two engines for one shape")
	}
	if n := er.NoteOn(gap); n != "" {
		t.Errorf("7x6 gap, trained there: note %q", n)
	}
	if n := er.NoteOn(removal); n == "" {
		t.Error("7x6 with the removals, not trained there: no note")
	}
}
