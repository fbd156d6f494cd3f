package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// apiError is an error answered to the client: its status code, the
// message for a person (a catalog key and parameters) and, where there is
// one, the underlying error in English for developers.
type apiError struct {
	code   int
	msg    msg
	detail error
}

// failure is the message of a search that failed: timedOut when it ran
// out of its time budget, broken for anything else (an evaluator fault),
// so that a player is not told to retry in time when time was not the
// cause. The detail goes to the server's log either way.
func failure(err error, timedOut, broken string) msg {
	if errors.Is(err, context.DeadlineExceeded) {
		return newMsg(timedOut)
	}
	return newMsg(broken)
}

func (e *apiError) Error() string {
	s := e.msg.Code
	if e.detail != nil {
		s += ": " + e.detail.Error()
	}
	return s
}

func (e *apiError) Unwrap() error { return e.detail }

// badRequest is a 400 answer with the message of key and its parameters
// as name, value pairs.
func badRequest(key string, pairs ...string) error {
	return &apiError{code: http.StatusBadRequest, msg: newMsg(key, pairs...)}
}

var errUnknownGame = &apiError{code: http.StatusNotFound, msg: newMsg("error.unknownGame")}

// api routes the API requests; every answer, errors included, is JSON
// (but the record download).
func (s *Server) api() http.Handler {
	type route struct {
		method string
		fn     func(r *http.Request) (any, error)
	}
	routes := map[string]route{
		"/api/config": {http.MethodGet, s.config},
		"/api/new":    {http.MethodPost, s.newGame},
		"/api/state":  {http.MethodGet, s.state},
		"/api/move":   {http.MethodPost, s.move},
		"/api/undo":   {http.MethodPost, s.undo},
		"/api/level":  {http.MethodPost, s.setLevel},
		"/api/hint":   {http.MethodPost, s.hint},
		"/api/learn":  {http.MethodGet, s.tutorialSteps},
		"/api/review": {http.MethodPost, s.review},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/record" {
			if r.Method != http.MethodGet {
				s.writeError(w, r, methodNotAllowed(w, http.MethodGet))
				return
			}
			s.record(w, r)
			return
		}
		rt, ok := routes[r.URL.Path]
		if !ok {
			s.writeError(w, r, &apiError{code: http.StatusNotFound, msg: newMsg("error.noEndpoint", "path", r.URL.Path)})
			return
		}
		if r.Method != rt.method {
			s.writeError(w, r, methodNotAllowed(w, rt.method))
			return
		}
		if r.Method == http.MethodPost {
			limit := s.cfg.MaxBody
			if r.URL.Path == "/api/review" {
				limit = s.cfg.MaxRecord // a record is longer than a move
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		v, err := rt.fn(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

// parseLevel reads a level name of a request.
func parseLevel(name string) (agent.Level, error) {
	l, err := agent.ParseLevel(name)
	if err != nil {
		return agent.Level{}, &apiError{code: http.StatusBadRequest, msg: newMsg("error.level", "level", name, "levels", strings.Join(agent.LevelNames(), ", ")), detail: err}
	}
	return l, nil
}

func methodNotAllowed(w http.ResponseWriter, allow string) error {
	w.Header().Set("Allow", allow)
	return &apiError{code: http.StatusMethodNotAllowed, msg: newMsg("error.method", "method", allow)}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v) // a failed write has no one left to tell
}

// errorJSON is an error answer: error is the message in the language of
// the request, code and args the message for the page to render in its
// own, detail the underlying error in English (for developers).
type errorJSON struct {
	Error  string            `json:"error"`
	Code   string            `json:"code"`
	Args   map[string]string `json:"args,omitempty"`
	Detail string            `json:"detail,omitempty"`
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{code: http.StatusInternalServerError, msg: newMsg("error.internal"), detail: err}
	}
	if ae.code == http.StatusServiceUnavailable || ae.code == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "60")
	}
	m := s.msgs.render(negotiate(r), ae.msg)
	e := errorJSON{Error: m.Text, Code: m.Code, Args: m.Args}
	if ae.detail != nil {
		e.Detail = ae.detail.Error()
	}
	writeJSON(w, ae.code, e)
}

