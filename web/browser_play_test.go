package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api"
)

// still waits until no move is drawn moving (body[data-moving]) and
// checks the end state: nothing over the board, no stone hidden, and the
// board as the state has it.
func (p *page) still() {
	p.t.Helper()
	p.waitFor(`(document.body.dataset.moving || "0") === "0"`)
	p.eval(boardShownJS + `; window.boardShown = boardShown; ""`)
	got := p.eval(`[document.getElementById("fly").children.length, document.querySelectorAll("#board .stone.arriving").length, boardShown() === konane.state.board.join("") || konane.viewPly !== null].join(" ")`)
	if got != "0 0 true" {
		p.t.Errorf("after the moves moved: %s (stones over the board, stones hidden, board as the state's)", got)
	}
}

// shown is the board the page shows, x/o/. from a6 (top left) on.
const boardShownJS = `function boardShown() {
  const sq = Array.from(document.querySelectorAll("#board .sq"));
  const flip = document.getElementById("board").dataset.flipped === "true";
  if (flip) sq.reverse();
  return sq.map(s => s.querySelector(".black") ? "x" : s.querySelector(".white") ? "o" : ".").join("");
}`

// center returns the page coordinates of the middle of the element sel.
func (p *page) center(sel string) (x, y float64) {
	p.t.Helper()
	fmt.Sscan(p.eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return (r.left + r.width / 2) + " " + (r.top + r.height / 2); })()`, sel)), &x, &y)
	return x, y
}

// drag drags with the mouse from the middle of from to the middle of to.
func (p *page) drag(from, to string) {
	p.t.Helper()
	x0, y0 := p.center(from)
	x1, y1 := p.center(to)
	held := func(e *input.DispatchMouseEventParams) {
		e.Button = input.MouseButtonLeft
		e.Buttons = 1
		e.ClickCount = 1
	}
	acts := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, held)}
	for k := 1; k <= 5; k++ {
		f := float64(k) / 5
		acts = append(acts, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+f*(x1-x0), y0+f*(y1-y0), func(e *input.DispatchMouseEventParams) { e.Buttons = 1 }))
	}
	acts = append(acts, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, held))
	p.step("dragging "+from+" to "+to, chromedp.Steps(acts...))
}

// touchDrag drags with a finger from the middle of from to the middle of to.
func (p *page) touchDrag(from, to string) {
	p.t.Helper()
	x0, y0 := p.center(from)
	x1, y1 := p.center(to)
	touch := func(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			points := []*input.TouchPoint{{X: x, Y: y}}
			if typ == input.DispatchTouchEventTypeTouchEnd {
				points = []*input.TouchPoint{}
			}
			_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: points})
			return err
		})
	}
	acts := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, x0, y0)}
	for k := 1; k <= 5; k++ {
		f := float64(k) / 5
		acts = append(acts, touch(input.DispatchTouchEventTypeTouchMove, x0+f*(x1-x0), y0+f*(y1-y0)))
	}
	acts = append(acts, touch(input.DispatchTouchEventTypeTouchEnd, x1, y1))
	p.step("dragging "+from+" to "+to+" by touch", chromedp.Steps(acts...))
}

// positionAfter is the board after the first n moves, as the page draws
// it: x/o/. from the top left (a<size>) on.
func positionAfter(t *testing.T, size int, moves []string, n int) string {
	t.Helper()
	p := rules.NewPosition(size)
	for _, text := range moves[:n] {
		m, err := rules.ParseMove(p, text)
		if err != nil {
			t.Fatalf("move %q: %v", text, err)
		}
		p = p.Play(m)
	}
	return strings.Join(api.BoardRows(p), "")
}

// browserFeatures tries, in each language, what players expect of a
// play page: wrong clicks explained, a jump by drag and drop seen moving
// to its end with the last move marked, ←/→ and the move list to look
// back, flip, copy moves and link, dark mode (chosen and the system's),
// resign and rematch, and links that cannot be opened.
func browserFeatures(t *testing.T, browser context.Context, ts *testServer) {
	for _, tc := range []struct{ lang, accept string }{
		{"en", "en-US,en"}, {"de", "de-DE,de"}, {"sv", "sv-SE,sv"}, {"it", "it-IT,it"}, {"pt-BR", "pt-BR,pt"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			p := tab(t, browser, ts, tc.accept, false)
			p.load("/")
			if p.lang() != tc.lang {
				t.Fatalf("page in %s", p.lang())
			}
			msgs := p.msgs()
			p.eval(boardShownJS + `; window.boardShown = boardShown; ""`) // for ←/→ before any move
			say := func(key string, args ...string) string {
				return strings.NewReplacer(args...).Replace(msgs[key])
			}
			status := func() string { return p.text("status") }
			p.newGame(p.click)
			entries := p.eval(`String(history.length)`)
			// Wrong clicks in the opening: a white stone, a black stone
			// that may not be removed (b2 on 6x6).
			p.click(`#board [data-sq="b1"]`)
			if status() != say("why.notYoursBlack") {
				t.Errorf("a click on a white stone: %q", status())
			}
			p.click(`#board [data-sq="b2"]`)
			if status() != say("why.removeBlack") {
				t.Errorf("a click on a black stone that may not be removed: %q", status())
			}
			// The removal; the computer's reply is seen, then marked.
			v := p.version()
			p.click(".sq.movable")
			p.settle(v)
			p.still()
			last := p.eval(`Array.from(document.querySelectorAll("#board .sq.last")).map(e => e.dataset.sq).join("-")`)
			if want := p.eval(`konane.state.last`); last != want {
				t.Errorf("last move marked on %q, the last move is %q", last, want)
			}
			if bg := p.eval(`getComputedStyle(document.querySelector("#board .sq.last")).backgroundImage`); !strings.Contains(bg, "gradient") {
				t.Errorf("the last move's squares are not tinted: %s", bg)
			}
			// Wrong clicks while jumping: an empty square, a stone that
			// cannot jump; choosing a stone says where to go on.
			empty := p.eval(`Array.from(document.querySelectorAll("#board .sq")).find(e => !e.querySelector(".stone")).dataset.sq`)
			p.click(`#board [data-sq="` + empty + `"]`)
			if status() != say("why.empty") {
				t.Errorf("a click on the empty %s: %q", empty, status())
			}
			stuck := p.eval(`Array.from(document.querySelectorAll("#board .sq:not(.movable)")).find(e => e.querySelector(".stone.black")).dataset.sq`)
			p.click(`#board [data-sq="` + stuck + `"]`)
			if status() != say("why.cannotJump") {
				t.Errorf("a click on %s, which cannot jump: %q", stuck, status())
			}
			from := p.eval(`document.querySelector("#board .sq.movable").dataset.sq`)
			p.click(`#board [data-sq="` + from + `"]`)
			if status() != say("status.landing", "{square}", from) {
				t.Errorf("after choosing %s: %q", from, status())
			}
			p.click(`#board [data-sq="` + from + `"]`) // again: cancelled
			if status() != say("status.jump") || p.count("#board .sq.selected") != 0 {
				t.Errorf("choosing %s again: %q", from, status())
			}
			// A jump by drag and drop.
			n := p.count("#moves .mvbtn")
			to := p.eval(`konane.state.legal.find(m => m.startsWith(` + fmt.Sprintf("%q", from+"-") + `)).split("-")[1]`)
			v = p.version()
			p.drag(`#board [data-sq="`+from+`"]`, `#board [data-sq="`+to+`"]`)
			p.settle(v)
			p.still()
			var moves []string
			json.Unmarshal([]byte(p.eval(`JSON.stringify(konane.state.moves)`)), &moves)
			if len(moves) < n+1 || moves[n] != from+"-"+to {
				t.Fatalf("the drag from %s to %s: moves %v", from, to, moves)
			}
			// The moves replace the address's game, they add no history
			// entries: Back leaves the page.
			if got := p.eval(`String(history.length)`); got != entries {
				t.Errorf("history entries: %s after the moves, %s before", got, entries)
			}
			// ←/→ off the board, and a click in the move list, look back.
			p.eval(`document.activeElement.blur(); ""`)
			p.press(kb.ArrowLeft)
			if got, want := p.eval(`boardShown()`), positionAfter(t, 6, moves, len(moves)-1); got != want || p.eval(`String(document.getElementById("viewbar").hidden)`) != "false" {
				t.Errorf("← shows %s, want the position before the last move %s", got, want)
			}
			if want := say("view.atBlack", "{move}", fmt.Sprintf("%d. %s", (len(moves)-2)/2+1, moves[len(moves)-2])); len(moves)%2 == 0 && p.text("viewtext") != want {
				t.Errorf("looking back: %q, want %q", p.text("viewtext"), want)
			}
			p.press(kb.Home)
			if got := p.eval(`boardShown()`); strings.Contains(got, ".") {
				t.Errorf("Home shows %s, not the full board of the start", got)
			}
			p.press(kb.ArrowRight)
			if got, want := p.eval(`boardShown()`), positionAfter(t, 6, moves, 1); got != want {
				t.Errorf("→ from the start shows %s, want %s", got, want)
			}
			p.press(kb.End)
			if p.eval(`String(boardShown() === konane.state.board.join("") && document.getElementById("viewbar").hidden && konane.viewPly === null)`) != "true" {
				t.Error("End does not come back to the game")
			}
			p.click(`#moves .mvbtn[data-ply="2"]`)
			if got, want := p.eval(`boardShown()`), positionAfter(t, 6, moves, 2); got != want || p.eval(`document.querySelector("#moves [aria-current=true]").dataset.ply`) != "2" {
				t.Errorf("the list's second move shows %s, want %s", got, want)
			}
			p.screenshot("features-lookback-" + tc.lang)
			p.click("#viewlive")
			if p.eval(`String(konane.viewPly === null && boardShown() === konane.state.board.join(""))`) != "true" {
				t.Error("Back to the game does not show the game")
			}
			// Flip: White's side at the bottom, and back.
			p.click("#flip")
			if got, want := p.eval(`document.querySelector("#board .sq").dataset.sq + " " + boardShown()`), "f1 "+p.eval(`konane.state.board.join("")`); got != want {
				t.Errorf("flipped: the top left square and the board %s, want %s; %s", got, want, p.eval(`document.getElementById("board").dataset.flipped + " " + Array.from(document.querySelectorAll("#board .sq")).map(e => e.dataset.sq).join(",")`))
			}
			p.click("#flip")
			if got := p.eval(`document.querySelector("#board .sq").dataset.sq`); got != "a6" {
				t.Errorf("flipped back: the top left square is %s", got)
			}
			// Copy the moves (numbered by pairs, as records) and the link.
			var text strings.Builder
			for i, m := range moves {
				if i%2 == 0 {
					fmt.Fprintf(&text, "%d. ", i/2+1)
				}
				text.WriteString(m + " ")
			}
			p.click("#copymoves")
			p.waitFor(`document.body.dataset.copied !== undefined`)
			if got := p.eval(`document.body.dataset.copied`); got != strings.TrimSpace(text.String()) || p.text("note") != msgs["copy.moves"] {
				t.Errorf("copied %q (%q), want %q", got, p.text("note"), strings.TrimSpace(text.String()))
			}
			p.eval(`delete document.body.dataset.copied; ""`)
			p.click("#copylink")
			p.waitFor(`document.body.dataset.copied !== undefined`)
			// The link sent is ?g=CODE (which the server sees, for the
			// preview of its position), the address's #g=CODE.
			if got := p.eval(`document.body.dataset.copied`); got != strings.Replace(p.eval(`location.href`), "#g=", "?g=", 1) || !strings.Contains(got, "?g=1.6b.easy.0.") || p.text("note") != msgs["copy.link"] {
				t.Errorf("copied the link %q (%q)", got, p.text("note"))
			}
			// The link opened elsewhere (another browser context, no tab
			// storage) is the same game, with the page in its language.
			link := p.eval(`document.body.dataset.copied`)
			q := tab(t, browser, ts, tc.accept, false)
			q.load(strings.TrimPrefix(link, ts.url))
			if got, want := q.eval(`konane.state.moves.join(" ") + " " + konane.state.human + " " + document.documentElement.lang`), strings.Join(moves, " ")+" black "+tc.lang; got != want {
				t.Errorf("the copied link opens %q, want %q", got, want)
			}
			if got := q.eval(`location.search + " " + location.hash`); got != " #g="+strings.TrimPrefix(link, ts.url+"/?g=") {
				t.Errorf("the copied link's game moved to the fragment: the address is %q", got)
			}
			// Dark mode: chosen, and the system's.
			bg := func() string { return p.eval(`getComputedStyle(document.documentElement).backgroundColor`) }
			light := bg()
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return ""; })()`)
			dark := bg()
			if dark == light || p.eval(`document.documentElement.dataset.theme`) != "dark" {
				t.Errorf("dark mode chosen: background %s (light %s)", dark, light)
			}
			p.screenshot("features-dark-" + tc.lang)
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "auto"; s.dispatchEvent(new Event("change")); return ""; })()`)
			if bg() != light {
				t.Errorf("back to the system's colours (light): %s", bg())
			}
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
				t.Fatal(err)
			}
			p.waitFor(`document.documentElement.dataset.theme === "dark"`) // theme.js follows the system's change
			if bg() != dark {
				t.Errorf("a system in dark mode: background %s, want %s", bg(), dark)
			}
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "light"; s.dispatchEvent(new Event("change")); return ""; })()`)
			if bg() != light {
				t.Errorf("light chosen on a dark system: background %s", bg())
			}
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "auto"; s.dispatchEvent(new Event("change")); return ""; })()`)
			chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
			p.waitFor(`document.documentElement.dataset.theme === "light"`)
			// Resign: asked once more, then the game is lost; Rematch
			// swaps the colours (the computer opens, the board flips).
			p.click("#resign")
			if p.text("resign") != msgs["page.resignConfirm"] || p.eval(`String(konane.state.over)`) != "false" {
				t.Errorf("one click on Resign: %q", p.text("resign"))
			}
			v = p.version()
			p.click("#resign")
			p.settle(v)
			resigned := `[konane.state.over, document.getElementById("rematch").offsetParent !== null, document.getElementById("resign").offsetParent === null, document.getElementById("evalbar").getAttribute("aria-valuenow"), document.getElementById("hint").disabled, document.getElementById("undo").disabled].join(" ")`
			if status() != msgs["status.resigned"] || p.eval(resigned) != "true true true 0 true true" {
				t.Errorf("after resigning: %q, %s", status(), p.eval(resigned))
			}
			// Said once, and the note of the moves copied before is gone.
			if p.text("evaltext") == status() || p.text("note") != "" {
				t.Errorf("after resigning: the bar's text %q repeats the status, note %q", p.text("evaltext"), p.text("note"))
			}
			// The resignation is in the link and the record: the link
			// opened again (a reload, or elsewhere) is the game resigned.
			link = p.eval(`location.href`)
			if !strings.HasSuffix(link, "."+strings.Join(moves, ".")+".resign") || !strings.HasSuffix(p.eval(`document.getElementById("record").href`), ".resign") {
				t.Errorf("the resigned game's link %s, record %s", link, p.eval(`document.getElementById("record").href`))
			}
			r := tab(t, browser, ts, tc.accept, false)
			r.load(strings.TrimPrefix(link, ts.url))
			if r.text("status") != msgs["status.resigned"] || r.eval(resigned) != "true true true 0 true true" || r.eval(`konane.state.moves.join(" ")`) != strings.Join(moves, " ") {
				t.Errorf("the resigned game's link opened again: %q, %s", r.text("status"), r.eval(resigned))
			}
			if tc.lang == "en" {
				// Its review works, and says who resigned.
				v := r.version()
				r.click("#reviewbtn")
				r.settleWithin(v, 5*time.Minute)
				if got := r.text("revstatus"); !strings.Contains(got, msgs["review.resignedBlack"]) || r.count("#revmoves .revmove") != len(moves) {
					t.Errorf("the resigned game's review: %q, %d moves", got, r.count("#revmoves .revmove"))
				}
				r.screenshot("features-resigned-review-" + tc.lang)
			}
			v = p.version()
			p.click("#rematch")
			p.settle(v)
			p.still()
			if got := p.eval(`[konane.state.human, konane.state.size, konane.state.level, konane.state.moves.length, document.querySelector("#board .sq").dataset.sq].join(" ")`); got != "white 6 easy 1 f1" {
				t.Errorf("the rematch: %s, want white 6 easy 1 f1", got)
			}
			p.screenshot("features-rematch-" + tc.lang)
			// With prefers-reduced-motion nothing moves: the move is
			// drawn where it ends at once.
			if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
				t.Fatal(err)
			}
			v = p.version()
			p.click(".sq.movable")
			if got := p.eval(`String(document.getElementById("fly").children.length + document.querySelectorAll("#board .stone.arriving").length)`); got != "0" {
				t.Errorf("with reduced motion %s stones move or wait", got)
			}
			p.settle(v)
			p.still()
			chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
			// A link with an illegal move, and one that cannot be read:
			// the page says why, in its language, and starts a new game.
			prefix := strings.Split(msgs["error.link"], "{reason}")[0]
			for _, link := range []struct{ hash, reason string }{
				{"#g=1.6b.easy.0.d4.zz", say("error.gameMoveWhite", "{pair}", "1", "{move}", "zz")},
				{"#g=garbage", msgs["error.gameCode"]},
			} {
				q := tab(t, browser, ts, tc.accept, false)
				q.step("opening "+link.hash, chromedp.Navigate(ts.url+"/"+link.hash))
				q.waitFor(`document.body.dataset.busy === "false" && document.body.dataset.version !== "0" && document.querySelector(".sq") !== null`)
				if e := q.text("error"); !strings.HasPrefix(e, prefix) || !strings.Contains(e, link.reason) || q.eval(`String(konane.state.moves.length)`) != "0" {
					t.Errorf("the link %s: %q", link.hash, e)
				}
			}
		})
	}
}
