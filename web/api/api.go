package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
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
	Sizes        []int       `json:"sizes"`
	DefaultSize  int         `json:"defaultSize"`
	Levels       []levelJSON `json:"levels"`
	DefaultLevel string      `json:"defaultLevel"`
}

type levelJSON struct {
	Name string `json:"name"`
	Sims int    `json:"sims"`
}

func (s *Service) config(*http.Request) (any, error) {
	c := configJSON{Sizes: s.cfg.Engines.Sizes(), DefaultSize: s.defaultSize(), DefaultLevel: s.cfg.DefaultLevel}
	for _, l := range agent.Levels()[:s.maxLevel+1] {
		c.Levels = append(c.Levels, levelJSON{l.Name, l.Sims})
	}
	return c, nil
}

// defaultSize is the board size of a new game that names none: the
// standard 8x8 if there is a model for it, else the largest there is.
func (s *Service) defaultSize() int {
	sizes := s.cfg.Engines.Sizes()
	if slices.Contains(sizes, rules.DefaultSize) {
		return rules.DefaultSize
	}
	return sizes[len(sizes)-1]
}

// stateJSON is everything the page draws; game is what the client keeps
// and sends with its next request.
type stateJSON struct {
	Game     gameJSON         `json:"game"`
	Size     int              `json:"size"`
	Human    string           `json:"human"`
	Level    string           `json:"level"`
	Turn     string           `json:"turn"`
	Phase    string           `json:"phase"`
	Board    []string         `json:"board"` // top rank first; x black, o white, . empty
	Moves    []string         `json:"moves"`
	Last     string           `json:"last"` // "" before the first move
	Legal    []string         `json:"legal"`
	Over     bool             `json:"over"`
	Winner   string           `json:"winner,omitempty"`
	Resigned bool             `json:"resigned,omitempty"` // over because the human resigned
	CanUndo  bool             `json:"canUndo"`            // the human has a move to take back
	Start    int              `json:"start,omitempty"`    // moves the game started from (played on from a position)
	Message  messages.Message `json:"message"`
	Eval     *evalJSON        `json:"eval,omitempty"` // of the agent's move just made
}

type evalJSON struct {
	Ply          int      `json:"ply"` // the agent's move is moves[ply-1]
	AgentMove    string   `json:"agentMove"`
	HumanWinProb float64  `json:"humanWinProb"`
	PV           []string `json:"pv"`
}

// view draws the game with its message in the language of r, and an, the
// analysis of the agent's move just made (nil if none).
func (s *Service) view(r *http.Request, gm *game, an *agent.Analysis) stateJSON {
	g := gm.g
	p := g.Position()
	st := stateJSON{
		Game: gm.json(), Size: g.Size(), Human: gm.human.String(), Level: gm.level.Name,
		Turn: p.Turn.String(), Phase: p.Phase().String(),
		Moves: rules.MoveStrings(g.Moves()), Legal: []string{}, Over: gm.over(),
		Resigned: gm.resigned, CanUndo: gm.canUndo(), Start: gm.start,
	}
	if st.Moves == nil {
		st.Moves = []string{}
	}
	st.Game.Moves = st.Moves
	st.Board = BoardRows(p)
	if g.Len() > 0 {
		st.Last = g.Last().String()
	}
	if w, ok := gm.winner(); ok {
		st.Winner = w.String()
		if gm.resigned {
			st.Message = messages.New("status.resigned")
		} else if w == gm.human {
			st.Message = messages.New("status.youWin")
		} else {
			st.Message = messages.New("status.computerWins")
		}
	} else if p.Turn == gm.human {
		st.Legal = rules.MoveStrings(p.LegalMoves(nil))
		switch p.Phase() {
		case rules.RemoveBlack:
			st.Message = messages.New("status.removeBlack")
		case rules.RemoveWhite:
			st.Message = messages.New("status.removeWhite")
		default:
			st.Message = messages.New("status.jump")
		}
	} else {
		st.Message = messages.New("status.thinking")
	}
	if an != nil {
		st.Eval = &evalJSON{Ply: g.Len(), AgentMove: an.Best.String(), HumanWinProb: round3(an.WinProbFor(gm.human)), PV: rules.MoveStrings(an.PV)}
	}
	st.Message = s.msgs.Render(messages.Negotiate(r), st.Message)
	return st
}

