package gtp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/testwait"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

func newEngine(t *testing.T, es *agent.Engines, size int) *Engine {
	t.Helper()
	e, err := New(Config{Engines: es, Limits: player.Limits{Sims: 8}, Size: size, Seed: 1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// session runs an engine on a pipe: it writes a command and reads the
// whole answer, as a controller would.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startSession(t *testing.T, e *Engine) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := e.Serve(context.Background(), inR, outW)
		outW.Close()
		s.done <- err
	}()
	return s
}

// ask sends one command line and returns the answer without its framing
// blank line, checking that it is a success (want '=') or failure ('?').
func (s *session) ask(line string, want byte) string {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing %q: %v", line, err)
	}
	answer := s.read()
	if answer == "" || answer[0] != want {
		s.t.Fatalf("%q answered %q, want %c...", line, answer, want)
	}
	return answer
}

// read reads lines up to the blank line that ends an answer.
func (s *session) read() string {
	s.t.Helper()
	var lines []string
	for {
		l, err := s.out.ReadString('\n')
		if err != nil {
			s.t.Fatalf("answer cut short (%v) after %q", err, lines)
		}
		if l == "\n" {
			return strings.Join(lines, "\n")
		}
		lines = append(lines, strings.TrimSuffix(l, "\n"))
	}
}

