package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// TestPlayRectangle: play --board 8x7, a rectangle no shipped network
// plays, plays it with the classical engine and says so, draws the
// rectangle, answers hint and eval, and saves a record with [Board
// "8x7"] [Start "gap"] that reads back as the game played; on
// AbstractPlay's 7x6 (size-7) the shipped network plays.
func TestPlayRectangle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	out := playBoard(t, "moves\nhint\neval\nlevel easy\nd6-d4\nsave "+path+"\nquit\n", "--board", "8x7", "--time", "20ms")
	wantOutput(t, "", out,
		"New game on 8x7, two centre stones gone: you play black, the computer white (the classical engine, 20ms per move, 5% of its moves at random).",
		"On 8x7 the computer plays the classical engine (no network for this board yet).",
		"7 x o x o x o x o\n6 o x o x o x o x\n5 x o x o x o x o\n4 o x o . . x o x\n",
		"legal moves (3): d2-d4 b4-d4 d6-d4",
		"(the classical engine's choice; it gives no win probability)",
		"no evaluation: on 8x7 the computer plays the classical engine, which gives no win probability",
		"the computer now plays at level 4, easy: the classical engine, 50ms per move, 15% of its moves at random",
		"You (black) play d6-d4.\nThe computer (white) plays ",
		"saved the game (2 moves)",
	)
	r := savedRecord(t, path, "8x7")
	if want := (rules.Board{W: 8, H: 7, Start: rules.Gap}); r.Board() != want || len(r.Moves) != 2 || r.Moves[0].String() != "d6-d4" {
		t.Errorf("record board %v moves %v", r.Board(), r.Moves)
	}
	shippedOrClassical(t, "size-7", true)
	out = playBoard(t, "quit\n", "--board", "7x6/removal", "--level", "newcomer")
	wantOutput(t, "7x6/removal", out,
		"New game on 7x6/removal: you play black",
		"On 7x6/removal the computer plays the classical engine (no network for this board yet).",
	)
}

// shippedOrClassical checks that play --board name is played by a
// shipped network, with a win probability, when network is set (today's
// table: written out by the callers), else by the classical engine.
func shippedOrClassical(t *testing.T, name string, network bool) {
	t.Helper()
	out := playBoard(t, "eval\nquit\n", "--board", name, "--level", "newcomer")
	if got := !strings.Contains(out, "classical engine"); got != network || network && !strings.Contains(out, "win probability is ") {
		t.Errorf("%s: want the shipped network to play it %v, but the output is:\n%s", name, network, out)
	}
}

// TestPlayMultiBoardRectangle: play --board 8x7 --model with a
// multi-board model file plays the rectangle with the network, saying in
// one line that it was not trained there; a single-board model file
// cannot play it (one line).
func TestPlayMultiBoardRectangle(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap})
	out := playBoard(t, "moves\nquit\n", "--board", "8x7", "--model", path, "--sims", "4", "--color", "white")
	wantOutput(t, "", out, "note: the network was not trained on 8x7 (it was on 6x6,7x6)", "New game on 8x7", "The computer (black) plays ")
	if strings.Contains(strings.Join(strings.Fields(out), " "), "classical engine") {
		t.Errorf("the classical engine played:\n%s", out)
	}
	if out := playBoard(t, "quit\n", "--board", "size-7", "--model", path, "--sims", "4"); strings.Contains(out, "note:") {
		t.Errorf("7x6, trained there:\n%s", out)
	}
	var errb bytes.Buffer
	err := run(context.Background(), []string{"play", "--board", "7x6", "--model", agenttest.TinyModelFile(t, 6)}, strings.NewReader(""), &errb, &errb)
	if err == nil || !strings.Contains(err.Error(), "cannot play 7x6") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a single-board model on 7x6: %v", err)
	}
}

