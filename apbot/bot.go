package apbot

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	stdnet "net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/internal/probe"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// Submitter delivers a move to botQuery: *Client.
type Submitter interface {
	Submit(ctx context.Context, s Submission) (Outcome, error)
}

// Config is what a Bot needs.
type Config struct {
	Verifier *Verifier      // the webhooks' signatures (required)
	Client   Submitter      // botQuery (required)
	Engines  *agent.Engines // the networks by board size (required; boards without one get the classical engine)
	// Level is the agent's level (agent.ParseLevel; "" = the strongest):
	// its simulations, or MoveTime, whichever ends first.
	Level string
	// MoveTime is the most the bot thinks about a move (0: DefaultMoveTime);
	// at most ShortMoveTime when its clock shows an hour or less.
	MoveTime time.Duration
	// MaxSearches is how many moves are searched at once (0: GOMAXPROCS);
	// a challenge is refused while as many moves are in flight.
	MaxSearches int
	// MaxPending is how many move webhooks may be in flight, searching or
	// waiting to (0: 8×MaxSearches); more are answered 503 and lost.
	MaxPending int
	MaxBody    int64        // the largest webhook body (0: DefaultMaxBody); more gets 413
	Seed       uint64       // the searches' seed, mixed with the game and ply
	Logger     *slog.Logger // nil: none
}

// Defaults of Config.
const (
	DefaultMoveTime = 5 * time.Second
	ShortMoveTime   = time.Second
	DefaultMaxBody  = 64 << 10
)

// dupMemory is how many recent (game, position) pairs the bot remembers
// to submit a move once per position, and for how long.
const (
	dupMemory = 4096
	dupWindow = time.Hour
)

// Bot is the AbstractPlay bot: an http.Handler for the webhooks and the
// probes, and the moves it computes and submits in the background.
type Bot struct {
	cfg      Config
	strength player.Limits // the level's, without the time
	metrics  *metrics
	log      *slog.Logger
	handler  http.Handler

	searches chan struct{} // a slot per search running
	pending  atomic.Int64  // move webhooks taken, not yet finished
	draining atomic.Bool
	work     sync.WaitGroup // the moves in flight

	mu   sync.Mutex
	dups map[[32]byte]time.Time // (game, position) → when its webhook came
	dupQ []dupEntry             // the same, oldest first
}

type dupEntry struct {
	key [32]byte
	at  time.Time
}

