package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/web/messages"
)

func init() {
	register(&command{
		name:  "play",
		usage: "play [--board B] [--color black|white|random] [--level L] [--sims N] [--time D] [--model FILE] [--seed S] [--coach]",
		short: "play Kōnane against the trained agent in the terminal",
		long: `Play a game against the computer in the terminal. The board is drawn with
its coordinates (files a.. from the left, ranks 1.. from the bottom; x is
Black, o is White, . an empty square, as the line under the board says)
and the squares of the last move in brackets.

Type a move in the project's notation: the square of a removal (d4) in the
two opening moves, then jumps as origin-landing (f4-d4; a multiple jump
names its final landing square). Commands:

    moves        list your legal moves
    hint         the computer's suggestion for you, with your win probability
    eval         your win probability and the line the computer expects (also: show)
    undo         take back your last move and the computer's reply
    coach on|off after each of your moves that costs 10 points or more of
                 your win probability, say so and name a better move
    resign       give up the game
    new          start a new game (same settings; --color random draws again)
    level [L]    show the computer's levels, or set one: 1 (newcomer) .. 8 (max)
    rules        the rules of Kōnane in short
    save FILE    write the game record (FILE.json: JSON, else the text format)
    board        draw the board again
    help         list the commands
    quit         leave (also: exit, Ctrl-D, or the end of the input)

A bad move or command gets the reason and the prompt again. On a terminal
the line can be edited with the arrow keys, and ↑/↓ recall earlier lines.
The input may be a pipe, so that games can be scripted.

The computer plays the boards ` + agentBoards() + `: the exact solver up to
` + rules.SizeList([]int{agent.MaxSolverSize}) + `, a shipped network on the others (or --model FILE, whose
board is then the only one; a multi-board model file plays ` + multiFileBoards() + `, and
says when it was not trained on the one played); above ` + rules.SizeList([]int{rules.MaxSize}) + ` without the
coach. Its search runs the simulations of --level per
move, or --sims, or for --time per move. The win probability is the
search's estimate. On the other boards (` + classicalBoards() + `, up to 16x16)
no shipped network exists yet: the computer plays the classical engine (pvs) for
the time of --level per move (` + classicalLevels() + `) or --time, and
gives no win probability, and the coach (coach on, or --coach) does not
work there; at the levels below hard some of its moves are random (see
--level).

` + boardsParagraph("play plays every one of them.") + `

Example: konane play --board 6 --color white --level hard
Example: konane play --board size-7
Example: printf 'd4\nmoves\nquit\n' | konane play --board 8`,
		run: runPlay,
	})
}

// runPlay is "konane play": games against the agent on stdin and stdout.
func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	board := addBoardFlag(fs, "default 8x8, or the board of --model")
	color := fs.String("color", "black", "your colour: black (moves first), white or random")
	coach := fs.Bool("coach", false, "start with the coach on (see the command coach)")
	var af agentFlags
	af.declare(fs)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	rb, given, err := board.board("play")
	if err != nil {
		return err
	}
	switch *color {
	case "black", "white", "random":
	default:
		return usageError("play", "--color %q: want black, white or random", *color)
	}
	strength, err := af.strength("play", fs)
	if err != nil {
		return err
	}
	level := af.level
	if l, err := agent.ParseLevel(level); err == nil {
		level = l.Name // --level 3 is casual
	}
	t := &terminal{out: stdout, strength: strength, level: level,
		color: *color, coach: *coach, seed: af.seed, rng: rand.New(rand.NewPCG(af.seed, 0x706c6179))}
	if given && !rb.Narrow() && af.model != "" {
		// A board above 8x8: the network of a model trained there plays
		// it, else the classical engine, saying why.
		e, err := agent.OpenBoardEngine(af.model, rb)
		switch {
		case err == nil:
			t.engine, t.board = e, rb
			if note := e.Note(); note != "" {
				fmt.Fprintf(stdout, "note: %s\n", note)
			}
			return t.run(ctx, stdin)
		case !errors.Is(err, net.ErrSize):
			return fmt.Errorf("play: %w", err)
		}
		fmt.Fprintf(stdout, "note: %v: the classical engine plays %s\n", err, rb)
	}
	if given && (!rb.Narrow() && af.model != "" || af.model == "" && !agent.Plays(rb)) {
		// No network for this board: the classical engine plays.
		if t.pvsTime, err = classicalTime("play", fs, af); err != nil {
			return err
		}
		t.board = rb
		return t.run(ctx, stdin)
	}
	switch {
	case given:
		// The shipped table's board, or a multi-board model file's
		// rectangle.
		t.engine, err = agent.OpenBoardEngine(af.model, rb)
		t.board = rb
	case af.model == "":
		t.engine, err = agent.OpenEngine("", rules.DefaultSize)
	default:
		t.engine, err = agent.OpenEngine(af.model, 0)
	}
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	if note := t.engine.Note(); note != "" {
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	if !given {
		t.board = rules.SquareBoard(t.engine.Size())
	}
	return t.run(ctx, stdin)
}