// decode reads the JSON body into v: one object with known fields only
// (null, arrays and other values are refused, not read as an empty object).
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &apiError{code: http.StatusRequestEntityTooLarge, msg: newMsg("error.tooLarge", "limit", fmt.Sprint(tooBig.Limit))}
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	switch {
	case err != nil:
		return &apiError{code: http.StatusBadRequest, msg: newMsg("error.malformed"), detail: err}
	case len(body) == 0:
		return badRequest("error.emptyBody")
	case body[0] != '{':
		return &apiError{code: http.StatusBadRequest, msg: newMsg("error.malformed"), detail: errors.New("the body is not a JSON object")}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	if err != nil {
		return &apiError{code: http.StatusBadRequest, msg: newMsg("error.malformed"), detail: err}
	}
	return nil
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

func (s *Server) config(*http.Request) (any, error) {
	c := configJSON{Sizes: s.cfg.Engines.Sizes(), DefaultSize: s.defaultSize(), DefaultLevel: s.cfg.DefaultLevel}
	for _, l := range agent.Levels() {
		c.Levels = append(c.Levels, levelJSON{l.Name, l.Sims})
	}
	return c, nil
}

// defaultSize is the board size of a new game that names none: the
// standard 8x8 if there is a model for it, else the largest there is.
func (s *Server) defaultSize() int {
	sizes := s.cfg.Engines.Sizes()
	if slices.Contains(sizes, rules.DefaultSize) {
		return rules.DefaultSize
	}
	return sizes[len(sizes)-1]
}

// stateJSON is everything the page draws.
type stateJSON struct {
	ID      string    `json:"id"`
	Size    int       `json:"size"`
	Human   string    `json:"human"`
	Level   string    `json:"level"`
	Turn    string    `json:"turn"`
	Phase   string    `json:"phase"`
	Board   []string  `json:"board"` // top rank first; x black, o white, . empty
	Moves   []string  `json:"moves"`
	Last    string    `json:"last"` // "" before the first move
	Legal   []string  `json:"legal"`
	Over    bool      `json:"over"`
	Winner  string    `json:"winner,omitempty"`
	CanUndo bool      `json:"canUndo"`         // the human has a move to take back
	Start   int       `json:"start,omitempty"` // moves the game started from (played on from a position)
	Message msg       `json:"message"`
	Eval    *evalJSON `json:"eval,omitempty"`
}

type evalJSON struct {
	AgentMove    string   `json:"agentMove"`
	HumanWinProb float64  `json:"humanWinProb"`
	PV           []string `json:"pv"`
}

// view draws the session's state with its message in the language of r;
// ss.mu is held.
func (s *Server) view(r *http.Request, ss *session) stateJSON {
	st := ss.view()
	st.Message = s.msgs.render(negotiate(r), st.Message)
	return st
}

// view draws the session's state; s.mu is held.
func (ss *session) view() stateJSON {
	g := ss.game
	p := g.Position()
	st := stateJSON{
		ID: ss.id, Size: g.Size(), Human: ss.human.String(), Level: ss.level.Name,
		Turn: p.Turn.String(), Phase: p.Phase().String(),
		Moves: rules.MoveStrings(g.Moves()), Legal: []string{}, Over: g.Over(),
		CanUndo: ss.canUndo(), Start: ss.fixed,
	}
	st.Board = boardRows(p)
	if g.Len() > 0 {
		st.Last = g.Last().String()
	}
	if w, ok := g.Winner(); ok {
		st.Winner = w.String()
		if w == ss.human {
			st.Message = newMsg("status.youWin")
		} else {
			st.Message = newMsg("status.computerWins")
		}
	} else if p.Turn == ss.human {
		st.Legal = rules.MoveStrings(p.LegalMoves(nil))
		switch p.Phase() {
		case rules.RemoveBlack:
			st.Message = newMsg("status.removeBlack")
		case rules.RemoveWhite:
			st.Message = newMsg("status.removeWhite")
		default:
			st.Message = newMsg("status.jump")
		}
	} else {
		st.Message = newMsg("status.thinking")
	}
	if an := ss.eval(); an != nil {
		st.Eval = &evalJSON{AgentMove: an.Best.String(), HumanWinProb: an.WinProbFor(ss.human), PV: rules.MoveStrings(an.PV)}
	}
	return st
}

// boardRows draws p as the page gets it: one string per rank, the top
// rank first, x for Black, o for White and . for an empty square.
func boardRows(p rules.Position) []string {
	n := int(p.Size)
	rows := make([]string, 0, n)
	for row := n - 1; row >= 0; row-- {
		b := make([]byte, n)
		for col := range b {
			switch c, ok := p.At(rules.SquareAt(row, col)); {
			case !ok:
				b[col] = '.'
			case c == rules.Black:
				b[col] = 'x'
			default:
				b[col] = 'o'
			}
		}
		rows = append(rows, string(b))
	}
	return rows
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

type newRequest struct {
	Size  int    `json:"size"`
	Color string `json:"color"`
	Level string `json:"level"`
	// Moves, when given, are the moves the game starts from ("play on
	// from here" in a review): legal from the start, leaving a move to
	// play. They cannot be undone.
	Moves []string `json:"moves,omitempty"`
}

func (s *Server) newGame(r *http.Request) (any, error) {
	var req newRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Size == 0 {
		req.Size = s.defaultSize()
	}
	engine, err := s.cfg.Engines.Get(req.Size)
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: newMsg("error.size", "size", fmt.Sprint(req.Size), "sizes", sizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	if req.Level == "" {
		req.Level = s.cfg.DefaultLevel
	}
	level, err := parseLevel(req.Level)
	if err != nil {
		return nil, err
	}
	human, seed, err := s.drawGame(req.Color)
	if err != nil {
		return nil, err
	}
	a, err := engine.NewAgent(seed)
	if err != nil {
		return nil, err
	}
	g, err := agent.NewGame(req.Size)
	if err != nil {
		return nil, err
	}
	if err := startFrom(g, req.Moves); err != nil {
		return nil, err
	}
	ss := &session{id: newSessionID(), human: human, level: level, agent: a, game: g,
		fixed: g.Len(), evals: make([]*agent.Analysis, g.Len())}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch s.sessions.add(ss, s.client(r)) {
	case storeFull:
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: newMsg("error.full", "max", fmt.Sprint(s.cfg.MaxSessions))}
	case clientFull:
		return nil, &apiError{code: http.StatusTooManyRequests, msg: newMsg("error.clientFull", "max", fmt.Sprint(s.cfg.MaxPerClient))}
	}
	if g.Position().Turn != human {
		if err := s.agentMove(r.Context(), ss); err != nil {
			s.sessions.remove(ss.id) // a game without its first move is of no use
			return nil, err
		}
	}
	return s.view(r, ss), nil
}

// startFrom plays the moves a new game starts from; the game must go on
// after them.
func startFrom(g *agent.Game, moves []string) error {
	if len(moves) > g.Size()*g.Size() {
		return badRequest("error.startLong", "n", fmt.Sprint(len(moves)))
	}
	for i, text := range moves {
		if g.Over() {
			return badRequest("error.startOver", "n", fmt.Sprint(i))
		}
		if _, err := g.PlayText(text); err != nil {
			return &apiError{code: http.StatusBadRequest, msg: newMsg("error.startMove", "n", fmt.Sprint(i+1), "move", text), detail: err}
		}
	}
	if g.Over() {
		return badRequest("error.startOver", "n", fmt.Sprint(len(moves)))
	}
	return nil
}

// drawGame gives a new game the human's colour (drawn for "random") and
// the seed of its agent.
func (s *Server) drawGame(color string) (human rules.Color, seed uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch color {
	case "black", "":
		human = rules.Black
	case "white":
		human = rules.White
	case "random":
		human = rules.Color(s.rng.IntN(2))
	default:
		return 0, 0, badRequest("error.color", "color", color)
	}
	seed = s.cfg.Seed + s.games
	s.games++
	return human, seed, nil
}

// agentMove lets the agent play its move; ss.mu is held.
func (s *Server) agentMove(ctx context.Context, ss *session) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.MoveTimeout)
	defer cancel()
	an, err := ss.agent.Move(ctx, ss.game.Position(), ss.level.Strength())
	if err != nil {
		return &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.agentFailed", "error.agentBroken"), detail: err}
	}
	return ss.play(an.Best, &an)
}

