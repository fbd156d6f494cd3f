package selfplay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// BoardShare is one board of a multi-board run (Config.Boards) and its
// weight: the board plays Weight games of every Σweights of a
// generation's games, in a fixed cycle (GameBoard). Written "7x6" for
// weight 1, "8x8:2" otherwise.
type BoardShare struct {
	Board  rules.Board
	Weight int
}

// MaxBoardWeight bounds BoardShare.Weight.
const MaxBoardWeight = 100

// String writes the share as ParseBoardShares reads it.
func (b BoardShare) String() string {
	if b.Weight == 1 {
		return b.Board.String()
	}
	return fmt.Sprintf("%s:%d", b.Board, b.Weight)
}

// MarshalText writes String (config.json keeps the list as strings).
func (b BoardShare) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (b *BoardShare) UnmarshalText(text []byte) error {
	v, err := parseBoardShare(string(text))
	if err == nil {
		*b = v
	}
	return err
}

// parseBoardShare reads one board of a list: a board (rules.ParseBoard),
// optionally ":weight".
func parseBoardShare(s string) (BoardShare, error) {
	s = strings.TrimSpace(s)
	name, weight, hasWeight := strings.Cut(s, ":")
	b, err := rules.ParseBoard(name)
	if err != nil {
		return BoardShare{}, err
	}
	w := 1
	if hasWeight {
		if w, err = strconv.Atoi(weight); err != nil || w < 1 || w > MaxBoardWeight {
			return BoardShare{}, fmt.Errorf("board %s: weight %q: want a whole number 1..%d", name, weight, MaxBoardWeight)
		}
	}
	return BoardShare{Board: b, Weight: w}, nil
}

// ParseBoardShares reads the board list of "konane train --board":
// boards (as rules.ParseBoard reads them) separated by commas, each
// optionally with ":weight" ("6x6,7x6,7x7,8x8:2"). An unknown board, a
// bad weight or a board named twice (with either start: one start per
// shape) is an error of one line.
func ParseBoardShares(s string) ([]BoardShare, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty board list: want boards such as 6x6,7x6,8x8:2")
	}
	var out []BoardShare
	for _, f := range strings.Split(s, ",") {
		b, err := parseBoardShare(f)
		if err != nil {
			return nil, err
		}
		// One start per shape: the ladder and the dashboard keep a board's
		// games under DIR/ladder/WxH.
		if i := slices.IndexFunc(out, func(x BoardShare) bool { return x.Board.W == b.Board.W && x.Board.H == b.Board.H }); i >= 0 {
			if out[i].Board == b.Board {
				return nil, fmt.Errorf("board list %s names %s twice", rules.Quote(s), b.Board)
			}
			return nil, fmt.Errorf("board list %s names %dx%d twice (%s and %s): one start per board", rules.Quote(s), b.Board.W, b.Board.H, out[i].Board, b.Board)
		}
		out = append(out, b)
	}
	return out, nil
}

// BoardSharesString writes a board list as ParseBoardShares reads it.
func BoardSharesString(bs []BoardShare) string {
	s := make([]string, len(bs))
	for i, b := range bs {
		s[i] = b.String()
	}
	return strings.Join(s, ",")
}

// DefaultMultiBoardConfig returns the settings of `konane train` for a
// multi-board run on boards: the 8x8 defaults (DefaultConfig), with a
// multi-board network and no board of its own (Size 0). Each board's games
// take the defaults of its size where they depend on it (the first plies
// at temperature 1, rescoring, random openings: see Config.BoardGame).
func DefaultMultiBoardConfig(boards []BoardShare) Config {
	c := DefaultConfig(rules.MaxSize)
	c.Size, c.Game.Size = 0, 0
	c.Net = net.DefaultMultiBoardConfig()
	c.Boards = slices.Clone(boards)
	return c
}

// MultiBoard reports whether c is a multi-board run (Boards set).
func (c Config) MultiBoard() bool { return len(c.Boards) > 0 }

// BoardList returns the boards of a multi-board run, in order, or the
// board of a single-board run.
func (c Config) BoardList() []rules.Board {
	if !c.MultiBoard() {
		return []rules.Board{rules.SquareBoard(c.Size)}
	}
	out := make([]rules.Board, len(c.Boards))
	for i, b := range c.Boards {
		out[i] = b.Board
	}
	return out
}