// classicalTime is the time per move of the classical engine that the
// flags ask for: --time, else the PVSTime of --level. --sims, which only
// a network's search counts, is refused.
func classicalTime(cmd string, fs *flag.FlagSet, af agentFlags) (time.Duration, error) {
	set := explicit(fs)
	if set["sims"] {
		return 0, usageError(cmd, "--sims: on this board the classical engine plays, which searches for a time: give --level or --time")
	}
	if set["time"] {
		return af.time, nil
	}
	l, err := agent.ParseLevel(af.level)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", cmd, err)
	}
	return l.PVSTime, nil
}

// terminal is a game against the agent on a text terminal (or a pipe).
type terminal struct {
	out      io.Writer
	board    rules.Board
	engine   *agent.Engine    // nil when the classical engine plays
	pvsTime  time.Duration    // the classical engine's time per move
	pvs      *player.Engine   // the classical engine, when engine is nil
	leveled  *player.Slipping // pvs at the level: its moves with the level's slips
	strength player.Limits
	level    string
	color    string // black, white or random
	seed     uint64
	rng      *rand.Rand // draws the colour of --color random
	games    int        // games started, for the agents' seeds
	width    int        // columns for lists of moves

	human rules.Color
	game  rules.AnyGame // a *rules.Game, or a *rules.WideGame above 8x8
	agent *agent.Agent
	// resignAsked: the last command was resign, whose confirmation
	// (yes) the next line is.
	resignAsked bool
	// coach: judge each of the human's moves (coachMove).
	coach bool
}

const playHelp = `commands:
  d4, f4-d4    play a move: the square of a removal, or a jump origin-landing
  moves        list your legal moves
  hint         the computer's suggestion for you, with your win probability
  eval         your win probability and the line the computer expects (also: show)
  undo         take back your last move and the computer's reply
  coach on|off after a move of yours that costs 10 points or more of your
               win probability, say so and name a better move
  resign       give up the game (asks to confirm: yes)
  new          start a new game
  level [L]    show the computer's levels, or set one: 1 (newcomer) .. 8 (max)
  rules        the rules of Kōnane in short
  save FILE    write the game record (FILE.json: JSON, else the text format)
  board        draw the board again
  help         this list
  quit         leave (also: exit, Ctrl-D, or the end of the input)`

const playRules = `Kōnane, in short:
  The board starts full, black (x) and white (o) stones alternating.
  Black first removes one of its stones from a corner or the centre (d4);
  White then removes one of its stones next to the empty square.
  From then on a move is a jump: a stone jumps over an adjacent enemy
  stone onto the empty square behind it, capturing it (f4-d4). It may go
  on jumping in the same straight line (a multiple jump, named by its
  final landing square), never turning.
  Whoever has no jump on their turn loses.`

// run plays until quit, the end of the input or ctx ends; the engine's
// evaluator runs alongside.
func (t *terminal) run(ctx context.Context, stdin io.Reader) error {
	gameCtx, stop := context.WithCancel(ctx)
	g, gctx := errgroup.WithContext(gameCtx)
	if t.engine != nil {
		g.Go(func() error { return t.engine.Run(gctx) })
	}
	g.Go(func() error {
		defer stop() // the end of the game stops the evaluator
		return t.loop(gctx, stdin)
	})
	err := g.Wait()
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil // interrupted: not an error
	}
	return err
}

