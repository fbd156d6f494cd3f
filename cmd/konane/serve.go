package main

import (
	"context"
	"fmt"
	"io"
	stdnet "net"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/web"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "serve [--addr HOST:PORT] [--level L] [--model FILE] [--seed S] [--max-sessions N] [--max-per-client N] [--idle D] [--idle-unplayed D] [--trusted-proxies LIST] [--move-timeout D] [--review-sims N] [--review-timeout D] [--max-reviews N]",
		short: "serve a web page to play against the trained agent in a browser",
		long: `Serve runs a web server with a page on which to play against the computer:
click one of your stones to see where it can land, click a landing square to
jump; the stones you may remove in the opening are marked. The page offers
the board size (those with a model: 6x6 and 8x8, or the size of --model),
your colour, the level, new game, undo, a hint, an evaluation bar with the
computer's expected line, a download of the game record, and a review of
the game (or of a record uploaded): the chance of winning after each move
as a graph, the mistakes marked, the computer's choice and expected line
for each move, and play on from any position. It needs nothing from the
internet: the page is built into the binary.

The JSON API behind the page is described in the documentation of package
web (go doc github.com/konanezero/konane/web). Games are held in memory, at
most --max-sessions at a time and --max-per-client from one client address
(an IPv6 client by its /64), each dropped after --idle without a request,
or after the shorter --idle-unplayed if the human has not moved in it yet.
Behind a reverse proxy, name it with --trusted-proxies so that the clients
are told apart by the X-Forwarded-For it writes; that header is ignored
on requests from anywhere else. A review searches every position of a
game with --review-sims simulations (within --review-timeout), at most
--max-reviews at once and one per client.

The server listens on 127.0.0.1 by default, reachable from this machine
only; give --addr :8080 to serve the network. Interrupt it (Ctrl-C) to stop:
games in progress finish their request first.

Example: konane serve --addr 127.0.0.1:8080
    serving on http://127.0.0.1:8080/`,
		run: runServe,
	})
}

// runServe is "konane serve": the web server until ctx ends.
func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT")
	level := fs.String("level", agent.DefaultLevel, "the level the page offers first: "+levelHelp())
	model := fs.String("model", "", "model file to play with instead of the shipped ones (its board size is then the only one)")
	seed := fs.Uint64("seed", 1, "seed of the agents and of the colours drawn at random")
	maxSessions := fs.Int("max-sessions", 200, "games held at once")
	idle := fs.Duration("idle", time.Hour, "a game without requests for this long is dropped")
	moveTimeout := fs.Duration("move-timeout", 2*time.Minute, "the longest the computer may think about one move")
	perClient := fs.Int("max-per-client", web.DefaultMaxPerClient, "games one client address holds at once (IPv6: per /64; at most --max-sessions)")
	unplayed := fs.Duration("idle-unplayed", web.DefaultUnplayedTimeout, "a game in which the human has not moved is dropped after this long without requests (at most --idle)")
	proxies := fs.String("trusted-proxies", "", "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client")
	reviewSims := fs.Int("review-sims", analysis.DefaultSims, "search simulations per position of a game reviewed")
	reviewTimeout := fs.Duration("review-timeout", time.Minute, "the longest the review of one game may take")
	maxReviews := fs.Int("max-reviews", 2, "reviews running at once (one per client)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// Defaults adapt to smaller --max-sessions and --idle; explicit values
	// that exceed them conflict.
	set := explicit(fs)
	switch {
	case !set["max-per-client"]:
		*perClient = min(*perClient, max(*maxSessions, 1))
	case *perClient < 1:
		return usageError("serve", "--max-per-client %d: want at least 1", *perClient)
	case *perClient > *maxSessions:
		return usageError("serve", "--max-per-client %d is more than --max-sessions %d", *perClient, *maxSessions)
	}
	switch {
	case !set["idle-unplayed"]:
		*unplayed = min(*unplayed, *idle)
	case *unplayed < time.Second:
		return usageError("serve", "--idle-unplayed %v: want at least 1s", *unplayed)
	case *unplayed > *idle:
		return usageError("serve", "--idle-unplayed %v is longer than --idle %v", *unplayed, *idle)
	}
	trusted, err := web.ParseProxies(*proxies)
	if err != nil {
		return usageError("serve", "--trusted-proxies: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError("serve", "unexpected argument %q", fs.Arg(0))
	}
	if err := checkServeFlags(*maxSessions, *idle, *reviewSims, *reviewTimeout, *maxReviews, *moveTimeout); err != nil {
		return err
	}
	if _, err := agent.ParseLevel(*level); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	engines, err := agent.OpenEngines(*model)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv, err := web.New(web.Config{Engines: engines, DefaultLevel: *level, Seed: *seed,
		MaxSessions: *maxSessions, IdleTimeout: *idle, MoveTimeout: *moveTimeout,
		MaxPerClient: *perClient, UnplayedTimeout: *unplayed, TrustedProxies: trusted,
		ReviewSims: *reviewSims, ReviewTimeout: *reviewTimeout, MaxReviews: *maxReviews})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ln, err := stdnet.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(stdout, "serving on http://%s/ (boards %s; Ctrl-C to stop)\n", ln.Addr(), engines.SizeList())
	return serveWith(ctx, srv, engines, ln)
}

// checkServeFlags checks the limits of "konane serve".
func checkServeFlags(maxSessions int, idle time.Duration, reviewSims int, reviewTimeout time.Duration, maxReviews int, moveTimeout time.Duration) error {
	switch {
	case maxSessions < 1:
		return usageError("serve", "--max-sessions %d: want at least 1", maxSessions)
	case idle < time.Second:
		return usageError("serve", "--idle %v: want at least 1s", idle)
	case reviewSims < 1 || reviewSims > player.MaxSims:
		return usageError("serve", "--review-sims %d: want 1..%d", reviewSims, player.MaxSims)
	case reviewTimeout < time.Second:
		return usageError("serve", "--review-timeout %v: want at least 1s", reviewTimeout)
	case maxReviews < 1:
		return usageError("serve", "--max-reviews %d: want at least 1", maxReviews)
	case moveTimeout <= 0:
		return usageError("serve", "--move-timeout %v: want a positive duration", moveTimeout)
	}
	return nil
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
