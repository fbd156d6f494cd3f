package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/konanezero/konane/agent/agenttest"

	"github.com/konanezero/konane/rules"
)

// console drives a command through pipes, like a person at a terminal:
// it writes lines to the command's input and reads its output up to the
// next prompt.
type console struct {
	t      *testing.T
	in     *io.PipeWriter
	out    *io.PipeReader
	buf    []byte
	all    bytes.Buffer // the whole transcript
	done   chan error
	prompt string // what every prompt ends with
}

func startConsole(t *testing.T, prompt string, args ...string) *console {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &console{t: t, in: inW, out: outR, done: make(chan error, 1), prompt: prompt}
	go func() {
		var stderr bytes.Buffer
		err := run(context.Background(), args, inR, outW, &stderr)
		outW.Close()
		inR.Close()
		c.done <- err
	}()
	return c
}

// next reads the output up to and including the next prompt and returns
// it; it fails the test when the output ends first.
func (c *console) next() string {
	c.t.Helper()
	chunk := make([]byte, 4096)
	for {
		if i := bytes.Index(c.buf, []byte(c.prompt)); i >= 0 {
			text := string(c.buf[:i+len(c.prompt)])
			c.buf = c.buf[i+len(c.prompt):]
			return text
		}
		n, err := c.out.Read(chunk)
		c.buf = append(c.buf, chunk[:n]...)
		c.all.Write(chunk[:n])
		if err != nil {
			c.t.Fatalf("output ended without a prompt (%v); transcript:\n%s", err, c.all.String())
		}
	}
}

// send writes one line of input and returns the output up to the next
// prompt.
func (c *console) send(line string) string {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing %q: %v", line, err)
	}
	return c.next()
}

// finish closes the input and waits for the command to end.
func (c *console) finish() error {
	c.in.Close()
	rest, _ := io.ReadAll(c.out)
	c.all.Write(rest)
	select {
	case err := <-c.done:
		return err
	case <-time.After(30 * time.Second):
		c.t.Fatal("the command did not end after its input closed")
		return nil
	}
}

var movesLine = regexp.MustCompile(`legal moves \((\d+)\): (.*)\n`)

// playScripted plays a whole game in which the human always plays the
// first of the moves listed by "moves"; it returns the transcript and the
// human's moves.
func playScripted(t *testing.T, args ...string) (string, []string, *rules.Record) {
	t.Helper()
	c := startConsole(t, "> ", append([]string{"play"}, args...)...)
	out := c.next()
	if !strings.Contains(out, "New game on 6x6") {
		t.Fatalf("no greeting:\n%s", out)
	}
	var mine []string
	for !strings.Contains(out, "Game over") {
		if len(mine) > 40 {
			t.Fatalf("the game does not end:\n%s", c.all.String())
		}
		list := c.send("moves")
		m := movesLine.FindStringSubmatch(list)
		if m == nil {
			t.Fatalf("moves answered %q", list)
		}
		first := strings.Fields(m[2])[0]
		mine = append(mine, first)
		out = c.send(first)
		if !strings.Contains(out, "You ") || !strings.Contains(out, "play "+first) {
			t.Fatalf("move %s answered:\n%s", first, out)
		}
	}
	path := filepath.Join(t.TempDir(), "game.txt")
	if out := c.send("save " + path); !strings.Contains(out, "saved the game") {
		t.Fatalf("save answered %q", out)
	}
	if out := c.send("moves"); !strings.Contains(out, "no legal moves: the game is over") {
		t.Errorf("moves after the end answered %q", out)
	}
	io.WriteString(c.in, "quit\n")
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
	rec, err := rules.ReadRecordFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c.all.String(), mine, rec
}

