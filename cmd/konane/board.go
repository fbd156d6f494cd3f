package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/rules"
)

// boardFlag is the --board flag, declared here for every command
// (addBoardFlag), with --size as its alias for old scripts: the board a
// command plays on, read and validated once (by board, size and their
// *Or forms, with the command's name), so that the layers below receive a
// rules.Board they can trust.
type boardFlag struct {
	text  string // as given
	name  string // the flag it was given as: "board" or "size"
	given bool
	twice bool   // given as both --board and --size
	start string // --start: "removal", "gap" or "" (the board's default)
}

// addBoardFlag declares --board and its alias --size on fs; without says
// what the command does when neither is given (like "required" or
// "default 8x8").
func addBoardFlag(fs *flag.FlagSet, without string) *boardFlag {
	b := &boardFlag{}
	b.declare(fs, boardHelp(without))
	return b
}

// declare declares --board with the given help, and --size, on fs.
func (b *boardFlag) declare(fs *flag.FlagSet, help string) {
	fs.Var(boardName{b, "board"}, "board", help)
	fs.Var(boardName{b, "size"}, "size", "the same as --board (kept for old scripts: --size N is the N×N board)")
	fs.StringVar(&b.start, "start", "", "the start of --board's board: removal (the Naihe opening) or gap (two centre stones removed, Black jumps first); the same as --board B/removal or B/gap (default: gap where the board has it, removal elsewhere)")
}

// spec is the board as given with --start folded in ("7x6" and --start
// removal read "7x6/removal"); a start given twice (--board B/gap with
// --start), or --start without --board, is a usage error of cmd.
func (b *boardFlag) spec(cmd string) (string, error) {
	switch {
	case b.start == "":
		return b.text, nil
	case b.start != "removal" && b.start != "gap":
		return "", usageError(cmd, "--start %s: want removal or gap", rules.Quote(b.start))
	case !b.given:
		return "", usageError(cmd, "--start %s: give the board too (--board WxH)", rules.Quote(b.start))
	case strings.Contains(b.text, "/"):
		return "", usageError(cmd, "%s and --start %s: give the start once", b.flagText(), rules.Quote(b.start))
	}
	return b.text + "/" + b.start, nil
}

// boardHelp is the help of --board; without says what the command does
// when it is not given. The AbstractPlay ids come from rules' one table of
// its boards.
func boardHelp(without string) string {
	var ids []string
	for _, b := range rules.AbstractPlayBoards() {
		id, _ := b.AbstractPlayID()
		ids = append(ids, cmp.Or(id, "default"))
	}
	return fmt.Sprintf("board: N (N×N), WxH (sides %d..%d) or an AbstractPlay variant id (%s), optionally /removal or /gap to choose the start; %s",
		rules.MinSide, rules.MaxSide, strings.Join(ids, ", "), without)
}

// abstractPlayIDs lists AbstractPlay's variant ids with their boards:
// "default = 6x6, size-7 = 7x6, ...".
func abstractPlayIDs() string {
	var parts []string
	for _, b := range rules.AbstractPlayBoards() {
		id, _ := b.AbstractPlayID()
		if id == "" {
			id = "default"
		}
		parts = append(parts, fmt.Sprintf("%s = %dx%d", id, b.W, b.H))
	}
	return strings.Join(parts, ", ")
}

// boardName is the flag.Value of --board or of --size.
type boardName struct {
	b    *boardFlag
	name string
}

// String implements flag.Value.
func (v boardName) String() string {
	if v.b == nil || !v.b.given || v.b.name != v.name {
		return ""
	}
	return v.b.text
}

// Set implements flag.Value: the text is read by board, which names the
// command in its errors.
func (v boardName) Set(text string) error {
	if v.b.given && v.b.name != v.name {
		v.b.twice = true
	}
	v.b.text, v.b.name, v.b.given = text, v.name, true
	return nil
}

// Given reports whether --board (or --size) was given.
func (b *boardFlag) Given() bool { return b.given }