func (t *terminal) loop(ctx context.Context, stdin io.Reader) error {
	in := newLineInput(stdin, t.out)
	defer in.restore()
	t.out, t.width = in.out, in.width
	in.start(ctx)
	if t.coach && !t.coached() {
		t.say(t.noCoach())
	}
	if err := t.newGame(ctx); err != nil {
		return err
	}
	for {
		l, err := in.next(ctx, t.prompt())
		if err != nil {
			return err
		}
		if l.err != nil {
			fmt.Fprintln(t.out)
			if l.err != io.EOF {
				return fmt.Errorf("play: reading the input: %w", l.err)
			}
			return nil
		}
		quit, err := t.command(ctx, l.text)
		if err != nil || quit {
			return err
		}
	}
}

func (t *terminal) prompt() string {
	if t.game.Over() {
		return "game over> "
	}
	return t.human.String() + "> "
}

// command carries out one line of input. It returns quit for quit, and an
// error only when the game cannot go on (the agent failed or ctx ended);
// a bad move or command is answered with its reason.
func (t *terminal) command(ctx context.Context, line string) (quit bool, err error) {
	if t.resignAsked && t.confirmResign(line) {
		return false, nil
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false, nil
	}
	word, args := strings.ToLower(fields[0]), fields[1:]
	noArgs := func() bool {
		if len(args) > 0 {
			fmt.Fprintf(t.out, "%s takes no argument (got %q)\n", word, strings.Join(args, " "))
			return false
		}
		return true
	}
	switch word {
	case "quit", "exit", "q":
		return true, nil
	case "help", "?":
		fmt.Fprintln(t.out, playHelp)
	case "board":
		if noArgs() {
			t.showBoard()
		}
	case "moves":
		if noArgs() {
			t.showMoves()
		}
	case "hint":
		if noArgs() {
			return false, t.hint(ctx)
		}
	case "eval", "show":
		if noArgs() {
			return false, t.eval(ctx)
		}
	case "undo":
		if noArgs() {
			t.undo()
		}
	case "resign":
		if noArgs() {
			t.askResign()
		}
	case "coach":
		t.setCoach(args)
	case "rules":
		if noArgs() {
			fmt.Fprintln(t.out, playRules)
		}
	case "level":
		if len(args) > 1 {
			t.say(fmt.Sprintf("level takes one level: 1..%d or a name: %s", len(agent.Levels()), strings.Join(agent.LevelNames(), ", ")))
			return false, nil
		}
		t.setLevel(args)
	case "new":
		if noArgs() {
			return false, t.newGame(ctx)
		}
	case "save":
		if len(args) != 1 {
			fmt.Fprintln(t.out, "save needs one file name, like: save game.txt (or game.json)")
			return false, nil
		}
		t.save(args[0])
	default:
		if !looksLikeMove(word) {
			fmt.Fprintf(t.out, "unknown command %q: type a move like d4 or f4-d4, or help for the commands\n", fields[0])
			return false, nil
		}
		if len(args) > 0 {
			fmt.Fprintf(t.out, "one move at a time, please (got %q)\n", line)
			return false, nil
		}
		return false, t.humanMove(ctx, fields[0])
	}
	return false, nil
}

// looksLikeMove reports whether a word is meant as a move: a letter and a
// digit first, as in d4 or f4-d4.
func looksLikeMove(w string) bool {
	return len(w) >= 2 && w[0] >= 'a' && w[0] <= 'z' && w[1] >= '0' && w[1] <= '9'
}

