package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/browsertest"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/api"
)

// page is a tab of the browser, in a browser context of its own (its own
// cookies and storage), on the test server's page.
type page struct {
	t   *testing.T
	ctx context.Context
	ts  *testServer
}

// tab opens a tab whose browser asks for the languages accept
// (Accept-Language) with a desktop window, or a phone's 390x844 touch
// screen.
// tabs counts the tabs opened, for their addresses.
var tabs atomic.Int64

func tab(t *testing.T, browser context.Context, ts *testServer, accept string, phone bool) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx, ts: ts}
	if err := chromedp.Do(ctx); err != nil { // opens the tab; without a deadline
		t.Fatal(err)
	}
	_, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64) konane-browser-test", AcceptLanguage: accept,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each tab is a person of its own, as behind a reverse proxy
	// (the test server trusts loopback): the per-client limits apply to
	// a tab's own requests only, not to the parallel subtests together.
	person := fmt.Sprintf("198.51.100.%d", tabs.Add(1)%250+1)
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"X-Forwarded-For": person}}); err != nil {
		t.Fatal(err)
	}
	if phone {
		p.step("phone screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulatePortrait, chromedp.EmulateMobile))
		if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// step runs a with a deadline, so that a broken page fails the test
// instead of hanging it.
func (p *page) step(name string, a chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, a); err != nil {
		p.t.Fatalf("%s: %v", name, err)
	}
}

// eval evaluates a JavaScript expression of the page that gives a string.
func (p *page) eval(expr string) string {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor waits until the expression is true, through page loads.
func (p *page) waitFor(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		sctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		v, err := chromedp.Run(sctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && v {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("waiting for %s: no", expr)
}

func (p *page) text(id string) string {
	p.t.Helper()
	return p.eval(fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

func (p *page) count(sel string) int {
	p.t.Helper()
	var n int
	fmt.Sscan(p.eval(fmt.Sprintf(`String(document.querySelectorAll(%q).length)`, sel)), &n)
	return n
}

func (p *page) version() string { return p.eval(`document.body.dataset.version`) }

// settle waits for the request started after version v to finish, and
// fails on an error shown by the page.
func (p *page) settle(v string) {
	p.t.Helper()
	p.settleWithin(v, 30*time.Second)
}

// settleWithin is settle with its own deadline, for the slow requests (a
// review searches every position: minutes on a loaded machine).
func (p *page) settleWithin(v string, d time.Duration) {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, d)
	defer cancel()
	if err := chromedp.Do(sctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(
		`document.body.dataset.version !== %q && document.body.dataset.busy === "false"`, v),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(d))); err != nil {
		p.t.Fatalf("waiting for the page: %v", err)
	}
	if e := p.text("error"); e != "" {
		p.t.Fatalf("the page shows an error: %s", e)
	}
}

// playFirst clicks the first stone that can move and, for a jump, its
// first landing square, and waits for the answer (the computer's move).
func (p *page) playFirst() {
	p.t.Helper()
	v := p.version()
	p.click(".sq.movable")
	if p.count(".sq.target") > 0 {
		p.click(".sq.target")
	}
	p.settle(v)
}

// load opens path and waits for the game on it.
func (p *page) load(path string) {
	p.t.Helper()
	p.step("loading "+path, chromedp.Steps(
		chromedp.Navigate(p.ts.url+path),
		chromedp.Poll[chromedp.Void](`document.body.dataset.busy === "false" && document.body.dataset.version !== "0" && document.querySelector(".sq") !== null`,
			chromedp.WithPollingInterval(20*time.Millisecond)),
	))
}

// lang is the language of the page and msgs its catalog.
func (p *page) lang() string { return p.eval(`document.documentElement.lang`) }

func (p *page) msgs() map[string]string { return p.ts.msgs[p.lang()] }

// screenshot saves the window as name.png into $KONANE_SCREENSHOTS, if set.
func (p *page) screenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("KONANE_SCREENSHOTS")
	if dir == "" {
		return
	}
	sctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// newGame starts a 6x6 game at the easiest level as Black, with the
// controls (set as a script would: the choice of a <select> is not what
// is tested), then the New game button, pressed as how says.
func (p *page) newGame(how func(sel string)) {
	p.t.Helper()
	p.eval(`document.getElementById("size").value = "6x6"; document.getElementById("level").value = "easy"; document.getElementById("color").value = "black"; ""`)
	v := p.version()
	how("#new")
	p.settle(v)
	if n := p.count(".sq"); n != 36 {
		p.t.Fatalf("a 6x6 board with %d squares", n)
	}
}

// playToEnd plays the human's moves until the game is over: pick presses
// a square (a click, a tap or keys); each move is the first marked stone
// (a removal, or the stone to jump) and its first landing square. Every
// status the page shows is the catalog's text of the state's message, in
// the page's language. It returns the number of human moves.
func (p *page) playToEnd(pick func(sel string), each func(move int)) int {
	p.t.Helper()
	msgs := p.msgs()
	moves := 0
	for {
		// One round trip: over, the version, the status.
		var over bool
		var v, status string
		if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([document.body.dataset.over === "true", document.body.dataset.version, document.getElementById("status").textContent])`)), &[]any{&over, &v, &status}); err != nil {
			p.t.Fatal(err)
		}
		if over {
			break
		}
		if moves > 40 {
			p.t.Fatal("the game does not end")
		}
		if each != nil {
			each(moves)
			v = p.version()
			status = p.text("status")
		}
		if status != msgs["status.removeBlack"] && status != msgs["status.removeWhite"] && status != msgs["status.jump"] {
			p.t.Fatalf("status %q in %s is not one of the catalog's", status, p.lang())
		}
		// A request sent (a removal), or a stone chosen with its landing
		// squares marked (a jump).
		chosen := func() string {
			return p.eval(fmt.Sprintf(`document.body.dataset.busy === "false" && document.body.dataset.version === %q ? document.querySelectorAll(".sq.selected").length + " " + Math.min(1, document.querySelectorAll(".sq.target").length) : "sent"`, v))
		}
		pick(".sq.movable")
		got := chosen()
		if got == "0 0" {
			// Chromium's touch emulation drops a tap now and then (one
			// run in three on the phone); a player taps again. A page
			// that ignores the stone twice still fails.
			p.t.Logf("move %d: nothing chosen after the first press; pressing again", moves+1)
			pick(".sq.movable")
			got = chosen()
		}
		switch got {
		case "sent":
		case "1 1":
			pick(".sq.target")
		default:
			p.t.Fatalf("choosing a stone that can jump: %s selected and landing squares marked", got)
		}
		p.settle(v)
		moves++
	}
	status := p.text("status")
	if status != msgs["status.youWin"] && status != msgs["status.computerWins"] {
		p.t.Fatalf("game-over message %q in %s", status, p.lang())
	}
	return moves
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.step("clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

func (p *page) tap(sel string) { p.t.Helper(); p.step("tapping "+sel, chromedp.Tap(chromedp.CSS(sel))) }

// press sends keys to the page.
func (p *page) press(keys string, opts ...chromedp.KeyOption) {
	p.t.Helper()
	p.step("pressing keys", chromedp.KeyEvent(keys, opts...))
}

// key presses the square sel by keyboard only: arrow keys from the square
// that has the focus to the first square matching sel, then Enter. The
// focus must be visible all the way.
func (p *page) key(sel string) {
	p.t.Helper()
	target := p.eval(fmt.Sprintf(`document.querySelector(%q).dataset.sq`, sel))
	for range 20 {
		at := p.eval(`document.activeElement.dataset.sq || ""`)
		if at == "" {
			p.t.Fatalf("the focus left the board: it is on %s", p.eval(`document.activeElement.outerHTML.slice(0, 80)`))
		}
		if p.eval(`document.activeElement.matches(":focus-visible") && getComputedStyle(document.activeElement).outlineStyle !== "none" ? "yes" : "no"`) != "yes" {
			p.t.Fatalf("the focus on %s is not visible", at)
		}
		switch {
		case at[0] < target[0]:
			p.press(kb.ArrowRight)
		case at[0] > target[0]:
			p.press(kb.ArrowLeft)
		case at[1] < target[1]:
			p.press(kb.ArrowUp)
		case at[1] > target[1]:
			p.press(kb.ArrowDown)
		default:
			p.press(kb.Enter)
			return
		}
	}
	p.t.Fatalf("the arrow keys do not lead to %s", target)
}

// tabTo presses Tab (Shift+Tab when back) until the focus is on an
// element matching sel.
func (p *page) tabTo(sel string, back bool) {
	p.t.Helper()
	var opts []chromedp.KeyOption
	if back {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
	}
	for range 30 {
		p.press(kb.Tab, opts...)
		if p.eval(fmt.Sprintf(`document.activeElement.matches(%q) ? "yes" : "no"`, sel)) == "yes" {
			return
		}
	}
	p.t.Fatalf("Tab never reaches %s", sel)
}

// loopback is the test server's trusted proxy: the tabs' X-Forwarded-For
// tells them apart.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// TestBrowser plays the page in a real headless Chromium, as people do.
func TestBrowser(t *testing.T) {
	start := time.Now()
	browser := browsertest.New(t, 1200, 900)
	// Reviews and the openings wait as long as the test does (settleWithin):
	// a loaded machine takes minutes. Searches queue (16, for up to 30 s):
	// the tabs of parallel subtests ask for hints and evaluations, each a
	// medium search at any level (agent.AdviceLimits).
	ts := newTestServer(t, Config{API: api.Config{ReviewTimeout: 5 * time.Minute, Queue: 16, QueueWait: 30 * time.Second, TrustedProxies: loopback}})
	t.Logf("browser and server started in %v", time.Since(start).Round(time.Millisecond))
	t.Run("game", func(t *testing.T) { browserGame(t, browser, ts) })
	t.Run("languages", func(t *testing.T) { browserLanguages(t, browser, ts) })
	t.Run("phone", func(t *testing.T) { browserPhone(t, browser, ts) })
	t.Run("keyboard", func(t *testing.T) { browserKeyboard(t, browser, ts) })
	t.Run("levels", func(t *testing.T) { browserLevels(t, browser, ts) })
	t.Run("tutorial", func(t *testing.T) { browserTutorial(t, browser, ts) })
	t.Run("link", func(t *testing.T) { browserLink(t, browser, ts) })
	t.Run("hashchange", func(t *testing.T) { browserHashChange(t, browser, ts) })
	t.Run("features", func(t *testing.T) { browserFeatures(t, browser, ts) })
	t.Run("busy", func(t *testing.T) { browserBusy(t, browser, ts) })
	t.Run("boards", func(t *testing.T) { browserBoards(t, browser, ts) })
	t.Run("coach", func(t *testing.T) { browserCoach(t, browser, ts) })
	t.Run("widenet", func(t *testing.T) { browserWideNet(t, browser) })
	t.Run("openings", func(t *testing.T) { browserOpenings(t, browser, ts) })
	t.Run("layout", func(t *testing.T) { browserLayout(t, browser, ts) })
}

// browserBoards: the board menu labels the boards of the classical
// engine (those the table of shipped networks does not list); a board
// above 8x8 (15x12, AbstractPlay's size-15) is started from the board
// menu, played by the classical engine (the evaluation bar says so) or
// the shipped network where the table lists it, a move is played, and its link (version 2)
// opens the game elsewhere; 7x6, 15x12 and 16x16 are drawn with
// coordinates of at least 11 px and even squares of at least 22 px on a
// desktop and a 390 px phone, without scrolling sideways (screenshots boards-*.png with
// $KONANE_SCREENSHOTS).
func browserBoards(t *testing.T, browser context.Context, ts *testServer) {
	start := func(p *page, board string) {
		t.Helper()
		p.eval(`document.getElementById("size").value = "` + board + `"; document.getElementById("level").value = "newcomer"; document.getElementById("color").value = "black"; ""`)
		if got := p.eval(`document.getElementById("size").value`); got != board {
			t.Fatalf("the board menu has no %s (%s)", board, got)
		}
		v := p.version()
		p.click("#new")
		p.settle(v)
	}
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	if got := p.eval(`Array.from(document.getElementById("size").options).slice(0, 7).map(o => o.value).join(" ")`); got != "6x6 7x6 8x8 9x8 11x8 15x12 4x4" {
		t.Errorf("the board menu starts %s, want AbstractPlay's six boards, then the rest", got)
	}
	// The menu names the boards of the classical engine (config.boards):
	// AbstractPlay's that no shipped network plays (the table of shipped
	// networks, agent.Plays) and 10x10.
	label := func(board string) string {
		return p.eval(`document.querySelector('#size option[value="` + board + `"]').textContent`)
	}
	for _, b := range append(rules.AbstractPlayBoards(), rules.SquareBoard(10)) {
		name := fmt.Sprintf("%d×%d", b.W, b.H)
		want := name
		if !agent.Plays(b) {
			want = strings.ReplaceAll(p.msgs()["page.boardClassical"], "{board}", name)
		}
		if got := label(b.String()); got != want {
			t.Errorf("the board menu labels %s %q, want %q", b, got, want)
		}
	}
	// 15x12: the classical engine, or a shipped network where the table
	// lists it (then the evaluation waits for the computer's move and
	// the coach works only up to 8x8).
	network15 := agent.Plays(rules.Board{W: 15, H: 12, Start: rules.Gap})
	start(p, "15x12")
	if n := p.count(".sq"); n != 180 {
		t.Fatalf("a 15x12 board with %d squares", n)
	}
	// Turned, White's side is at the bottom: o1 top left, a12 bottom right.
	first := `(() => { const s = document.querySelectorAll("#board .sq"); return s[0].dataset.sq + " " + s[s.length - 1].dataset.sq; })()`
	if got := p.eval(first); got != "a12 o1" {
		t.Errorf("15x12 from Black's side: first and last squares %s", got)
	}
	p.click("#flip")
	if got := p.eval(first); got != "o1 a12" {
		t.Errorf("15x12 turned: first and last squares %s", got)
	}
	p.click("#flip")
	evalText, coachText := strings.ReplaceAll(p.msgs()["status.classical"], "{board}", "15×12"), p.msgs()["coach.classical"]
	if network15 {
		evalText, coachText = p.msgs()["eval.none"], p.msgs()["coach.wide"]
	}
	if got := p.text("evaltext"); got != evalText {
		t.Errorf("on 15x12 the evaluation reads %q, want %q", got, evalText)
	}
	// The coach needs a win probability and a board up to 8x8: turned on
	// here, it says it stays silent.
	p.click("#coach")
	if got := p.text("note"); got != coachText {
		t.Errorf("the coach turned on for 15x12 says %q, want %q", got, coachText)
	}
	p.click("#coach")
	// At medium the level's words above 8x8 (no endgame solver there) do
	// not say it plays the endgame perfectly.
	v := p.version()
	p.eval(`(() => { const l = document.getElementById("level"); l.value = "medium"; l.dispatchEvent(new Event("change")); return ""; })()`)
	p.settle(v)
	levelWords := p.msgs()["level.about.medium.wide"]
	if got := p.text("levelabout"); got != levelWords {
		t.Errorf("medium on 15x12 is described as %q, want %q", got, levelWords)
	}
	v = p.version()
	p.eval(`(() => { const l = document.getElementById("level"); l.value = "newcomer"; l.dispatchEvent(new Event("change")); return ""; })()`)
	p.settle(v)
	p.playFirst()
	moves := p.eval(`konane.state.moves.join(" ")`)
	if got, want := p.eval(`String(konane.state.moves.length) + " " + Boolean(konane.state.classical)`), fmt.Sprintf("2 %v", !network15); got != want {
		t.Fatalf("after a move on 15x12: %s, want %s (moves %s)", got, want, moves)
	}
	href := p.eval(`location.href`)
	if !strings.Contains(href, "#g=2.15x12gb.newcomer.0.") || !strings.HasSuffix(href, strings.ReplaceAll(moves, " ", ".")) {
		t.Fatalf("the address %s does not hold the 15x12 game %s", href, moves)
	}
	q := tab(t, browser, ts, "en-US,en", false)
	q.load(strings.TrimPrefix(href, ts.url))
	if got := q.eval(`konane.state.moves.join(" ") + " " + konane.state.game.board + " " + document.getElementById("size").value`); got != moves+" 15x12 15x12" {
		t.Errorf("the 15x12 link opens %q, want %q 15x12 15x12", got, moves)
	}
	// The page's codes: the board of a version 2 code as the server
	// names it, written back the same; version 1 where it was written.
	sctx, cancel := context.WithTimeout(q.ctx, 20*time.Second)
	defer cancel()
	codes, err := chromedp.Run(sctx, chromedp.Evaluate[string](`import("./gamecode.js").then(({gameCode}) =>
		["2.9x8rw.easy.2.e4.e5.resign", "2.7x6gb.hard.0.c3-c5", "2.5x4rb.easy.0", "2.16x16rb.easy.0", "2.8x8rb.easy.0.d5", "1.8b.medium.0.d5"]
			.map((c) => { const g = gameCode.decode(c); return (g.board || g.size) + " " + gameCode.encode(g); }).join(", "))`, chromedp.EvalAwaitPromise))
	if want := "9x8/removal 2.9x8rw.easy.2.e4.e5.resign, 7x6 2.7x6gb.hard.0.c3-c5, 5x4/removal 2.5x4rb.easy.0, 16 2.16x16rb.easy.0, 8 1.8b.easy.0.d5, 8 1.8b.medium.0.d5"; err != nil || codes != want {
		t.Errorf("the page's game codes: %q, %v; want %q", codes, err, want)
	}
	for _, phone := range []bool{false, true} {
		p := tab(t, browser, ts, "en-US,en", phone)
		p.load("/")
		for _, board := range []string{"7x6", "15x12", "16x16"} {
			start(p, board)
			var w, h int
			fmt.Sscanf(board, "%dx%d", &w, &h)
			if n := p.count(".sq"); n != w*h {
				t.Fatalf("a %s board with %d squares", board, n)
			}
			if got := p.eval(`Array.from(document.querySelectorAll("#board .coord")).map(e => e.textContent).join(" ")`); got != coords(w, h) {
				t.Errorf("%s: coordinates %q", board, got)
			}
			side := 0
			fmt.Sscan(p.eval(`String(Math.floor(Math.min(...Array.from(document.querySelectorAll("#board .sq")).map(e => Math.min(e.getBoundingClientRect().width, e.getBoundingClientRect().height)))))`), &side)
			if side < 22 {
				t.Errorf("%s (phone %v): squares of %d px, want at least 22", board, phone, side)
			}
			// Every file as wide as the others, and coordinates of at
			// least 11 px (legible on a phone).
			if got := p.eval(`(() => { const ws = Array.from(document.querySelectorAll("#board .sq")).map(e => e.getBoundingClientRect().width);
				const fs = Array.from(document.querySelectorAll("#board .coord")).map(e => parseFloat(getComputedStyle(e).fontSize));
				return (Math.max(...ws) - Math.min(...ws) <= 1 ? "even" : "uneven " + Math.min(...ws) + "-" + Math.max(...ws)) + " " + (Math.min(...fs) >= 11 ? "legible" : Math.min(...fs) + "px"); })()`); got != "even legible" {
				t.Errorf("%s (phone %v): squares and coordinates %s", board, phone, got)
			}
			if w := p.eval(`String(document.documentElement.scrollWidth <= window.innerWidth)`); w != "true" {
				t.Errorf("%s (phone %v): the page scrolls sideways", board, phone)
			}
			name := "boards-" + board + "-desktop"
			if phone {
				name = "boards-" + board + "-phone"
			}
			p.screenshot(name)
		}
	}
}

// browserWideNet: with a multi-board model trained on 9x8, the page
// plays 9x8 with its network: no word of the classical engine, the
// evaluation bar shown after the computer's moves, and the coach, turned
// on, says that it judges moves only on the boards up to 8x8.
func browserWideNet(t *testing.T, browser context.Context) {
	es := agenttest.RunMultiBoard(t, rules.SquareBoard(8), rules.Board{W: 9, H: 8, Start: rules.Gap})
	ts := newTestServer(t, Config{API: api.Config{Engines: es, TrustedProxies: loopback}})
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	p.eval(`document.getElementById("size").value = "9x8"; document.getElementById("level").value = "casual"; document.getElementById("color").value = "white"; ""`)
	v := p.version()
	p.click("#new")
	p.settle(v)
	state := `String(konane.state.moves.length) + " " + !!konane.state.classical + " " + !!konane.state.noCoach + " " + document.getElementById("evalbar").hidden`
	if got := p.eval(state); got != "1 false true false" {
		t.Fatalf("a new 9x8 game, the computer to open: moves, classical, noCoach, bar hidden %s", got)
	}
	if got := p.text("evaltext"); got == "" || strings.Contains(got, "classical") {
		t.Errorf("on 9x8 with its network the evaluation reads %q", got)
	}
	p.click("#coach")
	if got := p.text("note"); got != p.msgs()["coach.wide"] {
		t.Errorf("the coach turned on for 9x8 says %q", got)
	}
	p.screenshot("widenet-9x8-coach")
	p.click("#coach")
	p.playFirst()
	if got := p.eval(state); got != "3 false true false" {
		t.Errorf("after a move on 9x8: moves, classical, noCoach, bar hidden %s", got)
	}
}

// coords are the coordinates a w×h board shows from Black's side: the
// ranks down file a (each rank's number on its first square), a1 also
// its file, then the files along rank 1.
func coords(w, h int) string {
	var out []string
	for rank := h; rank >= 1; rank-- {
		out = append(out, fmt.Sprint(rank))
		if rank == 1 {
			for col := 0; col < w; col++ {
				out = append(out, string(rune('a'+col)))
			}
		}
	}
	return strings.Join(out, " ")
}

// browserLevels: after three games lost in a row (here resigned) the
// page offers the level below, not before; its button starts a game at
// that level, described under the level's menu.
func browserLevels(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	for i := range 3 {
		p.eval(`document.getElementById("size").value = "6x6"; document.getElementById("level").value = "casual"; document.getElementById("color").value = "black"; ""`)
		v := p.version()
		p.click("#new")
		p.settle(v)
		p.click("#resign") // arms it
		v = p.version()
		p.click("#resign") // confirms
		p.settle(v)
		if got, want := p.eval(`String(document.getElementById("levelsuggest").hidden)`), fmt.Sprint(i < 2); got != want {
			t.Fatalf("after %d games lost the suggestion is hidden: %s, want %s", i+1, got, want)
		}
	}
	msgs := p.msgs()
	name := strings.NewReplacer("{n}", "2", "{level}", msgs["level.beginner"]).Replace(msgs["level.option"])
	if want := strings.ReplaceAll(msgs["level.suggestDown"], "{level}", name); p.text("note") != want {
		t.Errorf("after three losses the page says %q, want %q", p.text("note"), want)
	}
	if want := strings.ReplaceAll(msgs["level.suggestPlay"], "{level}", name); p.text("levelsuggest") != want {
		t.Errorf("the suggestion's button reads %q, want %q", p.text("levelsuggest"), want)
	}
	v := p.version()
	p.click("#levelsuggest")
	p.settle(v)
	if got := p.eval(`konane.state.level + " " + konane.state.moves.length + " " + document.getElementById("levelsuggest").hidden`); got != "beginner 0 true" {
		t.Errorf("the suggested game: %s, want a new game at beginner", got)
	}
	if got, want := p.text("levelabout"), msgs["level.about.beginner"]; got != want {
		t.Errorf("the level is described as %q, want %q", got, want)
	}
	// On 6x6 the levels from steady up play the solver's moves from early
	// on (agent.Level.PerfectionOn): the description says so.
	v = p.version()
	p.eval(`const l = document.getElementById("level"); l.value = "medium"; l.dispatchEvent(new Event("change")); ""`)
	p.settle(v)
	early := strings.NewReplacer("{board}", "6×6", "{from}", msgs["level.steady"]).Replace(msgs["level.perfect.early"])
	if got, want := p.text("levelabout"), msgs["level.about.medium"]+" "+early; got != want {
		t.Errorf("medium on 6x6 is described as %q, want %q", got, want)
	}
	p.screenshot("levels-6x6-medium")
}

// browserBusy: a request the server refuses with 429 (this client's other
// requests still running: the page's review and its next move from one
// address) waits as Retry-After says and is sent again; a refusal that
// would keep the page waiting over a minute is shown at once. The
// server's 429 is stood in for by the page's fetch, so that the test
// does not depend on two searches overlapping.
func browserBusy(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	const refuse = `window.realFetch = window.realFetch || window.fetch;
		window.refusals = %d;
		window.fetch = (...args) => window.refusals-- > 0
			? Promise.resolve(new Response(JSON.stringify({code: "error.clientBusy", error: "busy"}), {status: 429, headers: {"Retry-After": "%d"}}))
			: window.realFetch(...args);
		import("./api.js").then(m => {
			const t0 = Date.now();
			return m.api("api/v2/config").then(c => "ok " + (c.levels ? "config" : "?") + " " + Math.round((Date.now() - t0) / 1000), e => "error " + e.m.code);
		})`
	async := func(expr string) string {
		t.Helper()
		sctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
		defer cancel()
		out, err := chromedp.Run(sctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%.60s: %v", expr, err)
		}
		return out
	}
	if got := async(fmt.Sprintf(refuse, 2, 1)); got != "ok config 2" {
		t.Errorf("two 429s with Retry-After 1: %q, want the answer after 2 s", got)
	}
	if got := async(fmt.Sprintf(refuse, 1, 120)); got != "error error.clientBusy" {
		t.Errorf("a 429 with Retry-After 120: %q, want the refusal shown at once", got)
	}
}

// gameUnderWay opens the page in a new English tab, starts a new game
// and plays its first two moves (the human's, each answered).
func gameUnderWay(t *testing.T, browser context.Context, ts *testServer) *page {
	t.Helper()
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	p.newGame(p.click)
	for range 2 {
		p.playFirst()
	}
	return p
}

// browserLink: the game lives in the page's address (#g=...): a reload
// and the same address opened elsewhere (a shared link, another browser
// context without the tab's storage) show the same game, which goes on.
func browserLink(t *testing.T, browser context.Context, ts *testServer) {
	p := gameUnderWay(t, browser, ts)
	href, moves := p.eval(`location.href`), p.eval(`konane.state.moves.join(" ")`)
	if !strings.Contains(href, "#g=1.6b.easy.0.") || !strings.HasSuffix(href, strings.ReplaceAll(moves, " ", ".")) {
		t.Fatalf("the address %s does not hold the game %s", href, moves)
	}
	path := strings.TrimPrefix(href, ts.url)
	// Sound on and dark colours are kept by the browser, over a reload.
	p.click("#sound")
	p.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return ""; })()`)
	p.step("reloading", chromedp.Reload())
	p.waitFor(`document.body.dataset.busy === "false" && document.body.dataset.version !== "0" && document.querySelector(".sq") !== null`)
	if got := p.eval(`konane.state.moves.join(" ")`); got != moves {
		t.Errorf("after a reload: moves %q, want %q", got, moves)
	}
	if got := p.eval(`[document.getElementById("sound").checked, document.getElementById("theme").value, document.documentElement.dataset.theme].join(" ")`); got != "true dark dark" {
		t.Errorf("after a reload: sound, colours chosen and shown: %s", got)
	}
	// The page asks for the evaluation the reload lost: the bar is not
	// "no evaluation yet" (the computer has moved), and it names the
	// computer's last move.
	p.evaluated()
	// A move with the sound on (made by the page, no file to load).
	p.playFirst()
	p.still()
	q := tab(t, browser, ts, "en-US,en", false)
	q.load(path)
	if got := q.eval(`konane.state.moves.join(" ") + " " + konane.state.human + " " + konane.state.level`); got != moves+" black easy" {
		t.Errorf("the shared link shows %q, want %q black easy", got, moves)
	}
	q.evaluated()
	q.playFirst()
	if n := len(strings.Fields(q.eval(`konane.state.moves.join(" ")`))); n != len(strings.Fields(moves))+2 && q.eval(`String(konane.state.over)`) != "true" {
		t.Errorf("the shared game did not go on: %d moves after %d", n, len(strings.Fields(moves)))
	}
}

// evaluated waits for the evaluation of a game opened with the human to
// move, and checks the bar shows it, after the computer's last move.
func (p *page) evaluated() {
	p.t.Helper()
	msgs := p.msgs()
	// The search's figure (a proof that a side wins, from the openings
	// table, may stand there before it).
	p.waitFor(fmt.Sprintf(`document.getElementById("evaltext").textContent !== %q && !document.getElementById("evaltext").textContent.endsWith(%q) && /[0-9]+\s?%%/.test(document.getElementById("evaltext").textContent)`, msgs["eval.none"], msgs["eval.asking"]))
	last := p.eval(`konane.state.moves[konane.state.moves.length - 1]`)
	if text := p.text("evaltext"); !strings.Contains(text, last) || !regexp.MustCompile(`[0-9]+%`).MatchString(text) {
		p.t.Errorf("the evaluation of the opened game reads %q, want a %% and the computer's move %s", text, last)
	}
	if now := p.eval(`document.getElementById("evalbar").getAttribute("aria-valuenow")`); now == "" {
		p.t.Error("the evaluation bar has no value")
	}
}

// browserHashChange: a game's link pasted into the address of an open tab
// opens that game (hashchange), and the next move goes on from it, not
// from the game shown before; a link that cannot be read says so and
// keeps the game.
func browserHashChange(t *testing.T, browser context.Context, ts *testServer) {
	p := gameUnderWay(t, browser, ts)
	moves := strings.Fields(p.eval(`konane.state.moves.join(" ")`))
	// The same game cut after the first pair: Black to move again.
	other := "1.6b.easy.0." + moves[0] + "." + moves[1]
	v := p.version()
	p.eval(fmt.Sprintf(`location.hash = "#g=%s"; ""`, other))
	p.settle(v)
	if got := p.eval(`konane.state.moves.join(".")`); got != moves[0]+"."+moves[1] {
		t.Fatalf("after pasting #g=%s the page shows the moves %q", other, got)
	}
	p.evaluated()
	p.playFirst()
	href := p.eval(`location.href`)
	if !strings.Contains(href, "#g="+other+".") {
		t.Errorf("after a move on the pasted game the address is %s, want it to go on from %s", href, other)
	}
	// A link that cannot be read: the error, and the game stays.
	kept := p.eval(`konane.state.moves.join(".")`)
	v = p.version()
	p.eval(`location.hash = "#g=nonsense"; ""`)
	p.waitFor(fmt.Sprintf(`document.body.dataset.version !== %q && document.body.dataset.busy === "false"`, v))
	if e := p.text("error"); e == "" {
		t.Error("a link that cannot be read says nothing")
	}
	if got := p.eval(`konane.state.moves.join(".")`); got != kept || !strings.HasSuffix(p.eval(`location.href`), kept) {
		t.Errorf("after a bad link: moves %q, address %s; want the game %q kept", got, p.eval(`location.href`), kept)
	}
}

// checkCandidateFigures: the review gives each move of the chosen move
// k's candidates one figure, the same on its label on the board and in
// the text, the move played the one its "after" says; the text lists
// them best first; each label has its arrow's colour.
func checkCandidateFigures(t *testing.T, p *page, k int) {
	t.Helper()
	var got struct {
		Played, After string
		Labels        [][3]string // move, text, fill
		Named         [][2]string // move, figure
		Strokes       map[string]string
	}
	js := fmt.Sprintf(`JSON.stringify((() => {
		const m = konane.rv.data.moves[%d];
		const strokes = {};
		for (const g of document.querySelectorAll("#revarrows .arrow")) strokes[g.dataset.move] = getComputedStyle(g.querySelector("line, circle")).stroke;
		return {
			played: m.move, after: String(Math.round(100 * m.after)),
			labels: Array.from(document.querySelectorAll("#revarrows .candlabel")).map(l => [l.dataset.move, l.textContent, getComputedStyle(l).fill]),
			named: Array.from(document.querySelectorAll("#revmove .mv")).map(s => s.textContent.split(" ")).filter(w => w.length === 2),
			strokes: strokes,
		};
	})())`, k-1)
	if err := json.Unmarshal([]byte(p.eval(js)), &got); err != nil {
		t.Fatal(err)
	}
	figure := map[string]string{}
	last := 101
	for _, n := range got.Named {
		f := strings.TrimSuffix(n[1], "%")
		figure[n[0]] = f
		var v int
		fmt.Sscan(f, &v)
		if v > last {
			t.Errorf("move %d: candidates not best first: %v", k, got.Named)
		}
		last = v
	}
	if len(got.Labels) == 0 {
		t.Fatalf("move %d: no candidate labels", k)
	}
	for _, l := range got.Labels {
		if f := strings.TrimSuffix(l[1], "%"); f != figure[l[0]] {
			t.Errorf("move %d: %s is %s%% on the board and %s%% in the text", k, l[0], f, figure[l[0]])
		}
		if l[0] == got.Played && strings.TrimSuffix(l[1], "%") != got.After {
			t.Errorf("move %d: the move played %s is labelled %s, its text says %s%% after", k, l[0], l[1], got.After)
		}
		if l[2] != got.Strokes[l[0]] {
			t.Errorf("move %d: the label of %s in %s, its arrow in %s", k, l[0], l[2], got.Strokes[l[0]])
		}
	}
}

// browserGame plays a whole 6x6 game with the mouse, in English: choose
// the board, the level and the colour, start a new game, then for each
// move click a marked stone (a removal in the opening) or a stone and
// then one of its landing squares, until the game-over message. On the
// way it asks for a hint and takes a move back. Finally the record
// download is the game on the board.
func browserGame(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "en-US,en", false)
	p.load("/")
	if p.lang() != "en" {
		t.Fatalf("page in %q for an English browser", p.lang())
	}
	p.newGame(p.click)
	msgs := p.msgs()
	// Changing the level says so in a sentence with the level's name,
	// not the menu's text with its simulations; the top level too.
	for _, level := range []string{p.eval(`document.getElementById("level").lastElementChild.value`), "easy"} {
		v := p.version()
		p.eval(fmt.Sprintf(`(() => { const l = document.getElementById("level"); l.value = %q; l.dispatchEvent(new Event("change")); return ""; })()`, level))
		p.settle(v)
		if got, want := p.text("note"), strings.ReplaceAll(msgs["status.levelChanged"], "{level}", msgs["level."+level]); got != want {
			t.Errorf("level %s: note %q, want %q", level, got, want)
		}
	}
	// The human's move is on the board at once, while the computer
	// thinks: the clicked stone has landed and no stone is ringed.
	drawnEarly := 0
	pick := func(sel string) {
		t.Helper()
		target := sel == ".sq.target"
		to := ""
		if target {
			to = p.eval(`document.querySelector(".sq.target").dataset.sq`)
		}
		p.click(sel)
		if !target {
			return
		}
		got := p.eval(fmt.Sprintf(`document.body.dataset.busy === "true" ? [document.querySelector('[data-sq=%q] .stone.' + konane.state.human) !== null, document.querySelectorAll(".sq.movable, .sq.selected").length, document.getElementById("hint").disabled].join(" ") : "answered"`, to))
		switch got {
		case "answered":
		case "true 0 true":
			drawnEarly++
		default:
			t.Errorf("while the computer thinks about the reply to the jump to %s: the stone landed, rings, hint disabled: %s", to, got)
		}
	}
	humanMoves := p.playToEnd(pick, func(move int) {
		// The evaluation names the computer's move and then the line it
		// expects after it, which does not start with that move again;
		// every move is a span that does not wrap inside.
		if move > 0 {
			got := p.eval(`Array.from(document.querySelectorAll("#evaltext .mv")).map(s => s.textContent + (getComputedStyle(s).whiteSpace === "nowrap" ? "" : "(wraps)")).join(" ")`)
			ms := strings.Fields(got)
			if len(ms) == 0 || ms[0] != p.eval(`konane.state.eval.agentMove`) || len(ms) > 1 && ms[1] == ms[0] || strings.Contains(got, "(wraps)") {
				t.Errorf("move %d: the moves of the evaluation %q: %s", move, p.text("evaltext"), got)
			}
		}
		switch move {
		case 2: // a hint marks a move on the board
			v := p.version()
			p.click("#hint")
			p.settle(v)
			if !strings.HasPrefix(p.text("hinttext"), "Hint: ") || p.count(".sq.hint") == 0 {
				t.Error("the hint is not shown")
			}
		case 3: // undo takes back the human's last move and the reply
			before := p.count("#moves li")
			v := p.version()
			p.click("#undo")
			p.settle(v)
			if after := p.count("#moves li"); after == before {
				t.Errorf("undo left %d move pairs", after)
			}
		}
	})
	status := p.text("status")
	t.Logf("%d human moves; %s", humanMoves, status)
	if drawnEarly == 0 {
		t.Error("the human's jumps were never seen on the board before the computer's reply")
	}
	// At the end the evaluation is the result, not the last search's.
	won := status == msgs["status.youWin"]
	if got, want := p.eval(`document.getElementById("evalbar").getAttribute("aria-valuenow") + " " + document.getElementById("evaltext").textContent`), map[bool]string{true: "100 " + msgs["eval.won"], false: "0 " + msgs["eval.lost"]}[won]; got != want {
		t.Errorf("the evaluation at the end: %q, want %q", got, want)
	}
	// Game over stands out, and Hint is off.
	if got := p.eval(`document.getElementById("status").className + ", hint " + document.getElementById("hint").disabled + ", undo " + document.getElementById("undo").disabled`); got != "over won, hint true, undo false" && got != "over lost, hint true, undo false" {
		t.Errorf("at the end: status class, hint and undo disabled: %s", got)
	}

	// The record link downloads the game the page shows.
	resp, err := http.Get(p.eval(`document.getElementById("record").href`))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := rules.ParseRecord(text)
	if err != nil {
		t.Fatalf("the downloaded record: %v", err)
	}
	final, err := rec.Final()
	if err != nil {
		t.Fatal(err)
	}
	if final.HasMoves() {
		t.Fatalf("the downloaded game is not over:\n%s", final)
	}
	board := api.BoardRows(final)
	shown := p.eval(`Array.from(document.querySelectorAll(".sq")).map(s => s.querySelector(".black") ? "x" : s.querySelector(".white") ? "o" : ".").join("")`)
	if shown != strings.Join(board, "") {
		t.Errorf("the page shows %s, the record ends with %s", shown, strings.Join(board, ""))
	}
	if w, _ := rec.Winner(); (w == rules.Black) != (status == msgs["status.youWin"]) {
		t.Errorf("record winner %v, page says %q", w, status)
	}
	p.still() // the last moves have moved to their end
	p.screenshot("game-over")
	browserReview(t, p, rec)
	checkOpenings(t, p, 8, "openings-desktop")
	checkOpenings(t, p, 6, "openings-desktop-6x6")
}

// browserReview opens the review of the game just played (rec), clicks
// its worst move in the graph, checks the position and arrows shown, and
// plays on from there.
func browserReview(t *testing.T, p *page, rec *rules.Record) {
	msgs := p.msgs()
	v := p.version()
	p.click("#reviewbtn")
	p.settleWithin(v, 5*time.Minute)
	if p.eval(`document.getElementById("revbody").hidden || document.getElementById("play").offsetParent !== null ? "no" : "yes"`) != "yes" {
		t.Fatal("the review does not show in place of the game")
	}
	n := len(rec.Moves)
	if got := p.count("#revmoves .revmove"); got != n {
		t.Fatalf("the review lists %d moves of %d", got, n)
	}
	if got := p.count("#revgraph .pt"); got != n+1 {
		t.Fatalf("the graph has %d points for %d positions", got, n+1)
	}
	// The same moves are marked in the graph and in the list.
	for _, cls := range []string{"inaccuracy", "mistake", "blunder"} {
		if g, l := p.count("#revgraph .pt."+cls), p.count("#revmoves .revmove."+cls); g != l {
			t.Errorf("%d %ss in the graph, %d in the list", g, cls, l)
		}
	}
	if want := strings.ReplaceAll(strings.ReplaceAll(msgs["review.done"], "{n}", fmt.Sprint(n)), "{sims}", "200"); p.text("revstatus") != want {
		t.Errorf("review status %q, want %q", p.text("revstatus"), want)
	}
	// Click the worst move's point in the graph (a mistake or a blunder,
	// when there is one).
	var k int
	fmt.Sscan(p.eval(`String(konane.rv.data.moves.reduce((a, m) => m.loss > a.loss ? m : a).ply)`), &k)
	worst := p.eval(`(() => { const m = konane.rv.data.moves[` + fmt.Sprint(k-1) + `]; return m.class + " " + m.loss; })()`)
	t.Logf("the worst move: %d. %s (%s)", k, rec.Moves[k-1], worst)
	p.click(fmt.Sprintf(`#revgraph .pt[data-ply="%d"] .hit`, k))
	if got := p.eval(`document.querySelector("#revmoves [aria-current=true]").dataset.ply`); got != fmt.Sprint(k) {
		t.Fatalf("clicking the point of move %d chose move %s", k, got)
	}
	ps, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	shown := p.eval(`Array.from(document.querySelectorAll("#revboard .sq")).map(s => s.querySelector(".black") ? "x" : s.querySelector(".white") ? "o" : ".").join("")`)
	if want := strings.Join(api.BoardRows(ps[k-1]), ""); shown != want {
		t.Errorf("move %d is shown on %s, want the position before it, %s", k, shown, want)
	}
	played := rec.Moves[k-1].String()
	if !strings.Contains(p.text("revmove"), played) || p.count("#revarrows .arrow.played") != 1 {
		t.Errorf("move %d, %s: text %q, %d arrows of the move played", k, played, p.text("revmove"), p.count("#revarrows .arrow.played"))
	}
	best := p.eval(`konane.rv.data.moves[` + fmt.Sprint(k-1) + `].best`)
	if (best != played) != (p.count("#revarrows .arrow.best") == 1) || !strings.Contains(p.text("revmove"), best) {
		t.Errorf("the computer's choice %s (played %s): %d arrows, text %q", best, played, p.count("#revarrows .arrow.best"), p.text("revmove"))
	}
	// ←/→ step through the game from there; the inaccuracies' mark is not
	// round like Black's stones.
	current := func() string { return p.eval(`document.querySelector("#revmoves [aria-current=true]").dataset.ply`) }
	p.press(kb.ArrowRight)
	if want := fmt.Sprint(min(k+1, len(rec.Moves))); current() != want {
		t.Errorf("→ from move %d chose move %s, want %s", k, current(), want)
	}
	p.press(kb.ArrowLeft)
	p.press(kb.ArrowLeft)
	if want := fmt.Sprint(max(k-1, 1)); current() != want {
		t.Errorf("← ← from move %d chose move %s, want %s", min(k+1, len(rec.Moves)), current(), want)
	}
	p.press(kb.ArrowRight)
	if current() != fmt.Sprint(k) {
		t.Errorf("back to move %d: move %s chosen", k, current())
	}
	// The computer's candidates: labelled with their chances on the
	// board, and named under it.
	nc := p.eval(`String(konane.rv.data.moves[` + fmt.Sprint(k-1) + `].candidates.length)`)
	if got := fmt.Sprint(p.count("#revarrows .candlabel")); got != nc || nc == "0" {
		t.Errorf("move %d: %s candidate labels on the board, %s candidates", k, got, nc)
	}
	if want := strings.Split(msgs["review.candidates"], "{list}")[0]; !strings.Contains(p.text("revmove"), want) {
		t.Errorf("the move's text %q does not name the candidates (%q)", p.text("revmove"), want)
	}
	checkCandidateFigures(t, p, k)
	if n := p.count("#revgraph .pt.inaccuracy circle.mark"); n != 0 {
		t.Errorf("%d inaccuracies marked by a circle, like Black's stones", n)
	}
	checkReviewNumbers(t, p)
	p.screenshot("review-desktop")
	p.step("scrolling to the move", chromedp.Evaluate[chromedp.Void](`document.getElementById("revmove").scrollIntoView()`))
	p.screenshot("review-desktop-move")
	checkVariation(t, p, ps[k-1], "review-variation")

	// Play on from the position before that move: the human is the side
	// that was to move there.
	v = p.version()
	p.click("#playon")
	p.settle(v)
	var got struct {
		Moves []string
		Start int
		Human string
		Turn  string
	}
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify({moves: konane.state.moves, start: konane.state.start || 0, human: konane.state.human, turn: konane.state.turn})`)), &got); err != nil {
		t.Fatal(err)
	}
	if want := strings.Fields(rules.MovesText(rec.Moves[:k-1])); strings.Join(got.Moves, " ") != strings.Join(want, " ") || got.Start != k-1 || got.Human != got.Turn || got.Human != ps[k-1].Turn.String() {
		t.Fatalf("played on from move %d: %+v, want moves %v and %v to move", k, got, want, ps[k-1].Turn)
	}
	if p.eval(`document.getElementById("review").hidden && document.getElementById("play").offsetParent !== null ? "yes" : "no"`) != "yes" {
		t.Error("playing on does not go back to the game")
	}
	// One move from there: the game goes on against the computer.
	p.playFirst()
	if got := p.count("#moves li"); got*2 < k {
		t.Errorf("after a move from move %d the list has %d pairs", k, got)
	}

	// A record file chosen in "Review a record…" is reviewed at once.
	data, err := rec.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.click("#reviewrecord")
	v = p.version()
	p.step("choosing the record file", chromedp.SetUploadFiles(chromedp.CSS("#revfile"), []string{file}))
	p.settle(v)
	if got := p.count("#revmoves .revmove"); got != n || p.eval(`konane.rv.data.human || "none"`) != "none" {
		t.Errorf("the record file's review lists %d moves of %d", got, n)
	}
}

// browserLanguages plays a game in each other language: German and
// Swedish chosen by the browser's Accept-Language, Italian and Portuguese
// by the page's switch (which the page then remembers). On the way it
// checks that every text on the page is the language's, and the names
// screen readers get.
func browserLanguages(t *testing.T, browser context.Context, ts *testServer) {
	for _, tc := range []struct{ lang, accept, pick string }{
		{"de", "de-DE,de,en", ""},
		{"sv", "sv-SE,sv", ""},
		{"it", "en-US,en", "Italiano"},
		{"pt-BR", "fr-FR,fr", "Português (Brasil)"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel() // each in a tab and browser context of its own
			p := tab(t, browser, ts, tc.accept, false)
			p.load("/")
			if tc.pick != "" {
				if p.lang() == tc.lang {
					t.Fatalf("the page is in %s before the switch", tc.lang)
				}
				// Choose the language in the switch, as with the keyboard.
				p.step("focusing the switch", chromedp.Focus(chromedp.ID("lang")))
				p.press(tc.pick[:1])
				p.waitFor(fmt.Sprintf(`document.documentElement.lang === %q && document.body.dataset.busy === "false" && document.body.dataset.version !== "0"`, tc.lang))
				// The choice is remembered: the address without ?lang=.
				p.load("/")
			}
			if p.lang() != tc.lang {
				t.Fatalf("page in %q, want %s (navigator: %s)", p.lang(), tc.lang, p.eval(`navigator.languages.join(",")`))
			}
			msgs := p.msgs()
			if title := p.eval(`document.title`); title != msgs["page.title"] || p.text("new") != msgs["page.new"] {
				t.Errorf("title %q, New game button %q", title, p.text("new"))
			}
			p.newGame(p.click)
			p.playToEnd(p.click, func(move int) {
				if move == 3 {
					checkAccessibility(t, p)
					p.screenshot("lang-" + tc.lang)
				}
			})
			browserReviewIn(t, p, tc.lang)
			checkOpenings(t, p, 6, "openings-"+tc.lang)
		})
	}
}

// checkAccessibility checks, in the browser's accessibility tree, the
// names of the squares ("d4, black stone, can jump" in the page's
// language), the text equivalent of the evaluation bar and the live
// region that announced the last moves.
func checkAccessibility(t *testing.T, p *page) {
	t.Helper()
	msgs := p.msgs()
	tree, err := chromedp.Call(p.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		json.Unmarshal(v.Value, &s)
		return s
	}
	n := p.count(".sq")
	size := 0
	fmt.Sscan(p.eval(`getComputedStyle(document.getElementById("board")).getPropertyValue("--w")`), &size)
	squareName := regexp.MustCompile(`^([a-h][1-8]), (` + regexp.QuoteMeta(msgs["sq.black"]) + `|` + regexp.QuoteMeta(msgs["sq.white"]) + `|` + regexp.QuoteMeta(msgs["sq.empty"]) + `)(, .*)?$`)
	squares, canJump, meter, live := 0, 0, "", ""
	for _, node := range tree.Nodes {
		role, name := str(node.Role), str(node.Name)
		switch {
		case role == "button" && squareName.MatchString(name):
			squares++
			if strings.Contains(name, ", "+msgs["sq.canJump"]) || strings.Contains(name, ", "+msgs["sq.canRemove"]) {
				canJump++
			}
		case role == "meter":
			// Chromium's tree gives the number, not aria-valuetext
			// (checked on the element below).
			meter = name + ": " + string(node.Value.Value)
		}
		for _, prop := range node.Properties {
			if prop.Name == "live" && str(prop.Value) == "polite" && live == "" {
				live = p.text("announce")
			}
		}
	}
	if squares != n || n != size*size {
		t.Errorf("%d of the %d squares (%dx%d) have a name like \"d4, %s, %s\"", squares, n, size, size, msgs["sq.black"], msgs["sq.canJump"])
	}
	if canJump != p.count(".sq.movable") || canJump == 0 {
		t.Errorf("%d squares are named as movable, %d are marked", canJump, p.count(".sq.movable"))
	}
	p100 := p.eval(`document.getElementById("evalbar").getAttribute("aria-valuenow")`)
	valueText := p.eval(`document.getElementById("evalbar").getAttribute("aria-valuetext")`)
	// The value's text is the figure, and where a side is proven to win
	// with perfect play, that sentence too (the bar's text starts with it).
	figure := strings.ReplaceAll(msgs["eval.value"], "{p}", p100)
	proven := false
	for _, key := range []string{"eval.provenBlack", "eval.provenWhite"} {
		if valueText == figure+". "+msgs[key] && strings.HasPrefix(p.text("evaltext"), msgs[key]) {
			proven = true
		}
	}
	if meter != msgs["eval.label"]+": "+p100 || (valueText != figure && !proven) || !strings.Contains(p.text("evaltext"), p100) {
		t.Errorf("evaluation bar: %q, aria-valuetext %q, text %q", meter, valueText, p.text("evaltext"))
	}
	last := p.eval(`(() => { const m = Array.from(document.querySelectorAll("#moves li")).pop(); return m ? m.textContent.trim().split(/\s+/).pop() : ""; })()`)
	if !strings.Contains(live, last) || !strings.Contains(live, msgs["status.jump"]) {
		t.Errorf("the live region says %q after the move %s", live, last)
	}
}

// browserPhone plays a game on a phone's 390x844 touch screen by taps:
// the board fills the width, every square and button is at least 44 px,
// nothing scrolls sideways, the evaluation bar is above the board, the
// buttons under it within the first screen, then the moves as a strip;
// the review shows its graph above the move's text; a stone chosen says
// tap again to cancel, not Escape.
func browserPhone(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "pt-BR,pt", true)
	p.load("/")
	check := func(when string) {
		t.Helper()
		if w := p.eval(`String(document.documentElement.scrollWidth) + " " + String(window.innerWidth)`); w != "390 390" {
			t.Errorf("%s: page width and window width %s: it scrolls sideways", when, w)
		}
		small := p.eval(`Array.from(document.querySelectorAll(".sq, button, select, #record")).filter(e => e.offsetParent !== null).map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.height < 44 || (e.classList.contains("sq") && r.width < 44)).map(([e, r]) => (e.dataset.sq || e.id) + " " + Math.round(r.width) + "x" + Math.round(r.height)).join(", ")`)
		if small != "" {
			t.Errorf("%s: tap targets smaller than 44 px: %s", when, small)
		}
		if w := p.eval(`String(Math.round(Array.from(document.querySelectorAll(".board")).filter(e => e.offsetParent !== null)[0].getBoundingClientRect().width))`); len(w) != 3 || w < "380" {
			t.Errorf("%s: the board is %s px wide on a 390 px screen", when, w)
		}
		if b := p.eval(`String(document.getElementById("actions").getBoundingClientRect().bottom <= 844)`); b != "true" && when != "tutorial" {
			t.Errorf("%s: the buttons are below the first screen", when)
		}
		if when == "review" || when == "tutorial" {
			return
		}
		// A touch screen: no keyboard help; the evaluation bar above
		// the board, with its figure on it when there is one; the
		// moves a strip of one line under the board's buttons; the
		// level menu shows its whole choice.
		if got := p.eval(`(() => { const r = (id) => document.getElementById(id).getBoundingClientRect();
			const pct = document.getElementById("evalpct"), bar = document.getElementById("evalbar");
			const figure = pct.textContent === "" || (getComputedStyle(pct).display !== "none" && pct.textContent === bar.getAttribute("aria-valuenow") + "%");
			const strip = document.querySelectorAll("#moves li").length === 0 || (r("moves").top >= r("actions").bottom && r("moves").height <= 60);
			return [matchMedia("(pointer: coarse)").matches, getComputedStyle(document.getElementById("keys")).display, r("evalbar").bottom <= r("board").top, figure, strip].join(" "); })()`); got != "true none true true true" {
			t.Errorf("%s: a coarse pointer, the keyboard help's display, the evaluation bar above the board, its figure on it, the moves a strip under the buttons: %s", when, got)
		}
		if got := p.eval(`(() => { const s = document.getElementById("level"), c = document.createElement("canvas").getContext("2d"); c.font = getComputedStyle(s).font; return c.measureText(s.options[s.selectedIndex].text).width + 36 <= s.clientWidth ? "fits" : s.options[s.selectedIndex].text + " in " + s.clientWidth + " px"; })()`); got != "fits" {
			t.Errorf("%s: the level menu is cut: %s", when, got)
		}
	}
	check("8x8")
	p.screenshot("phone-8x8")
	p.newGame(p.tap)
	check("6x6")
	dragged := false
	p.playToEnd(p.tap, func(move int) {
		if !dragged && p.eval(`konane.state.phase`) == "jumping" {
			// The first jump by dragging the stone with a finger.
			dragged = true
			from := p.eval(`document.querySelector("#board .sq.movable").dataset.sq`)
			to := p.eval(`konane.state.legal.find(m => m.startsWith(` + fmt.Sprintf("%q", from+"-") + `)).split("-")[1]`)
			n := p.eval(`String(konane.state.moves.length)`)
			v := p.version()
			p.touchDrag(`#board [data-sq="`+from+`"]`, `#board [data-sq="`+to+`"]`)
			p.settle(v)
			if got := p.eval(`konane.state.moves[` + n + `]`); got != from+"-"+to {
				t.Errorf("a finger dragged %s to %s: the move played is %q", from, to, got)
			}
			// A tap at once after a touch drag was lost in Chromium's
			// touch emulation (taps while the reply moves are not: the
			// other moves are tapped at once), so the next tap waits
			// until the reply has moved, as a player's would.
			p.waitFor(`(document.body.dataset.moving || "0") === "0"`)
		}
		if move == 3 {
			p.waitFor(`(document.body.dataset.moving || "0") === "0"`)
			check("6x6 after moves") // the moves' strip holds them without widening the page
			// A stone chosen on a touch screen: tap it again to cancel
			// (no Escape); chosen again, and cancelled.
			sq := p.eval(`(() => { const b = document.querySelector("#board .sq.movable"); b.click(); return b.dataset.sq; })()`)
			if got, want := p.text("announce"), strings.ReplaceAll(p.msgs()["announce.selectedTouch"], "{square}", sq); got != want {
				t.Errorf("a stone chosen on a touch screen: %q, want %q", got, want)
			}
			p.eval(`document.querySelector('#board [data-sq="` + sq + `"]').click(); ""`)
			if p.count(".sq.selected") != 0 {
				t.Error("a second tap on the chosen stone does not cancel it")
			}
			p.screenshot("phone-6x6")
			// Dark, and the controls further down.
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return ""; })()`)
			p.screenshot("phone-6x6-dark")
			p.step("scrolling to the controls", chromedp.Evaluate[chromedp.Void](`document.getElementById("moves").scrollIntoView()`))
			p.screenshot("phone-controls-dark")
			p.step("scrolling up", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
			p.eval(`(() => { const s = document.getElementById("theme"); s.value = "auto"; s.dispatchEvent(new Event("change")); return ""; })()`)
		}
	})
	// A record uploaded (pasted) is reviewed; the review fits the phone.
	resp, err := http.Get(p.eval(`document.getElementById("record").href`))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	p.tap("#reviewrecord")
	if p.eval(`document.getElementById("upload").open && document.getElementById("revbody").hidden ? "yes" : "no"`) != "yes" {
		t.Error("Review a record does not open the upload form")
	}
	quoted, _ := json.Marshal(string(text))
	p.eval(`document.getElementById("revtext").value = ` + string(quoted) + `; ""`)
	v := p.version()
	p.tap("#revsend")
	p.settle(v)
	if n := p.count("#revmoves .revmove"); n == 0 || p.count("#revboard .sq") != 36 || p.eval(`konane.rv.data.human || "none"`) != "none" {
		t.Errorf("the uploaded record's review: %d moves, %d squares", n, p.count("#revboard .sq"))
	}
	check("review")
	if got := p.eval(`String(document.getElementById("revgraphbox").getBoundingClientRect().bottom <= document.getElementById("revmove").getBoundingClientRect().top)`); got != "true" {
		t.Error("review: the graph is not above the move's text")
	}
	p.step("scrolling to the review", chromedp.Evaluate[chromedp.Void](`document.getElementById("revtitle").scrollIntoView()`))
	p.screenshot("review-phone")
	p.step("scrolling to the graph", chromedp.Evaluate[chromedp.Void](`document.getElementById("revgraphbox").scrollIntoView()`))
	p.screenshot("review-phone-graph")
	p.eval(`(() => { const s = document.getElementById("theme"); s.value = "dark"; s.dispatchEvent(new Event("change")); return ""; })()`)
	p.screenshot("review-phone-graph-dark")
	p.eval(`(() => { const s = document.getElementById("theme"); s.value = "auto"; s.dispatchEvent(new Event("change")); return ""; })()`)
	p.tap("#revclose")
	// The tutorial fits the phone too.
	p.step("scrolling up", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	p.tap("#learn")
	p.waitFor(`document.querySelectorAll("#tutboard .sq").length === 36`)
	p.tap(`#tutboard .sq[data-sq="b1"]`) // a white stone: explained
	if p.text("tutfeedback") != p.msgs()["tut.wrong.notYoursBlack"] {
		t.Errorf("a tap on a white stone in the tutorial: %q", p.text("tutfeedback"))
	}
	check("tutorial")
	p.screenshot("phone-tutorial")

}

