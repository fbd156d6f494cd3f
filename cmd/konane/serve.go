package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	stdnet "net"
	"net/http"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web"
	"github.com/konanezero/konane/web/api"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "serve [--addr HOST:PORT] [--level L] [--max-level L] [--model FILE] [--seed S] [--searches N] [--max-per-client N] [--trusted-proxies LIST] [--move-timeout D] [--tree-cache N] [--review-sims N] [--review-timeout D] [--drain-delay D] [--log-format text|json] [--metrics-addr HOST:PORT] [--public-url URL]",
		short: "serve a web page to play against the trained agent in a browser",
		long: `Serve runs a web server with a page on which to play against the computer:
click one of your stones to see where it can land, click a landing square to
jump; the stones you may remove in the opening are marked. The page offers
every board from 4x4 to 16x16 (AbstractPlay's first: ` + andList(apBoards(func(rules.Board) bool { return true })) + `):
the agent plays those with a network or the exact solver (` + agentBoards() + `, or the
size of --model; a multi-board --model ` + multiFileBoards() + `), the classical engine the others, at the level's time per
move, and the page says so; your colour, the level, new game, undo, a hint, an evaluation bar with the
computer's expected line, a download of the game record, and a review of
the game (or of a record uploaded): the chance of winning after each move
as a graph, the mistakes marked, the computer's choice and expected line
for each move, and play on from any position. It needs nothing from the
internet: the page is built into the binary.

The server keeps no games: the page holds its game (in its address, #g=...,
so that reload, bookmark and a shared link bring it back) and sends it with
every request; the server replays it through the rules and answers. Any
number of replicas can serve the same players behind a load balancer, and a
restart loses nothing. The API is described in docs/http-api.md.

The CPU is the limit. At most --searches searches of the default level run
at once (default GOMAXPROCS; a search weighs its simulations: easy is
light, max heavy), up to twice as many wait at most a second, and the rest
are answered 503 with Retry-After. One client address (an IPv6 client by its
/64) has at most --max-per-client requests in flight, weighing at most half
the budget together (docs/http-api.md has the settings of a public
server). Behind a reverse proxy,
name it with --trusted-proxies so that the clients are told apart by the
X-Forwarded-For it writes; that header is ignored on requests from anywhere
else. --max-level caps the levels offered. A review searches every position
of a game with --review-sims simulations (within --review-timeout), in the
same budget. Each replica keeps up to --tree-cache search trees between a
game's moves (0: none).

A link to the page shared in a chat or a post shows a preview (title,
description, and with --public-url an image). The preview image, /og.png,
must be named by its absolute address, which a server behind a proxy cannot
know from its requests (the Host and X-Forwarded-* headers are the client's
or the proxy's to write): give the address people open, e.g.
--public-url https://konane.example.org/, and the page names
https://konane.example.org/og.png. Without it the page has no og:image.

/healthz answers while the process serves, /readyz while it takes new
games, /metrics has Prometheus metrics (or on --metrics-addr alone). Each
request is logged in one line (--log-format json for JSON) with its id,
endpoint, status, duration and level; no moves, no addresses.

The server listens on 127.0.0.1 by default, reachable from this machine
only; give --addr :8080 to serve the network. Interrupt it (Ctrl-C, or
SIGTERM) to stop: /readyz fails at once, for --drain-delay the server goes
on answering but refuses new searches, then it stops once the requests in
flight have finished (at most --move-timeout).

Example: konane serve --addr 127.0.0.1:8080
    serving on http://127.0.0.1:8080/`,
		run: runServe,
	})
}

// goneServeFlags are the flags of the server that kept games, refused
// with a line naming what replaced them.
var goneServeFlags = map[string]string{
	"max-sessions":  "the server keeps no games now (the page holds them); the load is bounded by --searches and --max-per-client",
	"idle":          "the server keeps no games now (the page holds them), so none expire",
	"idle-unplayed": "the server keeps no games now (the page holds them), so none expire",
	"max-reviews":   "reviews take their simulations from the budget of --searches, and count in --max-per-client",
}

