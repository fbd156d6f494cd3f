package gtp

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// Config sets up an Engine.
type Config struct {
	Engines *agent.Engines // the models, one per playable board size
	Limits  player.Limits  // how long genmove thinks
	Seed    uint64         // seed of the agents (one per game)
	Size    int            // the board size at the start; 0 = 8 if it has a model, else the smallest that has one
	// Board is the board at the start when it is given as a board (any
	// board up to 16x16); the zero Board leaves it to Size.
	Board rules.Board
	// PVSTime is the classical engine's time per move on the boards
	// without a model (rectangles, and every board above 8x8); 0: only the
	// boards with a model are played.
	PVSTime time.Duration
	Name    string // answer to name; "" = "konane"
	Version string // answer to version; "" = "devel"
}

// solverTableEntries sizes the solver's table (24 bytes each: 24 MiB).
const solverTableEntries = 1 << 20

// Engine is the state of one GTP session: the board, the game and the
// agent playing it (or the classical engine, on a board without a
// model). It is not safe for concurrent use.
type Engine struct {
	cfg    Config
	board  rules.Board
	engine *agent.Engine // of the current size; nil when the classical engine plays
	game   rules.AnyGame // a *rules.Game, or a *rules.WideGame above 8x8
	agent  *agent.Agent
	pvs    *player.Slipping // the classical engine at the level, when engine is nil
	games  int              // games started, for the agents' seeds
	solver *solver.Solver
}

// New checks cfg and sets up a game of cfg.Size. It starts no goroutine;
// cfg.Engines must be running while genmove and konane-eval are used.
func New(cfg Config) (*Engine, error) {
	if cfg.Engines == nil {
		return nil, errors.New("gtp: no engines")
	}
	if err := cfg.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("gtp: %w", err)
	}
	if cfg.Name == "" {
		cfg.Name = "konane"
	}
	if cfg.Version == "" {
		cfg.Version = "devel"
	}
	size := cfg.Size
	if size == 0 {
		size = cfg.Engines.Sizes()[0]
		if slices.Contains(cfg.Engines.Sizes(), rules.DefaultSize) {
			size = rules.DefaultSize
		}
	}
	if cfg.PVSTime < 0 {
		return nil, fmt.Errorf("gtp: classical time per move %v is negative", cfg.PVSTime)
	}
	e := &Engine{cfg: cfg}
	board := cfg.Board
	if board == (rules.Board{}) {
		board = rules.SquareBoard(size)
	}
	if err := board.Validate(); err != nil {
		return nil, fmt.Errorf("gtp: %w", err)
	}
	if err := e.setBoard(board); err != nil {
		return nil, fmt.Errorf("gtp: %w", err)
	}
	return e, nil
}

// handler runs one command with its arguments.
type handler func(e *Engine, ctx context.Context, args []string) (string, error)

// handlerEntry is one entry of the command table: its name, the number of
// arguments it takes and what runs it.
type handlerEntry struct {
	name string
	args int
	run  handler
}

// handlers is the command table; list_commands lists it in this order.
// It is filled by init, since known_command looks into it.
var handlers []handlerEntry

func init() {
	handlers = []handlerEntry{
		{"protocol_version", 0, func(*Engine, context.Context, []string) (string, error) { return "2", nil }},
		{"name", 0, func(e *Engine, _ context.Context, _ []string) (string, error) { return e.cfg.Name, nil }},
		{"version", 0, func(e *Engine, _ context.Context, _ []string) (string, error) { return e.cfg.Version, nil }},
		{"known_command", 1, (*Engine).knownCommand},
		{"list_commands", 0, (*Engine).listCommands},
		{"boardsize", 1, (*Engine).boardsize},
		{"rectangular_boardsize", 2, (*Engine).rectangularBoardsize},
		{"clear_board", 0, (*Engine).clearBoard},
		{"play", 2, (*Engine).play},
		{"genmove", 1, (*Engine).genmove},
		{"undo", 0, (*Engine).undo},
		{"showboard", 0, (*Engine).showboard},
		{"quit", 0, func(*Engine, context.Context, []string) (string, error) { return "", errQuit }},
		{"konane-legal_moves", 0, (*Engine).legalMoves},
		{"konane-solve", 0, (*Engine).solve},
		{"konane-eval", 0, (*Engine).eval},
	}
}

func lookup(name string) *handlerEntry {
	for i := range handlers {
		if handlers[i].name == name {
			return &handlers[i]
		}
	}
	return nil
}

