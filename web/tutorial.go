package web

import (
	"fmt"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api"
)

// tutorialDef is a step as written here: the position as a diagram
// (rules.ParsePosition), the task (nil: any legal move) and the marks.
type tutorialDef struct {
	id, diagram             string
	click                   bool
	task, marks             []string
	title, text, done, wrng string
}

// The steps, in order: the board and its colours; Black's removal (a
// corner or the centre); White's removal next to the hole; a jump; two
// jumps in one direction (and no turning); a forced jump; the player who
// cannot jump loses. Then the page offers a game against the computer.
var tutorialDefs = []tutorialDef{
	{id: "board", click: true, diagram: full6,
		title: "tut.board.title", text: "tut.board.text", done: "tut.board.done"},
	{id: "removeBlack", diagram: full6, marks: []string{"a1", "c3", "d4", "f6"},
		title: "tut.removeBlack.title", text: "tut.removeBlack.text", done: "tut.removeBlack.done"},
	{id: "removeWhite", diagram: `
		6 o x o x o x
		5 x o x o x o
		4 o x o . o x
		3 x o x o x o
		2 o x o x o x
		1 x o x o x o
		  a b c d e f
		white to move`, marks: []string{"d5", "c4", "e4", "d3"},
		title: "tut.removeWhite.title", text: "tut.removeWhite.text", done: "tut.removeWhite.done"},
	{id: "jump", diagram: `
		6 o x o x o x
		5 x o x . x o
		4 o x o . o x
		3 x o x o x o
		2 o x o x o x
		1 x o x o x o
		  a b c d e f
		black to move`, marks: []string{"b4", "f4", "d2"},
		title: "tut.jump.title", text: "tut.jump.text", done: "tut.jump.done"},
	{id: "double", diagram: `
		6 . . . . . .
		5 . . . . . .
		4 . . . . . .
		3 . . o . . .
		2 x o . o . .
		1 . . . . . .
		  a b c d e f
		black to move`, task: []string{"a2-e2"}, marks: []string{"a2", "b2", "d2"},
		title: "tut.double.title", text: "tut.double.text", done: "tut.double.done", wrng: "tut.double.wrong"},
	{id: "must", diagram: `
		6 . . . . . .
		5 . . . . . .
		4 . . x o . .
		3 . . . . . .
		2 . x . . . .
		1 . o . . . .
		  a b c d e f
		black to move`, marks: []string{"c4"},
		title: "tut.must.title", text: "tut.must.text", done: "tut.must.done"},
	{id: "lose", diagram: `
		6 . . . . . .
		5 o . . . . .
		4 x . . . . .
		3 x . . o . .
		2 . . . x . .
		1 . . . . . .
		  a b c d e f
		black to move`, task: []string{"d2-d4"}, marks: []string{"a4", "d2"},
		title: "tut.lose.title", text: "tut.lose.text", done: "tut.lose.done", wrng: "tut.lose.wrong"},
}

const full6 = `
	6 o x o x o x
	5 x o x o x o
	4 o x o x o x
	3 x o x o x o
	2 o x o x o x
	1 x o x o x o
	  a b c d e f
	black to move`

// tutorial builds the steps from their definitions, checking each: a
// valid position, a task of legal moves, marks on the board.
func tutorial() ([]api.LearnStep, error) {
	var steps []api.LearnStep
	for _, d := range tutorialDefs {
		p, err := rules.ParsePosition(d.diagram)
		if err != nil {
			return nil, fmt.Errorf("web: tutorial step %s: %w", d.id, err)
		}
		st := api.LearnStep{
			ID: d.id, Size: int(p.Size), Board: api.BoardRows(p), Turn: p.Turn.String(), Phase: p.Phase().String(),
			Click: d.click, Marks: d.marks, Title: d.title, Text: d.text, Done: d.done, Wrong: d.wrng,
		}
		if st.Marks == nil {
			st.Marks = []string{}
		}
		legal := p.LegalMoves(nil)
		if d.click { // a click on any stone of the side to move
			for s := range rules.Square(64) {
				if c, ok := p.At(s); ok && c == p.Turn {
					st.Legal = append(st.Legal, s.String())
				}
			}
			st.Task, st.After = st.Legal, [][]string{}
		} else {
			st.Legal = rules.MoveStrings(legal)
			st.Task = d.task
			if st.Task == nil {
				st.Task = st.Legal
			}
			for _, text := range st.Task {
				m, err := rules.ParseMove(p, text)
				if err != nil {
					return nil, fmt.Errorf("web: tutorial step %s: task: %w", d.id, err)
				}
				st.After = append(st.After, api.BoardRows(p.Play(m)))
			}
		}
		for _, sq := range st.Marks {
			if _, err := rules.ParseSquare(sq, st.Size); err != nil {
				return nil, fmt.Errorf("web: tutorial step %s: mark: %w", d.id, err)
			}
		}
		steps = append(steps, st)
	}
	return steps, nil
}