// TestFullGame: two genmoves at a time play a whole game through the
// pipe; every move is legal, the game ends with "no legal move", and undo
// and showboard follow the game.
func TestFullGame(t *testing.T) {
	es := agenttest.RunEngines(t)
	s := startSession(t, newEngine(t, es, 6))
	s.ask("boardsize 6", '=')
	s.ask("clear_board", '=')
	p := rules.NewPosition(6)
	var moves []rules.Move
	for p.HasMoves() {
		color := p.Turn.String()
		if len(moves)%2 == 1 {
			color = color[:1] // both spellings
		}
		answer := s.ask("genmove "+color, '=')
		m, err := rules.ParseMove(p, strings.TrimPrefix(answer, "= "))
		if err != nil {
			t.Fatalf("genmove %s answered %q: %v", color, answer, err)
		}
		p = p.Play(m)
		moves = append(moves, m)
		if legal := s.ask("konane-legal_moves", '='); legal != strings.TrimSpace("= "+rules.MovesText(p.LegalMoves(nil))) {
			t.Fatalf("legal moves %q, want %q", legal, rules.MovesText(p.LegalMoves(nil)))
		}
	}
	loser := p.Turn.String()
	if got := s.ask("genmove "+loser, '?'); got != "? no legal move: "+loser+" has lost" {
		t.Errorf("genmove at the end: %q", got)
	}
	if got := s.ask("showboard", '='); got != "=\n"+strings.TrimSuffix(rules.Render(p, moves[len(moves)-1]), "\n") {
		t.Errorf("showboard:\n%s\nwant\n%s", got, rules.Render(p, moves[len(moves)-1]))
	}
	// Take back the last two moves and replay the last one by hand.
	s.ask("undo", '=')
	s.ask("undo", '=')
	prev := moves[len(moves)-2]
	s.ask(fmt.Sprintf("play %s %s", p.Turn, prev), '=')
	s.ask(fmt.Sprintf("play %s %s", p.Turn, moves[len(moves)-1]), '?') // the wrong side
	s.ask(fmt.Sprintf("play %s %s", p.Turn.Other().String()[:1], moves[len(moves)-1]), '=')
	if got := s.ask("showboard", '='); got != "=\n"+strings.TrimSuffix(rules.Render(p, moves[len(moves)-1]), "\n") {
		t.Errorf("showboard after replaying:\n%s", got)
	}
	s.ask("quit", '=')
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

// TestProtocol: framing, ids, preprocessing and the failure answers of a
// scripted session, all in one input.
func TestProtocol(t *testing.T) {
	es := agenttest.RunEngines(t)
	e := newEngine(t, es, 6)
	script := strings.Join([]string{
		"protocol_version",
		"1 name",
		"2 version",
		"# a comment line",
		"",
		"   ",
		"3 known_command genmove",
		"4 known_command fly",
		"5\tboardsize\t7   # the 7x7 model",
		"boardsize 6",
		"6 boardsize x",
		"7 boardsize 12",
		"8 fly",
		"9 play b",
		"10 play purple d4",
		"11 play w d4",
		"12 play b d4-d6",
		"13 play b z9",
		"14 play b pass",
		"15 genmove w",
		"16 undo",
		"17 play b d4",
		"18 undo",
		"19 undo",
		"20 clear_board extra",
		"21 konane-solve",
		"22",
		"23 play\x01 b\x7f c3",
		"24 konane-eval",
		"quit",
		"protocol_version", // after quit: never answered
	}, "\n")
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"= 2",
		"=1 konane",
		"=2 test",
		"=3 true",
		"=4 false",
		"=5",
		"=",
		`?6 boardsize "x" is not a number`,
		"?7 unacceptable size: no model for 12x12 (there is one for 4x4, 5x5, 6x6, 7x7, 8x8 and 9x8, 11x8, 15x12; above 8x8 a network plays only the boards its model was trained on)",
		"?8 unknown command",
		"?9 play takes 2 arguments, got 1",
		`?10 invalid color "purple": want black, b, white or w`,
		"?11 illegal move: it is black's turn, not white's (Kōnane has no passes)",
		`?12 move "d4-d6": illegal move: black must first remove a stone (write its square, like d4)`,
		`?13 move "z9": square "z9" is off the 6x6 board`,
		"?14 illegal move: Kōnane has no pass",
		"?15 it is black's turn, not white's (Kōnane has no passes)",
		"?16 cannot undo: no move has been played",
		"=17",
		"=18",
		"?19 cannot undo: no move has been played",
		"?20 clear_board takes no arguments",
		"?21 position too large to solve: 36 stones on 6x6 (at most 24 above 5x5; 4x4 and 5x5 always)",
		"?22 missing command name after the id",
		"=23",
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	if len(answers) != len(want)+2 {
		t.Fatalf("%d answers, want %d:\n%s", len(answers), len(want)+2, out.String())
	}
	for i, w := range want {
		if answers[i] != w {
			t.Errorf("answer %d = %q, want %q", i+1, answers[i], w)
		}
	}
	// konane-eval: the side to move, a probability and a legal line.
	f := strings.Fields(answers[len(want)])
	if len(f) < 3 || f[0] != "=24" || f[1] != "white" {
		t.Fatalf("konane-eval answered %q", answers[len(want)])
	}
	var prob float64
	if _, err := fmt.Sscanf(f[2], "%g", &prob); err != nil || prob < 0 || prob > 1 {
		t.Errorf("konane-eval probability %q", f[2])
	}
	p := rules.NewPosition(6).Play(rules.Move{From: rules.SquareAt(2, 2), To: rules.SquareAt(2, 2)})
	for _, text := range f[3:] {
		m, err := rules.ParseMove(p, text)
		if err != nil {
			t.Fatalf("konane-eval line %v: %v", f[3:], err)
		}
		p = p.Play(m)
	}
	if answers[len(want)+1] != "=" {
		t.Errorf("quit answered %q", answers[len(want)+1])
	}
}

func TestListCommands(t *testing.T) {
	es := agenttest.RunEngines(t)
	var out strings.Builder
	e := newEngine(t, es, 6)
	if err := e.Serve(context.Background(), strings.NewReader("list_commands\n"), &out); err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(strings.TrimPrefix(out.String(), "="))
	required := []string{"protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
		"clear_board", "play", "genmove", "undo", "showboard", "quit", "konane-legal_moves", "konane-solve"}
	for _, r := range required {
		found := false
		for _, g := range got {
			found = found || g == r
		}
		if !found {
			t.Errorf("list_commands lacks %s: %v", r, got)
		}
	}
	for _, g := range got {
		if lookup(g) == nil {
			t.Errorf("list_commands lists %s, which is unknown", g)
		}
	}
}

// TestSolve: on a 4x4 game, konane-solve names exactly the winning moves
// of the side to move, as the solver finds them, at every position of a
// game.
func TestSolve(t *testing.T) {
	es, err := agent.NewEngines(agenttest.TinyModel(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, es, 4)
	s := startSession(t, e)
	ref := solver.New(solver.WithTableEntries(1 << 16))
	p := rules.NewPosition(4)
	for {
		answer := s.ask("konane-solve", '=')
		results, err := ref.Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		var wins []rules.Move
		for _, r := range results {
			if r.Wins {
				wins = append(wins, r.Move)
			}
		}
		want := "= " + p.Turn.String() + " loses"
		if len(wins) > 0 {
			want = "= " + p.Turn.String() + " wins: " + rules.MovesText(wins)
		}
		if answer != want {
			t.Fatalf("konane-solve in\n%s answered %q, want %q", p, answer, want)
		}
		if !p.HasMoves() {
			break
		}
		next := p.LegalMoves(nil)[0]
		s.ask(fmt.Sprintf("play %s %s", p.Turn, next), '=')
		p = p.Play(next)
	}
	s.in.Close()
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

func TestNewErrors(t *testing.T) {
	es := agenttest.RunEngines(t)
	only6, err := agent.NewEngines(agenttest.TinyModel(t, 6))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Engines: only6, Limits: player.Limits{Sims: 8}, Size: 7}); err == nil || !strings.Contains(err.Error(), "no model for 7x7 (there is one for 6x6)") {
		t.Errorf("size without a model: %v", err)
	}
	if _, err := New(Config{Engines: es}); err == nil {
		t.Error("no strength: no error")
	}
	if _, err := New(Config{Limits: player.Limits{Sims: 8}}); err == nil {
		t.Error("no engines: no error")
	}
	e, err := New(Config{Engines: es, Limits: player.Limits{Sims: 8}})
	if err != nil || e.engine.Size() != 8 {
		t.Errorf("default size: %v", err)
	}
}

func TestLongLine(t *testing.T) {
	es := agenttest.RunEngines(t)
	e := newEngine(t, es, 6)
	var out strings.Builder
	input := "1 name " + strings.Repeat("x", 3*maxLine) + "\n2 name\n" +
		strings.Repeat("x", 3*maxLine) + "\n" + // no id
		"\t 3\tplay " + strings.Repeat("b", 3*maxLine) + "\n" + // id after blanks
		strings.Repeat(" ", maxLine-2) + "45" + strings.Repeat("6", maxLine) + " name\n" + // the id is cut: none
		"7 name\n"
	if err := e.Serve(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	long := fmt.Sprintf(" command longer than %d bytes\n\n", maxLine)
	want := "?1" + long + "=2 konane\n\n?" + long + "?3" + long + "?" + long + "=7 konane\n\n"
	if out.String() != want {
		t.Errorf("answers %q, want %q", out.String(), want)
	}
}

// TestServeStopsWithContext: Serve returns when its context ends, even
// while the input blocks.
func TestServeStopsWithContext(t *testing.T) {
	es := agenttest.RunEngines(t)
	e := newEngine(t, es, 6)
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, inR, io.Discard) }()
	cancel()
	testwait.Returned(t, done, 10*time.Second, "Serve did not return after its context ended")
}