// TestPlayWholeGame: a scripted human plays whole games through the pipe
// against the shipped 6x6 model, as Black and as White; the board is drawn
// with coordinates and the last move marked, the winner is announced, and
// the saved record is the game that was played.
func TestPlayWholeGame(t *testing.T) {
	for _, color := range []string{"black", "white"} {
		t.Run(color, func(t *testing.T) {
			transcript, mine, rec := playScripted(t, "--size", "6", "--sims", "8", "--color", color)
			if !strings.Contains(transcript, "  a b c d e f\n") || !strings.Contains(transcript, "6 ") {
				t.Errorf("no board with coordinates in the transcript:\n%s", transcript)
			}
			if !strings.Contains(transcript, "[") {
				t.Error("the last move is never marked")
			}
			final, err := rec.Final()
			if err != nil {
				t.Fatal(err)
			}
			if final.HasMoves() {
				t.Fatalf("the saved game is not over:\n%s", final)
			}
			winner, ok := rec.Winner()
			if !ok || winner != final.Turn.Other() {
				t.Fatalf("record result %q for a game %s won", rec.Tag("Result"), final.Turn.Other())
			}
			want := "Game over: " + final.Turn.String() + " has no legal move. " + winner.String() + " wins: "
			if !strings.Contains(transcript, want) {
				t.Errorf("transcript lacks %q:\n%s", want, transcript)
			}
			human := rules.Black
			if color == "white" {
				human = rules.White
			}
			if (winner == human) != strings.Contains(transcript, "you win!") {
				t.Errorf("winner %v, human %v, but the announcement says otherwise:\n%s", winner, human, transcript)
			}
			// The human's moves in the record are those the script chose.
			var got []string
			for i, m := range rec.Moves {
				if rules.Color(i%2) == human {
					got = append(got, m.String())
				}
			}
			if strings.Join(got, " ") != strings.Join(mine, " ") {
				t.Errorf("the record's human moves %v, the script played %v", got, mine)
			}
			if rec.Tag(map[rules.Color]string{rules.Black: "Black", rules.White: "White"}[human]) != "you" {
				t.Errorf("record tags %v", rec.Tags)
			}
			if _, err := time.Parse("2006.01.02", rec.Tag("Date")); err != nil {
				t.Errorf("record Date tag %q: %v", rec.Tag("Date"), err)
			}
		})
	}
}

// TestPlayDeterministic: the same seed and the same input give the same
// transcript, colour drawn at random included.
func TestPlayDeterministic(t *testing.T) {
	a, _, _ := playScripted(t, "--size", "6", "--sims", "8", "--color", "random", "--seed", "5")
	b, _, _ := playScripted(t, "--size", "6", "--sims", "8", "--color", "random", "--seed", "5")
	// The saved file names differ (temporary folders); drop those lines.
	clean := func(s string) string { return regexp.MustCompile(`saved the game.*`).ReplaceAllString(s, "") }
	if clean(a) != clean(b) {
		t.Errorf("two runs with seed 5 differ:\n%s\n----\n%s", a, b)
	}
}

// TestPlayBadInput: bad moves and commands get their reason and the prompt
// again; the commands that need no game in progress work; a piped script
// ends at the end of its input.
func TestPlayBadInput(t *testing.T) {
	script := []string{
		"xyzzy",                            // unknown command
		"z9",                               // off the board
		"b1",                               // not Black's stone
		"c1",                               // not a corner or centre
		"a1-a3",                            // a jump during the removals
		"d4 e4",                            // two moves
		"save",                             // no file
		"moves extra",                      // an argument too many
		"undo",                             // nothing to undo
		"",                                 // ignored
		"help",                             //
		"d4",                               // a good move: the computer replies
		"d4",                               // the removals are over
		"undo",                             // takes back d4 and the reply
		"eval",                             //
		"hint",                             //
		"board",                            //
		"save /nonexistent-dir/x/game.txt", // cannot write
	}
	text := playLines(t, script)
	wantOutput(t, "", text,
		"(level 4, easy: 16 simulations per move)",
		"unknown command \"xyzzy\": type a move like d4 or f4-d4, or help for the commands\nblack> ",
		"move \"z9\": square \"z9\" is off the 6x6 board\nblack> ",
		"move \"b1\": illegal move: Black must remove one of its own stones\nblack> ",
		"move \"c1\": illegal move: Black's removal must be from a corner or a central square\nblack> ",
		"move \"a1-a3\": illegal move: black must first remove a stone (write its square, like d4)\nblack> ",
		"one move at a time, please (got \"d4 e4\")\nblack> ",
		"save needs one file name",
		"moves takes no argument (got \"extra\")\nblack> ",
		"nothing to undo: you have not moved yet\nblack> ",
		"  moves        list your legal moves\n",
		"You (black) play d4.\nThe computer (white) plays ",
		"move \"d4\": illegal move: the removals are over; a jump is written origin-landing, like f4-d4\nblack> ",
		"took back d4 ",
		"evaluation: your (black) win probability is ",
		"expected line: ",
		"hint: ",
		"could not save: ",
	)
	if strings.Count(text, "black> ") != len(script)+1 {
		t.Errorf("%d prompts for %d input lines:\n%s", strings.Count(text, "black> "), len(script), text)
	}
	// After the undo the board is the start again.
	undo := text[strings.Index(text, "took back"):]
	start := strings.TrimSuffix(rules.Render(rules.NewPosition(6), rules.NoMove), "black to move\n")
	if !strings.Contains(undo, start+"x black, o white. black (you) to move.\n") {
		t.Errorf("the board after undo is not the start:\n%s", undo)
	}
}