// browserKeyboard plays a game by keyboard only: Tab to the controls and
// the board, the arrow keys over it, Enter to choose a stone and its
// landing square, Escape to cancel a choice; the focus is visible
// throughout.
func browserKeyboard(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "sv", false)
	p.load("/")
	// The settings by keyboard: board 6x6 (the third entry, 8x8, then
	// up twice to the first, AbstractPlay's default), the easiest level
	// (the first), Black; then the New game button.
	p.tabTo("#size", false)
	p.press(kb.Home)
	p.press(kb.ArrowDown)
	p.press(kb.ArrowDown)
	p.press(kb.ArrowUp)
	p.press(kb.ArrowUp)
	p.tabTo("#level", false)
	v := p.version()
	p.press(kb.Home)
	p.settle(v) // the level of the game in progress changes too
	if got := p.eval(`document.getElementById("size").value + " " + document.getElementById("level").value`); got != "6x6 newcomer" {
		t.Fatalf("settings by keyboard: %s", got)
	}
	// The level applies at once, the board size from the next game: both
	// are said.
	if want := strings.ReplaceAll(p.msgs()["status.levelChanged"], "{level}", p.msgs()["level.newcomer"]); p.text("note") != want || p.text("announce") != want {
		t.Errorf("after a level change the page says %q and announces %q, want %q", p.text("note"), p.text("announce"), want)
	}
	// The level is described in words under its menu.
	if got, want := p.text("levelabout"), p.msgs()["level.about.newcomer"]; got != want || want == "" {
		t.Errorf("the level is described as %q, want %q", got, want)
	}
	p.tabTo("#new", true)
	v = p.version()
	p.press(kb.Enter)
	p.settle(v)
	if n := p.count(".sq"); n != 36 {
		t.Fatalf("a 6x6 board with %d squares", n)
	}
	p.tabTo(".sq", true)
	p.playToEnd(p.key, func(move int) {
		if move != 2 {
			return
		}
		// Escape cancels the choice of a stone.
		p.key(".sq.movable")
		if p.count(".sq.selected") != 1 {
			t.Fatal("Enter on a stone that can jump does not select it")
		}
		p.press(kb.Escape)
		if p.count(".sq.selected") != 0 || p.text("announce") != p.msgs()["announce.cancelled"] {
			t.Errorf("Escape: %d selected, announced %q", p.count(".sq.selected"), p.text("announce"))
		}
		p.screenshot("keyboard")
	})
}

