package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	stdnet "net"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/konanezero/konane/web/api"
	"github.com/konanezero/konane/web/messages"
)

// Config sets up a Server; zero fields take the defaults.
type Config struct {
	// API sets up the play service the page calls (package api); the
	// server gives it the page's tutorial as API.Learn.
	API api.Config
	// PublicURL is the page's address as people reach it, through any
	// proxy (https://konane.example.org/): when set, the page names its
	// link preview image by that absolute address (og:image, /og.png),
	// as link previews require. "" = no og:image: a server cannot tell
	// its public address from a request behind a proxy.
	PublicURL string
	// DrainDelay is how long Serve goes on serving after its context ends,
	// failing /readyz and refusing new searches, before it shuts down (so
	// that a load balancer stops sending requests first); 0 = none.
	DrainDelay time.Duration
}

// Server is the web game: the page, and the play service behind it.
type Server struct {
	cfg     Config
	api     *api.Service
	pages   pages   // the page in each language
	preview preview // /og.png
}

// New checks cfg and renders the page in every language. It starts no
// goroutine: Serve runs the server, or mount Handler elsewhere.
func New(cfg Config) (*Server, error) {
	if cfg.DrainDelay < 0 {
		return nil, fmt.Errorf("web: drain delay %v: want a positive duration", cfg.DrainDelay)
	}
	var err error
	if cfg.PublicURL, err = parsePublicURL(cfg.PublicURL); err != nil {
		return nil, err
	}
	if cfg.API.Learn, err = tutorial(); err != nil {
		return nil, err
	}
	svc, err := api.New(cfg.API)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	msgs, err := messages.Load()
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	pages, err := renderPages(msgs, cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	return &Server{cfg: cfg, api: svc, pages: pages}, nil
}

// Handler returns the page, its static files and the preview image, and
// the play service's API, probes and metrics (api.Service.Handler).
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
			s.pages.ServeHTTP(w, r)
			return
		}
		// A name no file can have (invalid UTF-8 such as /%ff) is not
		// found, where the file server would answer 500.
		if !fs.ValidPath(strings.TrimPrefix(path.Clean(r.URL.Path), "/")) {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	mux.Handle("GET /og.png", &s.preview)
	return securityHeaders(s.api.Handler(mux))
}

// MetricsHandler serves the play service's metrics in the Prometheus text
// format, for an address of its own (api.Config.MetricsApart).
func (s *Server) MetricsHandler() http.Handler { return s.api.MetricsHandler() }

// Drain fails the readiness probe and refuses new searches from now on;
// requests in flight finish. Serve drains when its context ends.
func (s *Server) Drain() { s.api.Drain() }

// securityHeaders keeps the page and the API's answers to themselves: no
// framing, no content from elsewhere, no type sniffing.
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
	return s.serve(ctx, ln, s.Handler())
}

// serve is Serve with handler h.
func (s *Server) serve(ctx context.Context, ln stdnet.Listener, h http.Handler) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      s.api.Longest() + 15*time.Second,
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
			shutCtx, cancel := context.WithTimeout(context.Background(), s.api.Longest()+5*time.Second)
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