// flagText is the flag as given, for messages: "--board 7x6", "--size 9";
// a value that is not a short plain word is quoted (rules.Quote).
func (b *boardFlag) flagText() string {
	v := b.text
	if len(v) > 16 || strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '/' || r == '-')
	}) {
		v = rules.Quote(v)
	}
	return "--" + b.name + " " + v
}

// board returns the board given, checked (cmd's usage error otherwise:
// an unknown board, a side outside MinSide..MaxSide, a start the board
// does not have, all as rules.ParseBoard words them), and whether one was
// given.
func (b *boardFlag) board(cmd string) (rules.Board, bool, error) {
	text, err := b.spec(cmd)
	if err != nil {
		return rules.Board{}, b.given, err
	}
	if !b.given {
		return rules.Board{}, false, nil
	}
	if b.twice {
		return rules.Board{}, true, usageError(cmd, "--board and --size are the same flag: give one")
	}
	rb, err := rules.ParseBoard(text)
	if be := (*rules.BoardError)(nil); errors.As(err, &be) {
		return rules.Board{}, true, usageError(cmd, "%s: %v", b.flagText(), be.Err)
	} else if err != nil {
		return rules.Board{}, true, usageError(cmd, "--%s: %v", b.name, err)
	}
	return rb, true, nil
}

// narrowBoards names the boards of Position for people, with
// AbstractPlay's among them (from its table).
func narrowBoards() string {
	return fmt.Sprintf("%d to %d files and ranks, rectangles too (AbstractPlay's %s)", rules.MinSize, rules.MaxSize, strings.Join(apBoards(rules.Board.Narrow), ", "))
}

// apBoards names AbstractPlay's boards that keep takes, from its table
// (rules.AbstractPlayBoards), in its order: the help texts' lists.
func apBoards(keep func(rules.Board) bool) []string {
	var names []string
	for _, rb := range rules.AbstractPlayBoards() {
		if keep(rb) {
			names = append(names, rb.String())
		}
	}
	return names
}

// agentBoards names the boards the agent plays without --model (the
// exact solver's and the shipped networks', agent.Boards): "4x4, 5x5,
// 6x6, 7x7, 8x8".
func agentBoards() string { return boardNames(agent.Boards(), func(rules.Board) bool { return true }) }

// narrowAgentBoards is agentBoards of at most rules.MaxSize files and
// ranks.
func narrowAgentBoards() string { return boardNames(agent.Boards(), rules.Board.Narrow) }

// boardNames names the boards that keep takes: "6x6, 7x6".
func boardNames(boards []rules.Board, keep func(rules.Board) bool) string {
	var names []string
	for _, b := range boards {
		if keep(b) {
			names = append(names, b.String())
		}
	}
	return strings.Join(names, ", ")
}

// classicalBoards names, for the help texts, the boards on which no
// shipped network plays (agent.Plays), with AbstractPlay's among them:
// "rectangles such as AbstractPlay's 7x6, and the boards above 8x8 such
// as its 9x8, 11x8 and 15x12".
func classicalBoards() string {
	rect := apBoards(func(b rules.Board) bool { return b.Narrow() && !b.Square() && !agent.Plays(b) })
	wide := apBoards(func(b rules.Board) bool { return !b.Narrow() && !agent.Plays(b) })
	above := fmt.Sprintf("the boards above %dx%d", rules.MaxSize, rules.MaxSize)
	switch {
	case len(rect) > 0 && len(wide) > 0:
		return "rectangles such as AbstractPlay's " + andList(rect) + ", and " + above + " such as its " + andList(wide)
	case len(rect) > 0:
		return "rectangles such as AbstractPlay's " + andList(rect) + ", and the other " + above[4:]
	case len(wide) > 0:
		return "the other rectangles, and " + above + " such as AbstractPlay's " + andList(wide)
	}
	return "the other rectangles and " + above
}

