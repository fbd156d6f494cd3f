package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
	"github.com/schollz/progressbar/v3"
)

func init() {
	register(&command{
		name:  "selfplay",
		usage: "selfplay --run URL [--spool DIR] [--workers N] [--time D] [flags]",
		short: "play self-play games for a trainer on another process or machine",
		long: `Selfplay is a self-play worker: it plays games with the newest model of the
run at URL and uploads them for the trainer ("konane train --run URL
--selfplay=false"). Run as many workers as you like, on any machines that
reach the run: a directory (a path or file:///..., e.g. on NFS) or a bucket
(s3://bucket/prefix?endpoint=...&use_path_style=true&region=..., with
AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment).

The games' settings (board, search, playout cap) are the run's, from its
config.json. The worker checks models/latest.json every --poll, downloads a
new model, checks its sha256 and switches to it between games, never in the
middle of one. Every game is tagged with the generation of the model that
played it. When the newest generation already has the games the trainer
wants, the worker waits (backpressure).

Each finished game is written to the spool (a local directory, locked by
the worker) before it is uploaded under its content hash
(replay/gen-N/<sha256>.shard, create-only), and removed from the spool only
after the upload succeeded; failed uploads are retried with backoff. A
worker that is stopped or killed uploads what its spool holds when it
starts again, so no finished game is lost and none is doubled. Ctrl-C or
SIGTERM abandon the games in flight and upload the spool for up to --drain;
what is left stays in the spool for the next start with the same --spool.
Without --spool, a worker takes the first of the run's spools under the
user cache directory (DIR, DIR-2, DIR-3, ...) that no other worker on
the machine holds.

A bucket URL (s3://...) needs a konane built with -tags s3 (as the
container image is); a path or file:// URL works in every build.

Example: konane selfplay --run s3://konane/runs/8x8?endpoint=http://minio:9000&use_path_style=true&region=us-east-1 --workers 32`,
		run: runSelfplay,
	})
}

// runSelfplay is "konane selfplay": a worker of a run trained elsewhere.
func runSelfplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("selfplay", stderr)
	run := fs.String("run", "", "the run: a directory, file:///path or a bucket URL")
	spool := fs.String("spool", "", "local spool directory (default: a folder per run under the user cache directory, the first one no other worker holds)")
	workers := fs.Int("workers", 32, "games in flight at once, feeding the batched evaluator")
	dur := fs.Duration("time", 0, "stop playing after this much wall time (0: no limit)")
	games := fs.Int("games", 0, "stop playing after this many games (0: no limit)")
	seed := fs.Uint64("seed", 0, "seed of this worker's games (0: a random seed, printed)")
	poll := fs.Duration("poll", 15*time.Second, "how often to look for a new model")
	cache := fs.Int("cache", 1<<17, "evaluator position cache entries")
	drain := fs.Duration("drain", 20*time.Second, "on Ctrl-C or SIGTERM, go on uploading the spool for up to this long")
	verbose := fs.Bool("v", false, "print every game as it reaches the spool and the store")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" {
		return usageError("selfplay", "--run URL is required")
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	wc := selfplay.WorkerConfig{Parallel: *workers, CacheSize: *cache, Seed: *seed, Poll: *poll, Duration: *dur, Games: *games, Drain: *drain}
	if wc.Seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		wc.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if err := wc.Validate(); err != nil {
		return usageError("selfplay", "%v", err)
	}
	store, err := runstore.Open(ctx, *run)
	if err != nil {
		return usageError("selfplay", "--run: %v", err)
	}
	defer store.Close()
	dir := *spool
	var sp *runstore.Spool
	if dir != "" {
		if sp, err = runstore.OpenSpool(dir); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	} else if sp, err = openDefaultSpool(*run); err != nil {
		return usageError("selfplay", "--spool: %v", err)
	}
	dir = sp.Dir()
	defer sp.Close()
	logf := timestamped(stdout)
	logStoreRetries(store, logf)
	logf("konane selfplay: run %s, spool %s, %d games in flight, seed %d", *run, dir, wc.Parallel, wc.Seed)
	hooks, finish := workerHooks(stderr, *verbose, logf)
	err = selfplay.Work(ctx, store, sp, wc, hooks, logf)
	finish()
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return nil
}

// workerHooks shows a worker's progress: a bar on a terminal, else a log
// line every 50 games; with verbose, every game spooled and uploaded.
// finish ends the bar and logs the totals.
func workerHooks(stderr io.Writer, verbose bool, logf func(string, ...any)) (hooks selfplay.WorkerHooks, finish func()) {
	var bar *progressbar.ProgressBar
	if isTerminal(stderr) {
		bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"),
			progressbar.OptionClearOnFinish())
	}
	played, uploaded := 0, 0
	hooks = selfplay.WorkerHooks{
		Model: func(gen int) { logf("playing with model generation %d", gen) },
		Game: func(gen int, name string) {
			played++
			if verbose {
				logf("spooled %s", name)
			}
			if bar != nil {
				bar.Describe(fmt.Sprintf("gen %d games (%d uploaded)", gen, uploaded))
				bar.Add(1)
			} else if played%50 == 0 {
				logf("%d games played, %d uploaded", played, uploaded)
			}
		},
		Uploaded: func(key string) {
			uploaded++
			if verbose {
				logf("uploaded %s", key)
			}
		},
		Paused: func(gen, have, want int) {
			logf("generation %d has %d of the %d games the trainer wants (with those in play here): waiting for its next model", gen, have, want)
		},
		Retry: func(key string, err error) { logf("warning: upload of %s failed, retrying: %v", key, err) },
	}
	return hooks, func() {
		if bar != nil {
			bar.Finish()
		}
		logf("done: %d games played, %d uploaded", played, uploaded)
	}
}

// openDefaultSpool opens the first spool of the run location that no
// other worker holds: workers on one machine (or sharing a home
// directory) each get one, and a restarted worker finds the games that
// a killed one left in its spool.
func openDefaultSpool(run string) (*runstore.Spool, error) {
	base, err := defaultSpool(run)
	if err != nil {
		return nil, err
	}
	for i := 1; ; i++ {
		dir := base
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", base, i)
		}
		sp, err := runstore.OpenSpool(dir)
		var busy *runstore.SpoolLockedError
		if errors.As(err, &busy) && i < maxDefaultSpools {
			continue
		}
		return sp, err
	}
}

// maxDefaultSpools bounds the workers of one run on one machine that use
// the default spool.
const maxDefaultSpools = 256

// defaultSpool is a spool folder of its own for each run location.
func defaultSpool(run string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, run)
	if len(name) > 80 {
		name = name[:40] + "-" + runstore.SHA256([]byte(run))[:16]
	}
	return filepath.Join(base, "konane", "spool", strings.Trim(name, "_")), nil
}