// browserTutorial walks through "Learn the rules" in German: in each step
// it makes the wrong clicks a beginner makes, checks the explanation of
// each, then does the task; at the end "play the computer" starts a 6x6
// game at the easiest level.
func browserTutorial(t *testing.T, browser context.Context, ts *testServer) {
	p := tab(t, browser, ts, "de-DE,de", false)
	p.load("/")
	msgs := p.msgs()
	p.click("#learn")
	p.waitFor(`!document.getElementById("tutorial").hidden && document.querySelectorAll("#tutboard .sq").length === 36`)
	if p.eval(`document.activeElement.id`) != "tuttitle" {
		t.Error("opening the tutorial does not move the focus to its title")
	}
	type click struct{ sq, want string } // want: the key of the feedback
	const sel = "announce.selected"
	for i, step := range []struct {
		title  string
		clicks []click
	}{
		{"tut.board.title", []click{{"b1", "tut.wrong.notYoursBlack"}, {"a1", "tut.board.done"}}},
		{"tut.removeBlack.title", []click{{"b2", "tut.wrong.removeBlack"}, {"c2", "tut.wrong.notYoursBlack"}, {"d4", "tut.removeBlack.done"}}},
		{"tut.removeWhite.title", []click{{"b1", "tut.wrong.removeWhite"}, {"a1", "tut.wrong.notYoursWhite"}, {"d4", "tut.wrong.empty"}, {"d5", "tut.removeWhite.done"}}},
		{"tut.jump.title", []click{{"d5", "tut.wrong.empty"}, {"a1", "tut.wrong.cannotJump"}, {"b4", sel}, {"b5", "tut.wrong.notLanding"}, {"d4", "tut.jump.done"}}},
		{"tut.double.title", []click{{"a2", sel}, {"b3", "tut.wrong.diagonal"}, {"c4", "tut.wrong.turn"}, {"c2", "tut.double.wrong"}, {"e2", "tut.double.done"}}},
		{"tut.must.title", []click{{"b2", "tut.wrong.cannotJump"}, {"b1", "tut.wrong.notYoursBlack"}, {"c4", sel}, {"e4", "tut.must.done"}}},
		{"tut.lose.title", []click{{"a4", sel}, {"a6", "tut.lose.wrong"}, {"d2", sel}, {"d4", "tut.lose.done"}}},
	} {
		if got := p.text("tuttitle"); got != msgs[step.title] {
			t.Fatalf("step %d: title %q, want %q", i+1, got, msgs[step.title])
		}
		if want := strings.NewReplacer("{n}", fmt.Sprint(i+1), "{total}", "8").Replace(msgs["tut.step"]); p.text("tutstep") != want {
			t.Errorf("step %d: %q", i+1, p.text("tutstep"))
		}
		if marked := p.eval(`Array.from(document.querySelectorAll("#tutboard .sq.marked")).map(e => e.getAttribute("aria-label")).join("; ")`); i > 0 && !strings.Contains(marked, ", "+msgs["sq.marked"]) {
			t.Errorf("step %d: marked squares named %q", i+1, marked)
		}
		for _, c := range step.clicks {
			p.click(`#tutboard .sq[data-sq="` + c.sq + `"]`)
			want := strings.ReplaceAll(msgs[c.want], "{square}", c.sq)
			if got := p.text("tutfeedback"); got != want {
				t.Errorf("step %d, click on %s: %q, want %q", i+1, c.sq, got, want)
			}
			if c.want == "tut.wrong.turn" || c.want == "tut.double.wrong" {
				p.screenshot(fmt.Sprintf("tutorial-%d-%s", i+1, c.sq))
			}
		}
		p.screenshot(fmt.Sprintf("tutorial-%d", i+1))
		p.click("#tutnext")
	}
	if p.text("tuttitle") != msgs["tut.play.title"] || p.eval(`document.getElementById("tutplay").offsetParent !== null && document.getElementById("tutboard").offsetParent === null ? "shown" : "hidden"`) != "shown" {
		t.Fatalf("the tutorial does not end with %q", msgs["tut.play.button"])
	}
	p.screenshot("tutorial-8")
	v := p.version()
	p.click("#tutplay")
	p.settle(v)
	if got := p.eval(`document.getElementById("tutorial").hidden + " " + document.querySelectorAll("#board .sq").length + " " + document.getElementById("level").value + " " + document.getElementById("status").textContent`); got != "true 36 newcomer "+msgs["status.removeBlack"] {
		t.Errorf("after the tutorial: %s", got)
	}
	// Black is lost with perfect play on 6x6 (solver.KnownWinner), and the
	// page says so from the first move; the game is at the weakest level,
	// one a newcomer can win.
	if got := p.text("evaltext"); !strings.HasPrefix(got, msgs["eval.provenWhite"]) {
		t.Errorf("the tutorial's game says %q at its start, want it to begin %q", got, msgs["eval.provenWhite"])
	}
}