// classicalExamples names two of AbstractPlay's boards on which no
// shipped network plays, for the help texts: "7x6, 9x8...".
func classicalExamples() string {
	names := apBoards(func(b rules.Board) bool { return !agent.Plays(b) })
	if len(names) > 2 {
		names = names[:2]
	}
	if len(names) == 0 {
		return "none of AbstractPlay's"
	}
	return strings.Join(names, ", ") + "..."
}

// multiFileBoards says which boards the network of a multi-board --model
// file plays (agent.Engines, agent.WideTrained).
func multiFileBoards() string {
	return fmt.Sprintf("every board of up to %d files and ranks, rectangles too, trained there or not, and the boards above %dx%d it was trained on", rules.MaxSize, rules.MaxSize, rules.MaxSize)
}

// andList joins names for a sentence: "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// squareBoards names the boards of the commands that play square boards
// only.
func squareBoards() string {
	return fmt.Sprintf("the square boards %dx%d to %dx%d", rules.MinSize, rules.MinSize, rules.MaxSize, rules.MaxSize)
}

// get is board for a command whose engines play square boards only: it
// returns the size N of the N×N board given, or 0 when none was given; a
// rectangle or a board above MaxSize is refused in one line naming the
// boards the command plays.
func (b *boardFlag) get(cmd string) (int, error) {
	rb, given, err := b.board(cmd)
	switch {
	case err != nil:
		return 0, err
	case !given:
		return 0, nil
	case !rb.Square() || !rb.Narrow():
		return 0, usageError(cmd, "%s: %s plays %s only yet", b.flagText(), cmd, squareBoards())
	}
	return rb.W, nil
}

// getOr is get with def in place of 0 when no board was given.
func (b *boardFlag) getOr(cmd string, def int) (int, error) {
	n, err := b.get(cmd)
	if n == 0 && err == nil {
		n = def
	}
	return n, err
}

// required is the error of a command that needs a board and was given
// none.
func (b *boardFlag) required(cmd string) error {
	return usageError(cmd, "--board is required (%s)", squareBoards())
}

// boardsParagraph is the paragraph of a command's long help that says
// which boards --board takes, from rules' table of AbstractPlay's boards;
// plays says which of them the command plays ("" for all).
func boardsParagraph(plays string) string {
	var gap []string
	for _, rb := range rules.AbstractPlayBoards() {
		if rb.Start == rules.Gap {
			gap = append(gap, fmt.Sprintf("%dx%d", rb.W, rb.H))
		}
	}
	text := fmt.Sprintf("--board takes N (the N×N board), WxH (W files, H ranks, each %d..%d) or one of AbstractPlay's variant ids (%s), with /removal or /gap to choose the start (default: gap where it is defined, that is when exactly one of W and H is odd, as AbstractPlay's %s; the removals elsewhere). --size is its old name.",
		rules.MinSide, rules.MaxSide, abstractPlayIDs(), strings.Join(gap, ", "))
	if plays != "" {
		text += " " + plays
	}
	return strings.TrimSuffix(wrapWords("", strings.Fields(text), 76, 0), "\n")
}

// botBoards says which of AbstractPlay's variants the bot plays with a
// shipped network and which with the classical engine (agent.Plays):
// "AbstractPlay's default 6x6 and size-8 with the networks, size-7, ...
// with the classical engine".
func botBoards() string {
	var network, classical []string
	for _, b := range rules.AbstractPlayBoards() {
		name, _ := b.AbstractPlayID()
		if name == "" {
			name = "default " + b.String()
		}
		if agent.Plays(b) {
			network = append(network, name)
		} else {
			classical = append(classical, name)
		}
	}
	var parts []string
	if len(network) > 0 {
		parts = append(parts, andList(network)+" with the networks")
	}
	if len(classical) > 0 {
		parts = append(parts, andList(classical)+" with the classical engine")
	}
	return "AbstractPlay's " + strings.Join(parts, ", ")
}
