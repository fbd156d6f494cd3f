package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	stdnet "net"
	"net/http"
	"net/netip"
	"sync"
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
	Seed         uint64         // seed of the colours drawn at random and of the agents
	MaxSessions  int            // games held at once; 0 = 200
	IdleTimeout  time.Duration  // a game without requests for this long is dropped; 0 = 1h
	// MaxPerClient is the most games one client address holds at once
	// (IPv6 addresses count by their /64); 0 = min(20, MaxSessions).
	MaxPerClient int
	// UnplayedTimeout drops a game in which the human has not moved yet
	// after this long without requests; 0 = min(5m, IdleTimeout).
	UnplayedTimeout time.Duration
	// TrustedProxies are the addresses of reverse proxies whose
	// X-Forwarded-For header names the client; a request from elsewhere
	// is the client itself, whatever its headers say.
	TrustedProxies []netip.Prefix
	MoveTimeout    time.Duration // the longest an agent move or hint may take; 0 = 2m
	MaxBody        int64         // the largest request body in bytes; 0 = 4096
	// Reviews (POST /api/review): ReviewSims simulations a position (0 =
	// analysis.DefaultSims), each review within ReviewTimeout (0 = 1m),
	// at most MaxReviews at once (0 = 2) and MaxReviewsPerClient per
	// client (0 = 1); an uploaded record may have up to MaxRecord bytes
	// (0 = 64 KiB), the request's limit instead of MaxBody.
	ReviewSims          int
	ReviewTimeout       time.Duration
	MaxReviews          int
	MaxReviewsPerClient int
	MaxRecord           int64
	// Now is the clock of the idle expiry (tests set it); nil = time.Now.
	Now func() time.Time
}

// Defaults of Config.MaxPerClient and Config.UnplayedTimeout (bounded by
// MaxSessions and IdleTimeout).
const (
	DefaultMaxPerClient    = 20
	DefaultUnplayedTimeout = 5 * time.Minute
)

// Server is the web game: the page, the API and the games in progress.
type Server struct {
	cfg      Config
	sessions *store
	msgs     catalog           // the texts of the page and the API
	pages    map[string][]byte // the page in each language
	tutorial []tutorialStep    // the steps of "Learn the rules"
	reviews  *reviews          // the analyses running

	mu    sync.Mutex // guards rng and games
	rng   *rand.Rand
	games uint64
}