// browserReviewIn reviews the game just played in the page's language:
// the candidates on the board and named under it, ←/→, the moves
// numbered by pairs, and a variation played in place.
func browserReviewIn(t *testing.T, p *page, lang string) {
	t.Helper()
	msgs := p.msgs()
	var moves []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify(konane.state.moves)`)), &moves); err != nil {
		t.Fatal(err)
	}
	v := p.version()
	p.click("#reviewbtn")
	p.settleWithin(v, 5*time.Minute)
	if got := p.count("#revmoves .revmove"); got != len(moves) {
		t.Fatalf("%s: the review lists %d moves of %d", lang, got, len(moves))
	}
	// A jump of the middle of the game, chosen in the list.
	k := len(moves) / 2
	p.click(fmt.Sprintf(`#revmoves .revmove[data-ply="%d"]`, k))
	current := func() string { return p.eval(`document.querySelector("#revmoves [aria-current=true]").dataset.ply`) }
	if current() != fmt.Sprint(k) {
		t.Fatalf("%s: clicking move %d chose %s", lang, k, current())
	}
	nc := p.eval(fmt.Sprintf(`String((konane.rv.data.moves[%d].candidates || []).length)`, k-1))
	if got := fmt.Sprint(p.count("#revarrows .candlabel")); got != nc || nc == "0" {
		t.Errorf("%s: move %d: %s candidate labels, %s candidates", lang, k, got, nc)
	}
	if want := strings.Split(msgs["review.candidates"], "{list}")[0]; !strings.Contains(p.text("revmove"), want) {
		t.Errorf("%s: the move's text %q does not name the candidates (%q)", lang, p.text("revmove"), want)
	}
	// The candidates' moves as written (copied, they read back as moves),
	// each kept whole with its chance, in the language's percent format.
	first := p.eval(fmt.Sprintf(`konane.rv.data.moves[%d].candidates[0].move + " " + Math.round(100 * konane.rv.data.moves[%d].candidates[0].winrate)`, k-1, k-1))
	if want := strings.Replace(msgs["eval.value"], "{p}", strings.SplitN(first, " ", 2)[1], 1); !strings.Contains(p.text("revmove"), strings.SplitN(first, " ", 2)[0]+" "+want) || strings.Contains(p.text("revmove"), "\u2011") {
		t.Errorf("%s: the candidates in %q: want %q as written", lang, p.text("revmove"), strings.SplitN(first, " ", 2)[0]+" "+want)
	}
	p.press(kb.ArrowRight)
	if current() != fmt.Sprint(k+1) {
		t.Errorf("%s: → from move %d chose %s", lang, k, current())
	}
	p.press(kb.ArrowLeft)
	if current() != fmt.Sprint(k) {
		t.Errorf("%s: ← back to move %d chose %s", lang, k, current())
	}
	checkReviewNumbers(t, p)
	ps := rules.NewPosition(6)
	for _, m := range moves[:k-1] {
		mv, err := rules.ParseMove(ps, m)
		if err != nil {
			t.Fatal(err)
		}
		ps = ps.Play(mv)
	}
	checkVariation(t, p, ps, "review-variation-"+lang)
	p.click("#revclose")
}

