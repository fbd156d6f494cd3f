package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// sizeOrder is the order in which readRecord tries the board sizes for a
// record that names none: the standard 8x8, then 6x6, then the others.
func sizeOrder() []int {
	order := []int{8, 6}
	for n := rules.MinSize; n <= rules.MaxSize; n++ {
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	return order
}

// readRecord reads a record uploaded for review, in the text or JSON
// format. A text record without a [Size "N"] tag (a bare move list such as
// "1. d4 e4 2. f6-d6", as other sites show games) is read on the first
// size of sizeOrder on which every move is legal. Its errors are messages
// for a person: the line, or the move, that is wrong, or (when no size
// fits) the move that fails on the size the moves go farthest on.
func readRecord(text string) (*rules.Record, error) {
	rec, err := rules.ParseRecord([]byte(text))
	if err == nil {
		return rec, nil
	}
	if !errors.Is(err, rules.ErrNoSize) {
		return nil, recordError(err)
	}
	var best *rules.RecordError // the attempt whose moves go farthest
	bestSize := 0
	for _, n := range sizeOrder() {
		// The tag as one more line before the text: lines are the
		// text's own after taking one off.
		rec, e := rules.ParseRecord([]byte(fmt.Sprintf("[Size \"%d\"]\n%s", n, text)))
		if e == nil {
			return rec, nil
		}
		var re *rules.RecordError
		if !errors.As(e, &re) {
			return nil, recordError(e)
		}
		own := *re
		if own.Line > 0 {
			own.Line--
		}
		re = &own
		if re.Move == 0 {
			// Not about a move (a comment never closed, a result
			// out of place): the same on every size.
			return nil, recordError(re)
		}
		if best == nil || re.Move > best.Move {
			best, bestSize = re, n
		}
	}
	return nil, &apiError{code: http.StatusBadRequest, detail: err,
		msg: messages.ForMove("error.recordNoSizeBlack", "error.recordNoSizeWhite", best.Move, "size", fmt.Sprint(bestSize), "move", best.Text)}
}

// recordError is the answer to a record that cannot be read: the move
// that is not legal, else the line that is wrong, else the record as a
// whole (a JSON record, whose lines are not known).
func recordError(err error) error {
	var re *rules.RecordError
	switch {
	case errors.As(err, &re) && re.Move > 0:
		return &apiError{code: http.StatusBadRequest, detail: err, msg: messages.ForMove("error.recordMoveBlack", "error.recordMoveWhite", re.Move, "move", re.Text)}
	case errors.As(err, &re) && re.Line > 0:
		return &apiError{code: http.StatusBadRequest, detail: err, msg: messages.New("error.record", "line", fmt.Sprint(re.Line))}
	}
	return &apiError{code: http.StatusBadRequest, detail: err, msg: messages.New("error.recordUnreadable")}
}