// newGame starts a game: the colours, a fresh agent, the board, and the
// agent's first move when it plays Black.
func (t *terminal) newGame(ctx context.Context) error {
	switch t.color {
	case "black":
		t.human = rules.Black
	case "white":
		t.human = rules.White
	default:
		t.human = rules.Color(t.rng.IntN(2))
	}
	seed := t.seed + uint64(t.games)
	if t.engine != nil {
		a, err := t.engine.NewAgent(seed)
		if err != nil {
			return fmt.Errorf("play: %w", err)
		}
		t.agent = a
	} else {
		t.pvs = player.NewPVS(0, t.pvsTime, seed)
		t.leveled = player.NewSlipping(t.pvs, t.strength.Choice, seed)
	}
	t.games++
	var err error
	if t.game, err = rules.NewAnyGame(t.board); err != nil {
		return fmt.Errorf("play: %w", err)
	}
	t.say(fmt.Sprintf("New game on %s: you play %s, the computer %s (%s). Black moves first.",
		t.boardName(), t.human, t.human.Other(), t.describeStrength()))
	if t.engine == nil {
		t.say(fmt.Sprintf("On %s the computer plays the classical engine (no network for this board yet).", t.board))
	}
	if t.board.Start == rules.Gap {
		t.say("Type a move (f4-d4 to jump), or help.")
	} else {
		t.say("Type a move (d4 to remove a stone, f4-d4 to jump), or help.")
	}
	if t.game.Turn() != t.human {
		return t.agentMove(ctx)
	}
	t.showBoard()
	return nil
}

// boardName names the board for the new game's line: "8x8", with the
// start when it is the gap ("7x6, two centre stones gone") or the
// removal start on a board whose default is the gap ("7x6/removal").
func (t *terminal) boardName() string {
	if t.board.Start == rules.Gap {
		return fmt.Sprintf("%dx%d, two centre stones gone", t.board.W, t.board.H)
	}
	return t.board.String()
}

// describeStrength says how the computer plays, for the player (and the
// saved record's tag): the level and its simulations, and "perfect in
// the endgame" when the search ends in the exact solver (not the
// developers' "without the solver" of player.Limits.String); on a board
// without a network, the classical engine and its time per move.
func (t *terminal) describeStrength() string {
	slips := ""
	if t.strength.Noise > 0 {
		slips = fmt.Sprintf(", %.0f%% of its moves at random", 100*t.strength.Noise)
	}
	if t.engine == nil {
		if l, err := agent.ParseLevel(t.level); err == nil && l.PVSTime == t.pvsTime {
			return fmt.Sprintf("level %d, %s: the classical engine, %v per move%s", l.Number, l.Name, t.pvsTime, slips)
		}
		return fmt.Sprintf("the classical engine, %v per move%s", t.pvsTime, slips)
	}
	if t.engine.Model() == nil {
		if slips != "" {
			return fmt.Sprintf("level %d, %s: the exact solver%s", levelNumber(t.level), t.level, slips)
		}
		return "perfect play: this board is small enough to be solved exactly"
	}
	search := t.strength
	search.NoSolver = false // said in words below
	s := search.String()
	if !t.strength.NoSolver && t.board.Narrow() { // no endgame solver above 8x8
		s += ", perfect in the endgame"
	}
	if l, err := agent.ParseLevel(t.level); err == nil && t.strength == l.Limits() {
		return fmt.Sprintf("level %d, %s: %s", l.Number, l.Name, s)
	}
	return s
}

// levelAboutKeys are the keys of the catalog's words for what each level
// plays like (web/messages, the page's texts), written out as the
// catalog wants; the terminal says them in English.
var levelAboutKeys = map[string]string{"newcomer": "level.about.newcomer", "beginner": "level.about.beginner",
	"casual": "level.about.casual", "easy": "level.about.easy", "steady": "level.about.steady",
	"medium": "level.about.medium", "hard": "level.about.hard", "max": "level.about.max"}

// levelAboutWideKeys are the keys of the words of the levels whose
// words say they play the endgame perfectly, without that clause: for a
// network's board above 8x8, where the search has no endgame solver.
var levelAboutWideKeys = map[string]string{"steady": "level.about.steady.wide", "medium": "level.about.medium.wide"}

// levelAbout says in words what the level of that name plays like on
// a network's board (model; else nothing of it; on a board above 8x8
// without the perfect-endgame clause, levelAboutWideKeys) and, on board,
// where it plays perfectly (agent.Level.PerfectionOn); "" for no level
// of the table, or nothing to say.
func levelAbout(name string, board rules.Board, model bool) string {
	l, err := agent.ParseLevel(name)
	c, cerr := messages.Load()
	if err != nil || cerr != nil {
		return ""
	}
	var said []string
	if key, ok := levelAboutKeys[l.Name]; ok && model {
		if wide, ok := levelAboutWideKeys[l.Name]; ok && !board.Narrow() {
			key = wide
		}
		said = append(said, c.Text("en", key, nil))
	}
	if board.Square() {
		label := fmt.Sprintf("%d×%d", board.W, board.H)
		switch l.PerfectionOn(board.W) {
		case agent.PerfectAlways:
			said = append(said, c.Text("en", "level.perfect.always", map[string]string{"board": label}))
		case agent.PerfectEarly:
			from := ""
			for _, o := range agent.Levels() {
				if from == "" && o.PerfectionOn(board.W) == agent.PerfectEarly {
					from = o.Name
				}
			}
			said = append(said, c.Text("en", "level.perfect.early", map[string]string{"board": label, "from": from}))
		}
	}
	return strings.Join(said, " ")
}