// TestPlayWide: play --board 13x12, a board above 8x8 no shipped
// network plays, plays it with the classical engine and says so, draws
// the board with ranks up to 12 and files to m, takes moves, undo and
// hint, and saves a record with [Board "13x12"] that reads back as the
// game played; on 16x16 with the computer as Black, the computer makes
// the first removal; on AbstractPlay's 9x8, 11x8 and 15x12 a shipped
// network plays where the table of shipped networks says so.
func TestPlayWide(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	out := playBoard(t, "moves\nhint\ne7-g7\nundo\nh12-h10\ne7-g7\nsave "+path+"\nquit\n", "--board", "13x12", "--time", "20ms")
	wantOutput(t, "", out,
		"New game on 13x12, two centre stones gone: you play black, the computer white (the classical engine, 20ms per move, 5% of its moves at random).",
		"On 13x12 the computer plays the classical engine (no network for this board yet).",
		"12 o x o x o x o x o x o x o\n11 x o x o x o x o x o x o x\n",
		" 7 x o x o x o . o x o x o x\n 6 o x o x o x . x o x o x o\n",
		"   a b c d e f g h i j k l m\n",
		"legal moves (3): e7-g7 g9-g7 i7-g7",
		"(the classical engine's choice; it gives no win probability)",
		"You (black) play e7-g7.\nThe computer (white) plays ",
		"took back e7-g7 ",
		`move "h12-h10": illegal move: black has no jump from h12 to h10`,
		"saved the game (2 moves)",
	)
	r := savedRecord(t, path, "13x12")
	if want := (rules.Board{W: 13, H: 12, Start: rules.Gap}); r.Board() != want || len(r.Wide) != 2 || r.Wide[0].String() != "e7-g7" {
		t.Errorf("record board %v moves %v", r.Board(), r.MoveStrings())
	}
	for _, name := range []string{"size-9", "size-11", "size-15"} {
		shippedOrClassical(t, name, true)
	}
	if _, err := r.WideGame(); err != nil {
		t.Errorf("the record as a game: %v", err)
	}

	out = playBoard(t, "moves\nquit\n", "--board", "16x16", "--color", "white", "--level", "easy")
	wantOutput(t, "16x16: ", out,
		"you play white, the computer black (level 4, easy: the classical engine, ",
		"On 16x16 the computer plays the classical engine",
		"The computer (black) plays ",
		"16 o x o x o x o x o x o x o x o",
		"   a b c d e f g h i j k l m n o p\n",
		"legal moves (",
	)
}

// TestPlayWideModel: play --board 15x12 --model with a multi-board model
// trained there plays the network (a win probability, hint and eval; the
// coach says it does not work there); on 11x8, where the model was not
// trained, the classical engine plays, after one line saying why.
func TestPlayWideModel(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(8), rules.Board{W: 9, H: 8, Start: rules.Gap},
		rules.Board{W: 15, H: 12, Start: rules.Gap})
	out := playBoard(t, "moves\nhint\neval\ncoach on\nquit\n", "--board", "15x12", "--model", path, "--sims", "4", "--color", "white")
	wantOutput(t, "15x12: ", out,
		"New game on 15x12, two centre stones gone: you play white, the computer black (4 simulations per move).",
		"The computer (black) plays ",
		". Your win probability: ",
		"legal moves (",
		"hint: ",
		"evaluation: your (white) win probability is ",
		"the coach works on the boards up to 8x8, not on 15x12: it stays silent",
	)
	if strings.Contains(out, "classical engine") || strings.Contains(out, "note:") {
		t.Errorf("15x12, trained there:\n%s", out)
	}
	// 9x8 with the removals: the network of 9x8 (gap) plays it, and says
	// it was not trained on that start, as on the boards up to 8x8.
	out = playBoard(t, "quit\n", "--board", "9x8/removal", "--model", path, "--sims", "4", "--color", "white")
	wantOutput(t, "9x8/removal: ", out, "note: ", "not trained on 9x8/removal")
	out = playBoard(t, "quit\n", "--board", "11x8", "--model", path, "--level", "easy", "--color", "white")
	wantOutput(t, "11x8: ", out,
		"was not trained on 11x8 (it was on 8x8,9x8,15x12): a network plays a board above 8x8 only when trained there: the classical engine plays 11x8",
		"On 11x8 the computer plays the classical engine",
	)
}

// playBoard runs "konane play" with args and script as its input and
// returns its output; it fails t if play fails.
func playBoard(t *testing.T, script string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(script), &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	return out.String()
}

// wantOutput fails t (its message led by what) for each of wants that out
// lacks, white space folded (lines are wrapped to the width).
func wantOutput(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	text := flat(out)
	for _, want := range wants {
		if !strings.Contains(text, flat(want)) {
			t.Errorf("%soutput lacks %q:\n%s", what, want, out)
		}
	}
}

// savedRecord reads the record play saved at path, which must open with
// the board's tag, the gap start and play's event.
func savedRecord(t *testing.T, path, board string) *rules.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "[Board \""+board+"\"]\n[Start \"gap\"]\n[Event \"konane play\"]\n") {
		t.Errorf("record:\n%s", data)
	}
	r, err := rules.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPlayBoardErrors: the boards play cannot play, and the flags that do
// not go with the classical engine, are one line each.
func TestPlayBoardErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--board", "17x8"}, "play: --board 17x8: 17x8 is outside the boards 4x4..16x16"},
		{[]string{"--board", "13x12", "--sims", "100"}, "play: --sims: on this board the classical engine plays, which searches for a time: give --level or --time"},
		{[]string{"--board", "10", "--model", "m.safetensors"}, "play: agent: net: loading model: open m.safetensors"},
		{[]string{"--board", "3x6"}, `play: --board 3x6: 3x6 is outside the boards 4x4..16x16`},
		{[]string{"--board", "7x6/middle"}, `play: --board 7x6/middle: unknown start: want removal or gap after the slash`},
		{[]string{"--board", "6/gap"}, `play: --board 6/gap: the gap start needs exactly one of width and height odd`},
		{[]string{"--board", "8x7", "--sims", "100"}, "play: --sims: on this board the classical engine plays, which searches for a time: give --level or --time"},
		{[]string{"--board", "7x6", "--model", "m.safetensors"}, "play: agent: net: loading model: open m.safetensors"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"play"}, tc.args...), strings.NewReader(""), &out, &errb)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v; want %q", tc.args, err, tc.want)
		}
	}
}