// New checks cfg and returns the bot. It starts no goroutine.
func New(cfg Config) (*Bot, error) {
	if cfg.Verifier == nil || cfg.Client == nil || cfg.Engines == nil {
		return nil, errors.New("apbot: a bot needs a verifier, a client and engines")
	}
	levels := agent.Levels()
	if cfg.Level == "" {
		cfg.Level = levels[len(levels)-1].Name
	}
	l, err := agent.ParseLevel(cfg.Level)
	if err != nil {
		return nil, fmt.Errorf("apbot: %w", err)
	}
	if cfg.MoveTime == 0 {
		cfg.MoveTime = DefaultMoveTime
	}
	if cfg.MaxSearches == 0 {
		cfg.MaxSearches = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxPending == 0 {
		cfg.MaxPending = 8 * cfg.MaxSearches
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if err := (player.Limits{Time: cfg.MoveTime}).Validate(); err != nil {
		return nil, fmt.Errorf("apbot: %w", err)
	}
	switch {
	case cfg.MaxSearches < 1:
		return nil, fmt.Errorf("apbot: %d searches at once: want at least 1", cfg.MaxSearches)
	case cfg.MaxPending < cfg.MaxSearches:
		return nil, fmt.Errorf("apbot: %d moves in flight: want at least the %d searches", cfg.MaxPending, cfg.MaxSearches)
	case cfg.MaxBody < 1024:
		return nil, fmt.Errorf("apbot: largest body %d bytes: want at least 1024", cfg.MaxBody)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Bot{cfg: cfg, strength: l.Limits(), log: cfg.Logger,
		searches: make(chan struct{}, cfg.MaxSearches), dups: map[[32]byte]time.Time{}}
	b.metrics = newMetrics(b)
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", b.webhook)
	mux.Handle("/healthz", probe.Handler(func() bool { return !b.draining.Load() }))
	mux.Handle("/readyz", probe.Handler(func() bool { return !b.draining.Load() }))
	mux.Handle("/metrics", probe.ReadOnly(b.metrics.handler()))
	b.handler = mux
	return b, nil
}

// Handler serves the webhooks at "/" (GET: ping; POST: challenge and
// move), /healthz, /readyz and /metrics.
func (b *Bot) Handler() http.Handler { return b.handler }

// Drain refuses webhooks from now on (a challenge 400, a move 503, the
// ping and /readyz 503); the moves in flight go on. Serve drains when its
// context ends.
func (b *Bot) Drain() { b.draining.Store(true) }

// Wait waits until the moves in flight have been submitted (or given up).
func (b *Bot) Wait() { b.work.Wait() }

// Serve serves on ln (HTTPS when certFile and keyFile are given) until ctx
// ends; then it drains, waits for the moves in flight, and shuts down. The
// engines must run meanwhile.
func (b *Bot) Serve(ctx context.Context, ln stdnet.Listener, certFile, keyFile string) error {
	hs := &http.Server{
		Handler:           b.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(b.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() {
		if certFile != "" {
			errc <- hs.ServeTLS(ln, certFile, keyFile)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("apbot: %w", err)
	case <-ctx.Done():
	}
	b.Drain()
	b.log.Info("draining: refusing webhooks, finishing the moves in flight", "moves", b.pending.Load())
	b.Wait()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("apbot: %w", err)
	}
	return nil
}

// Longest is the longest a move in flight may take, from its webhook to
// the end of its submission: the wait for a search slot, the search and
// the submission (when Client is a *Client).
func (b *Bot) Longest() time.Duration {
	queue := time.Duration(b.cfg.MaxPending/b.cfg.MaxSearches) * b.searchLimit(b.cfg.MoveTime)
	d := queue + b.searchLimit(b.cfg.MoveTime)
	if c, ok := b.cfg.Client.(*Client); ok {
		d += c.Longest()
	}
	return d
}

// searchLimit is the deadline of a search of budget t: the search stops
// itself at t; this only guards against one that would not.
func (b *Bot) searchLimit(t time.Duration) time.Duration { return 2*t + 5*time.Second }

// ThinkTime is the bot's budget for a move with clockCurr hours left on
// its clock (AbstractPlay rounds it: 0 is under 30 minutes): moveTime, at
// most ShortMoveTime when clockCurr ≤ 1.
func ThinkTime(moveTime time.Duration, clockCurr float64) time.Duration {
	if clockCurr <= 1 {
		return min(moveTime, ShortMoveTime)
	}
	return moveTime
}

// Plays reports whether the bot plays board b, and whether with a trained
// network (else with the classical engine, pvs).
func (b *Bot) Plays(board Board) (plays, network bool) {
	if !board.Playable() {
		return false, false
	}
	_, network = b.network(board)
	return true, network
}

// network returns the engine of a trained network for board, if there is
// one: a shipped network's on the boards of their table (models.Shipped),
// or a multi-board model's (--model) on every board of up to 8 files and
// ranks, 7x6 too, and on the boards above 8x8 it was trained on
// (agent.Engines.GetBoard).
func (b *Bot) network(board Board) (*agent.Engine, bool) {
	e, err := b.cfg.Engines.GetBoard(board.rules)
	if err != nil || e.Model() == nil {
		return nil, false
	}
	return e, true
}

// answer writes a JSON reply and counts it.
func (b *Bot) answer(w http.ResponseWriter, verb string, code int, r reply) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(r)
	b.metrics.webhooks.WithLabelValues(verb, fmt.Sprint(code)).Inc()
}

// webhook is the endpoint registered with AbstractPlay: GET is the ping;
// POST a signed challenge or move.
func (b *Bot) webhook(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if b.draining.Load() {
			b.answer(w, "ping", http.StatusServiceUnavailable, reply{Operational: new(false), Message: "draining"})
			return
		}
		b.answer(w, "ping", http.StatusOK, reply{Operational: new(true)})
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		b.answer(w, "bad", http.StatusMethodNotAllowed, reply{Message: "method not allowed"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, b.cfg.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			b.answer(w, "bad", http.StatusRequestEntityTooLarge, reply{Message: fmt.Sprintf("body over %d bytes", b.cfg.MaxBody)})
			return
		}
		b.answer(w, "bad", http.StatusBadRequest, reply{Message: "body unreadable"})
		return
	}
	if err := b.cfg.Verifier.Verify(r.Header, body); err != nil {
		b.log.Warn("webhook refused", "err", err)
		if errors.Is(err, ErrNoRoom) {
			b.answer(w, "bad", http.StatusServiceUnavailable, reply{Message: "busy"})
			return
		}
		b.answer(w, "bad", http.StatusUnauthorized, reply{Message: strings.TrimPrefix(err.Error(), "apbot: ")})
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		b.answer(w, "bad", http.StatusUnsupportedMediaType, reply{Message: "want Content-Type application/json"})
		return
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		b.answer(w, "bad", http.StatusBadRequest, reply{Message: "invalid JSON body"})
		return
	}
	switch env.Verb {
	case VerbChallenge:
		var c Challenge
		if err := json.Unmarshal(body, &c); err != nil {
			b.answer(w, "challenge", http.StatusBadRequest, reply{Message: "invalid challenge: " + jsonError(err)})
			return
		}
		b.challenge(w, c)
	case VerbMove:
		var m MoveRequest
		if err := json.Unmarshal(body, &m); err != nil {
			b.answer(w, "move", http.StatusBadRequest, reply{Message: "invalid move: " + jsonError(err)})
			return
		}
		b.move(w, m)
	default:
		b.answer(w, "bad", http.StatusBadRequest, reply{Message: fmt.Sprintf("unknown verb %s", rules.Quote(env.Verb))})
	}
}

// jsonError says what was wrong with a JSON body, without quoting it.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %s: want %s", te.Field, te.Type)
	}
	return "not JSON"
}

// challenge accepts (200) a Kōnane challenge on a board the bot plays,
// unless it is draining or has as many moves in flight as it may search
// at once; else 400.
func (b *Bot) challenge(w http.ResponseWriter, c Challenge) {
	refuse := func(why string) {
		b.metrics.challenges.WithLabelValues("refused").Inc()
		b.log.Info("challenge refused", "metaGame", c.MetaGame, "variants", quoteList(c.Variants), "why", why)
		b.answer(w, "challenge", http.StatusBadRequest, reply{Message: why})
	}
	if c.MetaGame != MetaGame {
		refuse(fmt.Sprintf("this bot plays only %s, not %s", MetaGame, rules.Quote(c.MetaGame)))
		return
	}
	board, err := BoardOf(c.Variants)
	if err != nil {
		refuse(strings.TrimPrefix(err.Error(), "apbot: "))
		return
	}
	if ok, _ := b.Plays(board); !ok {
		refuse(fmt.Sprintf("this bot does not play %s yet", board))
		return
	}
	if b.draining.Load() {
		refuse("shutting down")
		return
	}
	if n := b.pending.Load(); n >= int64(b.cfg.MaxSearches) {
		refuse("busy")
		return
	}
	b.metrics.challenges.WithLabelValues("accepted").Inc()
	b.log.Info("challenge accepted", "board", board.String())
	b.answer(w, "challenge", http.StatusOK, reply{Accepted: true})
}

// maxGameID bounds the game ids (AbstractPlay's are UUIDs).
const maxGameID = 128

// move takes a move webhook: 400 for one that is not a game of the bot's
// (not Kōnane, a board it does not play, not two players, no game id),
// 503 while draining or with MaxPending moves in flight, else 202, and
// the move is computed and submitted in the background (once per game
// and position).
func (b *Bot) move(w http.ResponseWriter, m MoveRequest) {
	bad := func(why string) {
		b.log.Warn("move webhook refused", "gameid", rules.Quote(m.GameID), "why", why)
		b.answer(w, "move", http.StatusBadRequest, reply{Message: why})
	}
	board, err := BoardOf(m.Variants)
	switch {
	case m.MetaGame != MetaGame:
		bad(fmt.Sprintf("this bot plays only %s, not %s", MetaGame, rules.Quote(m.MetaGame)))
		return
	case m.GameID == "" || len(m.GameID) > maxGameID:
		bad(fmt.Sprintf("gameid: want 1 to %d bytes", maxGameID))
		return
	case m.NumPlayers != 2:
		bad(fmt.Sprintf("numPlayers %d: Kōnane has 2", m.NumPlayers))
		return
	case err != nil:
		bad(strings.TrimPrefix(err.Error(), "apbot: "))
		return
	}
	if ok, _ := b.Plays(board); !ok {
		bad(fmt.Sprintf("this bot does not play %s", board))
		return
	}
	if b.draining.Load() {
		b.lost(m, resultRefused, "shutting down")
		b.answer(w, "move", http.StatusServiceUnavailable, reply{Message: "shutting down"})
		return
	}
	key := historyKey(m)
	if !b.firstTime(key) {
		b.metrics.moves.WithLabelValues(resultDuplicate).Inc()
		b.log.Info("duplicate move webhook: already answered", "gameid", m.GameID, "plies", plies(m.Moves))
		b.answer(w, "move", http.StatusAccepted, reply{Queued: true, Message: "duplicate: already answered"})
		return
	}
	if b.pending.Add(1) > int64(b.cfg.MaxPending) {
		b.pending.Add(-1)
		b.forget(key)
		b.lost(m, resultRefused, "too many moves in flight")
		b.answer(w, "move", http.StatusServiceUnavailable, reply{Message: "busy"})
		return
	}
	b.work.Add(1)
	go func() {
		defer b.work.Done()
		defer b.pending.Add(-1)
		if !b.play(m, board) {
			b.forget(key)
		}
	}()
	b.answer(w, "move", http.StatusAccepted, reply{Queued: true})
}

// lost logs a move webhook that gets no move, loudly, and counts it.
func (b *Bot) lost(m MoveRequest, result, why string) {
	b.metrics.moves.WithLabelValues(result).Inc()
	b.log.Error("no move for this game: it waits for the bot", "gameid", m.GameID, "result", result, "why", why)
}

func plies(rounds [][]string) int {
	n := 0
	for _, r := range rounds {
		n += len(r)
	}
	return n
}

// historyKey names a game and position: the hash of the game id and the
// moves.
func historyKey(m MoveRequest) [32]byte {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(m.GameID)))
	h.Write(n[:])
	h.Write([]byte(m.GameID))
	for _, r := range m.Moves {
		for _, mv := range r {
			binary.LittleEndian.PutUint64(n[:], uint64(len(mv)))
			h.Write(n[:])
			h.Write([]byte(mv))
		}
		h.Write([]byte{0xff})
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// firstTime records key and reports whether it is new; at most dupMemory
// keys are kept, none longer than dupWindow.
func (b *Bot) firstTime(key [32]byte) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	for len(b.dupQ) > 0 && (len(b.dupQ) >= dupMemory || now.Sub(b.dupQ[0].at) >= dupWindow) {
		if e := b.dupQ[0]; b.dups[e.key] == e.at {
			delete(b.dups, e.key)
		}
		b.dupQ = b.dupQ[1:]
	}
	if _, seen := b.dups[key]; seen {
		return false
	}
	b.dups[key] = now
	b.dupQ = append(b.dupQ, dupEntry{key, now})
	return true
}

// forget drops key, so that the same webhook may be taken again (after a
// move refused or lost).
func (b *Bot) forget(key [32]byte) {
	b.mu.Lock()
	delete(b.dups, key)
	b.mu.Unlock()
}

// Replay plays a move webhook's history on board: its rounds in order,
// each a move per seat (only the last may be short). It returns the
// position (on the wide layout, which holds every board) and the number
// of moves played; its errors say which move is wrong and why.
func Replay(board Board, rounds [][]string) (rules.WidePosition, int, error) {
	p, err := board.Start()
	if err != nil {
		return rules.WidePosition{}, 0, fmt.Errorf("apbot: %w", err)
	}
	ply := 0
	for i, r := range rounds {
		if len(r) == 0 || len(r) > 2 || len(r) < 2 && i < len(rounds)-1 {
			return rules.WidePosition{}, 0, fmt.Errorf("apbot: round %d has %d moves: want 2 (1 in the last round)", i+1, len(r))
		}
		for _, text := range r {
			ply++
			if !p.HasMoves() {
				return rules.WidePosition{}, 0, fmt.Errorf("apbot: ply %d: the game is already over", ply)
			}
			m, err := rules.ParseWideMove(p, text)
			if err != nil {
				return rules.WidePosition{}, 0, fmt.Errorf("apbot: ply %d: %w", ply, err)
			}
			p = p.Play(m)
		}
	}
	return p, ply, nil
}

// play replays the history of m, chooses a move and submits it; false
// when no move reached AbstractPlay.
func (b *Bot) play(m MoveRequest, board Board) bool {
	pos, plies, err := Replay(board, m.Moves)
	if err != nil {
		b.lost(m, resultIllegal, err.Error())
		return false
	}
	if !pos.HasMoves() {
		b.lost(m, resultGameOver, "the history ends the game")
		return false
	}
	b.searches <- struct{}{}
	t := ThinkTime(b.cfg.MoveTime, m.ClockCurr)
	start := time.Now()
	mv, err := b.choose(board, pos, t, b.seed(m.GameID, plies))
	<-b.searches
	b.metrics.search.WithLabelValues(fmt.Sprintf("%dx%d", board.Cols, board.Rows)).Observe(time.Since(start).Seconds())
	if err != nil {
		b.lost(m, resultNoMove, err.Error())
		return false
	}
	s := Submission{Verb: VerbMove, GameID: m.GameID, MetaGame: MetaGame, Move: mv}
	out, err := b.cfg.Client.Submit(context.Background(), s)
	b.metrics.moves.WithLabelValues(string(out)).Inc()
	switch out {
	case Delivered:
		b.log.Info("move submitted", "gameid", m.GameID, "ply", plies+1, "move", s.Move, "think", time.Since(start).Round(time.Millisecond))
	case ProbablyDelivered:
		b.log.Warn("move probably delivered: a retry after a timeout was refused", "gameid", m.GameID, "move", s.Move, "err", err)
	default:
		b.log.Error("MOVE LOST: botQuery did not take the move and AbstractPlay will not ask again; the game waits for the bot",
			"gameid", m.GameID, "ply", plies+1, "move", s.Move, "err", err)
		return false
	}
	return true
}

// seed is the search's seed for a game's ply.
func (b *Bot) seed(gameID string, ply int) uint64 {
	h := sha256.Sum256([]byte(gameID))
	return b.cfg.Seed ^ binary.LittleEndian.Uint64(h[:8]) ^ uint64(ply)*0x9e3779b97f4a7c15
}

// choose searches p for at most t and returns the move in AbstractPlay's
// notation (ours): the network's agent at the bot's level
// (Agent.MoveAny, on every board), or, on a board without a network,
// the classical engine at the bot's level (player.Slipping, on every
// board).
func (b *Bot) choose(board Board, wp rules.WidePosition, t time.Duration, seed uint64) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), b.searchLimit(t))
	defer cancel()
	if e, ok := b.network(board); ok {
		a, err := e.NewAgent(seed)
		if err != nil {
			return "", err
		}
		s := b.strength
		s.Time = t
		an, err := a.MoveAny(ctx, wp, s)
		if err != nil {
			return "", err
		}
		return an.Best.String(), nil
	}
	// A weak level's slips of the classical engine (Choice.Slip), seeded
	// by the game's ply as the search is.
	m, err := player.NewSlipping(player.NewPVS(0, t, seed), b.strength.Choice, seed).MoveAny(ctx, wp)
	if err != nil {
		return "", err
	}
	return m.String(), nil
}
