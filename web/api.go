package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// apiError is an error answered to the client with its status code.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

var errUnknownGame = &apiError{http.StatusNotFound, "unknown game: it never existed or was dropped after a long idle time; start a new one"}

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
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/record" {
			if r.Method != http.MethodGet {
				writeError(w, methodNotAllowed(w, http.MethodGet))
				return
			}
			s.record(w, r)
			return
		}
		rt, ok := routes[r.URL.Path]
		if !ok {
			writeError(w, &apiError{http.StatusNotFound, fmt.Sprintf("no API endpoint %s", r.URL.Path)})
			return
		}
		if r.Method != rt.method {
			writeError(w, methodNotAllowed(w, rt.method))
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		}
		v, err := rt.fn(r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

func methodNotAllowed(w http.ResponseWriter, allow string) error {
	w.Header().Set("Allow", allow)
	return &apiError{http.StatusMethodNotAllowed, "method not allowed: use " + allow}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v) // a failed write has no one left to tell
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{http.StatusInternalServerError, err.Error()}
	}
	if ae.code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "60")
	}
	writeJSON(w, ae.code, map[string]string{"error": ae.msg})
}

// decode reads the JSON body into v: one object with known fields only.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", tooBig.Limit)}
	case errors.Is(err, io.EOF):
		return badRequest("empty request body: want a JSON object")
	case err != nil:
		return badRequest("malformed JSON request: %v", err)
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
	sizes := s.cfg.Engines.Sizes()
	c := configJSON{Sizes: sizes, DefaultSize: sizes[len(sizes)-1], DefaultLevel: s.cfg.DefaultLevel}
	for _, n := range sizes {
		if n == rules.DefaultSize {
			c.DefaultSize = n
		}
	}
	for _, l := range agent.Levels() {
		c.Levels = append(c.Levels, levelJSON{l.Name, l.Sims})
	}
	return c, nil
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
	Message string    `json:"message"`
	Eval    *evalJSON `json:"eval,omitempty"`
}

type evalJSON struct {
	AgentMove    string   `json:"agentMove"`
	HumanWinProb float64  `json:"humanWinProb"`
	PV           []string `json:"pv"`
}

// view draws the session's state; s.mu is held.
func (ss *session) view() stateJSON {
	g := ss.game
	p := g.Position()
	n := g.Size()
	st := stateJSON{
		ID: ss.id, Size: n, Human: ss.human.String(), Level: ss.level.Name,
		Turn: p.Turn.String(), Phase: p.Phase().String(),
		Moves: moveTexts(g.Moves()), Legal: []string{}, Over: g.Over(),
	}
	for row := n - 1; row >= 0; row-- {
		var b strings.Builder
		for col := 0; col < n; col++ {
			switch c, ok := p.At(rules.SquareAt(row, col)); {
			case !ok:
				b.WriteByte('.')
			case c == rules.Black:
				b.WriteByte('x')
			default:
				b.WriteByte('o')
			}
		}
		st.Board = append(st.Board, b.String())
	}
	if g.Len() > 0 {
		st.Last = g.Last().String()
	}
	if w, ok := g.Winner(); ok {
		st.Winner = w.String()
		if w == ss.human {
			st.Message = fmt.Sprintf("You win! %s has no legal move.", capital(w.Other().String()))
		} else {
			st.Message = fmt.Sprintf("The computer wins: you (%s) have no legal move.", ss.human)
		}
	} else if p.Turn == ss.human {
		st.Legal = moveTexts(p.LegalMoves(nil))
		switch p.Phase() {
		case rules.RemoveBlack:
			st.Message = "Your move: remove one of your stones from a corner or the centre (click it)."
		case rules.RemoveWhite:
			st.Message = "Your move: remove one of your stones next to the empty square (click it)."
		default:
			st.Message = "Your move: click a stone that can jump, then where it lands."
		}
	} else {
		st.Message = "The computer is thinking…"
	}
	if ss.eval != nil {
		st.Eval = &evalJSON{AgentMove: ss.eval.Move.String(), HumanWinProb: ss.eval.WinProbFor(ss.human), PV: moveTexts(ss.eval.PV)}
	}
	return st
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func moveTexts(ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

type newRequest struct {
	Size  int    `json:"size"`
	Color string `json:"color"`
	Level string `json:"level"`
}

func (s *Server) newGame(r *http.Request) (any, error) {
	var req newRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if req.Size == 0 {
		c, _ := s.config(r)
		req.Size = c.(configJSON).DefaultSize
	}
	engine, err := s.cfg.Engines.Get(req.Size)
	if err != nil {
		return nil, badRequest("size %d: %s", req.Size, strings.TrimPrefix(err.Error(), "agent: "))
	}
	if req.Level == "" {
		req.Level = s.cfg.DefaultLevel
	}
	level, err := agent.ParseLevel(req.Level)
	if err != nil {
		return nil, badRequest("%s", strings.TrimPrefix(err.Error(), "agent: "))
	}
	s.mu.Lock()
	var human rules.Color
	switch req.Color {
	case "black", "":
		human = rules.Black
	case "white":
		human = rules.White
	case "random":
		human = rules.Color(s.rng.IntN(2))
	default:
		s.mu.Unlock()
		return nil, badRequest("color %q: want black, white or random", req.Color)
	}
	seed := s.cfg.Seed + s.games
	s.games++
	s.mu.Unlock()

	a, err := engine.NewAgent(seed)
	if err != nil {
		return nil, err
	}
	g, err := agent.NewGame(req.Size)
	if err != nil {
		return nil, err
	}
	ss := &session{id: newSessionID(), human: human, level: level, agent: a, game: g}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !s.sessions.add(ss) {
		return nil, &apiError{http.StatusServiceUnavailable, fmt.Sprintf("the server already holds its maximum of %d games; try again later", s.cfg.MaxSessions)}
	}
	if human == rules.White {
		if err := s.agentMove(r.Context(), ss); err != nil {
			s.sessions.remove(ss.id) // a game without its first move is of no use
			return nil, err
		}
	}
	return ss.view(), nil
}

// agentMove lets the agent play its move; ss.mu is held.
func (s *Server) agentMove(ctx context.Context, ss *session) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.MoveTimeout)
	defer cancel()
	an, err := ss.agent.Move(ctx, ss.game.Position(), agent.Strength{Sims: ss.level.Sims})
	if err != nil {
		return &apiError{http.StatusServiceUnavailable, fmt.Sprintf("the computer could not move: %v", err)}
	}
	if err := ss.game.Play(an.Move); err != nil {
		return err
	}
	ss.eval = &an
	return nil
}

