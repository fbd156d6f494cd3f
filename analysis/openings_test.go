package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// TestWriteOpenings: the agent's choice is the removal with the best
// worst case; the exact value follows from the solved pairs; agreement
// is counted.
func TestWriteOpenings(t *testing.T) {
	sq := func(s string) rules.Move {
		m, err := rules.ParseMove(rules.NewPosition(6), s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	after := func(b string) rules.Position { return rules.NewPosition(6).Play(sq(b)) }
	white := func(b, w string) rules.Move {
		m, err := rules.ParseMove(after(b), w)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ops := []Opening{
		{Black: sq("d4"), White: white("d4", "d3"), WinProb: 0.3, Exact: Lost},
		{Black: sq("d4"), White: white("d4", "e4"), WinProb: 0.9, Exact: Won},
		{Black: sq("c3"), White: white("c3", "c2"), WinProb: 0.6, Exact: Won},
		{Black: sq("c3"), White: white("c3", "b3"), WinProb: 0.4, Exact: Won},
	}
	var b strings.Builder
	if err := WriteOpenings(&b, rules.SquareBoard(6), ops); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"d4     d3     30%                white wins",
		"the agent's choice for Black: remove c3 (Black wins at least 40% whatever White removes)",
		"exact: Black wins 6x6 with perfect play, removing c3",
		"agrees with the solver on 3 of 4 openings",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}

// TestWideOpenings: on 9x8/removal, a board above 8x8, every pair of
// removals gets the network's view (Black's probability, White's reply
// named, a line, no exact value), and the table names the agent's
// removal; an engine of another board is refused.
func TestWideOpenings(t *testing.T) {
	gap, removal := rules.Board{W: 9, H: 8, Start: rules.Gap}, rules.Board{W: 9, H: 8, Start: rules.Removal}
	es := agenttest.RunMultiBoard(t, gap, removal)
	e, err := es.GetBoard(removal)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	ops, err := WideOpenings(context.Background(), e, removal, Config{Limits: player.Limits{Sims: 2}, Progress: func(done, total int) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := removal.WidePosition()
	want := 0
	for _, m := range start.LegalMoves(nil) {
		want += start.Play(m).CountMoves()
	}
	if len(ops) != want || want == 0 || calls != want {
		t.Fatalf("%d openings (%d progress calls), want %d", len(ops), calls, want)
	}
	for _, o := range ops {
		p := start.Play(o.Black)
		if !start.Legal(o.Black) || !p.Legal(o.White) || o.WinProb < 0 || o.WinProb > 1 || len(o.PV) == 0 || !p.Play(o.White).Legal(o.PV[0]) || o.Exact != Unsolved {
			t.Errorf("opening %+v", o)
		}
	}
	var b strings.Builder
	if err := WriteOpenings(&b, removal, ops); err != nil || !strings.Contains(b.String(), "the agent's choice for Black: remove ") {
		t.Errorf("table (%v):\n%s", err, b.String())
	}
	e8, err := es.Get(8)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WideOpenings(context.Background(), e8, removal, Config{}); err == nil {
		t.Error("the 8x8 engine on 9x8: no error")
	}
}
