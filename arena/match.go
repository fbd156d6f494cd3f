package arena

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// Entrant is a participant of a match: a name and a way to make a fresh
// Player for each game (*player.Factory is one).
type Entrant interface {
	Name() string
	New(seed uint64) (player.Player, error)
}

// NewEntrant returns an Entrant of the given name whose players newPlayer
// makes (for example neural players sharing an evaluator the caller runs).
func NewEntrant(name string, newPlayer func(seed uint64) (player.Player, error)) Entrant {
	return entrant{name, newPlayer}
}

type entrant struct {
	name      string
	newPlayer func(seed uint64) (player.Player, error)
}

func (e entrant) Name() string                           { return e.name }
func (e entrant) New(seed uint64) (player.Player, error) { return e.newPlayer(seed) }

// runner is implemented by entrants whose players share machinery that
// must run during the match (the network evaluator of a neural player).
// Run runs it until ctx ends.
type runner interface {
	Run(ctx context.Context) error
}

// boardChecker is implemented by entrants that can play some boards
// only (a model plays the board of its inputs; *player.Factory is one).
type boardChecker interface {
	CheckBoard(b rules.Board) error
}

// MatchConfig describes a match.
type MatchConfig struct {
	// Board is the board played, with its start (removals or gap).
	Board rules.Board
	// Games is the number of games per pair of entrants. Games 2k and
	// 2k+1 of a pair share opening line k with colours swapped, so an
	// even number is fairest.
	Games int
	// Parallel is the number of games played at once (≥ 1).
	Parallel int
	// Gauntlet pairs the first entrant with each of the others; otherwise
	// every pair plays (round robin).
	Gauntlet bool
	// RandomPlies is the number of random jumps after the opening removals
	// of each line, or after the start on a gap board (see Openings).
	RandomPlies int
	// Seed seeds the opening lines and the players.
	Seed uint64
	// SPRT, when not nil, stops scheduling a pair's games once the test
	// decides (the second entrant of the pair is tested against the
	// first; games already started are finished and counted).
	SPRT *SPRT
	// Progress, when not nil, is called after each game played or skipped
	// with the number done and the total scheduled; calls are serialized.
	// The Kept games count as done from the first call on.
	Progress func(done, total int)
	// OnGame, when not nil, is called with each finished game (serialized,
	// in order of completion); an error stops the match.
	OnGame func(Game) error
	// Skip, when not nil, names games of the schedule not to play: those
	// a caller kept from an earlier, interrupted run of the same match.
	// The other games are the same as in a full run (game i depends on i
	// only); skipped games count in neither Pairs, Games nor Skipped.
	Skip func(game int) bool
	// Kept are games of an earlier, interrupted run of the same match
	// (Resume reads them back from an output folder): they are not
	// played again but count as if they were, each at its place in the
	// schedule (in Pairs, Games and the SPRT), so that the results are
	// those of an uninterrupted run (with an SPRT, of one at Parallel 1,
	// as the order games end in moves the test). Each must be a
	// game the schedule holds (index, players, colours, opening line);
	// OnGame is not called for them.
	Kept []Game
}

// Pair is the score between two entrants.
type Pair struct {
	A, B         int // entrant indices, A < B; in a gauntlet A is 0
	WinsA, WinsB int
	// Decision and LLR are the SPRT state of B against A, when the match
	// ran with an SPRT. Once the test decides they stay as they were at
	// that game: games already under way when it decided still count in
	// WinsA and WinsB, but cannot undo the verdict.
	Decision Decision
	LLR      float64
	// DecidedAfter is the number of games the pair had played when the
	// SPRT decided (0 while it has not).
	DecidedAfter int
}

// record counts one finished game of the pair and, with an SPRT that has
// not decided yet, updates the test.
func (p *Pair) record(bWon bool, sprt *SPRT) {
	if bWon {
		p.WinsB++
	} else {
		p.WinsA++
	}
	if sprt == nil || p.Decision != Continue {
		return
	}
	p.LLR = sprt.LLR(p.WinsB, p.WinsA)
	if p.Decision = sprt.Test(p.WinsB, p.WinsA); p.Decision != Continue {
		p.DecidedAfter = p.Games()
	}
}

// Games is the number of games the pair played.
func (p Pair) Games() int { return p.WinsA + p.WinsB }

// Results are the outcome of a match.
type Results struct {
	Config  MatchConfig // as run (Progress, OnGame, Skip and Kept cleared)
	Names   []string    // entrant names, in the order given
	Pairs   []Pair
	Games   []Game // played games, in schedule order
	Skipped int    // scheduled games not played because an SPRT decided
}

// Distinct counts the different move sequences among the games.
func (r *Results) Distinct() int {
	seen := make(map[uint64]bool, len(r.Games))
	for i := range r.Games {
		seen[r.Games[i].Key()] = true
	}
	return len(seen)
}

