package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/konanezero/konane/dashboard"
	"github.com/konanezero/konane/internal/lockfile"
)

func init() {
	register(&command{
		name:  "dashboard",
		usage: "dashboard --run DIR [--addr HOST:PORT] [--refresh D]",
		short: "watch a training run live in the browser (read-only)",
		long: `Dashboard serves a live view of the training run in DIR: its
configuration, the current generation and how far its self-play has come,
the learning curves of DIR/metrics.csv and the Elo ladder of
DIR/ladder/ratings.csv (see "konane ladder"), drawn as inline SVG. The page
refreshes by itself as generations land (it asks every --refresh) and
reads well on a phone.

It only reads DIR, so it is safe beside a running "konane train". It is a
separate command from "konane serve" so that a public play page never
exposes a training run: by default it listens on 127.0.0.1 only.

Example: konane dashboard --run runs/6x6 --addr 127.0.0.1:8081`,
		run: runDashboard,
	})
}

func runDashboard(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("dashboard", stderr)
	run := fs.String("run", "", "run directory of konane train (required)")
	addr := fs.String("addr", "127.0.0.1:8081", "address to listen on")
	refresh := fs.Duration("refresh", 5*time.Second, "how often the page asks for news")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" {
		return usageError("dashboard", "--run DIR is required")
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *refresh < 100*time.Millisecond {
		return usageError("dashboard", "--refresh %v: want at least 100ms", *refresh)
	}
	if fi, err := os.Stat(*run); err != nil || !fi.IsDir() {
		return usageError("dashboard", "--run %s is not a directory", *run)
	}
	ln, err := stdnet.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	fmt.Fprintf(stdout, "dashboard of %s on http://%s/ (read-only; Ctrl-C to stop)\n", *run, ln.Addr())
	holder := func(key string) (int, error) { return lockfile.Holder(filepath.Join(*run, filepath.FromSlash(key))) }
	return serveDashboard(ctx, dashboard.New(os.DirFS(*run), dashboard.Options{Name: *run, Refresh: *refresh, Holder: holder}), ln)
}

// serveDashboard serves h on ln until ctx ends.
func serveDashboard(ctx context.Context, h http.Handler, ln stdnet.Listener) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("dashboard: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("dashboard: %w", err)
	}
	return nil
}