// TestClassicalLevels: each level's time of the classical engine comes
// from agent's level table, and help play lists them.
func TestClassicalLevels(t *testing.T) {
	var times []string
	for _, l := range agent.Levels() {
		if l.PVSTime <= 0 {
			t.Errorf("level %s: classical time %v", l.Name, l.PVSTime)
		}
		times = append(times, l.Name+" "+l.PVSTime.String())
	}
	if got := classicalLevels(); got != strings.Join(times, ", ") {
		t.Errorf("classicalLevels %q", got)
	}
	var out bytes.Buffer
	run(context.Background(), []string{"help", "play"}, strings.NewReader(""), &out, &out)
	if help := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(help, classicalLevels()) {
		t.Errorf("help play lacks %q:\n%s", classicalLevels(), out.String())
	}
	for i, l := range agent.Levels()[1:] {
		if prev := agent.Levels()[i]; l.PVSTime <= prev.PVSTime {
			t.Errorf("level %s: classical time %v, not more than %s's %v", l.Name, l.PVSTime, prev.Name, prev.PVSTime)
		}
	}
}

// TestRecordsOfRectangles: solve reads a 6x5 record and solves its final
// position as it solves the moves given with --board; analyze reviews
// it (and one of 15x12) with the classical engine; a record against
// another --board is refused.
func TestRecordsOfRectangles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("[Board \"6x5\"]\n[Start \"gap\"]\n\n1. c1-c3 c4-c2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fromRecord, _, err := solveCmd(ctx, "--position", path)
	if err != nil {
		t.Fatal(err)
	}
	fromMoves, _, err := solveCmd(ctx, "--board", "6x5", "--position", "c1-c3 c4-c2")
	if err != nil {
		t.Fatal(err)
	}
	if fromRecord != fromMoves || !strings.HasPrefix(fromRecord, "black to move: ") {
		t.Errorf("record:\n%s\nmoves:\n%s", fromRecord, fromMoves)
	}
	if _, _, err := solveCmd(ctx, "--board", "6", "--position", path); err == nil || err.Error() != "solve: --position "+path+": the game is 6x5, not 6x6 as --board says" {
		t.Errorf("solve --board 6 with a 6x5 record: %v", err)
	}
	if out, _, err := analyzeCmd("--depth", "2", path); err != nil || !strings.HasPrefix(out, "6x5 game, gap start, reviewed by the classical engine") {
		t.Errorf("analyze of a 6x5 record: %v\n%s", err, out)
	}
	// A record of a board above 8x8 (as play saves it): refused in one
	// line by solve.
	wide := filepath.Join(t.TempDir(), "w.txt")
	if err := os.WriteFile(wide, []byte("[Board \"15x12\"]\n[Start \"gap\"]\n\n1. h4-h6 h9-h7 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := solveCmd(ctx, "--position", wide); err == nil || err.Error() != "solve: --position "+wide+": the game is on 15x12; the solver holds boards of at most 8x8" {
		t.Errorf("solve of a 15x12 record: %v", err)
	}
	if out, _, err := analyzeCmd("--depth", "2", wide); err != nil || !strings.HasPrefix(out, "15x12 game, gap start, reviewed by the classical engine") || !strings.Contains(out, "h4-h6") {
		t.Errorf("analyze of a 15x12 record: %v\n%s", err, out)
	}
}

// TestPlayLevelWordsWide: on a board above 8x8 a network plays (a
// multi-board model trained on 9x8), where the search has no endgame
// solver, the words of no level say it plays the endgame perfectly (nor
// contradict themselves); on 8x8 medium's words do.
func TestPlayLevelWordsWide(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(8), rules.Board{W: 9, H: 8, Start: rules.Gap})
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, tc := range []struct {
		board, level string
		said         bool
	}{{"9x8", "medium", false}, {"9x8", "steady", false}, {"9x8", "max", false}, {"8x8", "medium", true}} {
		out := playBoard(t, "level\nquit\n", "--board", tc.board, "--model", path, "--level", tc.level)
		if strings.Contains(flat(out), "endgame perfectly") != tc.said {
			t.Errorf("%s at %s: speaks of playing the endgame perfectly %v, want %v:\n%s", tc.board, tc.level, !tc.said, tc.said, out)
		}
	}
}