type newRequest struct {
	Size  int    `json:"size"`
	Color string `json:"color"`
	Level string `json:"level"`
	// Moves, when given, are the moves the game starts from ("play on
	// from here" in a review): legal from the start, leaving a move to
	// play. They cannot be undone.
	Moves []string `json:"moves,omitempty"`
}

// newGame starts a game: the defaults filled in, the colour drawn for
// "random", the start moves checked, and the agent's first move if it
// is to move.
func (s *Service) newGame(r *http.Request) (any, error) {
	var req newRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Size == 0 {
		req.Size = s.defaultSize()
	}
	if _, err := s.cfg.Engines.Get(req.Size); err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.size", "size", fmt.Sprint(req.Size), "sizes", messages.SizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	if req.Level == "" {
		req.Level = s.cfg.DefaultLevel
	}
	level, err := s.parseLevel(req.Level)
	if err != nil {
		return nil, err
	}
	human, err := s.drawColor(req.Color)
	if err != nil {
		return nil, err
	}
	g, err := rules.NewGame(req.Size)
	if err != nil {
		return nil, err
	}
	if err := startFrom(g, req.Moves); err != nil {
		return nil, err
	}
	gm := &game{human: human, level: level, start: g.Len(), g: g}
	var an *agent.Analysis
	if g.Position().Turn != human {
		if an, err = s.agentMove(r, gm, g.Position()); err != nil {
			return nil, err
		}
	}
	return s.view(r, gm, an), nil
}

// startFrom plays the moves a new game starts from; the game must go on
// after them.
func startFrom(g *rules.Game, moves []string) error {
	if len(moves) > maxMoves(g.Size()) {
		return badRequest("error.startLong", "n", fmt.Sprint(len(moves)))
	}
	for i, text := range moves {
		if g.Over() {
			return badRequest("error.startOver", "n", fmt.Sprint(i))
		}
		if _, err := g.PlayText(text); err != nil {
			return &apiError{code: http.StatusBadRequest, msg: messages.ForMove("error.startMoveBlack", "error.startMoveWhite", i+1, "move", text), detail: err}
		}
	}
	if g.Over() {
		return badRequest("error.startOver", "n", fmt.Sprint(len(moves)))
	}
	return nil
}

// drawColor reads the human's colour of a new game, drawn for "random".
func (s *Service) drawColor(color string) (rules.Color, error) {
	if color == "random" {
		s.mu.Lock()
		defer s.mu.Unlock()
		return rules.Color(s.rng.IntN(2)), nil
	}
	if color == "" {
		return rules.Black, nil
	}
	return parseColor(color)
}

// seed returns the seed of a new agent.
func (s *Service) seed() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.games++
	return s.cfg.Seed + s.games
}

// agent returns the agent kept under p by the tree cache, or a new one.
func (s *Service) agent(p rules.Position) (*agent.Agent, error) {
	if a := s.trees.take(p); a != nil {
		return a, nil
	}
	engine, err := s.cfg.Engines.Get(int(p.Size))
	if err != nil {
		return nil, err
	}
	return engine.NewAgent(s.seed())
}

// agentMove lets the agent play its move in gm (within the admission
// budget and Config.MoveTimeout). left is the position the agent left
// the game in after its last move, under which the tree cache may keep
// its search; the agent is kept under the position it leaves now.
func (s *Service) agentMove(r *http.Request, gm *game, left rules.Position) (*agent.Analysis, error) {
	release, err := s.search(r, gm.level.Name, gm.level.Sims)
	if err != nil {
		return nil, err
	}
	defer release()
	a, err := s.agent(left)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MoveTimeout)
	defer cancel()
	start := time.Now()
	an, err := a.Move(ctx, gm.g.Position(), gm.level.Limits())
	s.metrics.search.WithLabelValues("move", gm.level.Name).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.agentFailed", "error.agentBroken"), detail: err}
	}
	if err := gm.g.Play(an.Best); err != nil {
		return nil, err
	}
	s.trees.put(gm.g.Position(), a)
	return &an, nil
}

// gameRequest is a request on a game the client holds.
type gameRequest struct {
	Game gameJSON `json:"game"`
}

// decodeGame reads a request on a game into req and replays its game.
func (s *Service) decodeGame(r *http.Request, req any, gj *gameJSON) (*game, error) {
	if err := decode(r, req); err != nil {
		return nil, err
	}
	return s.replay(*gj)
}