func TestPlayFlagErrors(t *testing.T) {
	six := agenttest.TinyModelFile(t, 6)
	checkErrors(t, []errCase{
		{[]string{"play", "--model", six, "--size", "7"}, "it plays 6x6, not 7x7"},
		{[]string{"play", "--size", "17"}, "--size 17: 17x17 is outside the boards 4x4..16x16"},
		{[]string{"play", "--color", "green"}, `--color "green": want black, white or random`},
		{[]string{"play", "--level", "silly"}, `unknown level "silly"`},
		{[]string{"play", "--sims", "-3"}, "--sims -3"},
		{[]string{"play", "--sims", "2000000"}, "play: --sims 2000000: want 1.."},
		{[]string{"play", "--level", "easy", "--time", "11m"}, "play: --time 11m0s: want a positive duration up to 10m0s"},
		{[]string{"play", "--time", "-1s"}, "--time -1s"},
		{[]string{"play", "extra"}, `unexpected argument "extra"`},
		{[]string{"play", "--model", "/nonexistent.safetensors"}, "nonexistent.safetensors"},
	})
}

// playLines plays a 6x6 game at level easy with the lines of script as
// input and returns the output.
func playLines(t *testing.T, script []string) string {
	t.Helper()
	var in bytes.Buffer
	for _, l := range script {
		in.WriteString(l + "\n")
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"play", "--size", "6", "--level", "easy"}, &in, &out, &errb); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestPlayCommands: the board says which stones are whose; level, rules
// and resign work, resign only once confirmed; hint, eval and the line
// after the computer's move speak of the player's chances; after a
// resignation the status line and the saved record agree; the prose is
// broken between words to fit 80 columns and says nothing of "the
// solver".
func TestPlayCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	script := []string{"level", "level silly", "level medium", "level easy", "rules", "d4", "hint", "eval",
		"resign", "board", "resign", "yes", "resign", "d5", "save " + path}
	text := playLines(t, script)
	flat := strings.Join(strings.Fields(text), " ")
	wantOutput(t, "", text,
		"Resign this game? Type yes to give it up; anything else plays on.\nblack> not resigned: the game goes on\n",
		"Your win probability: ",
		"x black, o white. black (you) to move.\nblack> ",
		"the computer plays at level 4, easy: 16 simulations per move",
		"unknown level \"silly\": want 1..8 or a name: newcomer, beginner, casual, easy,\nsteady, medium, hard, max\n",
		"the computer now plays at level 6, medium: 512 simulations",
		"the computer now plays at level 4, easy: 16 simulations",
		"Looks a few moves ahead and rarely blunders",
		"Whoever has no jump on their turn loses.",
		"x black, o white. black (you) to move.\n",
		"You (black) resign.\n",
		"x black, o white. Game over: you (black) resigned. white wins: the computer wins.\n",
		"the game is already over",
		"the game is over: type new for another game",
		"game over> ",
	)
	// At level easy the evaluation searches as medium does.
	n := 0
	if m := regexp.MustCompile(`\((\d+) simulations\)`).FindStringSubmatch(flat); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	if n < 512 {
		t.Errorf("eval at level easy searched %d simulations, want at least 512", n)
	}
	if strings.Count(text, "You (black) resign.") != 1 {
		t.Errorf("resigned %d times, want once (after yes):\n%s", strings.Count(text, "You (black) resign."), text)
	}
	for _, wrong := range []string{"solver", "Its win probability"} {
		if strings.Contains(text, wrong) {
			t.Errorf("output has %q", wrong)
		}
	}
	prompt := regexp.MustCompile(`^((black|white|game over)> )+`)
	for _, line := range strings.Split(text, "\n") {
		if line = prompt.ReplaceAllString(line, ""); utf8.RuneCountInString(line) > 80 {
			t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(line), line)
		}
	}
	// hint and eval give the same side's win probability.
	hint := regexp.MustCompile(`hint: \S+ \(your win probability: (\d+)%\)`).FindStringSubmatch(text)
	eval := regexp.MustCompile(`evaluation: your \(black\) win probability is (\d+)%`).FindStringSubmatch(flat)
	if hint == nil || eval == nil {
		t.Fatalf("no hint or eval:\n%s", text)
	}
	if d := atoi(t, hint[1]) - atoi(t, eval[1]); d > 15 || d < -15 {
		t.Errorf("hint says %s%%, eval %s%%: not the same side's view", hint[1], eval[1])
	}
	if strings.Contains(text, "to move\nGame over") {
		t.Errorf("a \"to move\" line above the game over:\n%s", text)
	}
	rec, err := rules.ReadRecordFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Tag("Result") != rules.ResultFor(rules.White) {
		t.Errorf("record result %q after black resigned", rec.Tag("Result"))
	}
}

