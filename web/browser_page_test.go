package web

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

// moves returns the moves of the page's game.
func (p *page) moves() []string {
	p.t.Helper()
	var ms []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify(konane.state.moves)`)), &ms); err != nil {
		p.t.Fatal(err)
	}
	return ms
}

// keyMove plays move (a removal or a jump) by keyboard alone: the arrow
// keys to each of its squares, then Enter.
func (p *page) keyMove(move string) {
	p.t.Helper()
	v := p.version()
	sqs := strings.Split(move, "-")
	for _, sq := range sqs {
		p.key(fmt.Sprintf(`#board [data-sq=%q]`, sq))
	}
	p.settle(v)
}

// browserCoach: the coach on (its box, kept in the browser), a 5x5 game
// as Black (who wins 5x5) at level hard, played by keyboard: a winning
// move draws no word; a move that throws the win away stops the game at
// once with one line (from 100% to 0%, a winning move named), the move
// and the better one drawn as arrows, the line announced; Undo takes the
// move back and shows the better move as a hint arrow; played again,
// Play on brings the computer's reply and the bar says plainly that
// White wins with perfect play. The Hint button draws its move as an
// arrow. A 4x4 game as Black says at once that White wins with perfect
// play. Screenshots coach-desktop.png and coach-phone.png.
func browserCoach(t *testing.T, browser context.Context, ts *testServer) {
	for _, phone := range []bool{false, true} {
		p := tab(t, browser, ts, "en", phone)
		p.load("/")
		msgs := p.msgs()
		if p.eval(`document.getElementById("coach").checked ? "on" : "off"`) != "off" {
			t.Fatal("the coach is on before it was turned on")
		}
		p.click("#coach")
		if p.text("note") != msgs["coach.on"] {
			t.Errorf("turning the coach on says %q", p.text("note"))
		}
		// 4x4 as Black is lost from the start, and the page says so plainly.
		p.eval(`document.getElementById("size").value = "4x4"; document.getElementById("level").value = "hard"; document.getElementById("color").value = "black"; ""`)
		v := p.version()
		p.click("#new")
		p.settle(v)
		if et := p.text("evaltext"); et != msgs["eval.provenWhite"] || p.eval(`document.getElementById("evalbar").getAttribute("aria-valuenow")`) != "0" {
			t.Errorf("4x4 as Black from the start: the bar says %q", et)
		}
		p.eval(`document.getElementById("size").value = "5x5"; ""`)
		v = p.version()
		p.click("#new")
		p.settle(v)
		// The Hint button: an arrow (a ring for a removal) of its move.
		v = p.version()
		p.click("#hint")
		p.settle(v)
		hinted := p.eval(`konane.state && document.querySelector("#arrows .arrow.hint") ? document.querySelector("#arrows .arrow.hint").dataset.move : ""`)
		if !strings.HasPrefix(p.text("hinttext"), strings.Split(msgs["hint.short"], "{")[0]) || hinted == "" || !strings.Contains(p.text("hinttext"), hinted) {
			t.Errorf("the hint %q is drawn as the arrow of %q", p.text("hinttext"), hinted)
		}
		p.tabTo("#board .sq", true)
		var wins, loses []string
		for range 12 {
			wins, loses = agenttest.Solved(t, 5, p.moves())
			if len(wins) == 0 {
				t.Fatalf("after %v Black has no winning move", p.moves())
			}
			if len(loses) > 0 {
				break
			}
			p.keyMove(wins[0])
			if p.eval(`String(document.getElementById("coachbox").hidden)`) != "true" {
				t.Fatalf("the coach spoke of the winning move %s: %q", wins[0], p.text("coachtext"))
			}
		}
		if len(loses) == 0 {
			t.Fatal("no losing move to try")
		}
		ply := len(p.moves()) + 1
		blunder := func() {
			t.Helper()
			p.tabTo("#board .sq", true)
			p.keyMove(loses[0])
			if p.eval(`String(document.getElementById("coachbox").hidden)`) != "false" {
				t.Fatalf("the losing %s drew no word from the coach", loses[0])
			}
		}
		blunder()
		line := p.text("coachtext")
		var better string
		for _, w := range wins {
			want := strings.NewReplacer("{from}", "100", "{to}", "0", "{better}", w).Replace(msgs["coach.text"])
			if line == want {
				better = w
			}
		}
		if better == "" {
			t.Fatalf("the coach says %q of %s (winning moves %v)", line, loses[0], wins)
		}
		if got := len(p.moves()); got != ply || p.text("status") != msgs["status.coach"] {
			t.Errorf("after the blunder: %d moves, status %q", got, p.text("status"))
		}
		arrows := p.eval(`Array.from(document.querySelectorAll("#arrows .arrow")).map(a => a.getAttribute("class") + " " + a.dataset.move).join("; ")`)
		if arrows != "arrow played "+loses[0]+"; arrow best "+better {
			t.Errorf("the board's arrows after the blunder: %q", arrows)
		}
		if a := p.text("announce"); !strings.Contains(a, line) {
			t.Errorf("the live region says %q, not the coach's line", a)
		}
		if got, want := p.text("evaltext"), strings.ReplaceAll(msgs["eval.coach"], "{p}", "0"); got != want {
			t.Errorf("while the coach waits the bar says %q, want %q", got, want)
		}
		p.still()
		if phone {
			p.screenshot("coach-phone")
		} else {
			p.screenshot("coach-desktop")
		}
		// Undo, one key away (the focus went to it from the board): the
		// move taken back, the better move a hint arrow, the focus back
		// on the board.
		if got := p.eval(`document.activeElement.id`); got != "coachundo" {
			t.Errorf("after the coach stopped a move played by keyboard the focus is on %q, not its Undo", got)
		}
		v = p.version()
		p.press(kb.Enter)
		p.settle(v)
		if got := p.eval(`document.activeElement.dataset.sq || document.activeElement.id`); !regexp.MustCompile(`^[a-e][1-5]$`).MatchString(got) {
			t.Errorf("after Undo the focus is on %q, not on the board", got)
		}
		if got := len(p.moves()); got != ply-1 || p.eval(`String(document.getElementById("coachbox").hidden)`) != "true" {
			t.Fatalf("Undo left %d moves (want %d), the coach's box hidden: %s", got, ply-1, p.eval(`String(document.getElementById("coachbox").hidden)`))
		}
		if got := p.eval(`Array.from(document.querySelectorAll("#arrows .arrow")).map(a => a.getAttribute("class") + " " + a.dataset.move).join("; ")`); got != "arrow hint "+better {
			t.Errorf("after Undo the board's arrows are %q, want the hint %s", got, better)
		}
		// Again, and play on: the reply, and a proven loss said plainly.
		blunder()
		v = p.version()
		p.click("#coachplayon")
		p.settle(v)
		if p.eval(`document.body.dataset.over`) == "true" {
			continue
		}
		if got := p.moves(); len(got) != ply+1 || got[ply-1] != loses[0] {
			t.Fatalf("after Play on the moves are %v", got)
		}
		if et := p.text("evaltext"); !strings.HasPrefix(et, msgs["eval.provenWhite"]) {
			t.Errorf("after the blunder the bar says %q, not %q", et, msgs["eval.provenWhite"])
		}
		if vt := p.eval(`document.getElementById("evalbar").getAttribute("aria-valuetext")`); !strings.Contains(vt, msgs["eval.provenWhite"]) {
			t.Errorf("the bar's aria-valuetext %q does not say who wins", vt)
		}
	}
}