// execute runs one command.
func (e *Engine) execute(ctx context.Context, c command) (string, error) {
	h := lookup(c.name)
	if h == nil {
		return "", errors.New("unknown command")
	}
	if len(c.args) != h.args {
		switch h.args {
		case 0:
			return "", fmt.Errorf("%s takes no arguments", c.name)
		case 1:
			return "", fmt.Errorf("%s takes 1 argument, got %d", c.name, len(c.args))
		default:
			return "", fmt.Errorf("%s takes %d arguments, got %d", c.name, h.args, len(c.args))
		}
	}
	return h.run(e, ctx, c.args)
}

func (e *Engine) knownCommand(_ context.Context, args []string) (string, error) {
	return strconv.FormatBool(lookup(args[0]) != nil), nil
}

func (e *Engine) listCommands(context.Context, []string) (string, error) {
	names := make([]string, len(handlers))
	for i, h := range handlers {
		names[i] = h.name
	}
	return strings.Join(names, "\n"), nil
}

// setBoard switches to board b and clears it: the model of its size (a
// multi-board model's network on a rectangle too, and on a board above
// 8x8 it was trained on: agent.Engines.GetBoard), or the classical
// engine on a board without one (when Config.PVSTime is set).
func (e *Engine) setBoard(b rules.Board) error {
	eng, err := e.cfg.Engines.GetBoard(b)
	var nm *agent.NoModelError
	switch {
	case errors.As(err, &nm) && e.cfg.PVSTime > 0:
		eng = nil // the classical engine plays it
	case errors.As(err, &nm) && !b.Narrow():
		return fmt.Errorf("no model for %dx%d (there is one for %s; above 8x8 a network plays only the boards its model was trained on)", b.W, b.H, nm.List())
	case errors.As(err, &nm):
		return fmt.Errorf("no model for %dx%d (there is one for %s)", b.W, b.H, nm.List())
	case err != nil:
		return err
	}
	e.board, e.engine = b, eng
	return e.newGame()
}

func (e *Engine) newGame() error {
	seed := e.cfg.Seed + uint64(e.games)
	var err error
	if e.engine == nil {
		e.agent, e.pvs = nil, player.NewSlipping(player.NewPVS(0, e.cfg.PVSTime, seed), e.cfg.Limits.Choice, seed)
	} else if e.agent, err = e.engine.NewAgent(seed); err != nil {
		return err
	}
	if e.game, err = rules.NewAnyGame(e.board); err != nil {
		return err
	}
	e.games++
	return nil
}

// position is the current position of a game on Position's boards.
func (e *Engine) position() (rules.Position, bool) {
	g, ok := e.game.(*rules.Game)
	if !ok {
		return rules.Position{}, false
	}
	return g.Position(), true
}

func (e *Engine) boardsize(_ context.Context, args []string) (string, error) {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", fmt.Errorf("boardsize %s is not a number", rules.Quote(args[0]))
	}
	if n < rules.MinSide || n > rules.MaxSide {
		return "", fmt.Errorf("unacceptable size: %d is outside %d..%d", n, rules.MinSide, rules.MaxSide)
	}
	return "", e.resize(n, n)
}

// rectangularBoardsize is KataGo's rectangular_boardsize W H: W files, H
// ranks, with the board's default start (the gap where it is defined).
func (e *Engine) rectangularBoardsize(_ context.Context, args []string) (string, error) {
	var wh [2]int
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			return "", fmt.Errorf("rectangular_boardsize %s is not a number", rules.Quote(a))
		}
		wh[i] = n
	}
	return "", e.resize(wh[0], wh[1])
}

// resize switches to the w×h board with its default start.
func (e *Engine) resize(w, h int) error {
	b, err := rules.NewBoard(w, h, rules.DefaultStart(w, h))
	if err != nil {
		var be *rules.BoardError
		if errors.As(err, &be) {
			err = be.Err
		}
		return fmt.Errorf("unacceptable size: %w", err)
	}
	if err := e.setBoard(b); err != nil {
		return fmt.Errorf("unacceptable size: %w", err)
	}
	return nil
}

func (e *Engine) clearBoard(context.Context, []string) (string, error) {
	return "", e.newGame()
}

// parseColor reads black/b/white/w.
func parseColor(s string) (rules.Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return rules.Black, nil
	case "w", "white":
		return rules.White, nil
	}
	return 0, fmt.Errorf("invalid color %s: want black, b, white or w", rules.Quote(s))
}

