package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// reviewRequest names the game to review: a game of the page (game, as
// far as it is played) or a record played elsewhere (record, in the text
// or JSON format that `konane analyze` reads), not both.
type reviewRequest struct {
	Game   *gameJSON `json:"game,omitempty"`
	Record string    `json:"record,omitempty"`
}

// reviewJSON is a game's review: one entry per move, and per position
// (the start, then after each move) the board and Black's chance of
// winning, for the graph.
type reviewJSON struct {
	Size  int    `json:"size"`  // N of a square board up to 8x8, else 0
	Board string `json:"board"` // every board: "9x8"
	Start string `json:"start"` // "removal" or "gap"
	// Classical: the classical engine reviewed the game (no network plays
	// its board), from its searches' scores (analysis.ClassicalGame):
	// no candidates, and Sims is 0.
	Classical bool         `json:"classical,omitempty"`
	Human     string       `json:"human,omitempty"` // the human's colour in a game of the server; "" for a record
	Moves     []reviewMove `json:"moves"`
	Boards    [][]string   `json:"boards"` // as in a state: the start, then after each move
	Black     []float64    `json:"black"`  // Black's probability of winning per position
	Exact     []bool       `json:"exact"`  // whether it is exact (the solver's or a proof)
	Over      bool         `json:"over"`
	Winner    string       `json:"winner,omitempty"`
	// Resigned: the game ended before its end, the loser resigned (a game
	// of the page resigned, or a record whose Result is decided before
	// the end).
	Resigned bool `json:"resigned,omitempty"`
	Sims     int  `json:"sims"` // simulations per position
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
	// Candidates are the agent's best moves before this one, its choice
	// first, with the mover's chance after each (analysis.Row.Candidates).
	Candidates []analysis.JSONCandidate `json:"candidates,omitempty"`
}

// verdictCodes name the solver's verdicts for the page (its catalog has
// review.verdict.<code>).
var verdictCodes = map[analysis.Verdict]string{
	analysis.KeepsWin:    "keepsWin",
	analysis.OnlyWin:     "onlyWin",
	analysis.ThrowsWin:   "throwsWin",
	analysis.AlreadyLost: "alreadyLost",
}

// review analyses a game of the page (as far as it is played) or an
// uploaded record with package analysis: Config.ReviewSims simulations a
// position, within Config.ReviewTimeout, admitted as one search of
// ReviewSims simulations for its whole time.
func (s *Service) review(r *http.Request) (any, error) {
	var req reviewRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	var rec *rules.Record
	human := ""
	switch {
	case req.Game != nil && req.Record != "":
		return nil, badRequest("error.reviewBoth")
	case req.Game != nil:
		gm, err := s.replay(*req.Game)
		if err != nil {
			return nil, err
		}
		rec = gm.record("konane serve", time.Time{})
		human = gm.human.String()
	case req.Record != "":
		var err error
		if rec, err = readRecord(req.Record); err != nil {
			return nil, err
		}
	default:
		return nil, badRequest("error.reviewNothing")
	}
	// The agent reviews the boards with a network up to 8x8 (analysis
	// searches Positions), the classical engine every other one.
	b := rec.Board()
	var engine *agent.Engine
	var err error
	if b.Narrow() { // above 8x8 no engine is started only to be dropped
		engine, err = s.engineFor(b)
	}
	switch {
	case err != nil:
		return nil, err
	case rec.Len() == 0:
		return nil, badRequest("error.reviewEmpty")
	}
	var rep *analysis.Report
	err = s.reviewSearch(r, "review", func(ctx context.Context, cfg analysis.Config) (err error) {
		if engine == nil {
			rep, err = analysis.ClassicalGame(ctx, rec, analysis.ClassicalConfig{Time: s.classicalReviewTime(rec.Len() + 1), Seed: cfg.Seed})
			return err
		}
		rep, err = analysis.Game(ctx, engine, rec, cfg)
		return err
	})
	if err != nil {
		return nil, err
	}
	ps, err := rec.WideReplay() // cannot fail: the review replayed it
	if err != nil {
		return nil, err
	}
	boards := make([][]string, len(ps))
	for i, p := range ps {
		boards[i] = WideRows(p)
	}
	sims := s.cfg.ReviewSims
	if engine == nil {
		sims = 0
	}
	return reviewOf(rep, boards, human, sims), nil
}

// classicalReviewTime is the classical engine's time per position in a
// review of n positions: the level table's at agent.AdviceLevel, less
// when that would take more than half of Config.ReviewTimeout.
func (s *Service) classicalReviewTime(n int) time.Duration {
	l, err := agent.ParseLevel(agent.AdviceLevel)
	if err != nil {
		panic(err) // the table names AdviceLevel (agent's TestParseLevel)
	}
	return max(min(l.PVSTime, s.cfg.ReviewTimeout/time.Duration(2*n)), time.Millisecond)
}

// reviewOf puts a report into the form of the API, with boards, its
// positions drawn (WideRows).
func reviewOf(rep *analysis.Report, boards [][]string, human string, sims int) reviewJSON {
	out := reviewJSON{Size: rep.Size, Board: fmt.Sprintf("%dx%d", rep.Board.W, rep.Board.H), Start: rep.Board.Start.String(),
		Classical: len(rep.Rows) > 0 && rep.Rows[0].Wide != nil, Human: human, Sims: sims, Moves: []reviewMove{}}
	for i, p := range rep.Positions {
		black := p.WinProb
		if p.Side != rules.Black {
			black = 1 - black
		}
		out.Black = append(out.Black, round3(black))
		out.Exact = append(out.Exact, p.Exact != analysis.Unsolved)
		out.Boards = append(out.Boards, boards[i])
	}
	texts := rep.JSON().Rows // the moves in notation, from either review
	for i, row := range rep.Rows {
		m := reviewMove{Ply: row.Ply, Player: row.Player.String(), Move: texts[i].Move,
			Before: round3(row.Before), After: round3(row.After), Loss: round3(row.Loss),
			Class: row.Class.String(), Best: texts[i].Best, PV: texts[i].PV, Line: texts[i].Line,
			Verdict: verdictCodes[row.Verdict], Candidates: analysis.CandidatesJSON(row.Candidates)}
		out.Moves = append(out.Moves, m)
	}
	if res := rep.Outcome; res.Over() {
		out.Over, out.Winner, out.Resigned = true, res.Winner.String(), res.Method == rules.Resignation
	}
	return out
}

// reviewSearch runs one review-sized analysis (a game's review, the
// openings table) as run(ctx, cfg): within the admission budget of
// Config.ReviewSims and Config.ReviewTimeout, with cfg the review's
// simulations and seed, its time observed in the search metric under
// kind. A failure of run is the API's error.reviewFailed (or
// error.reviewBroken), 503.
func (s *Service) reviewSearch(r *http.Request, kind string, run func(ctx context.Context, cfg analysis.Config) error) error {
	return s.search(r, kind, "review", s.cfg.ReviewSims, s.cfg.ReviewTimeout, func(ctx context.Context) error {
		err := run(ctx, analysis.Config{Limits: player.Limits{Sims: s.cfg.ReviewSims}, Seed: s.cfg.Seed})
		if err != nil {
			return failure(err, "error.reviewFailed", "error.reviewBroken")
		}
		return nil
	})
}
