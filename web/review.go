package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// reviewRequest names the game to review: a game in progress (id) or a
// record played elsewhere (record, in the text or JSON format that
// `konane analyze` reads), not both.
type reviewRequest struct {
	ID     string `json:"id,omitempty"`
	Record string `json:"record,omitempty"`
}

// reviewJSON is a game's review: one entry per move, and per position
// (the start, then after each move) the board and Black's chance of
// winning, for the graph.
type reviewJSON struct {
	Size   int          `json:"size"`
	Human  string       `json:"human,omitempty"` // the human's colour in a game of the server; "" for a record
	Moves  []reviewMove `json:"moves"`
	Boards [][]string   `json:"boards"` // as in a state: the start, then after each move
	Black  []float64    `json:"black"`  // Black's probability of winning per position
	Exact  []bool       `json:"exact"`  // whether it is exact (the solver's or a proof)
	Over   bool         `json:"over"`
	Winner string       `json:"winner,omitempty"`
	Sims   int          `json:"sims"` // simulations per position
}

// reviewMove is one move of a review; class and verdict are codes the
// page names from its catalog.
type reviewMove struct {
	Ply     int      `json:"ply"` // 1-based
	Player  string   `json:"player"`
	Move    string   `json:"move"`
	Before  float64  `json:"before"` // the mover's probability of winning before the move
	After   float64  `json:"after"`  // and after it
	Loss    float64  `json:"loss"`
	Class   string   `json:"class,omitempty"` // inaccuracy, mistake, blunder (analysis.Class)
	Best    string   `json:"best,omitempty"`  // the agent's choice
	PV      []string `json:"pv,omitempty"`    // the line it expected, from best
	Line    []string `json:"line"`            // the move played and the line expected after it
	Verdict string   `json:"verdict,omitempty"`
}

// verdictCodes name the solver's verdicts for the page (its catalog has
// review.verdict.<code>).
var verdictCodes = map[analysis.Verdict]string{
	analysis.KeepsWin:    "keepsWin",
	analysis.OnlyWin:     "onlyWin",
	analysis.ThrowsWin:   "throwsWin",
	analysis.AlreadyLost: "alreadyLost",
}

// reviews bounds the analyses running at once, in all and per client.
type reviews struct {
	mu        sync.Mutex
	max       int
	perClient int
	running   map[string]int // per client
	total     int
}

// acquire takes a slot for client; release it with the returned
// function. It fails with 429 when the client has perClient analyses
// running, with 503 when the server has max.
func (rv *reviews) acquire(client string) (func(), error) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	switch {
	case rv.running[client] >= rv.perClient:
		return nil, &apiError{code: http.StatusTooManyRequests, msg: newMsg("error.reviewClientBusy", "max", fmt.Sprint(rv.perClient))}
	case rv.total >= rv.max:
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: newMsg("error.reviewBusy")}
	}
	rv.running[client]++
	rv.total++
	return func() {
		rv.mu.Lock()
		defer rv.mu.Unlock()
		rv.total--
		if rv.running[client]--; rv.running[client] == 0 {
			delete(rv.running, client)
		}
	}, nil
}

// review analyses a game of the server (as far as it is played) or an
// uploaded record with package analysis: Config.ReviewSims simulations a
// position, within Config.ReviewTimeout, at most Config.MaxReviews at
// once and Config.MaxReviewsPerClient per client.
func (s *Server) review(r *http.Request) (any, error) {
	var req reviewRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	var rec *rules.Record
	human := ""
	switch {
	case req.ID != "" && req.Record != "":
		return nil, badRequest("error.reviewBoth")
	case req.ID != "":
		ss, unlock, err := s.session(req.ID)
		if err != nil {
			return nil, err
		}
		// The moves are copied: the game goes on while it is reviewed.
		rec = ss.game.Record()
		human = ss.human.String()
		unlock()
	case req.Record != "":
		var err error
		rec, err = rules.ParseRecord([]byte(req.Record))
		if err != nil {
			line := "?"
			var re *rules.RecordError
			if errors.As(err, &re) && re.Line > 0 {
				line = fmt.Sprint(re.Line)
			}
			return nil, &apiError{code: http.StatusBadRequest, msg: newMsg("error.record", "line", line), detail: err}
		}
	default:
		return nil, badRequest("error.reviewNothing")
	}
	if len(rec.Moves) == 0 {
		return nil, badRequest("error.reviewEmpty")
	}
	engine, err := s.cfg.Engines.Get(rec.Size)
	if err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: newMsg("error.size", "size", fmt.Sprint(rec.Size), "sizes", sizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	release, err := s.reviews.acquire(s.client(r))
	if err != nil {
		return nil, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ReviewTimeout)
	defer cancel()
	rep, err := analysis.Game(ctx, engine, rec, analysis.Config{Limits: player.Limits{Sims: s.cfg.ReviewSims}, Seed: s.cfg.Seed})
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: failure(err, "error.reviewFailed", "error.reviewBroken"), detail: err}
	}
	ps, err := rec.Replay() // cannot fail: analysis.Game replayed it
	if err != nil {
		return nil, err
	}
	return reviewOf(rep, ps, human, s.cfg.ReviewSims), nil
}

// reviewOf puts a report on the positions ps into the form of the API.
func reviewOf(rep *analysis.Report, ps []rules.Position, human string, sims int) reviewJSON {
	out := reviewJSON{Size: rep.Size, Human: human, Sims: sims, Moves: []reviewMove{}}
	for i, p := range rep.Positions {
		black := p.WinProb
		if p.Side != rules.Black {
			black = 1 - black
		}
		out.Black = append(out.Black, round3(black))
		out.Exact = append(out.Exact, p.Exact != analysis.Unsolved)
		out.Boards = append(out.Boards, boardRows(ps[i]))
	}
	for _, row := range rep.Rows {
		m := reviewMove{Ply: row.Ply, Player: row.Player.String(), Move: row.Move.String(),
			Before: round3(row.Before), After: round3(row.After), Loss: round3(row.Loss),
			Class: row.Class.String(), PV: rules.MoveStrings(row.PV), Line: rules.MoveStrings(row.Line),
			Verdict: verdictCodes[row.Verdict]}
		if row.Best != rules.NoMove {
			m.Best = row.Best.String()
		}
		out.Moves = append(out.Moves, m)
	}
	if last := ps[len(ps)-1]; !last.HasMoves() {
		out.Over = true
		out.Winner = last.Turn.Other().String()
	}
	return out
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
