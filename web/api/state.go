package api

import (
	"net/http"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// What the page draws of a game: its state, as every answer about a
// game carries it.

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
	Eval     *evalJSON        `json:"eval,omitempty"`  // of the agent's move just made
	Coach    *coachJSON       `json:"coach,omitempty"` // on the human's move just made (moveRequest.Coach)
	// Classical says that the classical engine plays this board (there is
	// no model for it): its moves come with no evaluation.
	Classical bool `json:"classical,omitempty"`
	// Note is the one line that says the network was not trained on this
	// board (a multi-board model's, net.Model.BoardNote), in English; ""
	// when it was, or when no network plays.
	Note string `json:"note,omitempty"`
	// NoCoach says that the coach does not judge moves on this board (a
	// move's coach is not asked): above 8x8, where a network plays too
	// (agent.Agent.Judge searches Positions), and where the classical
	// engine plays (no win probability).
	NoCoach bool `json:"noCoach,omitempty"`
	// Perfect is the side that wins with perfect play from here, where
	// that is proven (Service.perfect): "black", "white" or none.
	Perfect string `json:"perfect,omitempty"`
}

type evalJSON struct {
	Ply          int      `json:"ply"` // the agent's move is moves[ply-1]
	AgentMove    string   `json:"agentMove"`
	HumanWinProb float64  `json:"humanWinProb"`
	PV           []string `json:"pv"`
	// Proven says that the search proved HumanWinProb (1 or 0): a side
	// wins with perfect play from here.
	Proven bool `json:"proven,omitempty"`
}

// view draws the game with its message in the language of r, and ev, the
// evaluation of the agent's move just made (nil if none).
func (s *Service) view(r *http.Request, gm *game, ev *evalJSON) stateJSON {
	g := gm.g
	p := g.WidePosition()
	rows, phase := WideRows(p), p.Phase()
	st := stateJSON{
		Game: gm.json(), Size: gm.g.Board().W, Human: gm.human.String(), Level: gm.level.Name,
		Turn: g.Turn().String(), Phase: phase.String(), Board: rows,
		Moves: g.MoveStrings(), Legal: []string{}, Over: g.Over(),
		Resigned: gm.resigned(), CanUndo: gm.canUndo(), Start: gm.start, Classical: gm.engine == nil,
	}
	if gm.engine != nil {
		st.Note = gm.engine.NoteOn(gm.g.Board())
	}
	_, coached := gm.narrow()
	st.NoCoach = !coached
	if st.Moves == nil {
		st.Moves = []string{}
	}
	st.Game.Moves = st.Moves
	if n := len(st.Moves); n > 0 {
		st.Last = st.Moves[n-1]
	}
	if w, ok := g.Winner(); ok {
		st.Winner = w.String()
		if gm.resigned() {
			st.Message = messages.New("status.resigned")
		} else if w == gm.human {
			st.Message = messages.New("status.youWin")
		} else {
			st.Message = messages.New("status.computerWins")
		}
	} else if g.Turn() == gm.human {
		st.Legal = append(st.Legal, g.LegalStrings()...)
		switch phase {
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
	st.Eval = ev
	st.Perfect = s.perfect(r, gm, ev)
	st.Message = s.msgs.Render(messages.Negotiate(r), st.Message)
	return st
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
