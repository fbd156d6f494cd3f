package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

// gameJSON is a game as the client holds it and sends it with every
// request: the server keeps nothing between requests. Start is the
// number of moves the game started from (a game played on from a
// position of a review): they are not the human's to take back.
// Resigned says that the human gave the game up after its moves: the
// computer won, whatever the position.
type gameJSON struct {
	Size     int      `json:"size"`
	Human    string   `json:"human"` // black or white
	Level    string   `json:"level"`
	Start    int      `json:"start,omitempty"`
	Moves    []string `json:"moves"`
	Resigned bool     `json:"resigned,omitempty"`
}

// game is a gameJSON checked and replayed through the rules; the game
// keeps its outcome (a resignation of the human: rules.Game.Resign).
type game struct {
	human rules.Color
	level agent.Level
	start int
	g     *rules.Game
}

// json returns the game as the client holds it.
func (gm *game) json() gameJSON {
	return gameJSON{Size: gm.g.Size(), Human: gm.human.String(), Level: gm.level.Name,
		Start: gm.start, Moves: rules.MoveStrings(gm.g.Moves()), Resigned: gm.resigned()}
}

// resigned reports whether the game ended by the human's resignation.
func (gm *game) resigned() bool {
	_, m := gm.g.Outcome()
	return m == rules.Resignation
}

// record returns the game as a record; a resigned game's Result names
// the computer's win before the end, as records write a resignation.
func (gm *game) record(event string, date time.Time) *rules.Record {
	return agent.RecordAgainst(gm.g, event, gm.human, "konane (level "+gm.level.Name+")", date)
}

// canUndo reports whether the human has a move to take back: one of
// theirs after the start moves, in a game not resigned.
func (gm *game) canUndo() bool {
	if gm.resigned() {
		return false
	}
	last := gm.g.Len() - 1
	if last >= 0 && rules.Color(last%2) != gm.human { // Black makes the even-numbered moves
		last--
	}
	return last >= gm.start
}

// maxMoves is the most moves a game of the API may have: every move
// takes a stone off a size×size board, so no game has more.
func maxMoves(size int) int { return size * size }

// parseColor reads the human's colour of a game.
func parseColor(name string) (rules.Color, error) {
	switch name {
	case "black":
		return rules.Black, nil
	case "white":
		return rules.White, nil
	}
	return 0, badRequest("error.color", "color", name)
}

// replay checks a game sent by a client: a board size with a model, a
// colour, a level offered, a start within the moves, and every move legal
// in turn, and a resignation only before the game's end. The server
// trusts nothing in it.
func (s *Service) replay(gj gameJSON) (*game, error) {
	if _, err := s.cfg.Engines.Get(gj.Size); err != nil {
		return nil, &apiError{code: http.StatusBadRequest, msg: messages.New("error.size", "size", fmt.Sprint(gj.Size), "sizes", messages.SizeNames(s.cfg.Engines.Sizes())), detail: err}
	}
	human, err := parseColor(gj.Human)
	if err != nil {
		return nil, err
	}
	level, err := s.parseLevel(gj.Level)
	if err != nil {
		return nil, err
	}
	if n := len(gj.Moves); n > maxMoves(gj.Size) {
		return nil, badRequest("error.gameLong", "n", fmt.Sprint(n), "max", fmt.Sprint(maxMoves(gj.Size)))
	}
	if gj.Start < 0 || gj.Start > len(gj.Moves) {
		return nil, badRequest("error.gameStart")
	}
	g, err := rules.NewGame(gj.Size)
	if err != nil {
		return nil, err
	}
	for i, text := range gj.Moves {
		if _, err := g.PlayText(text); err != nil {
			return nil, &apiError{code: http.StatusBadRequest, msg: messages.ForMove("error.gameMoveBlack", "error.gameMoveWhite", i+1, "move", text), detail: err}
		}
	}
	if gj.Resigned && g.Resign(human) != nil {
		return nil, badRequest("error.resignOver")
	}
	return &game{human: human, level: level, start: gj.Start, g: g}, nil
}

// The game in a URL: the page keeps its game in the address's fragment,
// #g=CODE, and the record download takes it as ?g=CODE. CODE is
//
//	1.<size><b|w>.<level>.<start>[.<move>]...[.resign]
//
// for example 1.8b.medium.0.d5.e5.c5-e5: the format's version (1), the
// board size and the human's colour, the level, the number of start moves
// and the moves in project notation, then "resign" when the human
// resigned (no move is spelled so; codes without it read as before). It
// needs no escaping in a URL.
const (
	codeVersion = "1"
	codeResign  = "resign"
)

// encodeGame writes gj as a CODE.
func encodeGame(gj gameJSON) string {
	c := "w"
	if gj.Human == "black" {
		c = "b"
	}
	parts := append([]string{codeVersion, strconv.Itoa(gj.Size) + c, gj.Level, strconv.Itoa(gj.Start)}, gj.Moves...)
	if gj.Resigned {
		parts = append(parts, codeResign)
	}
	return strings.Join(parts, ".")
}

// errCode is the error of a CODE that cannot be read.
var errCode = errors.New("api: not a game code 1.<size><b|w>.<level>.<start>.<moves>[.resign]")

// decodeGame reads a CODE; the game is then checked by replay.
func decodeGame(code string) (gameJSON, error) {
	parts := strings.Split(code, ".")
	if len(parts) < 4 || parts[0] != codeVersion || len(parts[1]) < 2 {
		return gameJSON{}, errCode
	}
	sc := parts[1]
	size, err := strconv.Atoi(sc[:len(sc)-1])
	if err != nil || size < rules.MinSize || size > rules.MaxSize {
		return gameJSON{}, errCode
	}
	gj := gameJSON{Size: size, Level: parts[2], Moves: parts[4:]}
	if n := len(gj.Moves); n > 0 && gj.Moves[n-1] == codeResign {
		gj.Moves, gj.Resigned = gj.Moves[:n-1], true
	}
	switch sc[len(sc)-1] {
	case 'b':
		gj.Human = "black"
	case 'w':
		gj.Human = "white"
	default:
		return gameJSON{}, errCode
	}
	if gj.Start, err = strconv.Atoi(parts[3]); err != nil {
		return gameJSON{}, errCode
	}
	if len(gj.Moves) > maxMoves(size) {
		return gameJSON{}, errCode
	}
	return gj, nil
}

// parseLevel reads a level name of a request: one of the levels offered
// (up to Config.MaxLevel).
func (s *Service) parseLevel(name string) (agent.Level, error) {
	names := agent.LevelNames()[:s.maxLevel+1]
	l, err := agent.ParseLevel(name)
	if err != nil {
		return agent.Level{}, &apiError{code: http.StatusBadRequest, msg: messages.New("error.level", "level", name, "levels", strings.Join(names, ", ")), detail: err}
	}
	if levelIndex(name) > s.maxLevel {
		return agent.Level{}, badRequest("error.levelCap", "level", name, "max", names[len(names)-1])
	}
	return l, nil
}

// BoardRows draws p as the page gets it: one string per rank, the top
// rank first, x for Black, o for White and . for an empty square.
func BoardRows(p rules.Position) []string {
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