// checkTurn fails unless c is to move in a game that goes on.
func (e *Engine) checkTurn(c rules.Color) error {
	turn := e.game.Turn()
	if e.game.Over() {
		return fmt.Errorf("no legal move: %s has lost", turn)
	}
	if c != turn {
		return fmt.Errorf("it is %s's turn, not %s's (Kōnane has no passes)", turn, c)
	}
	return nil
}

func (e *Engine) play(_ context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if strings.EqualFold(args[1], "pass") || strings.EqualFold(args[1], "resign") {
		return "", fmt.Errorf("illegal move: Kōnane has no %s", strings.ToLower(args[1]))
	}
	if err := e.checkTurn(c); err != nil {
		return "", fmt.Errorf("illegal move: %w", err)
	}
	if _, err := e.game.PlayString(args[1]); err != nil {
		return "", moveError(err)
	}
	return "", nil
}

func (e *Engine) genmove(ctx context.Context, args []string) (string, error) {
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if err := e.checkTurn(c); err != nil {
		return "", err
	}
	var m string
	if e.engine != nil {
		an, err := e.agent.MoveAny(ctx, e.game.WidePosition(), e.cfg.Limits)
		if err != nil {
			return "", err
		}
		m = an.Best.String()
	} else {
		wm, err := e.pvs.MoveAny(ctx, e.game.WidePosition()) // with a weak level's slips
		if err != nil {
			return "", err
		}
		m = wm.String()
	}
	if _, err := e.game.PlayString(m); err != nil {
		return "", err
	}
	return m, nil
}

func (e *Engine) undo(context.Context, []string) (string, error) {
	if _, ok := e.game.UndoString(); !ok {
		return "", errors.New("cannot undo: no move has been played")
	}
	return "", nil
}

func (e *Engine) showboard(context.Context, []string) (string, error) {
	return "\n" + e.game.Draw(), nil
}

func (e *Engine) legalMoves(context.Context, []string) (string, error) {
	return strings.Join(e.game.LegalStrings(), " "), nil
}

// solve answers "COLOUR wins: MOVE..." with every winning move of the side
// to move, or "COLOUR loses".
func (e *Engine) solve(ctx context.Context, _ []string) (string, error) {
	p, ok := e.position()
	if !ok {
		return "", fmt.Errorf("position too large to solve: the solver holds boards of at most %dx%d, not %dx%d", rules.MaxSize, rules.MaxSize, e.board.W, e.board.H)
	}
	if !solver.Solvable(p, solver.DefaultMaxStones) {
		stones := bits.OnesCount64(p.Black | p.White)
		return "", fmt.Errorf("position too large to solve: %d stones on %s (at most %d above 5x5; 4x4 and 5x5 always)", stones, p.Dims(), solver.DefaultMaxStones)
	}
	if e.solver == nil {
		e.solver = solver.New(solver.WithTableEntries(solverTableEntries))
	}
	results, err := e.solver.Analyze(ctx, p)
	if err != nil {
		return "", err
	}
	wins := solver.WinningMoves(results)
	if len(wins) == 0 {
		return fmt.Sprintf("%s loses", p.Turn), nil
	}
	return fmt.Sprintf("%s wins: %s", p.Turn, rules.MovesText(wins)), nil
}

// eval answers "COLOUR WINPROB LINE..." for the side to move, from a
// search of genmove's strength, at least medium's (agent.AdviceLimits),
// that does not change genmove's play.
func (e *Engine) eval(ctx context.Context, _ []string) (string, error) {
	if e.engine == nil {
		return "", fmt.Errorf("no win probability: on %dx%d the classical engine plays, which gives none", e.board.W, e.board.H)
	}
	p := e.game.WidePosition()
	if !p.HasMoves() {
		return fmt.Sprintf("%s 0.000", p.Turn), nil
	}
	an, err := e.agent.AdviseAny(ctx, p, agent.AdviceLimits(e.cfg.Limits))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %.3f %s", p.Turn, an.WinProb(), an.Line()), nil
}

// moveError phrases the error of a move for a GTP controller: what was
// wrong with the move, without the package that found it.
func moveError(err error) error {
	var me *rules.MoveError
	if errors.As(err, &me) {
		return fmt.Errorf("move %s: %w", rules.Quote(me.Text), me.Err)
	}
	return err
}
