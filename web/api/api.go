package api

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/internal/probe"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// v2Names are the endpoints of the API, /api/v2/<name>.
var v2Names = map[string]string{ // name → method
	"config": http.MethodGet,
	"learn":  http.MethodGet,
	"record": http.MethodGet,
	"new":    http.MethodPost,
	"state":  http.MethodPost,
	"move":   http.MethodPost,
	"hint":   http.MethodPost,
	"review": http.MethodPost,
	// openings is new in v2 (GET ?size=N).
	"openings": http.MethodGet,
}

// v1Names are the endpoints of the first API, which kept games on the
// server; they answer 410 Gone naming their successor.
var v1Names = map[string]string{
	"config": "config", "learn": "learn", "record": "record", "new": "new", "state": "state",
	"move": "move", "hint": "hint", "review": "review", "undo": "state", "level": "state",
}

// api routes the API requests; every answer, errors included, is JSON
// (but the record download).
func (s *Service) api() http.Handler {
	routes := map[string]func(r *http.Request) (any, error){
		"config":   s.config,
		"learn":    s.learn,
		"new":      s.newGame,
		"state":    s.state,
		"move":     s.move,
		"hint":     s.hint,
		"review":   s.review,
		"openings": s.openings,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, "/api/v2/")
		if !ok {
			old := strings.TrimPrefix(r.URL.Path, "/api/")
			if next, ok := v1Names[old]; ok {
				s.writeError(w, r, &apiError{code: http.StatusGone, msg: messages.New("error.oldAPI", "path", r.URL.Path, "new", "/api/v2/"+next)})
				return
			}
			s.writeError(w, r, &apiError{code: http.StatusNotFound, msg: messages.New("error.noEndpoint", "path", r.URL.Path)})
			return
		}
		method, ok := v2Names[name]
		if !ok {
			s.writeError(w, r, &apiError{code: http.StatusNotFound, msg: messages.New("error.noEndpoint", "path", r.URL.Path)})
			return
		}
		noteEndpoint(r.Context(), "v2/"+name)
		if r.Method != method {
			s.writeError(w, r, methodNotAllowed(w, method))
			return
		}
		if name == "record" {
			s.record(w, r)
			return
		}
		if r.Method == http.MethodPost {
			// A body of another type is what a form or a "simple"
			// cross-site request sends without a preflight: refused,
			// so that no other site makes its visitors run searches.
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
				s.writeError(w, r, &apiError{code: http.StatusUnsupportedMediaType, msg: messages.New("error.malformed"),
					detail: fmt.Errorf("Content-Type %s, want application/json", rules.Quote(r.Header.Get("Content-Type")))})
				return
			}
			limit := s.cfg.MaxBody
			if name == "review" {
				limit = s.cfg.MaxRecord // a record is longer than a game's moves
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		v, err := routes[name](r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

// configJSON tells the page what it may offer.
type configJSON struct {
	Sizes       []int `json:"sizes"`
	DefaultSize int   `json:"defaultSize"`
	// Boards are the boards the page offers (menuBoards), each with who
	// plays it and what the service gives there.
	Boards       []boardInfoJSON `json:"boards"`
	Levels       []levelJSON     `json:"levels"`
	DefaultLevel string          `json:"defaultLevel"`
}

// boardInfoJSON is one board of config: who plays it (agent.Engines.PlayerOn:
// "solver", "network" or "classical") and what the service gives there.
// The exact solver's proofs in the search (Solver), the coach and the
// agent's review are the boards up to 8x8 that the agent plays; win
// probabilities (eval, hints) every board the agent plays, the network
// on any board.
type boardInfoJSON struct {
	Board        string `json:"board"`                  // as new takes it: "6x6", "15x12", "9x8/removal"
	AbstractPlay bool   `json:"abstractPlay,omitempty"` // one of AbstractPlay's boards
	Player       string `json:"player"`                 // who plays it
	Note         string `json:"note,omitempty"`         // a network not trained there (the state's note)
	WinProb      bool   `json:"winProb,omitempty"`      // eval and hints give win probabilities
	// EndgameSolver: the agent's search here calls the exact endgame
	// solver (and on 4x4 and 5x5 the exact solver plays whole games), at
	// the levels that search with the solver (agent.Level.Solver); not
	// above 8x8 or where the classical engine plays. Whether a search
	// proved a position is its answer's proven, which MCTS-Solver can set
	// on any board the agent plays.
	EndgameSolver bool   `json:"endgameSolver,omitempty"`
	Coach         bool   `json:"coach,omitempty"` // the coach judges moves (the state's noCoach)
	Review        string `json:"review"`          // who reviews a game there: "agent" or "classical"
}

// menuBoards are the boards config lists, in the page's menu's order:
// AbstractPlay's (rules.AbstractPlayBoards, its default 6x6 first), then
// the other square boards from rules.MinSide to rules.MaxSide. Every
// other board of those sides is played too (new takes it by name), by the
// classical engine unless a multi-board model plays its shape.
func menuBoards() []rules.Board {
	out := rules.AbstractPlayBoards()
	for n := rules.MinSide; n <= rules.MaxSide; n++ {
		if b := rules.SquareBoard(n); !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// boardInfo is what config says of board b.
func (s *Service) boardInfo(b rules.Board) boardInfoJSON {
	who, note := s.cfg.Engines.PlayerOn(b)
	_, ap := b.AbstractPlayID()
	agentPlays := who != agent.PlayerClassical
	exact := agentPlays && b.Narrow()
	review := "classical"
	if exact {
		review = "agent"
	}
	return boardInfoJSON{Board: b.String(), AbstractPlay: ap, Player: who, Note: note, WinProb: agentPlays,
		EndgameSolver: exact, Coach: exact, Review: review}
}

type levelJSON struct {
	Number int    `json:"number"` // 1 the weakest
	Name   string `json:"name"`   // what games, links and requests name it by
	Sims   int    `json:"sims"`
	// Solver: the level's search uses the exact endgame solver where
	// there is one (agent.Level.Solver; the boards whose endgameSolver is
	// set).
	Solver bool `json:"solver,omitempty"`
	// Perfect says, by board ("6x6"), where the level plays perfectly
	// (agent.Level.PerfectionOn): "always" or "early" (from early in the
	// game); boards where it does not are left out.
	Perfect map[string]agent.Perfection `json:"perfect,omitempty"`
}

func (s *Service) config(*http.Request) (any, error) {
	c := configJSON{Sizes: s.cfg.Engines.Sizes(), DefaultSize: s.defaultSize(), DefaultLevel: s.cfg.DefaultLevel}
	for _, b := range menuBoards() {
		c.Boards = append(c.Boards, s.boardInfo(b))
	}
	for _, l := range agent.Levels()[:s.maxLevel+1] {
		lj := levelJSON{Number: l.Number, Name: l.Name, Sims: l.Sims, Solver: l.Solver}
		for _, n := range c.Sizes {
			w, h := rules.ShapeDims(n)
			if p := l.PerfectionOn(w); w == h && p != agent.Imperfect {
				if lj.Perfect == nil {
					lj.Perfect = map[string]agent.Perfection{}
				}
				lj.Perfect[rules.SquareBoard(w).String()] = p
			}
		}
		c.Levels = append(c.Levels, lj)
	}
	return c, nil
}

// record sends the game of ?g=CODE (the page's fragment) as a record in
// the text format, as a download.
func (s *Service) record(w http.ResponseWriter, r *http.Request) {
	gj, err := decodeGame(r.URL.Query().Get("g"))
	var be *rules.BoardError
	switch {
	case errors.As(err, &be):
		s.writeError(w, r, boardError(be.Text, err))
		return
	case err != nil:
		s.writeError(w, r, &apiError{code: http.StatusBadRequest, msg: messages.New("error.gameCode"), detail: err})
		return
	}
	gm, err := s.replay(gj)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.now().UTC()
	text, err := gm.record("konane serve", now).MarshalText()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+recordName(gm.g.Board(), now)+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text)
}

// recordName is the file name of a record downloaded at t of a game on
// board b: konane-8x8-2026-12-03-1955.txt, so that downloads sort by
// time and do not overwrite one another.
func recordName(b rules.Board, t time.Time) string {
	return fmt.Sprintf("konane-%dx%d-%s.txt", b.W, b.H, t.Format("2006-01-02-1504"))
}

// Handler serves the API (/api/), the probes (/healthz, /readyz) and,
// unless Config.MetricsApart, /metrics; it passes every other request to
// next (the page). It counts every request in the metrics and logs a
// summary of them (Config.Logger; see observe).
func (s *Service) Handler(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", next)
	mux.Handle("/api/", s.api())
	mux.Handle("/healthz", probe.Handler(s.ready))
	mux.Handle("/readyz", probe.Handler(s.ready))
	if !s.cfg.MetricsApart {
		mux.Handle("/metrics", s.MetricsHandler())
	}
	return s.observe(mux)
}

// learn answers GET /api/v2/learn: the steps of Config.Learn.
func (s *Service) learn(*http.Request) (any, error) {
	return map[string][]LearnStep{"steps": s.cfg.Learn}, nil
}

// openings answers GET /api/v2/openings?size=N (the default size when
// absent): computed on the first request for the size (admitted as a
// review: Config.ReviewSims simulations an opening, within
// Config.ReviewTimeout), then from the cache. With &progress=1 it
// answers at once how far that computation is (openingsProgressJSON),
// starting none.
func (s *Service) openings(r *http.Request) (any, error) {
	size := s.defaultSize()
	if q := r.URL.Query().Get("size"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < rules.MinSize || n > rules.MaxSize {
			return nil, badRequest("error.size", "size", q, "sizes", messages.SizeNames(s.cfg.Engines.Sizes()))
		}
		size = n
	}
	engine, err := s.cfg.Engines.Get(size)
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.size", "size", fmt.Sprint(size), "sizes", messages.SizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	if r.URL.Query().Get("progress") != "" {
		return s.openingsCache.progressOf(size), nil
	}
	return s.openingsCache.get(r.Context(), size, func() (*openingsJSON, error) {
		var ops []analysis.Opening
		err := s.reviewSearch(r, "openings", func(ctx context.Context, cfg analysis.Config) (err error) {
			cfg.Progress = func(done, total int) { s.openingsCache.setProgress(size, done, total) }
			ops, err = analysis.Openings(ctx, engine, rules.SquareBoard(size), cfg, true)
			return err
		})
		if err != nil {
			return nil, err
		}
		return openingsOf(size, s.cfg.ReviewSims, ops), nil
	})
}

// StatusClientGone is the status that the metrics and the log give a
// request whose client closed the connection before the answer (nginx's
// 499), so that a 5xx is always a fault of the server.
const StatusClientGone = 499

func (s *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
	case r.Context().Err() != nil:
		// The client left during the search: no fault of ours, and no
		// one reads the answer; counted and logged as 499, not 500.
		ae = &apiError{code: StatusClientGone, msg: messages.New("error.internal"), detail: err}
	default:
		ae = &apiError{code: http.StatusInternalServerError, msg: messages.New("error.internal"), detail: err}
	}
	if ae.code == http.StatusServiceUnavailable || ae.code == http.StatusTooManyRequests {
		retry := ae.retry
		if retry == 0 {
			retry = 5
		}
		w.Header().Set("Retry-After", fmt.Sprint(retry))
	}
	m := s.msgs.Render(messages.Negotiate(r), ae.msg)
	e := errorJSON{Error: m.Text, Code: m.Code, Args: m.Args}
	if ae.detail != nil {
		e.Detail = ae.detail.Error()
		if len(e.Detail) > maxDetail { // an error that echoed a client's input whole
			e.Detail = strings.ToValidUTF8(e.Detail[:maxDetail], "") + "…"
		}
	}
	writeJSON(w, ae.code, e)
}