// browserOpenings: the openings table of 4x4 (solved at once) has a Play
// cell on each row: "as White" starts a game from that opening with the
// human as White, a click on the row one as Black; the menus follow.
func browserOpenings(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "en", false)
	p.load("/")
	checkOpenings(t, p, 4, "")
	if p.eval(`String(document.getElementById("openprogress").hidden)`) != "true" {
		t.Error("the progress bar stays after the table came")
	}
	ops := rules.Openings(4)
	o := ops[len(ops)-1]
	for _, tc := range []struct {
		sel, colour string
	}{{fmt.Sprintf(`#opentable tbody tr:nth-child(%d) button.openplay:nth-child(2)`, len(ops)), "white"}, {`#opentable tbody tr:first-child td:first-child`, "black"}} {
		v := p.version()
		p.click(tc.sel)
		p.settle(v)
		want := []string{o.Black.String(), o.White.String()}
		if tc.colour == "black" {
			want = []string{ops[0].Black.String(), ops[0].White.String()}
		}
		got := p.moves()
		if len(got) < 2 || got[0] != want[0] || got[1] != want[1] || p.eval(`konane.state.human + " " + konane.state.start + " " + document.getElementById("size").value + " " + document.getElementById("color").value`) != tc.colour+" 2 4x4 "+tc.colour {
			t.Errorf("%s: the game %v as %s, start %s", tc.sel, got, p.eval(`konane.state.human`), p.eval(`String(konane.state.start)`))
		}
	}
}

// browserLayout: the board stays where it is (its top within 1 px) through
// a game's states: a move played, a move looked back at, a note (a level
// changed), a hint, and the game-over banner after a resignation; on a
// desktop and on a phone.
func browserLayout(t *testing.T, browser context.Context, ts *testServer) {
	for _, phone := range []bool{false, true} {
		p := tab(t, browser, ts, "pt-BR,pt", phone)
		p.load("/")
		p.newGame(p.click)
		top := func() string {
			return p.eval(`String(Math.round(document.getElementById("board").getBoundingClientRect().top + window.scrollY))`)
		}
		want := top()
		same := func(when string) {
			t.Helper()
			if got := top(); got != want {
				t.Errorf("phone %v, %s: the board's top moved from %s to %s px", phone, when, want, got)
			}
		}
		v := p.version()
		p.click("#board .sq.movable")
		p.settle(v)
		same("a move played")
		p.click(`#moves .mvbtn[data-ply="1"]`)
		if p.eval(`String(document.getElementById("viewbar").hidden)`) != "false" {
			t.Fatal("a move of the list does not show the position after it")
		}
		same("looking back")
		p.click("#viewlive")
		v = p.version()
		p.eval(`(() => { const s = document.getElementById("level"); s.value = "beginner"; s.dispatchEvent(new Event("change")); return ""; })()`)
		p.settle(v)
		if p.text("note") == "" {
			t.Fatal("a level changed says nothing")
		}
		same("a note")
		v = p.version()
		p.click("#hint")
		p.settle(v)
		same("a hint")
		p.click("#resign")
		v = p.version()
		p.click("#resign")
		p.settle(v)
		if p.eval(`document.body.dataset.over`) != "true" {
			t.Fatal("resigning does not end the game")
		}
		same("the game-over banner")
		if phone {
			p.screenshot("layout-over-phone")
		} else {
			p.screenshot("layout-over-desktop")
		}
	}
}
