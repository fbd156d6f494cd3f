package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// TestGTPGame drives "konane gtp" through its standard input and output:
// genmove for each side in turn until the side to move has lost.
func TestGTPGame(t *testing.T) {
	c := startConsole(t, "\n\n", "gtp", "--size", "6", "--sims", "8")
	if got := c.send("1 protocol_version"); got != "=1 2\n\n" {
		t.Fatalf("protocol_version answered %q", got)
	}
	p := rules.NewPosition(6)
	for {
		answer := strings.TrimSuffix(c.send("genmove "+p.Turn.String()), "\n\n")
		if !p.HasMoves() {
			if want := "? no legal move: " + p.Turn.String() + " has lost"; answer != want {
				t.Fatalf("genmove at the end answered %q, want %q", answer, want)
			}
			break
		}
		m, err := rules.ParseMove(p, strings.TrimPrefix(answer, "= "))
		if err != nil {
			t.Fatalf("genmove answered %q: %v", answer, err)
		}
		p = p.Play(m)
	}
	if got := c.send("quit"); got != "=\n\n" {
		t.Errorf("quit answered %q", got)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestGTPModelFlag: with --model the model's size is the only one.
func TestGTPModelFlag(t *testing.T) {
	path := agenttest.TinyModelFile(t, 5)
	var out, errb bytes.Buffer
	in := strings.NewReader("boardsize 6\nboardsize 5\ngenmove black\nkonane-legal_moves\n")
	if err := run(context.Background(), []string{"gtp", "--model", path, "--sims", "4"}, in, &out, &errb); err != nil {
		t.Fatal(err)
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(answers) != 4 || answers[0] != "? unacceptable size: no model for 6x6 (there is one for 5x5)" || answers[1] != "=" ||
		!strings.HasPrefix(answers[2], "= ") || !strings.HasPrefix(answers[3], "= ") {
		t.Errorf("answers:\n%s", out.String())
	}
	p := rules.NewPosition(5)
	if _, err := rules.ParseMove(p, strings.TrimPrefix(answers[2], "= ")); err != nil {
		t.Errorf("genmove on 5x5: %v", err)
	}
}

// TestGTPMultiBoardModel: with a multi-board model file gtp plays the
// rectangles its network plays (7x6 from the start, 6x7 after
// rectangular_boardsize) with the network, whose moves are legal there.
func TestGTPMultiBoardModel(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap})
	var out, errb bytes.Buffer
	in := strings.NewReader("genmove black\nkonane-eval\nrectangular_boardsize 6 7\ngenmove black\nrectangular_boardsize 9 8\n")
	if err := run(context.Background(), []string{"gtp", "--model", path, "--board", "size-7", "--sims", "4"}, in, &out, &errb); err != nil {
		t.Fatal(err)
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(answers) != 5 || answers[2] != "=" || answers[4] != "? unacceptable size: no model for 9x8 (there is one for 4x4, 5x5, 6x6, 7x7, 8x8; above 8x8 a network plays only the boards its model was trained on)" {
		t.Fatalf("answers:\n%s", out.String())
	}
	// A model trained on 9x8 names it among its boards.
	wide := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), rules.Board{W: 9, H: 8, Start: rules.Gap})
	out.Reset()
	if err := run(context.Background(), []string{"gtp", "--model", wide, "--sims", "4"}, strings.NewReader("rectangular_boardsize 13 12\n"), &out, &errb); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(out.String()), "? unacceptable size: no model for 13x12 (there is one for 4x4, 5x5, 6x6, 7x7, 8x8 and 9x8; above 8x8 a network plays only the boards its model was trained on)"; got != want {
		t.Errorf("13x12 with a model trained on 9x8: %q, want %q", got, want)
	}
	for i, b := range []rules.Board{{W: 7, H: 6, Start: rules.Gap}, {W: 6, H: 7, Start: rules.Gap}} {
		p, _ := b.Position()
		answer := answers[[]int{0, 3}[i]]
		if _, err := rules.ParseMove(p, strings.TrimPrefix(answer, "= ")); err != nil || !strings.HasPrefix(answer, "= ") {
			t.Errorf("genmove on %s answered %q: %v", b, answer, err)
		}
	}
	if !strings.HasPrefix(answers[1], "= ") {
		t.Errorf("the network's evaluation on 7x6: %q", answers[1])
	}
	errb.Reset()
	if err := run(context.Background(), []string{"gtp", "--model", path, "--board", "8x7", "--sims", "4"}, strings.NewReader("quit\n"), &out, &errb); err != nil || errb.String() != "note: the network was not trained on 8x7 (it was on 6x6,7x6)\n" {
		t.Errorf("8x7: %v, stderr %q", err, errb.String())
	}
}