// runServe is "konane serve": the web server until ctx ends.
func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT")
	level := fs.String("level", agent.DefaultLevel, "the level the page offers first: "+levelHelp())
	maxLevel := fs.String("max-level", "", "the strongest level offered (default: all); a game asking for more gets 400")
	model := fs.String("model", "", "model file to play with instead of the shipped ones (its board size is then the only one)")
	seed := fs.Uint64("seed", 1, "seed of the agents and of the colours drawn at random")
	searches := fs.Int("searches", 0, "searches of the default level at once (0 = GOMAXPROCS); a search weighs its simulations; twice as many may wait 1s, the rest get 503")
	moveTimeout := fs.Duration("move-timeout", 2*time.Minute, "the longest the computer may think about one move")
	perClient := fs.Int("max-per-client", api.DefaultMaxPerClient, "requests one client address has in flight at once (IPv6: per /64), per replica")
	proxies := fs.String("trusted-proxies", "", "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client")
	treeCache := fs.Int("tree-cache", api.DefaultTreeCache, "search trees kept between a game's moves, per replica (0 = none)")
	reviewSims := fs.Int("review-sims", analysis.DefaultSims, "search simulations per position of a game reviewed")
	reviewTimeout := fs.Duration("review-timeout", time.Minute, "the longest the review of one game may take")
	drainDelay := fs.Duration("drain-delay", 0, "on SIGTERM, how long to go on answering (readiness failed, new searches refused) before stopping")
	logFormat := fs.String("log-format", "text", "request log on stderr: text or json")
	metricsAddr := fs.String("metrics-addr", "", "serve /metrics on this address only, not on --addr")
	publicURL := fs.String("public-url", "", "the page's address as people open it (https://host/path/), for the link preview's image; default: no preview image")
	for name, why := range goneServeFlags {
		fs.Func(name, "removed: "+why, func(string) error {
			return fmt.Errorf("--%s is gone: %s", name, why)
		})
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	trusted, err := api.ParseProxies(*proxies)
	if err != nil {
		return usageError("serve", "--trusted-proxies: %v", err)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := checkServeFlags(*searches, *perClient, *treeCache, *reviewSims, *reviewTimeout, *moveTimeout, *drainDelay); err != nil {
		return err
	}
	logger, err := requestLogger("serve", *logFormat, stderr)
	if err != nil {
		return err
	}
	if _, err := agent.ParseLevel(*level); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if *maxLevel != "" {
		if _, err := agent.ParseLevel(*maxLevel); err != nil {
			return fmt.Errorf("serve: --max-level: %w", err)
		}
	}
	cache := *treeCache
	if cache == 0 {
		cache = -1 // none
	}
	engines, err := agent.OpenEngines(*model)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv, err := web.New(web.Config{API: api.Config{Engines: engines, DefaultLevel: *level, MaxLevel: *maxLevel, Seed: *seed,
		Searches: *searches, MaxPerClient: *perClient, TrustedProxies: trusted, MoveTimeout: *moveTimeout,
		TreeCache: cache, ReviewSims: *reviewSims, ReviewTimeout: *reviewTimeout,
		MetricsApart: *metricsAddr != "", Logger: logger}, DrainDelay: *drainDelay, PublicURL: *publicURL})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := stdnet.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if *metricsAddr != "" {
		mln, err := stdnet.Listen("tcp", *metricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("serve: --metrics-addr: %w", err)
		}
		ms := &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second}
		go ms.Serve(mln)
		defer ms.Close()
	}
	served := engines.SizeList() // and a multi-board file's other boards, as the page says
	if *model == "" {
		served = agentBoards()
	}
	fmt.Fprintf(stdout, "serving on http://%s/ (the agent on %s, the classical engine on the other boards up to %dx%d; Ctrl-C to stop)\n", ln.Addr(), served, rules.MaxSide, rules.MaxSide)
	return serveWith(ctx, srv, engines, ln)
}

// checkServeFlags checks the limits of "konane serve".
func checkServeFlags(searches, perClient, treeCache, reviewSims int, reviewTimeout, moveTimeout, drainDelay time.Duration) error {
	switch {
	case searches < 0:
		return usageError("serve", "--searches %d: want at least 1 (0 = GOMAXPROCS)", searches)
	case perClient < 1:
		return usageError("serve", "--max-per-client %d: want at least 1", perClient)
	case treeCache < 0:
		return usageError("serve", "--tree-cache %d: want at least 0", treeCache)
	case reviewSims < 1 || reviewSims > player.MaxSims:
		return usageError("serve", "--review-sims %d: want 1..%d", reviewSims, player.MaxSims)
	case reviewTimeout < time.Second:
		return usageError("serve", "--review-timeout %v: want at least 1s", reviewTimeout)
	case moveTimeout <= 0:
		return usageError("serve", "--move-timeout %v: want a positive duration", moveTimeout)
	case drainDelay < 0:
		return usageError("serve", "--drain-delay %v: want a positive duration", drainDelay)
	}
	return nil
}

// requestLogger is the request log of --log-format on w.
func requestLogger(cmd, format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, usageError(cmd, "--log-format %q: want text or json", format)
}

// serveWith runs the engines' evaluators and the server until ctx ends;
// the evaluators stop only once the server has finished its requests, and
// a failed evaluator stops the server.
func serveWith(ctx context.Context, srv *web.Server, engines *agent.Engines, ln stdnet.Listener) error {
	srvCtx, stopServer := context.WithCancel(ctx)
	defer stopServer()
	engCtx, stopEngines := context.WithCancel(context.WithoutCancel(ctx))
	engDone := make(chan error, 1)
	go func() {
		err := engines.Run(engCtx)
		stopServer()
		engDone <- err
	}()
	err := srv.Serve(srvCtx, ln)
	stopEngines()
	if e := <-engDone; err == nil && e != nil {
		err = fmt.Errorf("serve: %w", e)
	}
	return err
}