// TestPlayGameOverLine: at the end of a game the line under the board
// says who has no move, never that the loser is "to move".
func TestPlayGameOverLine(t *testing.T) {
	transcript, _, _ := playScripted(t, "--size", "6", "--sims", "8")
	if regexp.MustCompile(`(black|white) to move\n(Game over|x black, o white. Game over)`).MatchString(transcript) {
		t.Errorf("a status line contradicts the game over:\n%s", transcript)
	}
	if !regexp.MustCompile(`x black, o white. Game over: (black|white) has no legal move`).MatchString(transcript) {
		t.Errorf("no game-over status line under the final board:\n%s", transcript)
	}
}

// TestWrapWords: lists of moves break between moves, never inside one.
func TestWrapWords(t *testing.T) {
	var words []string
	for i := 0; i < 40; i++ {
		words = append(words, "b12-b10")
	}
	got := wrapWords("legal moves (40): ", words, 30, 2)
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(l) > 30 {
			t.Errorf("line %q longer than 30", l)
		}
		for _, f := range strings.Fields(strings.TrimPrefix(l, "legal moves (40): ")) {
			if f != "b12-b10" {
				t.Errorf("a move broken: %q in %q", f, l)
			}
		}
	}
	if strings.Count(got, "b12-b10") != 40 {
		t.Errorf("moves lost:\n%s", got)
	}
	if got := wrapWords("took back ", []string{"d4", "e4"}, 80, 2); got != "took back d4 e4\n" {
		t.Errorf("short list %q", got)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestLevelAbout: the terminal's words for a level say where it plays
// perfectly: on 4x4 and 5x5 hard and max (the solver's board, nothing
// said of the network's play there), on 6x6 from steady up from early in
// the game, nowhere on 8x8; nothing for a weak level on 4x4 or on 7x6;
// above 8x8 (no endgame solver) no word of playing the endgame perfectly.
func TestLevelAbout(t *testing.T) {
	sq := rules.SquareBoard
	for _, tc := range []struct {
		level string
		board rules.Board
		model bool
		want  []string // all said; none: nothing said
		not   string
	}{
		{"hard", sq(4), false, []string{"On 4×4 it plays perfectly: it works out every move"}, "a second"},
		{"max", sq(5), false, []string{"On 5×5 it plays perfectly"}, "seconds a move"},
		{"newcomer", sq(4), false, nil, ""},
		{"steady", sq(6), true, []string{"A steady player", "On 6×6 it plays perfectly from early in the game, as every level from steady up does"}, ""},
		{"medium", sq(6), true, []string{"Strong", "On 6×6 it plays perfectly from early"}, ""},
		{"easy", sq(6), true, []string{"Looks a few moves ahead"}, "perfectly"},
		{"max", sq(8), true, []string{"about four seconds a move."}, "perfectly"},
		{"max", rules.Board{W: 7, H: 6, Start: rules.Gap}, false, nil, ""},
		{"steady", rules.Board{W: 9, H: 8, Start: rules.Gap}, true, []string{"A steady player: it looks further ahead and beats"}, "perfectly"},
		{"medium", rules.Board{W: 15, H: 12, Start: rules.Gap}, true, []string{"Strong: the default level."}, "perfectly"},
	} {
		got := levelAbout(tc.level, tc.board, tc.model)
		if len(tc.want) == 0 && got != "" {
			t.Errorf("%s on %v: %q, want nothing", tc.level, tc.board, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s on %v: %q, want it to say %q", tc.level, tc.board, got, w)
			}
		}
		if tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("%s on %v: %q, want it not to say %q", tc.level, tc.board, got, tc.not)
		}
	}
}
