package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	stdnet "net"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
)

//go:embed static
var static embed.FS

// Config sets up a Server; zero fields take the defaults.
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
	MoveTimeout    time.Duration // the longest an agent move or hint may take; 0 = 2m
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
	// DrainDelay is how long Serve goes on serving after its context ends,
	// failing /readyz and refusing new searches, before it shuts down (so
	// that a load balancer stops sending requests first); 0 = none.
	DrainDelay time.Duration
	// MetricsApart leaves /metrics out of Handler (serve MetricsHandler
	// on an address of its own).
	MetricsApart bool
	// Logger gets one line per request (see Server.observe); nil = none.
	Logger *slog.Logger
	// PublicURL is the page's address as people reach it, through any
	// proxy (https://konane.example.org/): when set, the page names its
	// link preview image by that absolute address (og:image, /og.png),
	// as link previews require. "" = no og:image: a server cannot tell
	// its public address from a request behind a proxy.
	PublicURL string
}

// Defaults of Config.MaxPerClient and Config.TreeCache.
const (
	DefaultMaxPerClient = 4
	DefaultTreeCache    = 256
)

// Server is the web game: the page and the API. It keeps no games: every
// request carries its game, which the server replays through the rules.
type Server struct {
	cfg           Config
	maxLevel      int               // index of Config.MaxLevel in agent.Levels
	msgs          catalog           // the texts of the page and the API
	pages         map[string][]byte // the page in each language
	tutorial      []tutorialStep    // the steps of "Learn the rules"
	admit         *admission        // the searches running and waiting
	trees         *trees            // the replica's search trees
	metrics       *metrics
	draining      atomic.Bool
	openingsCache openingsCache // the openings' tables by size

	previewOnce sync.Once // draws previewPNG on the first request of /og.png
	previewPNG  []byte
	previewErr  error

	mu    sync.Mutex // guards rng and games
	rng   *rand.Rand
	games uint64
}

// New checks cfg. It starts no goroutine: Serve runs the server, or
// mount Handler elsewhere.
func New(cfg Config) (*Server, error) {
	if cfg.Engines == nil {
		return nil, errors.New("web: no engines")
	}
	if cfg.DefaultLevel == "" {
		cfg.DefaultLevel = agent.DefaultLevel
	}
	def, err := agent.ParseLevel(cfg.DefaultLevel)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	levels := agent.Levels()
	maxLevel := len(levels) - 1
	if cfg.MaxLevel != "" {
		if _, err := agent.ParseLevel(cfg.MaxLevel); err != nil {
			return nil, fmt.Errorf("web: maximum level: %w", err)
		}
		maxLevel = levelIndex(cfg.MaxLevel)
	}
	if levelIndex(cfg.DefaultLevel) > maxLevel {
		return nil, fmt.Errorf("web: default level %s is above the maximum level %s", cfg.DefaultLevel, cfg.MaxLevel)
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
		return nil, fmt.Errorf("web: %d searches at once: want at least 1", cfg.Searches)
	case cfg.Queue < 0:
		return nil, fmt.Errorf("web: queue of %d: want at least 0", cfg.Queue)
	case cfg.QueueWait < 0:
		return nil, fmt.Errorf("web: queue wait %v: want a positive duration", cfg.QueueWait)
	case cfg.MaxPerClient < 1:
		return nil, fmt.Errorf("web: %d requests in flight per client: want at least 1", cfg.MaxPerClient)
	case cfg.MoveTimeout < 0:
		return nil, fmt.Errorf("web: move timeout %v: want a positive duration", cfg.MoveTimeout)
	case cfg.MaxBody < 256:
		return nil, fmt.Errorf("web: maximum body %d bytes: want at least 256", cfg.MaxBody)
	case cfg.ReviewSims < 1 || cfg.ReviewSims > player.MaxSims:
		return nil, fmt.Errorf("web: %d simulations per reviewed position: want 1..%d", cfg.ReviewSims, player.MaxSims)
	case cfg.ReviewTimeout < time.Second:
		return nil, fmt.Errorf("web: review timeout %v: want at least 1s", cfg.ReviewTimeout)
	case cfg.MaxRecord < cfg.MaxBody:
		return nil, fmt.Errorf("web: maximum record %d bytes: want at least the maximum body, %d", cfg.MaxRecord, cfg.MaxBody)
	case cfg.DrainDelay < 0:
		return nil, fmt.Errorf("web: drain delay %v: want a positive duration", cfg.DrainDelay)
	}
	if cfg.PublicURL, err = parsePublicURL(cfg.PublicURL); err != nil {
		return nil, err
	}
	msgs, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	pages, err := renderPages(msgs, cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	steps, err := tutorial()
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:      cfg,
		maxLevel: maxLevel,
		msgs:     msgs,
		pages:    pages,
		tutorial: steps,
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x77656221)), // "web!"
	}
	s.metrics = newMetrics(s)
	s.admit = newAdmission(int64(cfg.Searches)*int64(def.Sims), cfg.Queue, cfg.QueueWait, cfg.MaxPerClient, s.metrics.observer())
	s.trees = newTrees(cfg.TreeCache, s.metrics.treeHit)
	return s, nil
}

// levelIndex is the index of a level's name in agent.Levels, or -1.
func levelIndex(name string) int {
	for i, l := range agent.Levels() {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// Handler returns the page and the API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static") // the embedded folder is always there
	files := http.FileServerFS(page)
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == "/" {
			s.page(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	mux.HandleFunc("GET /og.png", s.preview)
	mux.Handle("/api/", s.api())
	mux.HandleFunc("/healthz", s.probes)
	mux.HandleFunc("/readyz", s.probes)
	if !s.cfg.MetricsApart {
		mux.Handle("/metrics", s.MetricsHandler())
	}
	return s.observe(securityHeaders(mux))
}

// securityHeaders keeps the page to itself: no framing, no content from
// elsewhere, no type sniffing.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Serve serves on ln until ctx ends, with the timeouts of a public
// server; then it drains (Drain: /readyz fails, new searches are refused)
// for Config.DrainDelay, and shuts down gracefully, letting requests in
// progress finish (for up to the longest a request may take). The
// engines must be running meanwhile.
func (s *Server) Serve(ctx context.Context, ln stdnet.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      s.longest() + 15*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(stdnet.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		s.Drain()
		stopped := false
		if s.cfg.DrainDelay > 0 {
			select {
			case err = <-served:
				stopped = true
			case <-time.After(s.cfg.DrainDelay):
			}
		}
		if !stopped {
			shutCtx, cancel := context.WithTimeout(context.Background(), s.longest()+5*time.Second)
			err = hs.Shutdown(shutCtx)
			cancel()
			if e := <-served; !errors.Is(e, http.ErrServerClosed) && err == nil {
				err = e
			}
		}
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// longest is the longest a request may take: an agent's move or a review.
func (s *Server) longest() time.Duration { return max(s.cfg.MoveTimeout, s.cfg.ReviewTimeout) }