// session finds the game named in the request and locks it; call the
// returned unlock when done.
func (s *Server) session(id string) (*session, func(), error) {
	if id == "" {
		return nil, nil, badRequest("missing game id")
	}
	ss, ok := s.sessions.get(id)
	if !ok {
		return nil, nil, errUnknownGame
	}
	ss.mu.Lock()
	return ss, ss.mu.Unlock, nil
}

func (s *Server) state(r *http.Request) (any, error) {
	ss, unlock, err := s.session(r.URL.Query().Get("id"))
	if err != nil {
		return nil, err
	}
	defer unlock()
	return ss.view(), nil
}

type moveRequest struct {
	ID   string `json:"id"`
	Move string `json:"move"`
}

func (s *Server) move(r *http.Request) (any, error) {
	var req moveRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	ss, unlock, err := s.session(req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := ss.game.Position()
	if ss.game.Over() {
		return nil, badRequest("the game is over: start a new one, or undo")
	}
	if p.Turn != ss.human {
		return nil, badRequest("it is the computer's turn")
	}
	if _, err := ss.game.PlayText(req.Move); err != nil {
		return nil, badRequest("%s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	if !ss.game.Over() {
		if err := s.agentMove(r.Context(), ss); err != nil {
			ss.game.Undo() // the human's move: the game stays as it was
			return nil, err
		}
	}
	return ss.view(), nil
}

type idRequest struct {
	ID string `json:"id"`
}

func (s *Server) undo(r *http.Request) (any, error) {
	var req idRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	ss, unlock, err := s.session(req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if ss.game.TakeBack(ss.human) == nil {
		return nil, badRequest("nothing to undo: you have not moved yet")
	}
	ss.eval = nil
	return ss.view(), nil
}

type levelRequest struct {
	ID    string `json:"id"`
	Level string `json:"level"`
}

func (s *Server) setLevel(r *http.Request) (any, error) {
	var req levelRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	level, err := agent.ParseLevel(req.Level)
	if err != nil {
		return nil, badRequest("%s", strings.TrimPrefix(err.Error(), "agent: "))
	}
	ss, unlock, err := s.session(req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	ss.level = level
	return ss.view(), nil
}

type hintJSON struct {
	Move    string   `json:"move"`
	WinProb float64  `json:"winProb"` // the human's
	PV      []string `json:"pv"`
}

func (s *Server) hint(r *http.Request) (any, error) {
	var req idRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	ss, unlock, err := s.session(req.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p := ss.game.Position()
	if ss.game.Over() || p.Turn != ss.human {
		return nil, badRequest("no hint: it is not your move")
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.MoveTimeout)
	defer cancel()
	an, err := ss.agent.Advise(ctx, p, agent.Strength{Sims: ss.level.Sims})
	if err != nil {
		return nil, &apiError{http.StatusServiceUnavailable, fmt.Sprintf("no hint: %v", err)}
	}
	return hintJSON{Move: an.Move.String(), WinProb: an.WinProb(), PV: moveTexts(an.PV)}, nil
}

// record sends the game record in the text format as a download.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	ss, unlock, err := s.session(r.URL.Query().Get("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	rec := ss.game.RecordAgainst("konane serve", ss.human, "konane (level "+ss.level.Name+")")
	unlock()
	text, err := rec.MarshalText()
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="konane-game.txt"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text)
}
