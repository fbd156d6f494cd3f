package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// The agent plays: a new game, a move and its reply, a hint.

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
		if an, err = s.agentMove(r, gm, g.Position(), false); err != nil {
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
// humanMoved says whether the request played a move of the human's, which
// a failure takes back (and its message says so).
func (s *Service) agentMove(r *http.Request, gm *game, left rules.Position, humanMoved bool) (*agent.Analysis, error) {
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
		if !humanMoved { // a new game, or the agent's move alone: nothing taken back
			return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.agentFailedNoTakeBack", "error.agentBrokenNoTakeBack"), detail: err}
		}
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.agentFailed", "error.agentBroken"), detail: err}
	}
	if err := gm.g.Play(an.Best); err != nil {
		return nil, err
	}
	s.trees.put(gm.g.Position(), a)
	return &an, nil
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
	case gm.g.Over():
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
		if an, err = s.agentMove(r, gm, left, req.Move != ""); err != nil {
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
	case gm.g.Over():
		return nil, badRequest("error.hintOver")
	case p.Turn != gm.human:
		return nil, badRequest("error.hintTurn")
	}
	advice := agent.AdviceLimits(gm.level.Limits())
	if top := agent.Levels()[s.maxLevel]; advice.Sims > top.Sims {
		advice.Sims = top.Sims // a server that offers less gives no more
	}
	release, err := s.search(r, gm.level.Name, advice.Sims)
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
	an, err := a.Advise(ctx, p, advice)
	s.metrics.search.WithLabelValues("hint", gm.level.Name).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.hintFailed", "error.hintBroken"), detail: err}
	}
	s.trees.put(p, a) // the agent's own tree is as it was
	return hintJSON{Move: an.Best.String(), WinProb: round3(an.WinProb()), PV: rules.MoveStrings(an.PV)}, nil
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
