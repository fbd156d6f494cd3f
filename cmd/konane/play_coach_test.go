package main

import (
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// coachLine is the coach's line on a move that drops the player's chances.
var coachLine = regexp.MustCompile(`That move drops your chances from (\d+)% to (\d+)%; (\S+) was better \(take back: undo\)`)

// drawnBoard is the board drawn in an answer: its ranks' lines.
func drawnBoard(out string) string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 1 && l[0] >= '1' && l[0] <= '9' && l[1] == ' ' {
			rows = append(rows, l)
		}
	}
	return strings.Join(rows, "\n")
}

// TestPlayCoach: on 6x6 (a network's board) the coach is silent while
// off and after a good move, and after a blunder says at once, before the
// computer's reply, how far the player's chances dropped and which move
// was better; undo then returns to the position before the blunder. The
// blunder and the better move are checked by the exact solver.
func TestPlayCoach(t *testing.T) {
	c := startConsole(t, "> ", "play", "--board", "6", "--color", "white", "--level", "hard", "--seed", "1")
	c.next()
	// Coach off: nothing is said (the blunder below, with the coach off,
	// draws no word either).
	for _, m := range []string{"c4", "e4-c4"} {
		if out := c.send(m); coachLine.MatchString(out) || !strings.Contains(out, "The computer") {
			t.Fatalf("%s with the coach off answered:\n%s", m, out)
		}
	}
	if out := c.send("coach on"); !strings.Contains(out, "the coach is on") {
		t.Fatalf("coach on answered:\n%s", out)
	}
	if out := c.send("coach"); !strings.Contains(out, "the coach is on") {
		t.Fatalf("coach answered:\n%s", out)
	}
	// A good move draws no word.
	before := c.send("d3-d5")
	if coachLine.MatchString(before) {
		t.Fatalf("d3-d5 answered:\n%s", before)
	}
	// The blunder.
	out := c.send("f3-b3")
	got := coachLine.FindStringSubmatch(out)
	if got == nil {
		t.Fatalf("the blunder f3-b3 drew no word from the coach:\n%s", out)
	}
	if i, j := strings.Index(out, got[0]), strings.Index(out, "The computer"); i < 0 || j < i {
		t.Errorf("the coach's line comes after the computer's reply:\n%s", out)
	}
	if from, to := atoi(t, got[1]), atoi(t, got[2]); from-to < 10 {
		t.Errorf("the coach speaks of a drop from %d%% to %d%%, less than 10 points", from, to)
	}
	better := got[3]
	// The exact solver agrees: f3-b3 loses, the better move wins.
	path := filepath.Join(t.TempDir(), "game.txt")
	if out := c.send("save " + path); !strings.Contains(out, "saved the game") {
		t.Fatalf("save answered %q", out)
	}
	rec, err := rules.ReadRecordFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.NewPosition(6)
	for _, m := range rec.Moves[:len(rec.Moves)-2] {
		p = p.Play(m)
	}
	solver := player.NewPerfect(1)
	solver.MaxStones = 36 // a 6x6 position after ten moves solves in moments
	_, results, err := solver.Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	wins := map[string]bool{}
	for _, r := range results {
		wins[r.Move.String()] = r.Wins
	}
	if rec.Moves[len(rec.Moves)-2].String() != "f3-b3" || wins["f3-b3"] || !wins[better] {
		t.Errorf("the solver's verdicts: f3-b3 wins %v, %s wins %v (record %v)", wins["f3-b3"], better, wins[better], rec.MoveStrings())
	}
	// undo returns to the position before the blunder.
	out = c.send("undo")
	if !strings.Contains(out, "took back f3-b3") || drawnBoard(out) != drawnBoard(before) || drawnBoard(out) == "" {
		t.Errorf("undo answered:\n%s\nthe board before f3-b3:\n%s", out, before)
	}
	// The better move draws no word.
	if out := c.send(better); coachLine.MatchString(out) {
		t.Errorf("the better move %s answered:\n%s", better, out)
	}
	// With the coach off, the blunder draws none either.
	c.send("undo")
	if out := c.send("coach off"); !strings.Contains(out, "the coach is off") {
		t.Fatalf("coach off answered:\n%s", out)
	}
	if out := c.send("f3-b3"); coachLine.MatchString(out) || !strings.Contains(out, "You (white) play f3-b3") {
		t.Errorf("f3-b3 with the coach off answered:\n%s", out)
	}
	io.WriteString(c.in, "quit\n")
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestPlayCoachNoNetwork: on a board without a network, coach on (and
// --coach) says once that the coach needs a win probability, and moves
// draw no word from it; a bad argument gets its reason.
func TestPlayCoachNoNetwork(t *testing.T) {
	c := startConsole(t, "> ", "play", "--board", "8x7", "--level", "newcomer", "--coach")
	if out := c.next(); strings.Count(out, "the coach needs a win probability") != 1 {
		t.Errorf("--coach on 8x7 answered:\n%s", out)
	}
	if out := c.send("coach on"); !strings.Contains(strings.Join(strings.Fields(out), " "), "the coach needs a win probability, which on 8x7 the classical engine does not give") {
		t.Errorf("coach on answered:\n%s", out)
	}
	if out := c.send("coach maybe"); !strings.Contains(out, `coach maybe: want on or off`) {
		t.Errorf("coach maybe answered:\n%s", out)
	}
	if out := c.send("help"); !strings.Contains(out, "coach on|off") {
		t.Errorf("help lacks the coach:\n%s", out)
	}
	io.WriteString(c.in, "quit\n")
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}
