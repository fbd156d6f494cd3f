package main

import (
	"context"
	"fmt"
	"io"
	stdnet "net"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/web"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "serve [--addr HOST:PORT] [--level L] [--model FILE] [--seed S] [--max-sessions N] [--idle D] [--move-timeout D]",
		short: "serve a web page to play against the trained agent in a browser",
		long: `Serve runs a web server with a page on which to play against the computer:
click one of your stones to see where it can land, click a landing square to
jump; the stones you may remove in the opening are marked. The page offers
the board size (those with a model: 6x6 and 8x8, or the size of --model),
your colour, the level, new game, undo, a hint, an evaluation bar with the
computer's expected line, and a download of the game record. It needs
nothing from the internet: the page is built into the binary.

The JSON API behind the page is described in the documentation of package
web (go doc github.com/konanezero/konane/web). Games are held in memory, at
most --max-sessions at a time, each dropped after --idle without a request.

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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("serve", "unexpected argument %q", fs.Arg(0))
	}
	if *maxSessions < 1 {
		return usageError("serve", "--max-sessions %d: want at least 1", *maxSessions)
	}
	if *idle < time.Second {
		return usageError("serve", "--idle %v: want at least 1s", *idle)
	}
	if *moveTimeout <= 0 {
		return usageError("serve", "--move-timeout %v: want a positive duration", *moveTimeout)
	}
	if _, err := agent.ParseLevel(*level); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	engines, err := agent.OpenEngines(*model)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv, err := web.New(web.Config{Engines: engines, DefaultLevel: *level, Seed: *seed,
		MaxSessions: *maxSessions, IdleTimeout: *idle, MoveTimeout: *moveTimeout})
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