// TestGTPWideBoard: gtp --board 10x9, a board above 8x8 no shipped
// network plays, plays it with the classical engine at --time per move,
// and rectangular_boardsize 13 12 switches to 13x12.
func TestGTPWideBoard(t *testing.T) {
	var out, errb bytes.Buffer
	in := strings.NewReader("genmove b\nkonane-eval\nrectangular_boardsize 13 12\ngenmove black\nshowboard\n")
	if err := run(context.Background(), []string{"gtp", "--board", "10x9", "--time", "20ms"}, in, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	b9, _ := rules.ParseBoard("10x9")
	g9, _ := rules.NewWideGame(b9)
	b15, _ := rules.ParseBoard("13x12")
	g15, _ := rules.NewWideGame(b15)
	if len(answers) != 5 {
		t.Fatalf("answers:\n%s", out.String())
	}
	_, err9 := g9.PlayString(strings.TrimPrefix(answers[0], "= "))
	_, err15 := g15.PlayString(strings.TrimPrefix(answers[3], "= "))
	if err9 != nil || err15 != nil || answers[1] != "? no win probability: on 10x9 the classical engine plays, which gives none" ||
		answers[2] != "=" || answers[4] != "=\n"+strings.TrimSuffix(g15.Draw(), "\n") {
		t.Errorf("answers (%v, %v):\n%s", err9, err15, out.String())
	}
}

// TestGTPWideModel: with a multi-board model trained on 9x8 and 15x12,
// gtp plays both with the network (legal moves; konane-eval gives a win
// probability and a line, which the classical engine does not), and
// refuses 11x8, where it was not trained, without --time.
func TestGTPWideModel(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(8), rules.Board{W: 9, H: 8, Start: rules.Gap},
		rules.Board{W: 15, H: 12, Start: rules.Gap})
	var out, errb bytes.Buffer
	in := strings.NewReader("genmove black\nkonane-eval\nrectangular_boardsize 15 12\ngenmove black\nkonane-eval\nrectangular_boardsize 11 8\n")
	if err := run(context.Background(), []string{"gtp", "--model", path, "--board", "size-9", "--sims", "4"}, in, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(answers) != 6 || answers[2] != "=" || !strings.HasPrefix(answers[5], "? unacceptable size: no model for 11x8 ") || errb.String() != "" {
		t.Fatalf("answers:\n%s\nstderr %q", out.String(), errb.String())
	}
	for i, name := range []string{"size-9", "size-15"} {
		b, _ := rules.ParseBoard(name)
		g, _ := rules.NewWideGame(b)
		if _, err := g.PlayString(strings.TrimPrefix(answers[3*i], "= ")); err != nil || !strings.HasPrefix(answers[3*i], "= ") {
			t.Errorf("genmove on %s answered %q: %v", b, answers[3*i], err)
		}
		if eval := answers[3*i+1]; !regexp.MustCompile(`^= white [01]\.\d{3} [a-o]\d+-[a-o]\d+`).MatchString(eval) {
			t.Errorf("konane-eval on %s: %q", b, eval)
		}
	}
}

func TestGTPFlagErrors(t *testing.T) {
	six := agenttest.TinyModelFile(t, 6)
	checkErrors(t, []errCase{
		{[]string{"gtp", "--model", six, "--size", "7"}, "no model for 7x7 (there is one for 6x6)"},
		{[]string{"gtp", "--size", "3"}, "--size 3"},
		{[]string{"gtp", "--model", six, "--board", "7x6"}, "gtp: no model for 7x6 (there is one for 6x6)"},
		{[]string{"gtp", "--model", six, "--board", "9x8"}, "gtp: no model for 9x8 (there is one for 6x6; above 8x8 a network plays only the boards its model was trained on)"},
		{[]string{"gtp", "--board", "17x8"}, "gtp: --board 17x8: 17x8 is outside the boards 4x4..16x16"},
		{[]string{"gtp", "--level", "hardest"}, `unknown level "hardest"`},
		{[]string{"gtp", "--model", "/nonexistent.safetensors"}, "nonexistent.safetensors"},
		{[]string{"gtp", "extra"}, `unexpected argument "extra"`},
	})
}
