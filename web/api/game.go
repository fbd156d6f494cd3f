package api

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
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
	Size     int      `json:"size,omitempty"`  // n of an n×n board with the removals
	Board    string   `json:"board,omitempty"` // every other board (rules.ParseBoard)
	Human    string   `json:"human"`           // black or white
	Level    string   `json:"level"`
	Start    int      `json:"start,omitempty"`
	Moves    []string `json:"moves"`
	Resigned bool     `json:"resigned,omitempty"`
}

// game is a gameJSON checked and replayed through the rules; the game
// keeps its outcome (a resignation of the human: Resign). engine is the
// model that plays the board (above 8x8 a network trained there), nil
// when the classical engine plays it.
type game struct {
	human  rules.Color
	level  agent.Level
	start  int
	engine *agent.Engine
	g      rules.AnyGame
}

// narrow returns the game as a *rules.Game when a model plays it on a
// board a Position holds: what the coach (coached moves, the state's
// NoCoach) and the perfect-play check need, which work on Positions.
// The agent's moves and hints do not go through it: they take every
// board (agent.Agent.MoveAny, AdviseAny).
func (gm *game) narrow() (*rules.Game, bool) {
	g, ok := gm.g.(*rules.Game)
	return g, ok && gm.engine != nil
}

// units returns the search budget's units of a search of sims
// simulations in this game: sims on the boards up to 8x8, and on a
// board above 8x8 sims scaled by its squares over 64 (rounded up), as an
// evaluation there costs about that much more, so that games of large
// boards do not oversubscribe the replica.
func (gm *game) units(sims int) int {
	b := gm.g.Board()
	if b.Narrow() {
		return sims
	}
	squares := b.W * b.H
	return (sims*squares + 63) / 64
}

