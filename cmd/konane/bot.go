package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/apbot"
)

func init() {
	register(&command{
		name:  "bot",
		usage: "bot [--addr HOST:PORT] [--tls-cert FILE --tls-key FILE] [--stage dev|prod] [--level L] [--move-time D] [--model FILE] [--seed S] [--max-searches N] [--max-pending N] [--query-timeout D] [--retries N] [--log-format text|json] [--profile]",
		short: "play on AbstractPlay as a bot: its webhooks in, the moves out",
		long: `Bot runs Kōnane Zero as a bot of AbstractPlay (abstractplay.com), where
people play Kōnane online: AbstractPlay calls the bot's HTTPS endpoint with
signed webhooks (a ping, a challenge to accept or refuse, the bot's turn in
a game) and the bot posts its moves to AbstractPlay's botQuery. The
protocol is AbstractPlay's (github.com/AbstractPlay/node-backend,
docs/bots); how to register and run the bot: docs/abstractplay-bot.md.

The bot accepts challenges to Kōnane on the boards it plays (` + botBoards() + `; --profile lists them) unless --max-searches moves are being computed. It
answers every move webhook at once, then replays the game, thinks for
--move-time (at most 1s when its clock shows an hour or less) at --level,
and submits its move, retrying a failed submission --retries times. A move that cannot be submitted is logged as
"MOVE LOST" and counted in /metrics (konane_bot_moves_total{result="lost"}):
AbstractPlay never sends a webhook twice.

Configuration, secrets included, comes from the environment only, never
from the command line: AP_BOT_PUBLIC_KEY (AbstractPlay's public key,
required), AP_BOT_CLIENT_ID and AP_BOT_CLIENT_SECRET (from create_bot), and
AP_BOT_TOKEN_URL, AP_BOT_SCOPE, AP_BOT_QUERY_URL, which --stage dev or prod
fills in (each may still be overridden). Nothing is written to disk.

The bot serves plain HTTP on --addr for a TLS-terminating proxy or ingress
in front, or HTTPS itself with --tls-cert and --tls-key. /healthz answers
while the process serves, /readyz while it takes webhooks, /metrics has
Prometheus metrics. On SIGTERM (or Ctrl-C) /readyz fails, webhooks are
refused, the moves in flight are submitted, then the bot exits. Run one
replica: the memory of nonces and of moves already answered is per process.

Example: AP_BOT_PUBLIC_KEY=... AP_BOT_CLIENT_ID=... AP_BOT_CLIENT_SECRET=... \
    konane bot --stage dev --addr 0.0.0.0:8080`,
		run: runBot,
	})
}

// runBot is "konane bot": the bot until ctx ends.
func runBot(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	levels := agent.Levels()
	fs := newFlagSet("bot", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT")
	cert := fs.String("tls-cert", "", "serve HTTPS with this certificate file (PEM; with --tls-key)")
	key := fs.String("tls-key", "", "the private key file of --tls-cert (PEM)")
	stage := fs.String("stage", "", "AbstractPlay's stage whose token URL, scope and botQuery URL to use: "+apbot.StageNames()+" (default: all from the environment)")
	level := fs.String("level", levels[len(levels)-1].Name, "strength: "+levelHelp()+"; the level's simulations or --move-time, whichever ends first")
	moveTime := fs.Duration("move-time", apbot.DefaultMoveTime, "the longest the bot thinks about a move (at most 1s when its clock shows an hour or less)")
	model := fs.String("model", "", "model file to play with instead of the shipped ones (a multi-board model plays "+multiFileBoards()+"; other boards get the classical engine)")
	seed := fs.Uint64("seed", 1, "seed of the searches, mixed with each game's id and move number")
	searches := fs.Int("max-searches", 0, "moves computed at once (0 = GOMAXPROCS); challenges are refused while as many are in flight")
	pending := fs.Int("max-pending", 0, "move webhooks in flight, computing or waiting to (0 = 8 × --max-searches); more get 503 and are lost")
	queryTimeout := fs.Duration("query-timeout", 30*time.Second, "the longest one request to botQuery or the token URL may take")
	retries := fs.Int("retries", 3, "retries of a submission that timed out or failed with 5xx (1s, 2s, 4s ... apart)")
	logFormat := fs.String("log-format", "text", "log on stderr: text or json")
	profile := fs.Bool("profile", false, "print the profile text and the supported list for AbstractPlay's update_bot, and exit")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case (*cert == "") != (*key == ""):
		return usageError("bot", "--tls-cert and --tls-key go together")
	case *moveTime <= 0:
		return usageError("bot", "--move-time %v: want a positive duration", *moveTime)
	case *searches < 0:
		return usageError("bot", "--max-searches %d: want at least 1 (0 = GOMAXPROCS)", *searches)
	case *pending < 0:
		return usageError("bot", "--max-pending %d: want at least 1 (0 = 8 × --max-searches)", *pending)
	case *queryTimeout <= 0:
		return usageError("bot", "--query-timeout %v: want a positive duration", *queryTimeout)
	case *retries < 0 || *retries > 10:
		return usageError("bot", "--retries %d: want 0..10", *retries)
	}
	if _, err := agent.ParseLevel(*level); err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	logger, err := requestLogger("bot", *logFormat, stderr)
	if err != nil {
		return err
	}
	engines, err := agent.OpenEngines(*model)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	cfg := apbot.Config{Engines: engines, Level: *level, MoveTime: *moveTime, MaxSearches: *searches,
		MaxPending: *pending, Seed: *seed, Logger: logger}
	if *profile {
		// A bot without credentials, to describe itself.
		cfg.Verifier, cfg.Client = apbot.NewVerifier(nil, 0, nil), noClient{}
		b, err := apbot.New(cfg)
		if err != nil {
			return fmt.Errorf("bot: %w", err)
		}
		sup, _ := json.Marshal(b.Supported())
		fmt.Fprintf(stdout, "description: %s\nsupported: %s\n", b.Profile(), sup)
		return nil
	}
	pub, creds, err := apbot.FromEnv(*stage, os.Getenv)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	client, err := apbot.NewClient(creds, apbot.ClientConfig{Timeout: *queryTimeout, Retries: *retries, Logger: logger})
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	cfg.Verifier, cfg.Client = apbot.NewVerifier(pub, 0, nil), client
	b, err := apbot.New(cfg)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	ln, err := stdnet.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	scheme := "http"
	if *cert != "" {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "bot on %s://%s/ (stage %s; a move in flight takes at most %v; Ctrl-C to stop)\n%s\n",
		scheme, ln.Addr(), stageName(*stage), b.Longest().Round(time.Second), b.Profile())
	engCtx, stopEngines := context.WithCancel(context.WithoutCancel(ctx))
	defer stopEngines()
	engDone := make(chan error, 1)
	go func() { engDone <- engines.Run(engCtx) }()
	err = b.Serve(ctx, ln, *cert, *key)
	stopEngines()
	if e := <-engDone; err == nil && e != nil {
		err = fmt.Errorf("bot: %w", e)
	}
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	return nil
}

func stageName(s string) string {
	if s == "" {
		return "from the environment"
	}
	return s
}

// noClient is the Submitter of the bot that only describes itself.
type noClient struct{}

func (noClient) Submit(context.Context, apbot.Submission) (apbot.Outcome, error) {
	return apbot.Lost, fmt.Errorf("bot: no client")
}
