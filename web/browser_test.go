package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/konanezero/konane/rules"
)

// chromiumPath is where Debian's chromium package puts the browser.
const chromiumPath = "/usr/bin/chromium"

// newBrowser starts a headless Chromium for the test, or skips the test
// when there is none.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("KONANE_REQUIRE_BROWSER") != "" {
			t.Fatalf("KONANE_REQUIRE_BROWSER is set but there is no browser at %s: %v", chromiumPath, err)
		}
		t.Skipf("no browser at %s (apt-get install chromium to run the browser test): %v", chromiumPath, err)
	}
	dir, err := os.MkdirTemp("", "konane-chromium")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1200, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		// The browser's helpers may write in the folder for a moment
		// after it stops.
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	// The first Run starts the browser; it must not carry a deadline.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromiumPath, err)
	}
	return ctx
}

// TestBrowserGame plays a whole 6x6 game in a real headless Chromium by
// clicking the page, as a person would: choose the board, the level and
// the colour, start a new game, then for each move click a marked stone
// (a removal in the opening) or a stone and then one of its landing
// squares, until the game-over message. On the way it asks for a hint and
// takes a move back. Finally the record download is the game on the board.
func TestBrowserGame(t *testing.T) {
	ctx := newBrowser(t)
	ts := newTestServer(t, Config{})

	// Every step has a deadline, so a broken page fails instead of hanging.
	step := func(name string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, a); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		v, err := chromedp.Run(sctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	version := func() string { return eval(`document.body.dataset.version`) }
	// settle waits for the request started after version v to finish.
	settle := func(v string) {
		t.Helper()
		step("waiting for the page", chromedp.Poll[chromedp.Void](fmt.Sprintf(
			`document.body.dataset.version !== %q && document.body.dataset.busy === "false"`, v),
			chromedp.WithPollingInterval(20*time.Millisecond)))
		if e := eval(`document.getElementById("error").textContent`); e != "" {
			t.Fatalf("the page shows an error: %s", e)
		}
	}

	step("loading the page", chromedp.Steps(
		chromedp.Navigate(ts.url+"/"),
		chromedp.Poll[chromedp.Void](`document.body.dataset.busy === "false" && document.body.dataset.version !== "0" && document.querySelector(".sq") !== null`),
	))
	v := version()
	step("starting a 6x6 game", chromedp.Steps(
		chromedp.SetValue(chromedp.ID("size"), "6"),
		chromedp.SetValue(chromedp.ID("level"), "easy"),
		chromedp.SetValue(chromedp.ID("color"), "black"),
		chromedp.Click(chromedp.ID("new")),
	))
	settle(v)
	if n := eval(`String(document.querySelectorAll(".sq").length)`); n != "36" {
		t.Fatalf("a 6x6 board with %s squares", n)
	}

	humanMoves := 0
	for eval(`document.body.dataset.over`) != "true" {
		if humanMoves > 40 {
			t.Fatal("the game does not end")
		}
		if humanMoves == 2 {
			// A hint marks a move on the board.
			v = version()
			step("asking for a hint", chromedp.Click(chromedp.ID("hint")))
			settle(v)
			if !strings.HasPrefix(eval(`document.getElementById("hinttext").textContent`), "Hint: ") || eval(`String(document.querySelectorAll(".sq.hint").length)`) == "0" {
				t.Error("the hint is not shown")
			}
		}
		if humanMoves == 3 {
			// Undo takes back the human's last move and the reply.
			before := eval(`String(document.querySelectorAll("#moves li").length)`)
			v = version()
			step("undo", chromedp.Click(chromedp.ID("undo")))
			settle(v)
			if after := eval(`String(document.querySelectorAll("#moves li").length)`); after == before {
				t.Errorf("undo left %s move pairs", after)
			}
		}
		v = version()
		step("clicking a stone", chromedp.Click(chromedp.CSS(".sq.movable")))
		if eval(`document.body.dataset.busy === "false" && document.body.dataset.version === `+fmt.Sprintf("%q", v)+` ? "jump" : "sent"`) == "jump" {
			// A jump: the stone is selected and its landing squares marked.
			if eval(`String(document.querySelectorAll(".sq.selected").length)`) != "1" || eval(`String(document.querySelectorAll(".sq.target").length)`) == "0" {
				t.Fatal("clicking a stone that can jump marks no landing square")
			}
			step("clicking a landing square", chromedp.Click(chromedp.CSS(".sq.target")))
		}
		settle(v)
		humanMoves++
	}
	status := eval(`document.getElementById("status").textContent`)
	if status != ts.msgs["en"]["status.youWin"] && status != ts.msgs["en"]["status.computerWins"] {
		t.Fatalf("game-over message %q", status)
	}
	t.Logf("%d human moves; %s", humanMoves, status)

	// The record link downloads the game the page shows.
	href := eval(`document.getElementById("record").href`)
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rec, err := rules.ParseRecord(text)
	if err != nil {
		t.Fatalf("record from %s: %v", href, err)
	}
	final, err := rec.Final()
	if err != nil {
		t.Fatal(err)
	}
	if final.HasMoves() {
		t.Fatalf("the downloaded game is not over:\n%s", final)
	}
	board := boardRows(final)
	shown := eval(`Array.from(document.querySelectorAll(".sq")).map(s => s.querySelector(".black") ? "x" : s.querySelector(".white") ? "o" : ".").join("")`)
	if shown != strings.Join(board, "") {
		t.Errorf("the page shows %s, the record ends with %s", shown, strings.Join(board, ""))
	}
	if w, _ := rec.Winner(); (w.String() == "black") != (status == ts.msgs["en"]["status.youWin"]) {
		t.Errorf("record winner %v, page says %q", w, status)
	}
}
