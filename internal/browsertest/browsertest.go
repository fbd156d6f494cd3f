// Package browsertest starts a headless Chromium for the browser tests of
// the packages that serve pages (Debian's chromium at /usr/bin/chromium;
// without it the test is skipped, unless KONANE_REQUIRE_BROWSER is set).
package browsertest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is where Debian's chromium package puts the browser.
const ChromiumPath = "/usr/bin/chromium"

// New starts a headless Chromium of the given window size for the test and
// returns its context; the browser stops when the test ends.
func New(t *testing.T, width, height int) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("KONANE_REQUIRE_BROWSER") != "" {
			t.Fatalf("KONANE_REQUIRE_BROWSER is set but there is no browser at %s: %v", ChromiumPath, err)
		}
		t.Skipf("no browser at %s (apt-get install chromium to run the browser test): %v", ChromiumPath, err)
	}
	dir, err := os.MkdirTemp("", "konane-chromium")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(ChromiumPath),
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
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(width, height),
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
		t.Fatalf("starting %s: %v", ChromiumPath, err)
	}
	return ctx
}