// levelNumber is the number of the level of that name, or 0.
func levelNumber(name string) int {
	l, _ := agent.ParseLevel(name)
	return l.Number
}

// say writes one line of prose, broken between words to fit the
// terminal's width.
func (t *terminal) say(line string) {
	fmt.Fprint(t.out, wrapWords("", strings.Fields(line), t.width, 0))
}

// showBoard draws the board, then one line that says which stones are
// whose and either who is to move or, when the game is over, why and who
// won (rules.Render's own "to move" line would contradict that).
func (t *terminal) showBoard() {
	turn := t.game.Turn()
	board := strings.TrimSuffix(t.game.Draw(), turn.String()+" to move\n")
	fmt.Fprint(t.out, board)
	if t.game.Over() {
		t.say("x black, o white. " + t.result())
		t.say("Type new for another game, undo, save FILE, or quit.")
		return
	}
	who := "you"
	if turn != t.human {
		who = "the computer"
	}
	fmt.Fprintf(t.out, "x black, o white. %s (%s) to move.\n", turn, who)
}

// result says why the game is over and who won.
func (t *terminal) result() string {
	w, method := t.game.Outcome()
	who := "you win!"
	if w != t.human {
		who = "the computer wins."
	}
	why := fmt.Sprintf("%s has no legal move", w.Other())
	if method == rules.Resignation {
		why = fmt.Sprintf("you (%s) resigned", w.Other())
	}
	return fmt.Sprintf("Game over: %s. %s wins: %s", why, w, who)
}

// announce names the winner of the finished game.
func (t *terminal) announce() {
	t.say(t.result())
	t.say("Type new for another game, undo, save FILE, or quit.")
}

func (t *terminal) showMoves() {
	if t.game.Over() {
		fmt.Fprintln(t.out, "no legal moves: the game is over")
		return
	}
	moves := t.game.LegalStrings()
	fmt.Fprint(t.out, wrapWords(fmt.Sprintf("legal moves (%d): ", len(moves)), moves, t.width, 2))
}

// askResign asks for the confirmation of a resignation: the next line
// (see confirmResign).
func (t *terminal) askResign() {
	if t.game.Over() {
		fmt.Fprintln(t.out, "the game is already over: type new for another game")
		return
	}
	t.resignAsked = true
	t.say("Resign this game? Type yes to give it up; anything else plays on.")
}

// confirmResign takes the line after resign: yes (or y) resigns, and
// reports handled; an empty line or no says the game goes on, handled
// too; any other line says so and is then run as a command (handled
// false).
func (t *terminal) confirmResign(line string) (handled bool) {
	t.resignAsked = false
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "yes", "y":
		t.resign()
		return true
	case "", "no", "n":
		fmt.Fprintln(t.out, "not resigned: the game goes on")
		return true
	}
	fmt.Fprintln(t.out, "not resigned: the game goes on")
	return false
}

// resign gives the game up.
func (t *terminal) resign() {
	if t.game.Resign(t.human) != nil {
		fmt.Fprintln(t.out, "the game is already over: type new for another game")
		return
	}
	fmt.Fprintf(t.out, "You (%s) resign.\n", t.human)
	t.showBoard()
}