// Pairings returns the pairs of entrant indices of a match of n entrants:
// every pair (round robin), or the first entrant against each other one
// (gauntlet).
func Pairings(n int, gauntlet bool) [][2]int {
	var out [][2]int
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if !gauntlet || a == 0 {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// MaxMatchGames bounds the games of one match, all pairs together.
const MaxMatchGames = 1 << 20

func (c *MatchConfig) validate(n int) error {
	if err := c.Board.Validate(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	switch {
	case n < 2:
		return fmt.Errorf("arena: a match needs at least 2 players, got %d", n)
	case c.Games < 1:
		return fmt.Errorf("arena: %d games per pair: want at least 1", c.Games)
	case c.Parallel < 1:
		return fmt.Errorf("arena: %d parallel games: want at least 1", c.Parallel)
	case c.RandomPlies < 0 || c.RandomPlies > c.Board.Squares():
		// A game has fewer moves than the board has squares.
		return fmt.Errorf("arena: %d random plies: want 0..%d on %s", c.RandomPlies, c.Board.Squares(), c.Board)
	}
	if pairs := len(Pairings(n, c.Gauntlet)); c.Games > MaxMatchGames/pairs {
		return fmt.Errorf("arena: %d games per pair: want at most %d with %d players (%d games in all)", c.Games, MaxMatchGames/pairs, n, MaxMatchGames)
	}
	if c.SPRT != nil {
		if err := c.SPRT.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Run plays a match: for each pair of entrants, cfg.Games games from the
// opening lines, colours alternating, cfg.Parallel at a time. Game i of
// the schedule is deterministic given cfg.Seed (its opening line and its
// players' seeds depend on i only); which games an SPRT skips depends on
// the order games finish in when Parallel > 1. Entrants that implement
// Run(ctx) error run for the duration of the match. Any error (a player
// failing or moving illegally, ctx ending) stops the match and is
// returned with no results.
func Run(ctx context.Context, cfg MatchConfig, entrants []Entrant) (*Results, error) {
	if err := cfg.validate(len(entrants)); err != nil {
		return nil, err
	}
	names := make([]string, len(entrants))
	seen := map[string]bool{}
	for i, e := range entrants {
		names[i] = e.Name()
		if seen[names[i]] {
			return nil, fmt.Errorf("arena: two players are named %q (give one another name, e.g. name=...)", names[i])
		}
		seen[names[i]] = true
		if bc, ok := e.(boardChecker); ok {
			if err := bc.CheckBoard(cfg.Board); err != nil {
				return nil, fmt.Errorf("arena: %w", err)
			}
		}
	}

	// Entrants with shared machinery run until the games are over.
	runCtx, stopRunners := context.WithCancel(ctx)
	defer stopRunners()
	runners, gameCtx := errgroup.WithContext(runCtx)
	for _, e := range entrants {
		if r, ok := e.(runner); ok {
			runners.Go(func() error {
				if err := r.Run(gameCtx); err != nil && !errors.Is(err, context.Canceled) {
					return fmt.Errorf("arena: %s: %w", e.Name(), err)
				}
				return nil
			})
		}
	}
	res, err := play(gameCtx, cfg, entrants, names)
	stopRunners()
	if rerr := runners.Wait(); rerr != nil {
		return nil, rerr
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// play runs the schedule: round g of every pair, then round g+1, so that
// the pairs progress together.
func play(ctx context.Context, cfg MatchConfig, entrants []Entrant, names []string) (*Results, error) {
	pairings := Pairings(len(entrants), cfg.Gauntlet)
	lines, err := Openings(cfg.Board, (cfg.Games+1)/2, cfg.RandomPlies, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	res := &Results{Config: cfg, Names: names, Pairs: make([]Pair, len(pairings))}
	res.Config.Progress, res.Config.OnGame, res.Config.Skip, res.Config.Kept = nil, nil, nil, nil
	for i, pr := range pairings {
		res.Pairs[i] = Pair{A: pr[0], B: pr[1]}
	}
	total := cfg.Games * len(pairings)
	kept, err := cfg.keptByIndex(pairings, lines)
	if err != nil {
		return nil, err
	}
	games := make([]*Game, total)
	var mu sync.Mutex // guards res, games and done
	done := 0
	report := func() {
		if cfg.Progress != nil {
			cfg.Progress(done, total)
		}
	}
	progress := func() { done++; report() }
	if len(kept) > 0 {
		done = len(kept)
		report()
	}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.Parallel)
	for i := 0; i < total && gctx.Err() == nil; i++ {
		round, pi := i/len(pairings), i%len(pairings)
		if cfg.Skip != nil && cfg.Skip(i) {
			mu.Lock()
			progress()
			mu.Unlock()
			continue
		}
		g.Go(func() error {
			pair := &res.Pairs[pi]
			if gm := kept[i]; gm != nil {
				// Counted here, in a slot of its own, so that with
				// Parallel 1 it is counted after the games before it
				// as in an uninterrupted run.
				mu.Lock()
				defer mu.Unlock()
				games[i] = gm
				pair.record((gm.Winner == rules.Black) != (gm.Black == pair.A), cfg.SPRT)
				return nil
			}
			mu.Lock()
			decided := pair.Decision != Continue
			if decided {
				res.Skipped++
				progress()
			}
			mu.Unlock()
			if decided {
				return nil
			}
			black, white := pair.A, pair.B
			if round%2 == 1 {
				black, white = white, black
			}
			game, err := playOne(gctx, cfg, entrants, i, round/2, lines[round/2], black, white)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			games[i] = game
			pair.record((game.Winner == rules.Black) != (black == pair.A), cfg.SPRT)
			progress()
			if cfg.OnGame != nil {
				return cfg.OnGame(*game)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, gm := range games {
		if gm != nil {
			res.Games = append(res.Games, *gm)
		}
	}
	return res, nil
}

// keptByIndex returns cfg.Kept by their index in the schedule, checking
// each (checkKept) and that no index is given twice.
func (cfg *MatchConfig) keptByIndex(pairings [][2]int, lines [][]rules.WideMove) (map[int]*Game, error) {
	kept := make(map[int]*Game, len(cfg.Kept))
	for k := range cfg.Kept {
		gm := &cfg.Kept[k]
		if err := cfg.checkKept(gm, pairings, lines); err != nil {
			return nil, err
		}
		if kept[gm.Index] != nil {
			return nil, fmt.Errorf("arena: kept game %d given twice", gm.Index+1)
		}
		kept[gm.Index] = gm
	}
	return kept, nil
}

// checkKept returns an error unless gm is a finished game the schedule
// of cfg holds at its index: its pair and colours, its opening line,
// the line's moves first, and a winner that is the last to move.
func (cfg *MatchConfig) checkKept(gm *Game, pairings [][2]int, lines [][]rules.WideMove) error {
	total := cfg.Games * len(pairings)
	if gm.Index < 0 || gm.Index >= total {
		return fmt.Errorf("arena: kept game %d: the match has games 1 to %d", gm.Index+1, total)
	}
	round, pr := gm.Index/len(pairings), pairings[gm.Index%len(pairings)]
	black, white := pr[0], pr[1]
	if round%2 == 1 {
		black, white = white, black
	}
	if gm.Black != black || gm.White != white {
		return fmt.Errorf("arena: kept game %d: players %d (black) and %d (white), want %d and %d", gm.Index+1, gm.Black, gm.White, black, white)
	}
	line := lines[round/2]
	if gm.Line != round/2 || gm.Forced != len(line) || len(gm.Moves) < len(line) {
		return fmt.Errorf("arena: kept game %d: not from opening line %d (its first %d moves)", gm.Index+1, round/2+1, len(line))
	}
	for k, m := range line {
		if gm.Moves[k] != m {
			return fmt.Errorf("arena: kept game %d: move %d is %v, the opening line %d has %v", gm.Index+1, k+1, gm.Moves[k], round/2+1, m)
		}
	}
	wg, err := rules.NewWideGame(cfg.Board)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	for k, m := range gm.Moves {
		if wg.Play(m) != nil {
			return fmt.Errorf("arena: kept game %d: move %d %v is illegal", gm.Index+1, k+1, m)
		}
	}
	if w, over := wg.Winner(); !over || w != gm.Winner {
		return fmt.Errorf("arena: kept game %d: not over, or won by the other player", gm.Index+1)
	}
	return nil
}

func playOne(ctx context.Context, cfg MatchConfig, entrants []Entrant, i, line int, opening []rules.WideMove, black, white int) (*Game, error) {
	bp, err := entrants[black].New(playerSeed(cfg.Seed, i, rules.Black))
	if err != nil {
		return nil, fmt.Errorf("arena: %s: %w", entrants[black].Name(), err)
	}
	wp, err := entrants[white].New(playerSeed(cfg.Seed, i, rules.White))
	if err != nil {
		return nil, fmt.Errorf("arena: %s: %w", entrants[white].Name(), err)
	}
	moves, winner, err := PlayGame(ctx, cfg.Board, opening, bp, wp)
	if err != nil {
		return nil, fmt.Errorf("%w (game %d)", err, i+1)
	}
	return &Game{Index: i, Black: black, White: white, Line: line, Forced: len(opening), Moves: moves, Winner: winner}, nil
}