// TestQuitEndsReader: after quit, the goroutine reading the commands
// ends too, although input follows.
func TestQuitEndsReader(t *testing.T) {
	es, err := agent.NewEngines(agenttest.TinyModel(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, es, 4)
	before := runtime.NumGoroutine()
	if err := e.Serve(context.Background(), strings.NewReader("quit\nname\nname\n"), io.Discard); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after quit, %d before Serve", runtime.NumGoroutine(), before)
		}
	}
}

// TestShortErrors: an answer quotes at most rules.MaxQuote bytes of the
// offending argument.
func TestShortErrors(t *testing.T) {
	es := agenttest.RunEngines(t)
	e := newEngine(t, es, 6)
	s := startSession(t, e)
	defer s.in.Close()
	long := strings.Repeat("z", 2000)
	for _, cmd := range []string{"boardsize " + long, "play " + long + " d4", "play b " + long} {
		if a := s.ask(cmd, '?'); len(a) > 300 {
			t.Errorf("%.20s…: answer of %d bytes", cmd, len(a))
		}
	}
}

// TestInterruptedGenmove: a genmove cut short by the end of the context
// (SIGINT) answers "interrupted", not the evaluator's error (issue 47).
func TestInterruptedGenmove(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, err := New(Config{Engines: es, Limits: player.Limits{Time: time.Minute}, Size: 6, Seed: 1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, inR, &out) }()
	io.WriteString(inW, "7 genmove b\n")
	time.Sleep(300 * time.Millisecond) // genmove is searching
	cancel()
	testwait.Returned(t, done, 30*time.Second, "Serve did not return after its context ended")
	if got := out.String(); got != "?7 interrupted\n\n" {
		t.Fatalf("answer %q, want %q", got, "?7 interrupted\n\n")
	}
}