// setLevel shows the level (no argument) or sets it for the next moves.
func (t *terminal) setLevel(args []string) {
	if len(args) == 0 {
		t.say(fmt.Sprintf("the computer plays at %s (levels: %s)", t.describeStrength(), levelHelp()))
		if about := levelAbout(t.level, t.board, t.engine != nil && t.engine.Model() != nil); about != "" {
			t.say(about)
		}
		return
	}
	l, err := agent.ParseLevel(args[0])
	if err != nil {
		t.say(fmt.Sprintf("unknown level %q: want 1..%d or a name: %s", args[0], len(agent.Levels()), strings.Join(agent.LevelNames(), ", ")))
		return
	}
	t.level, t.strength = l.Name, l.Limits()
	if t.engine == nil {
		t.pvsTime = l.PVSTime
		t.pvs.MoveTime = l.PVSTime
		t.leveled.Choice = t.strength.Choice
	}
	t.say("the computer now plays at " + t.describeStrength())
	if about := levelAbout(t.level, t.board, t.engine != nil && t.engine.Model() != nil); about != "" {
		t.say(about)
	}
}

func (t *terminal) humanMove(ctx context.Context, text string) error {
	if t.game.Over() {
		fmt.Fprintln(t.out, "the game is over: type new for another game, or undo")
		return nil
	}
	var before rules.Position
	if t.coach && t.coached() {
		before = t.position()
	}
	m, err := t.game.PlayString(text)
	if err != nil {
		var me *rules.MoveError
		if errors.As(err, &me) {
			fmt.Fprintf(t.out, "move %q: %v\n", me.Text, me.Err)
		} else {
			fmt.Fprintln(t.out, err)
		}
		return nil
	}
	fmt.Fprintf(t.out, "You (%s) play %s.\n", t.human, m)
	if t.coach && t.coached() {
		// The network's board: a *rules.Game (position).
		if err := t.coachMove(ctx, before, t.game.(*rules.Game).Last()); err != nil {
			return err
		}
	}
	if t.game.Over() {
		t.showBoard()
		return nil
	}
	return t.agentMove(ctx)
}

// searched is what the agent's search says of the current position, in
// notation, on any board (terminal.search).
type searched struct {
	best  string   // the move
	line  []string // the principal line
	human float64  // the human's win probability
	sims  int      // the search's simulations
}

// search is the agent's move in the current position (Agent.MoveAny)
// or, with advise, its advice at agent.AdviceLimits (Agent.AdviseAny),
// on any board.
func (t *terminal) search(ctx context.Context, advise bool) (searched, error) {
	s, search := t.strength, t.agent.MoveAny
	if advise {
		s, search = agent.AdviceLimits(t.strength), t.agent.AdviseAny
	}
	an, err := search(ctx, t.game.WidePosition(), s)
	if err != nil {
		return searched{}, err
	}
	return searched{an.Best.String(), an.PVStrings(), an.WinProbFor(t.human), an.Sims}, nil
}

// position is the current position of a game the network plays on
// Position's boards (a *rules.Game).
func (t *terminal) position() rules.Position { return t.game.(*rules.Game).Position() }

// agentMove lets the agent play, then draws the board.
func (t *terminal) agentMove(ctx context.Context) error {
	if t.engine == nil {
		wm, err := t.leveled.MoveAny(ctx, t.game.WidePosition())
		if err != nil {
			return fmt.Errorf("play: %w", err)
		}
		m := wm.String()
		if _, err := t.game.PlayString(m); err != nil {
			return fmt.Errorf("play: %w", err)
		}
		fmt.Fprintf(t.out, "The computer (%s) plays %s.\n", t.human.Other(), m)
		t.showBoard()
		return nil
	}
	an, err := t.search(ctx, false)
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	if _, err := t.game.PlayString(an.best); err != nil {
		return fmt.Errorf("play: %w", err)
	}
	// The player's chances, as hint and eval give them.
	t.say(fmt.Sprintf("The computer (%s) plays %s. Your win probability: %.0f%%.", t.human.Other(), an.best, 100*an.human))
	t.showBoard()
	return nil
}

func (t *terminal) hint(ctx context.Context) error {
	if t.game.Over() {
		fmt.Fprintln(t.out, "no hint: the game is over")
		return nil
	}
	if t.engine == nil {
		m, err := player.MoveAny(ctx, t.pvs, t.game.WidePosition())
		if err != nil {
			return fmt.Errorf("play: %w", err)
		}
		fmt.Fprintf(t.out, "hint: %s (the classical engine's choice; it gives no win probability)\n", m)
		return nil
	}
	an, err := t.search(ctx, true)
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	fmt.Fprint(t.out, wrapWords(fmt.Sprintf("hint: %s (your win probability: %.0f%%) expected line:", an.best, 100*an.human),
		an.line, t.width, 2))
	return nil
}

