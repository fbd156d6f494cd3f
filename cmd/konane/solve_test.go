package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// solveCmd runs "konane solve args..." and returns its output.
func solveCmd(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	err = run(ctx, append([]string{"solve"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestSolveStartOutput(t *testing.T) {
	for _, size := range []int{4, 5} {
		out, _, err := solveCmd(context.Background(), "--size", fmt.Sprint(size))
		if err != nil {
			t.Fatalf("%dx%d: %v", size, size, err)
		}
		start, err := solver.New().SolveStart(context.Background(), size, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, o := range start.Openings {
			fmt.Fprintf(&want, "%s %s: %s\n", o.Black, o.White, winner(o.BlackWins))
		}
		fmt.Fprintf(&want, "value: %s\n", winner(start.BlackWins))
		if out != want.String() {
			t.Errorf("%dx%d output:\n%s\nwant:\n%s", size, size, out, want.String())
		}
	}
	// Known values: 4x4 is White's, 5x5 Black's after every opening.
	out, _, _ := solveCmd(context.Background(), "--size", "4")
	if !strings.HasPrefix(out, "a1 b1: white wins\n") || !strings.HasSuffix(out, "\nvalue: white wins\n") {
		t.Errorf("4x4 output:\n%s", out)
	}
	out, _, _ = solveCmd(context.Background(), "--size", "5")
	if strings.Count(out, ": black wins\n") != len(rules.Openings(5))+1 {
		t.Errorf("5x5 output: want every opening and the value won by black:\n%s", out)
	}
}

func TestSolvePositionOutput(t *testing.T) {
	const moves = "a1 a2 c1-a1"
	out, _, err := solveCmd(context.Background(), "--size", "4", "--position", moves)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.NewPosition(4)
	for _, f := range strings.Fields(moves) {
		m, err := rules.ParseMove(p, f)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	results, err := solver.New().Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := "white to move: white wins\n"
	for _, r := range results {
		verdict := "loses"
		if r.Wins {
			verdict = "wins"
		}
		want += fmt.Sprintf("%s: %s\n", r.Move, verdict)
	}
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(out, ": wins\n") {
		t.Errorf("White wins, so some move must win:\n%s", out)
	}

	// Commas, extra spaces and a record file give the same answer.
	same := func(name string, args ...string) {
		t.Helper()
		got, _, err := solveCmd(context.Background(), args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != out {
			t.Errorf("%s: output\n%s\nwant\n%s", name, got, out)
		}
	}
	same("commas", "--size", "4", "--position", " a1, a2 ,c1-a1 ")
	rec := rules.NewRecord(4)
	for _, f := range strings.Fields(moves) {
		m, _ := rules.ParseMove(mustFinal(t, rec), f)
		rec.AddMove(m, "")
	}
	dir := t.TempDir()
	for _, name := range []string{"game.txt", "game.json"} {
		path := filepath.Join(dir, name)
		if err := writeRecord(path, rec); err != nil {
			t.Fatal(err)
		}
		same(name, "--position", path)
		same(name+" with --size", "--size", "4", "--position", path)
	}
}

func mustFinal(t *testing.T, r *rules.Record) rules.Position {
	t.Helper()
	p, err := r.Final()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSolveFinishedGame(t *testing.T) {
	// Play the first legal move until the 4x4 game ends.
	p := rules.NewPosition(4)
	var played []string
	for p.HasMoves() {
		m := p.LegalMoves(nil)[0]
		played = append(played, m.String())
		p = p.Play(m)
	}
	out, _, err := solveCmd(context.Background(), "--size", "4", "--position", strings.Join(played, " "))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%s to move: %s wins\n", p.Turn, p.Turn.Other()); out != want {
		t.Errorf("finished game: output %q, want %q", out, want)
	}
	_, _, err = solveCmd(context.Background(), "--size", "4", "--position", strings.Join(played, " ")+" a1")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("move %d \"a1\": the game is over", len(played)+1)) {
		t.Errorf("a move after the end: error %v", err)
	}
}

func TestSolveErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("[Size \"4\"]\n\n1. a1 b2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.txt")
	rec := rules.NewRecord(4)
	rec.AddMove(rules.Move{}, "") // a1
	if err := writeRecord(good, rec); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string // substrings of the error
	}{
		{"no size", nil, []string{"solve: --board is required"}},
		{"no size with moves", []string{"--position", "a1"}, []string{"--board is required"}},
		{"size 3", []string{"--size", "3"}, []string{"solve: --size 3: 3x3 is outside the boards 4x4..16x16"}},
		{"size 9", []string{"--size", "9", "--position", "a1"}, []string{"--size 9"}},
		{"argument", []string{"--size", "4", "extra"}, []string{"unexpected argument \"extra\""}},
		{"unknown flag", []string{"--depth", "3"}, []string{"flag provided but not defined: -depth"}},
		{"bad square", []string{"--size", "4", "--position", "a1 zz"}, []string{"move 2", "\"zz\""}},
		{"off the board", []string{"--size", "4", "--position", "e5"}, []string{"move 1", "off the 4x4 board"}},
		{"illegal jump", []string{"--size", "4", "--position", "a1 a2 c1-a2"}, []string{"move 3", "c1-a2", "jumps go straight"}},
		{"removal too late", []string{"--size", "4", "--position", "a1 a2 c1-a1 d4"}, []string{"move 4", "removals are over"}},
		{"white's removal", []string{"--size", "4", "--position", "a1 d1"}, []string{"move 2", "adjacent to the hole"}},
		{"only separators", []string{"--size", "4", "--position", " , "}, []string{"no moves"}},
		{"bad record", []string{"--position", bad}, []string{"solve: --position: rules: record", "b2"}},
		{"record of another size", []string{"--size", "5", "--position", good}, []string{"the game is 4x4, not 5x5"}},
		{"missing file", []string{"--position", "./missing.txt"}, []string{"solve: --position ./missing.txt: no such file"}},
		{"missing file with size", []string{"--size", "4", "--position", filepath.Join(dir, "missing.txt")}, []string{"missing.txt: no such file"}},
		{"directory", []string{"--position", dir}, []string{"--position " + dir + " is a directory, not a game record file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := solveCmd(context.Background(), tc.args...)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if out != "" {
				t.Errorf("output on error:\n%s", out)
			}
		})
	}
}

func TestSolveStatsAndCancel(t *testing.T) {
	_, stderr, err := solveCmd(context.Background(), "--size", "4", "--stats")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "nodes") || !strings.HasPrefix(stderr, "time ") {
		t.Errorf("--stats wrote %q", stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = solveCmd(ctx, "--size", "4")
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "solve: ") {
		t.Errorf("cancelled: error %v, want a solve: error wrapping context.Canceled", err)
	}
}

// writeRecord writes rec to path in the format its name asks for.
func writeRecord(path string, rec *rules.Record) error {
	data, err := rec.MarshalFor(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// TestSolveBoardFlag: --board solves a rectangle from either start (the
// answers are the solver's, checked against negamax in package solver)
// and refuses what it cannot hold in one line.
func TestSolveBoardFlag(t *testing.T) {
	ctx := context.Background()
	out, _, err := solveCmd(ctx, "--board", "4x5")
	if err != nil {
		t.Fatal(err)
	}
	if out != "start: white wins\nvalue: white wins\n" {
		t.Errorf("4x5 (gap) output:\n%s", out)
	}
	out, _, err = solveCmd(ctx, "--board", "5x4/removal")
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) < 2 || !strings.HasPrefix(lines[0], "a1 ") || !strings.HasPrefix(lines[len(lines)-1], "value: ") {
		t.Errorf("5x4/removal output:\n%s", out)
	}
	out, _, err = solveCmd(ctx, "--board", "4x5", "--position", "c1-c3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "white to move: ") || !strings.Contains(out, "\n") {
		t.Errorf("4x5 position output:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--board", "9x8"}, "solve: --board 9x8: the solver holds boards of at most 8x8"},
		{[]string{"--board", "7x7/gap"}, `solve: --board 7x7/gap: the gap start needs exactly one of width and height odd`},
		{[]string{"--board", "4x5", "--size", "4"}, "solve: --board and --size are the same flag: give one"},
		{[]string{"--board", "7x6", "--position", "d4"}, `solve: --position: move 1: rules: move "d4": illegal move`},
	} {
		_, _, err := solveCmd(ctx, tc.args...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: error %v; want %q", tc.args, err, tc.want)
		}
	}
}
