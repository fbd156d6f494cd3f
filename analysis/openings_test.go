package analysis

import (
	"strings"
	"testing"

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
