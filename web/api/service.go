package api

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/web/messages"
)

// Config sets up a Service; zero fields take the defaults.
type Config struct {
	Engines      *agent.Engines // the models, one per board size offered
	DefaultLevel string         // the level the page selects first; "" = agent.DefaultLevel
	// MaxLevel is the strongest level offered; a game asking for a
	// stronger one gets 400. "" = every level.
	MaxLevel string
	Seed     uint64 // seed of the colours drawn at random and of the agents
	// Searches is how many searches of the default level run at once
	// (0 = GOMAXPROCS): the admission budget is Searches × that level's
	// simulations, and a search weighs its own simulations (at most the
	// whole budget). Up to Queue requests (0 = 2 × Searches) wait at most
	// QueueWait (0 = 1s) for room; the rest get 503 with Retry-After.
	Searches  int
	Queue     int
	QueueWait time.Duration
	// MaxPerClient is the most requests one client address has in flight
	// at once, waiting ones included (IPv6 addresses count by their /64);
	// 0 = DefaultMaxPerClient. Beyond it: 429.
	MaxPerClient int
	// TrustedProxies are the addresses of reverse proxies whose
	// X-Forwarded-For header names the client; a request from elsewhere
	// is the client itself, whatever its headers say.
	TrustedProxies []netip.Prefix
	MoveTimeout    time.Duration // the longest one search may take (an agent move, a hint, the coach's judgement, the evaluation after a weak level's move: a move request may run three); 0 = 2m
	MaxBody        int64         // the largest request body in bytes; 0 = 4096
	// TreeCache is the number of search trees the replica keeps between
	// requests, keyed by position (0 = DefaultTreeCache; negative = none).
	TreeCache int
	// Reviews (POST /api/v2/review): ReviewSims simulations a position (0 =
	// analysis.DefaultSims), each review within ReviewTimeout (0 = 1m),
	// admitted as one search of ReviewSims; an uploaded record may have up
	// to MaxRecord bytes (0 = 64 KiB), the request's limit instead of
	// MaxBody.
	ReviewSims    int
	ReviewTimeout time.Duration
	MaxRecord     int64
	// MetricsApart leaves /metrics out of Handler (serve MetricsHandler
	// on an address of its own).
	MetricsApart bool
	// Logger gets every failed request and a summary of the others (see
	// Service.Handler); nil = none.
	Logger *slog.Logger
	// Learn are the steps of "Learn the rules" that GET /api/v2/learn
	// answers (the page's tutorial); nil = none.
	Learn []LearnStep
}

// Defaults of Config.MaxPerClient and Config.TreeCache.
const (
	DefaultMaxPerClient = 4
	DefaultTreeCache    = 256
)

// Service is the play service: the JSON API, its admission, metrics and
// probes. It keeps no games: every request carries its game, which the
// service replays through the rules.
type Service struct {
	cfg           Config
	maxLevel      int              // index of Config.MaxLevel in agent.Levels
	msgs          messages.Catalog // the texts of the messages the API sends
	admit         *admission       // the searches running and waiting
	trees         *trees           // the replica's search trees
	metrics       *metrics
	draining      atomic.Bool
	openingsCache openingsCache    // the openings' tables by size
	accessLog     accessSummary    // which requests the log shows (observe)
	now           func() time.Time // the clock of the record download's date (tests fix it)
	// classicalSims is what a search of the classical engine weighs in
	// the admission: one search of the default level, whatever the level
	// (it takes a core for the level's PVSTime and holds its tables of
	// some 100 MB), so that a server runs no more of them at once than
	// Config.Searches.
	classicalSims int

	mu    sync.Mutex // guards rng and games
	rng   *rand.Rand
	games uint64
}