// checkReviewNumbers: the review numbers moves by pairs with the side,
// as records do ("3. f6-d6", "3... a6-c6"), in the list, the move's text
// and the graph's points.
func checkReviewNumbers(t *testing.T, p *page) {
	t.Helper()
	msgs := p.msgs()
	var labels []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify(Array.from(document.querySelectorAll("#revmoves .revmove > span:first-child")).map(e => e.textContent))`)), &labels); err != nil {
		t.Fatal(err)
	}
	for i, l := range labels {
		n, dots := (i+2)/2, "."
		if i%2 == 1 {
			dots = "..."
		}
		if want := fmt.Sprintf("%d%s ", n, dots); !strings.HasPrefix(l, want) {
			t.Errorf("move %d of the list reads %q, want it numbered %q", i+1, l, want)
			break
		}
	}
	k := p.eval(`String(konane.rv.i)`)
	var ply int
	fmt.Sscan(k, &ply)
	key, pair := "review.movedBlack", (ply+1)/2
	if ply%2 == 0 {
		key = "review.movedWhite"
	}
	if want := strings.Split(strings.ReplaceAll(msgs[key], "{n}", fmt.Sprint(pair)), "{move}")[0]; !strings.HasPrefix(p.text("revmove"), want) {
		t.Errorf("move %d's text %q, want it to start %q", ply, p.text("revmove"), want)
	}
	tip := p.eval(`document.querySelector('#revgraph .pt[data-ply="2"] title').textContent`)
	if want := strings.Split(strings.ReplaceAll(msgs["review.pointWhite"], "{n}", "1"), "{move}")[0]; !strings.HasPrefix(tip, want) {
		t.Errorf("the graph's point after White's first move says %q, want %q…", tip, want)
	}
}

// checkVariation plays two moves of a variation on the review's board
// from the position shown (before, that of the chosen move), checks the
// board, the numbered line and the computer's view after each, then ←
// takes them back, the last leaving the variation.
func checkVariation(t *testing.T, p *page, before rules.Position, shot string) {
	t.Helper()
	msgs := p.msgs()
	k := p.eval(`String(konane.rv.i)`)
	board := func() string {
		return p.eval(`Array.from(document.querySelectorAll("#revboard .sq")).map(s => s.querySelector(".black") ? "x" : s.querySelector(".white") ? "o" : ".").join("")`)
	}
	pos := before
	for i := range 2 {
		if !pos.HasMoves() {
			break
		}
		// The first legal move of the rules: its stone, then where it lands.
		m := pos.LegalMoves(nil)[0]
		v := p.version()
		p.click(fmt.Sprintf(`#revboard .sq[data-sq=%q]`, m.From))
		p.settleWithin(v, 2*time.Minute) // the computer's view of the position comes with it
		if !m.IsRemoval() {
			v = p.version()
			p.click(fmt.Sprintf(`#revboard .sq.target[data-sq=%q]`, m.To))
			p.settleWithin(v, 2*time.Minute)
		}
		pos = pos.Play(m)
		if got, want := board(), strings.Join(api.BoardRows(pos), ""); got != want {
			t.Fatalf("variation move %d, %s: the board shows %s, want %s", i+1, m, got, want)
		}
		text := p.text("revmove")
		if n := p.eval(`document.getElementById("revmove").dataset.variation`); n != fmt.Sprint(i+1) || !strings.Contains(text, strings.Split(msgs["review.varLine"], "{moves}")[0]+"") || !strings.Contains(text, m.String()) {
			t.Fatalf("variation move %d, %s: %s moves, text %q", i+1, m, n, text)
		}
		side := "review.varEvalBlack"
		if pos.Turn == rules.White {
			side = "review.varEvalWhite"
		}
		if pos.HasMoves() && (!strings.Contains(text, strings.Split(msgs[side], "{p}")[0]) || p.count("#revarrows .arrow.best") != 1) {
			t.Errorf("variation move %d: the computer's view is missing: %q, %d arrows", i+1, text, p.count("#revarrows .arrow.best"))
		}
		// No empty expected line ("Expected line: ."): the short form
		// when the search has no line after its move.
		if empty := strings.Replace(strings.SplitN(msgs[side], "{move}", 2)[1], "{pv}", "", 1); strings.Contains(text, empty) {
			t.Errorf("variation move %d: an empty expected line in %q", i+1, text)
		}
		if p.eval(`document.getElementById("varback").hidden ? "hidden" : "shown"`) != "shown" {
			t.Error("no way back from the variation")
		}
	}
	p.screenshot(shot)
	// ← takes the variation back: on the board just clicked too (its
	// arrows move between squares only when it was reached by keyboard).
	if p.eval(`document.activeElement.closest("#revboard") ? "board" : "elsewhere"`) != "board" {
		t.Error("after a variation move by clicks the focus is not on the review board")
	}
	for range 2 {
		p.press(kb.ArrowLeft)
	}
	if got, want := board(), strings.Join(api.BoardRows(before), ""); got != want || p.eval(`konane.rv.var ? "on" : "off"`) != "off" || p.eval(`String(konane.rv.i)`) != k {
		t.Errorf("after ← ←: the board %s (want %s), variation %s, move %s (want %s)", got, want, p.eval(`konane.rv.var ? "on" : "off"`), p.eval(`String(konane.rv.i)`), k)
	}
}

