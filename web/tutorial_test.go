package web

import (
	"net/http"
	"slices"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api"
	"github.com/konanezero/konane/web/api/apitest"
)

// TestTutorial: each step of "Learn the rules" shows what its text says.
func TestTutorial(t *testing.T) {
	steps, err := tutorial()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]api.LearnStep{}
	for _, st := range steps {
		byID[st.ID] = st
		if len(st.Task) == 0 || len(st.After) != len(st.Task) && !st.Click {
			t.Errorf("step %s: task %v, %d boards after", st.ID, st.Task, len(st.After))
		}
		for _, m := range st.Task {
			if !slices.Contains(st.Legal, m) {
				t.Errorf("step %s: task %s is not legal (%v)", st.ID, m, st.Legal)
			}
		}
		if (st.Wrong != "") != (len(st.Task) < len(st.Legal)) {
			t.Errorf("step %s: %d of %d legal moves do the task, and the text for the others is %q", st.ID, len(st.Task), len(st.Legal), st.Wrong)
		}
		if len(st.Marks) == 0 && st.ID != "board" {
			t.Errorf("step %s highlights nothing", st.ID)
		}
	}
	if len(steps) != 7 {
		t.Fatalf("%d steps", len(steps))
	}
	pos := func(id string) rules.Position {
		t.Helper()
		for _, d := range tutorialDefs {
			if d.id == id {
				p, err := rules.ParsePosition(d.diagram)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
		}
		t.Fatalf("no step %s", id)
		return rules.Position{}
	}
	origins := func(moves []string) []string {
		var out []string
		for _, m := range moves {
			out = append(out, m[:2])
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	// The board: full, Black to move; a click on any black stone.
	if b := byID["board"]; b.Phase != "black removal" || !b.Click || len(b.Legal) != 18 {
		t.Errorf("board step: %s, click %v, %d black stones", b.Phase, b.Click, len(b.Legal))
	}
	// The removals: the marked stones are exactly the legal removals.
	for id, phase := range map[string]string{"removeBlack": "black removal", "removeWhite": "white removal"} {
		st := byID[id]
		if st.Phase != phase || !slices.Equal(sorted(st.Marks), sorted(st.Legal)) {
			t.Errorf("%s: phase %s, marks %v, legal %v", id, st.Phase, st.Marks, st.Legal)
		}
	}
	if !slices.Contains(byID["removeBlack"].Legal, "d4") || pos("removeWhite") != pos("removeBlack").Play(rules.Move{From: rules.SquareAt(3, 3), To: rules.SquareAt(3, 3)}) {
		t.Error("the removal of White does not follow Black's removal of d4, as its text says")
	}
	// The jump: single jumps by the marked stones.
	jp := pos("jump")
	for _, text := range byID["jump"].Legal {
		if m, _ := rules.ParseMove(jp, text); m.Hops() != 1 {
			t.Errorf("jump step: %s is not a single jump", text)
		}
	}
	if !slices.Equal(sorted(byID["jump"].Marks), origins(byID["jump"].Legal)) {
		t.Errorf("jump step: marks %v, stones that can jump %v", byID["jump"].Marks, origins(byID["jump"].Legal))
	}
	// Two jumps: the task a2-e2 jumps twice; a2-c2 stops after one; at c2
	// a turn north over c3 would be a capture, were turns allowed.
	dp := pos("double")
	if m, _ := rules.ParseMove(dp, "a2-e2"); m.Hops() != 2 || !slices.Contains(byID["double"].Legal, "a2-c2") {
		t.Errorf("double step: legal %v", byID["double"].Legal)
	}
	if c, ok := dp.At(rules.SquareAt(2, 2)); !ok || c != rules.White {
		t.Error("double step: no white stone on c3 to tempt a turn")
	}
	// You must jump: exactly one jump.
	if l := byID["must"].Legal; len(l) != 1 || !slices.Equal(byID["must"].Marks, origins(l)) {
		t.Errorf("must step: legal %v, marks %v", l, byID["must"].Marks)
	}
	// Who cannot jump loses: after the task White has no jump, after the
	// other jump White has one (d3-d1, as the text says).
	lp := pos("lose")
	for _, text := range byID["lose"].Legal {
		m, _ := rules.ParseMove(lp, text)
		after := lp.Play(m)
		task := slices.Contains(byID["lose"].Task, text)
		if after.HasMoves() == task {
			t.Errorf("lose step: after %s White has moves: %v", text, after.HasMoves())
		}
		if !task && !slices.Contains(rules.MoveStrings(after.LegalMoves(nil)), "d3-d1") {
			t.Errorf("lose step: after %s White cannot play d3-d1", text)
		}
	}
	// The API serves the steps.
	ts := newTestServer(t, Config{})
	var got struct{ Steps []api.LearnStep }
	if code := apitest.Call(t, ts.url+"/api/v2/learn", "", &got); code != http.StatusOK || len(got.Steps) != len(steps) || got.Steps[4].Task[0] != "a2-e2" {
		t.Errorf("GET /api/v2/learn: %d, %d steps", code, len(got.Steps))
	}
}