// GameBoard returns the board of game i of every generation of a
// multi-board run: the boards in the list's order, each repeated by its
// weight, in a cycle (6x6,8x8:2 plays 6x6, 8x8, 8x8, 6x6, ...).
func (c Config) GameBoard(i int) rules.Board {
	total := 0
	for _, b := range c.Boards {
		total += b.Weight
	}
	k := i % total
	for _, b := range c.Boards {
		if k < b.Weight {
			return b.Board
		}
		k -= b.Weight
	}
	panic("unreachable")
}

// gameShape is the board of game i (a Position's Size): GameBoard's in a
// multi-board run, else Size.
func (c Config) gameShape(i int) int {
	if !c.MultiBoard() {
		return c.Size
	}
	b := c.GameBoard(i)
	return rules.ShapeCode(b.W, b.H)
}

// gameShardSize is the size written in game i's own shard (kept until
// the generation's games are merged) and read back by recover: its
// board's shape code, or 0 (a shard of several boards, version 5) for a
// board above 8x8, which a shard of one size cannot hold.
func (c Config) gameShardSize(i int) int {
	if w, h := rules.ShapeDims(c.gameShape(i)); w > rules.MaxSize || h > rules.MaxSize {
		return 0
	}
	return c.gameShape(i)
}

// BoardGame returns the game settings of board b in a multi-board run:
// Game on b, with the first plies at temperature 1, the rescored stones,
// the random opening plies and the endgame solver's stones of the
// defaults of b's longer side
// (DefaultConfig) unless Game sets them to other than the 8x8 defaults,
// which then hold on every board.
func (c Config) BoardGame(b rules.Board) GameConfig {
	g := c.Game
	g.Board, g.Size = b, rules.ShapeCode(b.W, b.H)
	def, own := DefaultConfig(rules.MaxSize).Game, DefaultConfig(max(b.W, b.H)).Game
	if g.Temperature.Hold == def.Temperature.Hold {
		g.Temperature.Hold = own.Temperature.Hold
	}
	if g.RescoreStones == def.RescoreStones {
		g.RescoreStones = own.RescoreStones
	}
	if g.RandomPlies == def.RandomPlies {
		g.RandomPlies = own.RandomPlies
	}
	if g.MCTS.SolveStones == def.MCTS.SolveStones {
		g.MCTS.SolveStones = own.MCTS.SolveStones
	}
	if !b.Narrow() {
		// The exact solver plays Positions only: no rescoring, and the
		// wide search has no endgame solver (mcts.WideSearch).
		g.RescoreStones, g.RescoreChildren, g.RescoreChildPolicy = 0, 0, false
	}
	return g
}

// WideBoards lists the boards of a multi-board run that no Position holds
// (above 8x8), played as WidePositions without the exact solver.
func (c Config) WideBoards() []rules.Board {
	var out []rules.Board
	for _, b := range c.Boards {
		if !b.Board.Narrow() {
			out = append(out, b.Board)
		}
	}
	return out
}

// validateBoards reports the first invalid setting of a multi-board run.
func (c Config) validateBoards() error {
	switch {
	case c.Size != 0 || c.Game.Size != 0:
		return fmt.Errorf("selfplay: a multi-board run has no board size of its own (size %d, game size %d)", c.Size, c.Game.Size)
	case !c.Net.MultiBoard():
		return fmt.Errorf("selfplay: the multi-board run's network %s is a single-board one", c.Net.Arch())
	case c.Gate.Games > 0:
		return fmt.Errorf("selfplay: a multi-board run has no gate yet (gate games %d)", c.Gate.Games)
	}
	seen := make(map[rules.Board]bool)
	for _, b := range c.Boards {
		if err := b.Board.Validate(); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		if seen[b.Board] {
			return fmt.Errorf("selfplay: board list %s names %s twice", BoardSharesString(c.Boards), b.Board)
		}
		seen[b.Board] = true
		if b.Weight < 1 || b.Weight > MaxBoardWeight {
			return fmt.Errorf("selfplay: board %s: weight %d outside 1..%d", b.Board, b.Weight, MaxBoardWeight)
		}
		if err := c.BoardGame(b.Board).Validate(); err != nil {
			return err
		}
	}
	return nil
}