// New checks cfg. It starts no goroutine: mount Handler to serve.
func New(cfg Config) (*Service, error) {
	if cfg.Engines == nil {
		return nil, errors.New("api: no engines")
	}
	if cfg.DefaultLevel == "" {
		cfg.DefaultLevel = agent.DefaultLevel
	}
	def, err := agent.ParseLevel(cfg.DefaultLevel)
	if err != nil {
		return nil, fmt.Errorf("api: %w", err)
	}
	cfg.DefaultLevel = def.Name // "6" is "medium" to the page
	levels := agent.Levels()
	maxLevel := len(levels) - 1
	if cfg.MaxLevel != "" {
		l, err := agent.ParseLevel(cfg.MaxLevel)
		if err != nil {
			return nil, fmt.Errorf("api: maximum level: %w", err)
		}
		cfg.MaxLevel, maxLevel = l.Name, levelIndex(l.Name)
	}
	if levelIndex(cfg.DefaultLevel) > maxLevel {
		return nil, fmt.Errorf("api: default level %s is above the maximum level %s", cfg.DefaultLevel, cfg.MaxLevel)
	}
	if cfg.Searches == 0 {
		cfg.Searches = runtime.GOMAXPROCS(0)
	}
	if cfg.Queue == 0 {
		cfg.Queue = 2 * cfg.Searches
	}
	if cfg.QueueWait == 0 {
		cfg.QueueWait = time.Second
	}
	if cfg.MaxPerClient == 0 {
		cfg.MaxPerClient = DefaultMaxPerClient
	}
	if cfg.TreeCache == 0 {
		cfg.TreeCache = DefaultTreeCache
	}
	if cfg.MoveTimeout == 0 {
		cfg.MoveTimeout = 2 * time.Minute
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = 4096
	}
	if cfg.ReviewSims == 0 {
		cfg.ReviewSims = analysis.DefaultSims
	}
	if cfg.ReviewTimeout == 0 {
		cfg.ReviewTimeout = time.Minute
	}
	if cfg.MaxRecord == 0 {
		cfg.MaxRecord = max(64<<10, cfg.MaxBody)
	}
	switch {
	case cfg.Searches < 1:
		return nil, fmt.Errorf("api: %d searches at once: want at least 1", cfg.Searches)
	case cfg.Queue < 0:
		return nil, fmt.Errorf("api: queue of %d: want at least 0", cfg.Queue)
	case cfg.QueueWait < 0:
		return nil, fmt.Errorf("api: queue wait %v: want a positive duration", cfg.QueueWait)
	case cfg.MaxPerClient < 1:
		return nil, fmt.Errorf("api: %d requests in flight per client: want at least 1", cfg.MaxPerClient)
	case cfg.MoveTimeout < 0:
		return nil, fmt.Errorf("api: move timeout %v: want a positive duration", cfg.MoveTimeout)
	case cfg.MaxBody < 256:
		return nil, fmt.Errorf("api: maximum body %d bytes: want at least 256", cfg.MaxBody)
	case cfg.ReviewSims < 1 || cfg.ReviewSims > player.MaxSims:
		return nil, fmt.Errorf("api: %d simulations per reviewed position: want 1..%d", cfg.ReviewSims, player.MaxSims)
	case cfg.ReviewTimeout < time.Second:
		return nil, fmt.Errorf("api: review timeout %v: want at least 1s", cfg.ReviewTimeout)
	case cfg.MaxRecord < cfg.MaxBody:
		return nil, fmt.Errorf("api: maximum record %d bytes: want at least the maximum body, %d", cfg.MaxRecord, cfg.MaxBody)
	}
	msgs, err := messages.Load()
	if err != nil {
		return nil, err
	}
	if cfg.Learn == nil {
		cfg.Learn = []LearnStep{}
	}
	s := &Service{
		cfg:           cfg,
		maxLevel:      maxLevel,
		msgs:          msgs,
		rng:           rand.New(rand.NewPCG(cfg.Seed, 0x77656221)), // "web!"
		now:           time.Now,
		classicalSims: def.Sims,
	}
	capacity := int64(cfg.Searches) * int64(def.Sims)
	s.metrics = newMetrics(cfg.Engines, capacity, s.ready, func() int { return s.trees.len() })
	s.admit = newAdmission(capacity, cfg.Queue, cfg.QueueWait, cfg.MaxPerClient, s.metrics.observer())
	s.trees = newTrees(cfg.TreeCache, s.metrics.treeHit)
	return s, nil
}

// levelIndex is the index in agent.Levels of a level's name or number
// (agent.ParseLevel), or -1.
func levelIndex(name string) int {
	l, err := agent.ParseLevel(name)
	if err != nil {
		return -1
	}
	return l.Number - 1
}

// Longest is the longest a request may take: an agent's move
// (Config.MoveTimeout) or a review (Config.ReviewTimeout).
func (s *Service) Longest() time.Duration { return max(s.cfg.MoveTimeout, s.cfg.ReviewTimeout) }

// ready reports whether the server takes new searches: its models are
// loaded (New needs them) and it is not draining.
func (s *Service) ready() bool { return !s.draining.Load() }

// Drain fails the readiness probe and refuses new searches from now on
// (503 with Retry-After); requests in flight finish. Serve drains when its
// context ends.
func (s *Service) Drain() { s.draining.Store(true) }