// eval gives the win probability from the human's side, as hint does.
func (t *terminal) eval(ctx context.Context) error {
	if t.game.Over() {
		t.announce()
		return nil
	}
	if t.engine == nil {
		fmt.Fprintf(t.out, "no evaluation: on %dx%d the computer plays the classical engine, which gives no win probability\n", t.board.W, t.board.H)
		return nil
	}
	an, err := t.search(ctx, true)
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	t.say(fmt.Sprintf("evaluation: your (%s) win probability is %.0f%% (%d simulations)",
		t.human, 100*an.human, an.sims))
	fmt.Fprint(t.out, wrapWords("expected line: ", an.line, t.width, 2))
	return nil
}

// undo takes back the human's last move and every move after it (the
// computer's reply), so that it is the human's turn again.
func (t *terminal) undo() {
	taken := t.game.TakeBackStrings(t.human)
	if len(taken) == 0 {
		fmt.Fprintln(t.out, "nothing to undo: you have not moved yet")
		return
	}
	fmt.Fprint(t.out, wrapWords("took back ", taken, t.width, 2))
	t.showBoard()
}

func (t *terminal) save(path string) {
	rec := agent.RecordAgainst(t.game, "konane play", t.human, "konane ("+t.describeStrength()+")", time.Now())
	data, err := rec.MarshalFor(path)
	if err == nil {
		err = atomicfile.WriteFile(path, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(t.out, "could not save: %v\n", err)
		return
	}
	fmt.Fprintf(t.out, "saved the game (%d moves) to %s\n", t.game.Len(), path)
}

// setCoach shows whether the coach is on (no argument) or turns it on or
// off.
func (t *terminal) setCoach(args []string) {
	state := map[bool]string{true: "on", false: "off"}
	switch {
	case len(args) == 0:
		t.say("the coach is " + state[t.coach] + " (coach on, coach off)")
		return
	case len(args) > 1:
		t.say(fmt.Sprintf("coach takes one word: on or off (got %q)", strings.Join(args, " ")))
		return
	}
	switch strings.ToLower(args[0]) {
	case "on":
		t.coach = true
	case "off":
		t.coach = false
	default:
		t.say(fmt.Sprintf("coach %s: want on or off", args[0]))
		return
	}
	if t.coach && !t.coached() {
		t.say(t.noCoach())
		return
	}
	if t.coach {
		t.say("the coach is on: after a move of yours that costs 10 points or more of your win probability it says so and names a better move (take back: undo)")
		return
	}
	t.say("the coach is off")
}

// coached reports whether the coach works on the game's board: a
// network's board of at most 8x8 (a *rules.Game; the coach's judgement,
// Agent.Judge, takes Positions).
func (t *terminal) coached() bool { return t.engine != nil && t.board.Narrow() }

// noCoach says that the coach does not work on this board.
func (t *terminal) noCoach() string {
	if t.engine != nil {
		return fmt.Sprintf("the coach works on the boards up to %dx%d, not on %dx%d: it stays silent", rules.MaxSize, rules.MaxSize, t.board.W, t.board.H)
	}
	return fmt.Sprintf("the coach needs a win probability, which on %s the classical engine does not give (no network for this board yet): it stays silent", t.board)
}

// coachMove judges the human's move m in p, the position before it
// (Agent.Judge: one search at the advice level, not the level the
// computer plays at); when the move drops the human's chances by
// agent.CoachDrop or more, it says so in one line, with the better move
// and the way to take m back.
func (t *terminal) coachMove(ctx context.Context, p rules.Position, m rules.Move) error {
	l, err := agent.ParseLevel(agent.AdviceLevel)
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	v, ok, err := t.agent.Judge(ctx, p, m, agent.AdviceLimits(l.Limits()))
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	if !ok || !v.Blunder() {
		return nil
	}
	t.say(fmt.Sprintf("That move drops your chances from %.0f%% to %.0f%%; %s was better (take back: undo)", 100*v.From, 100*v.To, v.Better))
	return nil
}