// session finds the game named in the request and locks it; call the
// returned unlock when done.
func (s *Server) session(id string) (*session, func(), error) {
	if id == "" {
		return nil, nil, badRequest("error.missingID")
	}
	ss, ok := s.sessions.get(id)
	if !ok {
		return nil, nil, errUnknownGame
	}
	ss.mu.Lock()
	return ss, ss.mu.Unlock, nil
}

// decodeSession reads the request body into req, then finds and locks the
// game *id names (id points into req), as session does.
func (s *Server) decodeSession(r *http.Request, req any, id *string) (*session, func(), error) {
	if err := decode(r, req); err != nil {
		return nil, nil, err
	}
	return s.session(*id)
}

func (s *Server) state(r *http.Request) (any, error) {
	ss, unlock, err := s.session(r.URL.Query().Get("id"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.view(r, ss), nil
}

type moveRequest struct {
	ID   string `json:"id"`
	Move string `json:"move"`
}

func (s *Server) move(r *http.Request) (any, error) {
	var req moveRequest
	ss, unlock, err := s.decodeSession(r, &req, &req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := ss.game.Position()
	if ss.game.Over() {
		return nil, badRequest("error.gameOver")
	}
	if p.Turn != ss.human {
		return nil, badRequest("error.notYourTurn")
	}
	m, err := rules.ParseMove(p, req.Move)
	if err == nil {
		err = ss.play(m, nil)
	}
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: newMsg("error.move", "move", req.Move), detail: err}
	}
	if !ss.game.Over() {
		if err := s.agentMove(r.Context(), ss); err != nil {
			ss.undoLast() // the human's move: the game stays as it was
			return nil, err
		}
	}
	s.sessions.played(ss.id)
	return s.view(r, ss), nil
}

type idRequest struct {
	ID string `json:"id"`
}

func (s *Server) undo(r *http.Request) (any, error) {
	var req idRequest
	ss, unlock, err := s.decodeSession(r, &req, &req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if !ss.takeBack() {
		return nil, badRequest("error.noUndo")
	}
	return s.view(r, ss), nil
}

type levelRequest struct {
	ID    string `json:"id"`
	Level string `json:"level"`
}

func (s *Server) setLevel(r *http.Request) (any, error) {
	var req levelRequest
	ss, unlock, err := s.decodeSession(r, &req, &req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	level, err := parseLevel(req.Level)
	if err != nil {
		return nil, err
	}
	ss.level = level
	return s.view(r, ss), nil
}

type hintJSON struct {
	Move    string   `json:"move"`
	WinProb float64  `json:"winProb"` // the human's
	PV      []string `json:"pv"`
}

func (s *Server) hint(r *http.Request) (any, error) {
	var req idRequest
	ss, unlock, err := s.decodeSession(r, &req, &req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := ss.game.Position()
	switch {
	case ss.game.Over():
		return nil, badRequest("error.hintOver")
	case p.Turn != ss.human:
		return nil, badRequest("error.hintTurn")
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MoveTimeout)
	defer cancel()
	an, err := ss.agent.Advise(ctx, p, ss.level.Strength())
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.hintFailed", "error.hintBroken"), detail: err}
	}
	return hintJSON{Move: an.Best.String(), WinProb: an.WinProb(), PV: rules.MoveStrings(an.PV)}, nil
}

// record sends the game record in the text format as a download.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	ss, unlock, err := s.session(r.URL.Query().Get("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rec := ss.game.RecordAgainst("konane serve", ss.human, "konane (level "+ss.level.Name+")")
	unlock()
	text, err := rec.MarshalText()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="konane-game.txt"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text)
}
