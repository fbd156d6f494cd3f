package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// The agent plays: a new game, a move and its reply, a hint.

type newRequest struct {
	Size int `json:"size,omitempty"` // n of an n×n board with the removals
	// Board names any other board as rules.ParseBoard reads it ("7x6",
	// "size-15", "9x8/removal"); size, if given too, must be its side.
	Board string `json:"board,omitempty"`
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
	if req.Size == 0 && req.Board == "" {
		req.Size = s.defaultSize()
	}
	board, engine, err := s.boardEngine(req.Size, req.Board)
	if err != nil {
		return nil, err
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
	g, err := rules.NewAnyGame(board)
	if err != nil {
		return nil, err
	}
	if err := startFrom(g, req.Moves); err != nil {
		return nil, err
	}
	gm := &game{human: human, level: level, start: g.Len(), engine: engine, g: g}
	var ev *evalJSON
	if g.Turn() != human {
		if ev, err = s.agentMove(r, gm, false, g.WidePosition()); err != nil {
			return nil, err
		}
	}
	return s.view(r, gm, ev), nil
}

// startFrom plays the moves a new game starts from; the game must go on
// after them.
func startFrom(g rules.AnyGame, moves []string) error {
	if len(moves) > maxMoves(g.Board()) {
		return badRequest("error.startLong", "n", fmt.Sprint(len(moves)))
	}
	for i, text := range moves {
		if g.Over() {
			return badRequest("error.startOver", "n", fmt.Sprint(i))
		}
		if _, err := g.PlayString(text); err != nil {
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

// agent returns the agent kept under p by the tree cache (every key is a
// position on the wide layout, which holds every board), or a new one of
// e, the model that plays p's board.
func (s *Service) agent(e *agent.Engine, p rules.WidePosition) (*agent.Agent, error) {
	if a := s.trees.take(p); a != nil {
		return a, nil
	}
	return e.NewAgent(s.seed())
}

// agentMove lets the computer play its move in gm (within the admission
// budget and Config.MoveTimeout): the agent of the board's model
// (Agent.MoveAny, on every board), else the classical engine for the
// level's PVSTime, whose move comes with no evaluation (nil). The
// evaluation is the agent's own search's where it plays at the advice
// level or above, else a search at the advice level of the position
// after its move (evalAfter). The agent is looked for in the tree cache
// under the position it left the game in after its last move (left: the
// position before the human's move, when humanMoved, else the current
// one) and kept under the position it leaves now. humanMoved says
// whether the request played a move of the human's, which a failure
// takes back (and its message says so).
func (s *Service) agentMove(r *http.Request, gm *game, humanMoved bool, left rules.WidePosition) (*evalJSON, error) {
	ev, err := s.agentPlay(r, gm, humanMoved, left)
	if err != nil || ev == nil {
		return nil, err
	}
	if levelIndex(gm.level.Name) >= levelIndex(agent.AdviceLevel) && gm.engine.Model() != nil {
		return ev, nil
	}
	return s.evalAfter(r, gm, ev.AgentMove), nil
}

// evalAfter evaluates the position of gm after the agent's move with a
// search at the advice level (the level's own search is weaker, or the
// solver's move may be a slip), or the human's loss when the move ended
// the game; nil when the search cannot run (the
// server busy): the move stands without an evaluation.
func (s *Service) evalAfter(r *http.Request, gm *game, move string) *evalJSON {
	if gm.g.Over() { // the agent's move won: nothing to search
		return &evalJSON{Ply: gm.g.Len(), AgentMove: move, HumanWinProb: 0, PV: []string{move}, Proven: true}
	}
	limits := s.adviceLimits(gm)
	var an advice
	err := s.search(r, "eval", gm.level.Name, gm.units(limits.Sims), s.cfg.MoveTimeout, func(ctx context.Context) (err error) {
		an, err = s.advise(ctx, gm, limits)
		return err
	})
	if err != nil {
		return nil
	}
	return &evalJSON{Ply: gm.g.Len(), AgentMove: move, HumanWinProb: round3(an.humanWinProb),
		PV: append([]string{move}, an.pv...), Proven: an.proven}
}

// advice is a search's word on the position of a game played by the
// agent, as the API gives it.
type advice struct {
	best         string
	humanWinProb float64
	pv           []string
	proven       bool
}

// advise searches the position of gm, where the agent plays, with
// limits (Agent.AdviseAny), with the agent kept under the position in the
// tree cache, where it is put back after the search, failed or not
// (Advise leaves its play tree as it was).
func (s *Service) advise(ctx context.Context, gm *game, limits player.Limits) (advice, error) {
	p := gm.g.WidePosition()
	a, err := s.agent(gm.engine, p)
	if err != nil {
		return advice{}, err
	}
	an, err := a.AdviseAny(ctx, p, limits)
	s.trees.put(p, a) // its play tree is as it was, even after a failed search
	if err != nil {
		return advice{}, err
	}
	return advice{an.Best.String(), an.WinProbFor(gm.human), an.PVStrings(), an.Proven}, nil
}

// agentPlay plays the agent's move of agentMove, with the evaluation of
// the agent's search (nil from the classical engine).
func (s *Service) agentPlay(r *http.Request, gm *game, humanMoved bool, left rules.WidePosition) (*evalJSON, error) {
	units := gm.units(gm.level.Sims)
	if gm.engine == nil {
		units = s.classicalSims
	}
	var ev *evalJSON
	var keep func() // keeps the agent under the position its move leaves
	var move string
	err := s.search(r, "move", gm.level.Name, units, s.cfg.MoveTimeout, func(ctx context.Context) (err error) {
		if gm.engine == nil {
			seed := s.seed()
			m, err := player.NewSlipping(player.NewPVS(0, gm.level.PVSTime, seed), gm.level.Limits().Choice, seed).MoveAny(ctx, gm.g.WidePosition()) // with a weak level's slips
			if err != nil {
				return agentFailed(humanMoved, err)
			}
			move = m.String()
			return nil
		}
		a, err := s.agent(gm.engine, left)
		if err != nil {
			return err
		}
		keep = func() { s.trees.put(gm.g.WidePosition(), a) }
		res, err := a.MoveAny(ctx, gm.g.WidePosition(), gm.level.Limits())
		if err != nil {
			return agentFailed(humanMoved, err)
		}
		move = res.Best.String()
		ev = &evalJSON{HumanWinProb: round3(res.WinProbFor(gm.human)), PV: res.PVStrings(), Proven: res.Proven}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := gm.g.PlayString(move); err != nil {
		return nil, err
	}
	if keep != nil {
		keep()
	}
	if ev != nil {
		ev.Ply, ev.AgentMove = gm.g.Len(), move
	}
	return ev, nil
}

// agentFailed is the API's error of the agent's failed search: the
// human's move taken back if humanMoved.
func agentFailed(humanMoved bool, err error) error {
	if !humanMoved { // a new game, or the agent's move alone: nothing taken back
		return failure(err, "error.agentFailedNoTakeBack", "error.agentBrokenNoTakeBack")
	}
	return failure(err, "error.agentFailed", "error.agentBroken")
}

type moveRequest struct {
	Game gameJSON `json:"game"`
	Move string   `json:"move"` // the human's; "" when the agent is to move
	// Coach asks the coach to judge the human's move (coachJSON) before
	// the agent replies; the agent does not reply to a move the coach
	// points out. A board where the coach does not judge
	// (stateJSON.NoCoach) ignores it.
	Coach bool `json:"coach,omitempty"`
}

// move plays the human's move and the agent's reply; with no move, the
// agent's move when it is to move (the game reloaded before it did, or
// the human plays on after the coach's word). With Coach, a move that
// drops the human's chances by agent.CoachDrop or more is answered at
// once, without the reply: the state says so (Coach), and the human
// takes the move back or plays on (a request without a move).
func (s *Service) move(r *http.Request) (any, error) {
	var req moveRequest
	gm, err := s.decodeGame(r, &req, &req.Game)
	if err != nil {
		return nil, err
	}
	left := gm.g.WidePosition() // where the agent left the game: before the human's move
	switch turn := gm.g.Turn(); {
	case gm.g.Over():
		return nil, badRequest("error.gameOver")
	case req.Move == "" && turn == gm.human:
		return nil, badRequest("error.yourTurn")
	case req.Move != "" && turn != gm.human:
		return nil, badRequest("error.notYourTurn")
	case req.Move != "":
		var before rules.Position
		g, coach := gm.narrow()
		coach = coach && req.Coach
		if coach {
			before = g.Position()
		}
		if _, err := gm.g.PlayString(req.Move); err != nil {
			return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.move", "move", req.Move), detail: err}
		}
		if coach && !gm.g.Over() {
			// A coach that cannot judge (the server busy, its search out of
			// time) stays silent: the legal move stands and the game goes on.
			verdict, err := s.coach(r, gm, before, g.Last())
			if err == nil && verdict != nil { // the game waits: take the move back, or play on
				st := s.view(r, gm, nil)
				st.Coach = verdict
				st.Message = s.msgs.Render(messages.Negotiate(r), messages.New("status.coach"))
				return st, nil
			}
		}
	}
	var ev *evalJSON
	if !gm.g.Over() {
		if ev, err = s.agentMove(r, gm, req.Move != "", left); err != nil {
			return nil, err
		}
	}
	return s.view(r, gm, ev), nil
}

// coach judges the human's move m in before, the position before it
// (agent.Agent.Judge: a search at the advice level), with the agent of
// the game kept in the tree cache under before (where agentMove looks
// for it next). It returns nil when the move costs less than
// agent.CoachDrop (or the coach has nothing to say).
func (s *Service) coach(r *http.Request, gm *game, before rules.Position, m rules.Move) (*coachJSON, error) {
	limits := s.adviceLimits(gm)
	var v agent.Verdict
	var ok bool
	err := s.search(r, "coach", gm.level.Name, gm.units(limits.Sims), s.cfg.MoveTimeout, func(ctx context.Context) error {
		a, err := s.agent(gm.engine, before.Wide())
		if err != nil {
			return err
		}
		if v, ok, err = a.Judge(ctx, before, m, limits); err != nil {
			return failure(err, "error.hintFailed", "error.hintBroken")
		}
		s.trees.put(before.Wide(), a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !ok || !v.Blunder() {
		return nil, nil
	}
	return &coachJSON{Ply: gm.g.Len(), Move: m.String(), Better: v.Better.String(), From: round3(v.From), To: round3(v.To)}, nil
}

// coachJSON is the coach's word on the human's move moves[ply-1]: it
// drops the human's win probability from From (with Better) to To, by
// agent.CoachDrop or more.
type coachJSON struct {
	Ply    int     `json:"ply"`
	Move   string  `json:"move"`
	Better string  `json:"better"`
	From   float64 `json:"from"`
	To     float64 `json:"to"`
}

type hintJSON struct {
	Move    string   `json:"move"`
	WinProb *float64 `json:"winProb,omitempty"` // the human's; none from the classical engine
	PV      []string `json:"pv"`
	// Proven says that the search proved WinProb (1 or 0): the game is
	// won or lost with perfect play from here.
	Proven bool `json:"proven,omitempty"`
}

func (s *Service) hint(r *http.Request) (any, error) {
	var req gameRequest
	gm, err := s.decodeGame(r, &req, &req.Game)
	if err != nil {
		return nil, err
	}
	switch {
	case gm.g.Over():
		return nil, badRequest("error.hintOver")
	case gm.g.Turn() != gm.human:
		return nil, badRequest("error.hintTurn")
	}
	advice := s.adviceLimits(gm)
	var hint hintJSON
	err = s.search(r, "hint", gm.level.Name, gm.units(advice.Sims), s.cfg.MoveTimeout, func(ctx context.Context) error {
		if gm.engine == nil { // the classical engine, for the advice level's time (as the server offers it)
			t := gm.level.PVSTime
			if al := agent.Levels()[min(levelIndex(agent.AdviceLevel), s.maxLevel)]; al.PVSTime > t {
				t = al.PVSTime
			}
			m, err := player.MoveAny(ctx, player.NewPVS(0, t, s.seed()), gm.g.WidePosition())
			if err != nil {
				return failure(err, "error.hintFailed", "error.hintBroken")
			}
			hint = hintJSON{Move: m.String(), PV: []string{m.String()}}
			return nil
		}
		an, err := s.advise(ctx, gm, advice)
		if err != nil {
			return failure(err, "error.hintFailed", "error.hintBroken")
		}
		wp := round3(an.humanWinProb)
		hint = hintJSON{Move: an.best, WinProb: &wp, PV: an.pv, Proven: an.proven}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return hint, nil
}

// adviceLimits are the limits of a search that advises the human of gm
// (a hint, an evaluation, the coach): agent.AdviceLimits of the game's
// level, capped at the server's top level (a server that offers less
// gives no more), the classical engine's weight where it plays.
func (s *Service) adviceLimits(gm *game) player.Limits {
	advice := agent.AdviceLimits(gm.level.Limits())
	if top := agent.Levels()[s.maxLevel]; advice.Sims > top.Sims {
		advice.Sims = top.Sims
	}
	if gm.engine == nil {
		advice.Sims = s.classicalSims
	}
	return advice
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