// TestClassicalBoards: with a classical time per move, boardsize and
// KataGo's rectangular_boardsize take the boards without a network
// (boards no shipped network plays: 8x7, 9x9, 13x12, 16x16), which the
// classical engine plays: genmove answers legal moves to the end of a
// 10x9 game, showboard draws
// ranks above 9, and konane-eval and konane-solve say what they cannot do
// there. Without the time those boards are refused in one line.
func TestClassicalBoards(t *testing.T) {
	es := agenttest.RunEngines(t)
	e, err := New(Config{Engines: es, Limits: player.Limits{Sims: 8}, Size: 6, Seed: 1, Version: "test", PVSTime: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s := startSession(t, e)
	s.ask("rectangular_boardsize 13 12", '=')
	b, _ := rules.ParseBoard("13x12")
	g, _ := rules.NewWideGame(b)
	if got := s.ask("showboard", '='); got != "=\n"+strings.TrimSuffix(g.Draw(), "\n") || !strings.Contains(got, "\n12 o x o") {
		t.Errorf("showboard on 13x12:\n%s", got)
	}
	if got := s.ask("konane-legal_moves", '='); got != "= e7-g7 g9-g7 i7-g7" {
		t.Errorf("legal moves on 13x12: %q", got)
	}
	s.ask("play b e7-g7", '=')
	if got := s.ask("play b h9-h7", '?'); got != "? illegal move: it is white's turn, not black's (Kōnane has no passes)" {
		t.Errorf("play out of turn: %q", got)
	}
	g.PlayText("e7-g7")
	answer := strings.TrimPrefix(s.ask("genmove w", '='), "= ")
	if _, err := g.PlayText(answer); err != nil {
		t.Fatalf("genmove w on 13x12: %q: %v", answer, err)
	}
	if got := s.ask("play b h12-h10", '?'); !strings.HasPrefix(got, `? move "h12-h10": illegal move: black has no jump from h12 to h10`) {
		t.Errorf("an illegal move: %q", got)
	}
	if got := s.ask("konane-eval", '?'); got != "? no win probability: on 13x12 the classical engine plays, which gives none" {
		t.Errorf("eval: %q", got)
	}
	if got := s.ask("konane-solve", '?'); got != "? position too large to solve: the solver holds boards of at most 8x8, not 13x12" {
		t.Errorf("solve: %q", got)
	}
	s.ask("undo", '=')
	s.ask("undo", '=')
	s.ask("undo", '?')
	for _, c := range []struct{ cmd, want string }{
		{"boardsize 17", "? unacceptable size: 17 is outside 4..16"},
		{"rectangular_boardsize 17 4", "? unacceptable size: 17 files: want 4..16"},
		{"rectangular_boardsize 9 x", `? rectangular_boardsize "x" is not a number`},
		{"rectangular_boardsize 9", "? rectangular_boardsize takes 2 arguments, got 1"},
	} {
		if got := s.ask(c.cmd, '?'); got != c.want {
			t.Errorf("%s: %q, want %q", c.cmd, got, c.want)
		}
	}
	for _, c := range []struct{ cmd, board string }{{"boardsize 16", "16"}, {"boardsize 9", "9"}, {"rectangular_boardsize 8 7", "8x7"}} {
		s.ask(c.cmd, '=')
		b, _ := rules.ParseBoard(c.board)
		g, _ := rules.NewWideGame(b)
		answer := strings.TrimPrefix(s.ask("genmove b", '='), "= ")
		if _, err := g.PlayString(answer); err != nil {
			t.Errorf("%s: genmove b %q: %v", c.cmd, answer, err)
		}
		if got := s.ask("showboard", '='); got != "=\n"+strings.TrimSuffix(g.Draw(), "\n") {
			t.Errorf("%s: showboard\n%s\nwant\n%s", c.cmd, got, g.Draw())
		}
	}
	// A whole game on 10x9 (the gap start).
	s.ask("rectangular_boardsize 10 9", '=')
	b, _ = rules.ParseBoard("10x9")
	g, _ = rules.NewWideGame(b)
	for !g.Over() {
		color := g.Turn().String()
		answer := strings.TrimPrefix(s.ask("genmove "+color, '='), "= ")
		if _, err := g.PlayString(answer); err != nil {
			t.Fatalf("genmove %s at move %d: %q: %v", color, g.Len()+1, answer, err)
		}
	}
	loser := g.Turn().String()
	if got := s.ask("genmove "+loser, '?'); got != "? no legal move: "+loser+" has lost" {
		t.Errorf("genmove at the end of 10x9: %q", got)
	}
	s.ask("quit", '=')

	if _, err := New(Config{Engines: es, Limits: player.Limits{Sims: 8}, Board: rules.Board{W: 10, H: 9, Start: rules.Gap}}); err == nil || err.Error() != "gtp: no model for 10x9 (there is one for 4x4, 5x5, 6x6, 7x7, 8x8 and 9x8, 11x8, 15x12; above 8x8 a network plays only the boards its model was trained on)" {
		t.Errorf("10x9 without a classical time: %v", err)
	}
}
