package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// The board of a game: a request names it by size (n, an n×n board with
// the removals, as the first requests did) or by board (a name that
// rules.ParseBoard reads: "7x6", "size-15", "9x8/removal"), and the
// board decides who plays it: the model of its size, or the classical
// engine on a board without one.

// parseBoard reads the board of a request: board when given (and then
// size, if given too, must be its side), else the n×n board of size. Its
// errors name what was wrong and the boards there are.
func parseBoard(size int, name string) (rules.Board, error) {
	if name == "" {
		b := rules.SquareBoard(size)
		if err := b.Validate(); err != nil {
			return rules.Board{}, boardError(strconv.Itoa(size)+"×"+strconv.Itoa(size), err)
		}
		return b, nil
	}
	b, err := rules.ParseBoard(name)
	if err != nil {
		return rules.Board{}, boardError(name, err)
	}
	if size != 0 && (b.W != size || b.H != size) {
		return rules.Board{}, badRequest("error.boardSize", "size", strconv.Itoa(size), "board", name)
	}
	return b, nil
}

// boardError is the error of a board that cannot be played.
func boardError(name string, err error) error {
	return &apiError{code: http.StatusBadRequest, msg: messages.New("error.board", "board", name,
		"min", strconv.Itoa(rules.MinSide), "max", strconv.Itoa(rules.MaxSide)), detail: err}
}

// boardJSON names b in a game as the client keeps it: size alone for a
// square board with the removals (as games always were), board for the
// others.
func boardJSON(b rules.Board) (size int, name string) {
	if b == rules.SquareBoard(b.W) {
		return b.W, ""
	}
	return 0, b.String()
}

// boardEngine reads the board of a game or a request (parseBoard) and
// returns it with its engine (engineFor).
func (s *Service) boardEngine(size int, name string) (rules.Board, *agent.Engine, error) {
	b, err := parseBoard(size, name)
	if err != nil {
		return rules.Board{}, nil, err
	}
	e, err := s.engineFor(b)
	return b, e, err
}

// engineFor returns the engine of b's model (a multi-board model's
// network on a rectangle too, and on a board above 8x8 the model was
// trained on: agent.Engines.GetBoard), or nil when the classical engine
// plays b (no model for it).
func (s *Service) engineFor(b rules.Board) (*agent.Engine, error) {
	e, err := s.cfg.Engines.GetBoard(b)
	var nm *agent.NoModelError
	if errors.As(err, &nm) {
		return nil, nil
	}
	return e, err
}

// WideRows draws p as the page gets it: one string per rank, the top
// rank first, x for Black, o for White and . for an empty square.
func WideRows(p rules.WidePosition) []string {
	w, h := int(p.W), int(p.H)
	rows := make([]string, 0, h)
	for row := h - 1; row >= 0; row-- {
		b := make([]byte, w)
		for col := range b {
			switch c, ok := p.At(row, col); {
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