// New checks cfg. It starts no goroutine: Serve runs the server, or
// mount Handler elsewhere (then nothing expires idle games unless
// Expire is called).
func New(cfg Config) (*Server, error) {
	if cfg.Engines == nil {
		return nil, errors.New("web: no engines")
	}
	if cfg.DefaultLevel == "" {
		cfg.DefaultLevel = agent.DefaultLevel
	}
	if _, err := agent.ParseLevel(cfg.DefaultLevel); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 200
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = time.Hour
	}
	if cfg.MaxPerClient == 0 {
		cfg.MaxPerClient = min(DefaultMaxPerClient, cfg.MaxSessions)
	}
	if cfg.UnplayedTimeout == 0 {
		cfg.UnplayedTimeout = min(DefaultUnplayedTimeout, cfg.IdleTimeout)
	}
	if cfg.MoveTimeout == 0 {
		cfg.MoveTimeout = 2 * time.Minute
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = 4096
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ReviewSims == 0 {
		cfg.ReviewSims = analysis.DefaultSims
	}
	if cfg.ReviewTimeout == 0 {
		cfg.ReviewTimeout = time.Minute
	}
	if cfg.MaxReviews == 0 {
		cfg.MaxReviews = 2
	}
	if cfg.MaxReviewsPerClient == 0 {
		cfg.MaxReviewsPerClient = min(1, cfg.MaxReviews)
	}
	if cfg.MaxRecord == 0 {
		cfg.MaxRecord = max(64<<10, cfg.MaxBody)
	}
	switch {
	case cfg.MaxSessions < 1:
		return nil, fmt.Errorf("web: maximum sessions %d: want at least 1", cfg.MaxSessions)
	case cfg.IdleTimeout < time.Second:
		return nil, fmt.Errorf("web: idle timeout %v: want at least 1s", cfg.IdleTimeout)
	case cfg.MaxPerClient < 1 || cfg.MaxPerClient > cfg.MaxSessions:
		return nil, fmt.Errorf("web: maximum games per client %d: want 1..%d (the maximum sessions)", cfg.MaxPerClient, cfg.MaxSessions)
	case cfg.UnplayedTimeout < time.Second || cfg.UnplayedTimeout > cfg.IdleTimeout:
		return nil, fmt.Errorf("web: timeout of unplayed games %v: want 1s up to the idle timeout %v", cfg.UnplayedTimeout, cfg.IdleTimeout)
	case cfg.MoveTimeout < 0:
		return nil, fmt.Errorf("web: move timeout %v: want a positive duration", cfg.MoveTimeout)
	case cfg.MaxBody < 256:
		return nil, fmt.Errorf("web: maximum body %d bytes: want at least 256", cfg.MaxBody)
	case cfg.ReviewSims < 1 || cfg.ReviewSims > player.MaxSims:
		return nil, fmt.Errorf("web: %d simulations per reviewed position: want 1..%d", cfg.ReviewSims, player.MaxSims)
	case cfg.ReviewTimeout < time.Second:
		return nil, fmt.Errorf("web: review timeout %v: want at least 1s", cfg.ReviewTimeout)
	case cfg.MaxReviews < 1 || cfg.MaxReviewsPerClient < 1 || cfg.MaxReviewsPerClient > cfg.MaxReviews:
		return nil, fmt.Errorf("web: %d reviews at once, %d per client: want at least 1, and no more per client than in all", cfg.MaxReviews, cfg.MaxReviewsPerClient)
	case cfg.MaxRecord < cfg.MaxBody:
		return nil, fmt.Errorf("web: maximum record %d bytes: want at least the maximum body, %d", cfg.MaxRecord, cfg.MaxBody)
	}
	msgs, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	pages, err := renderPages(msgs)
	if err != nil {
		return nil, err
	}
	steps, err := tutorial()
	if err != nil {
		return nil, err
	}
	return &Server{
		cfg:      cfg,
		sessions: newStore(cfg.MaxSessions, cfg.MaxPerClient, cfg.IdleTimeout, cfg.UnplayedTimeout, cfg.Now),
		msgs:     msgs,
		pages:    pages,
		tutorial: steps,
		reviews:  &reviews{max: cfg.MaxReviews, perClient: cfg.MaxReviewsPerClient, running: map[string]int{}},
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x77656221)), // "web!"
	}, nil
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
	mux.Handle("/api/", s.api())
	return securityHeaders(mux)
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

// Expire drops the games idle for longer than the idle timeout and
// returns how many.
func (s *Server) Expire() int { return s.sessions.expire() }

// Sessions returns the number of games held.
func (s *Server) Sessions() int { return s.sessions.len() }

// Serve serves on ln until ctx ends, with the timeouts of a public
// server and the janitor that drops idle games; then it shuts down
// gracefully, letting requests in progress finish (for up to
// MoveTimeout). The engines must be running meanwhile.
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
	janitorDone := make(chan struct{})
	go func() {
		defer close(janitorDone)
		s.janitor(ctx)
	}()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		shutCtx, cancel := context.WithTimeout(context.Background(), s.longest()+5*time.Second)
		err = hs.Shutdown(shutCtx)
		cancel()
		if e := <-served; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
	}
	<-janitorDone
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

// janitor drops idle games regularly until ctx ends.
func (s *Server) janitor(ctx context.Context) {
	every := min(s.cfg.UnplayedTimeout/4, time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.sessions.expire()
		}
	}
}