// checkOpenings opens the openings table for the board size (6: with the
// solver's exact results; 8: without) and checks it against
// rules.Openings, in the page's language.
func checkOpenings(t *testing.T, p *page, size int, shot string) {
	t.Helper()
	msgs := p.msgs()
	if p.eval(`document.getElementById("review").hidden ? "no" : "yes"`) == "yes" {
		p.click("#revclose")
	}
	v := p.version()
	p.eval(fmt.Sprintf(`(() => { const s = document.getElementById("opensize"), d = document.getElementById("openings");
		if (d.open) { s.value = "%d"; s.dispatchEvent(new Event("change")); } else { s.value = "%d"; d.open = true; } return ""; })()`, size, size))
	p.settleWithin(v, 5*time.Minute)
	p.waitFor(fmt.Sprintf(`document.getElementById("opentable").dataset.size === "%d"`, size))
	ops := rules.Openings(size)
	if got := p.count("#opentable tbody tr"); got != len(ops) {
		t.Fatalf("the openings table of %dx%d has %d rows, want %d", size, size, got, len(ops))
	}
	var heads, exact []string
	json.Unmarshal([]byte(p.eval(`JSON.stringify(Array.from(document.querySelectorAll("#opentable th")).map(e => e.textContent))`)), &heads)
	if len(heads) != 6 || heads[0] != msgs["open.black"] || heads[2] != msgs["open.chance"] || heads[5] != msgs["open.play"] {
		t.Errorf("the openings table's heads %q", heads)
	}
	first := p.eval(`Array.from(document.querySelectorAll("#opentable tbody tr:first-child td")).slice(0, 2).map(e => e.textContent).join(" ")`)
	if want := ops[0].Black.String() + " " + ops[0].White.String(); first != want {
		t.Errorf("the first opening reads %q, want %q", first, want)
	}
	json.Unmarshal([]byte(p.eval(`JSON.stringify(Array.from(document.querySelectorAll("#opentable tbody tr td:nth-child(4)")).map(e => e.textContent))`)), &exact)
	notes := p.text("opennotes")
	if !strings.Contains(notes, strings.Split(msgs["open.choice"], "{move}")[0]) {
		t.Errorf("the openings' notes %q lack the computer's choice", notes)
	}
	for _, e := range exact {
		solved := e == msgs["open.exactBlack"] || e == msgs["open.exactWhite"]
		if solved != (size <= 6) || (!solved && e != "–") {
			t.Errorf("%dx%d: an opening's exact result reads %q", size, size, e)
			break
		}
	}
	if size <= 6 {
		won := strings.Split(msgs["open.solvedBlack"], "{size}")[0]
		lost := strings.Split(msgs["open.solvedWhite"], "{size}")[0]
		if (!strings.Contains(notes, won) && !strings.Contains(notes, lost)) || !strings.Contains(notes, strings.Split(msgs["open.agree"], "{agree}")[0]) {
			t.Errorf("%dx%d: the notes %q lack the exact value of the game", size, size, notes)
		}
	} else if !strings.Contains(notes, strings.Split(msgs["open.unsolved"], "{size}")[0]) {
		t.Errorf("%dx%d: the notes %q do not say there are no exact results", size, size, notes)
	}
	if p.eval(`document.getElementById("opentable").offsetParent ? "shown" : "hidden"`) != "shown" {
		t.Error("the openings table is not shown")
	}
	p.step("scrolling to the openings", chromedp.Evaluate[chromedp.Void](`document.getElementById("openings").scrollIntoView()`))
	p.screenshot(shot)
}