// state draws a game without searching: after an undo, a change of
// level, or a reload of the page.
func (s *Service) state(r *http.Request) (any, error) {
	var req gameRequest
	gm, err := s.decodeGame(r, &req, &req.Game)
	if err != nil {
		return nil, err
	}
	return s.view(r, gm, nil), nil
}

type moveRequest struct {
	Game gameJSON `json:"game"`
	Move string   `json:"move"` // the human's; "" when the agent is to move
}

// move plays the human's move and the agent's reply; with no move, the
// agent's move when it is to move (the game reloaded before it did).
func (s *Service) move(r *http.Request) (any, error) {
	var req moveRequest
	gm, err := s.decodeGame(r, &req, &req.Game)
	if err != nil {
		return nil, err
	}
	left := gm.g.Position()
	switch {
	case gm.over():
		return nil, badRequest("error.gameOver")
	case req.Move == "" && left.Turn == gm.human:
		return nil, badRequest("error.yourTurn")
	case req.Move != "" && left.Turn != gm.human:
		return nil, badRequest("error.notYourTurn")
	case req.Move != "":
		if _, err := gm.g.PlayText(req.Move); err != nil {
			return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.move", "move", req.Move), detail: err}
		}
	}
	var an *agent.Analysis
	if !gm.g.Over() {
		if an, err = s.agentMove(r, gm, left); err != nil {
			return nil, err
		}
	}
	return s.view(r, gm, an), nil
}

type hintJSON struct {
	Move    string   `json:"move"`
	WinProb float64  `json:"winProb"` // the human's
	PV      []string `json:"pv"`
}

func (s *Service) hint(r *http.Request) (any, error) {
	var req gameRequest
	gm, err := s.decodeGame(r, &req, &req.Game)
	if err != nil {
		return nil, err
	}
	p := gm.g.Position()
	switch {
	case gm.over():
		return nil, badRequest("error.hintOver")
	case p.Turn != gm.human:
		return nil, badRequest("error.hintTurn")
	}
	release, err := s.search(r, gm.level.Name, gm.level.Sims)
	if err != nil {
		return nil, err
	}
	defer release()
	a, err := s.agent(p)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MoveTimeout)
	defer cancel()
	start := time.Now()
	an, err := a.Advise(ctx, p, gm.level.Limits())
	s.metrics.search.WithLabelValues("hint", gm.level.Name).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.hintFailed", "error.hintBroken"), detail: err}
	}
	s.trees.put(p, a) // the agent's own tree is as it was
	return hintJSON{Move: an.Best.String(), WinProb: round3(an.WinProb()), PV: rules.MoveStrings(an.PV)}, nil
}

// record sends the game of ?g=CODE (the page's fragment) as a record in
// the text format, as a download.
func (s *Service) record(w http.ResponseWriter, r *http.Request) {
	gj, err := decodeGame(r.URL.Query().Get("g"))
	if err != nil {
		s.writeError(w, r, &apiError{code: http.StatusBadRequest, msg: messages.New("error.gameCode"), detail: err})
		return
	}
	gm, err := s.replay(gj)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	text, err := gm.record("konane serve").MarshalText()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="konane-game.txt"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text)
}

// Handler serves the API (/api/), the probes (/healthz, /readyz) and,
// unless Config.MetricsApart, /metrics; it passes every other request to
// next (the page). It counts every request in the metrics and logs one
// line for it (Config.Logger; see observe).
func (s *Service) Handler(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", next)
	mux.Handle("/api/", s.api())
	mux.HandleFunc("/healthz", s.probes)
	mux.HandleFunc("/readyz", s.probes)
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
// Config.ReviewTimeout), then from the cache.
func (s *Service) openings(r *http.Request) (any, error) {
	size := s.defaultSize()
	if q := r.URL.Query().Get("size"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil {
			return nil, badRequest("error.size", "size", q, "sizes", messages.SizeNames(s.cfg.Engines.Sizes()))
		}
		size = n
	}
	engine, err := s.cfg.Engines.Get(size)
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.size", "size", fmt.Sprint(size), "sizes", messages.SizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	return s.openingsCache.get(r.Context(), size, func() (*openingsJSON, error) {
		var ops []analysis.Opening
		err := s.reviewSearch(r, "openings", func(ctx context.Context, cfg analysis.Config) (err error) {
			ops, err = analysis.Openings(ctx, engine, cfg, true)
			return err
		})
		if err != nil {
			return nil, err
		}
		return openingsOf(size, s.cfg.ReviewSims, ops), nil
	})
}

func (s *Service) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
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
