package dashboard

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/konanezero/konane/internal/browsertest"
	"github.com/konanezero/konane/runfiles"
)

// TestBrowserLiveRun opens the dashboard in Chromium beside a training run
// that is being written and checks that the page follows it by itself:
// the generation, the charts, and the ladder when it appears. On a phone's
// screen nothing may stick out sideways. With KONANE_SCREENSHOTS=DIR it
// keeps screenshots of both layouts in DIR.
func TestBrowserLiveRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a tiny run")
	}
	ctx := browsertest.New(t, 1200, 900)
	dir := t.TempDir()
	trainRun(t, dir, 1)
	var trainer atomic.Int64 // the process holding the run's lock
	trainer.Store(4242)
	holder := func(key string) (int, error) {
		if key == runfiles.LockFile {
			return int(trainer.Load()), nil
		}
		return 0, nil
	}
	srv := httptest.NewServer(New(os.DirFS(dir), Options{Name: "live test", Refresh: 200 * time.Millisecond, Holder: holder}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	// waitMatch waits until the text of sel is want (exact) or starts
	// with it (prefix).
	waitMatch := func(sel, want string, prefix bool) {
		t.Helper()
		var got string
		for ctx.Err() == nil {
			var err error
			if got, err = chromedp.Run(ctx, chromedp.Text(sel)); err != nil {
				t.Fatal(err)
			}
			if got == want || prefix && strings.HasPrefix(got, want) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("%s shows %q, want %q (prefix %v)", sel, got, want, prefix)
	}
	waitText := func(sel, want string) { t.Helper(); waitMatch(sel, want, false) }
	waitPrefix := func(sel, want string) { t.Helper(); waitMatch(sel, want, true) }
	count := func(sel string) int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitText("#generation", "1")
	waitPrefix("#live", "live · last generation at ")

	// The trainer writes generation 2 while the page is open; then a
	// ladder appears.
	done := make(chan struct{})
	go func() { defer close(done); trainRun(t, dir, 2) }()
	waitText("#generation", "2")
	<-done
	writeRatings(t, dir, 2)
	waitText("#elo", "+80 [−10, +170]")
	waitText("#elo-label", "ladder Elo, generation 2")
	// The charts are drawn after the figures they come with (under load,
	// a moment later): wait for them.
	waitCount := func(sel, what string, want int) {
		t.Helper()
		n := count(sel)
		for ; n != want && ctx.Err() == nil; n = count(sel) {
			time.Sleep(100 * time.Millisecond)
		}
		if n != want {
			t.Errorf("%d %s charts on the page, want %d", n, what, want)
		}
	}
	waitCount("#metrics-charts figure svg", "metrics", 8)
	waitCount("#ladder-charts figure svg", "ladder", 4)
	shots := os.Getenv("KONANE_SCREENSHOTS")
	shoot := func(name string) {
		if shots == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shoot("dashboard-desktop.png")

	// The trainer exits: the page says so at once, not "live".
	trainer.Store(0)
	waitPrefix("#live", "not training · no trainer holds the run")

	// A phone: nothing wider than the screen.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
	if err != nil {
		t.Fatal(err)
	}
	if overflow {
		t.Error("on a 390 px wide screen the page is wider than the screen")
	}
	shoot("dashboard-phone.png")
}