// json returns the game as the client holds it.
func (gm *game) json() gameJSON {
	size, board := boardJSON(gm.g.Board())
	return gameJSON{Size: size, Board: board, Human: gm.human.String(), Level: gm.level.Name,
		Start: gm.start, Moves: gm.g.MoveStrings(), Resigned: gm.resigned()}
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

// maxMoves is the most moves a game of the API may have on b: every move
// takes a stone off the board, so no game has more.
func maxMoves(b rules.Board) int { return b.Squares() }

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

// replay checks a game sent by a client: a board, a colour, a level offered, a start within the moves, and every move legal
// in turn, and a resignation only before the game's end. The server
// trusts nothing in it.
func (s *Service) replay(gj gameJSON) (*game, error) {
	board, engine, err := s.boardEngine(gj.Size, gj.Board)
	if err != nil {
		return nil, err
	}
	human, err := parseColor(gj.Human)
	if err != nil {
		return nil, err
	}
	level, err := s.parseLevel(gj.Level)
	if err != nil {
		return nil, err
	}
	if n := len(gj.Moves); n > maxMoves(board) {
		return nil, badRequest("error.gameLong", "n", fmt.Sprint(n), "max", fmt.Sprint(maxMoves(board)))
	}
	if gj.Start < 0 || gj.Start > len(gj.Moves) {
		return nil, badRequest("error.gameStart")
	}
	g, err := playMoves(board, gj.Moves)
	if err != nil {
		return nil, err
	}
	if gj.Resigned && g.Resign(human) != nil {
		return nil, badRequest("error.resignOver")
	}
	return &game{human: human, level: level, start: gj.Start, engine: engine, g: g}, nil
}

// playMoves starts a game on board and plays moves, each checked: an
// illegal one is error.gameMoveBlack or error.gameMoveWhite.
func playMoves(board rules.Board, moves []string) (rules.AnyGame, error) {
	g, err := rules.NewAnyGame(board)
	if err != nil {
		return nil, err
	}
	for i, text := range moves {
		if _, err := g.PlayString(text); err != nil {
			return nil, &apiError{code: http.StatusBadRequest, msg: messages.ForMove("error.gameMoveBlack", "error.gameMoveWhite", i+1, "move", text), detail: err}
		}
	}
	return g, nil
}

// The game in a URL: the page keeps its game in the address's fragment,
// #g=CODE, and the record download takes it as ?g=CODE. CODE is, on an
// n×n board with the removals of n up to 8 (every game before the other
// boards),
//
//	1.<n><b|w>.<level>.<start>[.<move>]...[.resign]
//
// for example 1.8b.medium.0.d5.e5.c5-e5: the format's version (1), the
// board size and the human's colour, the level, the number of start moves
// and the moves in project notation, then "resign" when the human
// resigned (no move is spelled so; codes without it read as before). On
// every other board it is
//
//	2.<W>x<H><r|g><b|w>.<level>.<start>[.<move>]...[.resign]
//
// for example 2.15x12gb.medium.0.h8-h6: version 2, the files, the ranks,
// the start (r the removals, g the gap) and the human's colour, then as
// version 1. Version 2 reads every board and is written for every board
// but the n×n ones of version 1 (n up to 8, with the removals); neither
// needs escaping in a URL.
const (
	codeVersion     = "1"
	codeVersionWide = "2"
	codeResign      = "resign"
)

// encodeGame writes gj as a CODE (gj's board is valid: it comes from a
// game replayed).
func encodeGame(gj gameJSON) string {
	c := "w"
	if gj.Human == "black" {
		c = "b"
	}
	b, _ := parseBoard(gj.Size, gj.Board)
	head := []string{codeVersion, strconv.Itoa(b.W) + c}
	if b != rules.SquareBoard(b.W) || !b.Narrow() {
		head = []string{codeVersionWide, fmt.Sprintf("%dx%d%c%s", b.W, b.H, b.Start.String()[0], c)}
	}
	parts := append(append(head, gj.Level, strconv.Itoa(gj.Start)), gj.Moves...)
	if gj.Resigned {
		parts = append(parts, codeResign)
	}
	return strings.Join(parts, ".")
}

// errCode is the error of a CODE that cannot be read.
var errCode = errors.New("api: not a game code 1.<size><b|w>.<level>.<start>.<moves>[.resign] or 2.<W>x<H><r|g><b|w>.<level>.<start>.<moves>[.resign]")

// wideHead is the board and colour of a version 2 CODE.
var wideHead = regexp.MustCompile(`^([0-9]{1,2})x([0-9]{1,2})([rg])([bw])$`)

// decodeGame reads a CODE; the game is then checked by replay. A board
// out of range is a *rules.BoardError.
func decodeGame(code string) (gameJSON, error) {
	parts := strings.Split(code, ".")
	if len(parts) < 4 || len(parts[1]) < 2 {
		return gameJSON{}, errCode
	}
	var board rules.Board
	var color byte
	switch parts[0] {
	case codeVersion:
		sc := parts[1]
		size, err := strconv.Atoi(sc[:len(sc)-1])
		if err != nil || size < rules.MinSize || size > rules.MaxSize {
			return gameJSON{}, errCode
		}
		board, color = rules.SquareBoard(size), sc[len(sc)-1]
	case codeVersionWide:
		m := wideHead.FindStringSubmatch(parts[1])
		if m == nil {
			return gameJSON{}, errCode
		}
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		start := rules.Removal
		if m[3] == "g" {
			start = rules.Gap
		}
		var err error
		if board, err = rules.NewBoard(w, h, start); err != nil {
			return gameJSON{}, err
		}
		color = m[4][0]
	default:
		return gameJSON{}, errCode
	}
	gj := gameJSON{Level: parts[2], Moves: parts[4:]}
	gj.Size, gj.Board = boardJSON(board)
	if n := len(gj.Moves); n > 0 && gj.Moves[n-1] == codeResign {
		gj.Moves, gj.Resigned = gj.Moves[:n-1], true
	}
	switch color {
	case 'b':
		gj.Human = "black"
	case 'w':
		gj.Human = "white"
	default:
		return gameJSON{}, errCode
	}
	var err error
	if gj.Start, err = strconv.Atoi(parts[3]); err != nil {
		return gameJSON{}, errCode
	}
	if len(gj.Moves) > maxMoves(board) {
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

// GameRows returns the board of the game of a CODE after its moves, as
// WideRows draws it: for the preview of a shared link, whatever its
// level (the moves are checked, the level is not).
func GameRows(code string) ([]string, error) {
	gj, err := decodeGame(code)
	if err != nil {
		return nil, err
	}
	b, err := parseBoard(gj.Size, gj.Board)
	if err != nil {
		return nil, err
	}
	g, err := playMoves(b, gj.Moves)
	if err != nil {
		return nil, err
	}
	return WideRows(g.WidePosition()), nil
}

// BoardRows draws p as WideRows does.
func BoardRows(p rules.Position) []string { return WideRows(p.Wide()) }
