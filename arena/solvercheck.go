package arena

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// Critical is a position where the side to move can win but not every
// legal move wins, labelled by the exact solver.
type Critical struct {
	Position rules.Position
	Winning  []rules.Move // the legal moves that keep the win
	Moves    int          // the number of legal moves
}

// Keeps reports whether m is one of the winning moves.
func (c *Critical) Keeps(m rules.Move) bool {
	for _, w := range c.Winning {
		if w == m {
			return true
		}
	}
	return false
}

// SampleConfig says how to sample critical positions.
type SampleConfig struct {
	Size      int
	Positions int // how many distinct critical positions to collect
	Seed      uint64
	Parallel  int // solvers working at once (≥ 1)
	// MaxGames bounds the random games played to find them (0: 50 per
	// position wanted); small boards have few distinct critical positions.
	MaxGames int
	// SolverEntries is the transposition table size of each solver (0:
	// 2^20 entries, 24 MiB, up to 5x5; 2^22, 96 MiB, above).
	SolverEntries int
	// Progress, when not nil, is called with the number of positions
	// found so far and the number wanted.
	Progress func(found, wanted int)
}

// maxCritical bounds the positions of SampleCritical.
const maxCritical = 1 << 20

// SampleCritical collects distinct critical positions (up to symmetry)
// from varied games: game k is a uniformly random game (removals
// included) drawn from seed and k; one of its critical positions, chosen
// at random, is kept. Games are examined Parallel at a time, but the
// positions are taken in game order, so the result depends on the seed
// only. It returns fewer positions than asked when MaxGames runs out.
//
// Every position of a sampled game is solved, so this is for boards the
// solver handles quickly: 4x4 and 5x5 in milliseconds, 6x6 in seconds to
// minutes (the early positions are the slow ones).
func SampleCritical(ctx context.Context, cfg SampleConfig) ([]Critical, error) {
	switch {
	case cfg.Size < rules.MinSize || cfg.Size > rules.MaxSize:
		return nil, fmt.Errorf("arena: solver check: board size %d outside %d..%d", cfg.Size, rules.MinSize, rules.MaxSize)
	case cfg.Positions < 1 || cfg.Positions > maxCritical:
		return nil, fmt.Errorf("arena: solver check: %d positions: want 1..%d", cfg.Positions, maxCritical)
	case cfg.Parallel < 1:
		return nil, fmt.Errorf("arena: solver check: %d parallel: want at least 1", cfg.Parallel)
	}
	maxGames := cfg.MaxGames
	if maxGames <= 0 {
		maxGames = 50 * cfg.Positions
	}
	entries := cfg.SolverEntries
	if entries <= 0 {
		entries = 1 << 20
		if cfg.Size > 5 {
			entries = 1 << 22
		}
	}
	solvers := make(chan *solver.Solver, cfg.Parallel)
	for i := 0; i < cfg.Parallel; i++ {
		solvers <- solver.New(solver.WithTableEntries(entries))
	}
	var out []Critical
	seen := map[rules.Position]bool{} // canonical images
	batch := 4 * cfg.Parallel
	for first := 0; first < maxGames && len(out) < cfg.Positions; first += batch {
		n := min(batch, maxGames-first)
		found := make([]*Critical, n)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(cfg.Parallel)
		for k := 0; k < n; k++ {
			g.Go(func() error {
				s := <-solvers
				defer func() { solvers <- s }()
				c, err := criticalOfGame(gctx, s, cfg.Size, cfg.Seed, first+k)
				found[k] = c
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		for _, c := range found {
			if c == nil {
				continue
			}
			if key := c.Position.Canonical(); !seen[key] && len(out) < cfg.Positions {
				seen[key] = true
				out = append(out, *c)
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(len(out), cfg.Positions)
		}
	}
	return out, nil
}

// criticalOfGame plays random game k and returns one of its critical
// positions at random, or nil if it has none.
func criticalOfGame(ctx context.Context, s *solver.Solver, size int, seed uint64, k int) (*Critical, error) {
	rng := rand.New(rand.NewPCG(seed, streamSample+uint64(k)))
	positions, _ := rules.Playout(rng, rules.NewPosition(size), -1)
	positions = positions[:len(positions)-1] // the last has no move
	// Look at the positions in random order and keep the first critical one.
	for _, i := range rng.Perm(len(positions)) {
		p := positions[i]
		results, err := s.Analyze(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("arena: solver check: %w", err)
		}
		winning := solver.WinningMoves(results)
		if len(winning) > 0 && len(winning) < len(results) {
			return &Critical{Position: p, Winning: winning, Moves: len(results)}, nil
		}
	}
	return nil, nil
}

// CheckResult is the outcome of a solver check.
type CheckResult struct {
	Positions int // critical positions checked
	Kept      int // positions where the player's move keeps the win
	// Rate is Kept/Positions; Low and High bound its 95% (Wilson) interval.
	Rate, Low, High float64
	// RandomRate is the rate a uniformly random player is expected to
	// reach on the same positions: the mean share of winning moves.
	RandomRate float64
	// KeptAt says, per position in the order checked, whether the move
	// kept the win (nil for a result read back from a summary).
	KeptAt []bool
}

// PairedDiff compares two checks of the same positions (Paired).
type PairedDiff struct {
	// Diff is b.Rate − a.Rate; Low and High bound its 95% interval for
	// paired proportions (positions both kept or both lost add nothing
	// to the variance).
	Diff, Low, High float64
	OnlyA, OnlyB    int // positions only a, and only b, kept
}

// Paired compares the checks a and b of the same positions. It fails when
// they did not look at the same number of positions, or either lacks its
// KeptAt.
func Paired(a, b *CheckResult) (PairedDiff, error) {
	var p PairedDiff
	n := len(a.KeptAt)
	if n == 0 || n != len(b.KeptAt) {
		return p, fmt.Errorf("arena: paired solver check: %d and %d positions", len(a.KeptAt), len(b.KeptAt))
	}
	for i := range n {
		switch {
		case a.KeptAt[i] && !b.KeptAt[i]:
			p.OnlyA++
		case b.KeptAt[i] && !a.KeptAt[i]:
			p.OnlyB++
		}
	}
	nf, d := float64(n), float64(p.OnlyB-p.OnlyA)
	p.Diff = d / nf
	half := 1.96 * math.Sqrt(float64(p.OnlyA+p.OnlyB)-d*d/nf) / nf
	p.Low, p.High = p.Diff-half, p.Diff+half
	return p, nil
}

// CheckConfig says how to check a player.
type CheckConfig struct {
	Parallel int    // positions examined at once (≥ 1)
	Seed     uint64 // seeds the players
	// Progress, when not nil, is called with the number of positions done
	// and the total; calls are serialized.
	Progress func(done, total int)
}

// CheckPlayer asks a fresh player of e (seeded from cfg.Seed and the
// position number) for its move in each critical position, cfg.Parallel
// at a time, and counts the moves that keep the win. An illegal move or a
// player error fails the check. The caller runs the entrant's shared
// machinery, if any (player.Factory.Run), during the check.
func CheckPlayer(ctx context.Context, positions []Critical, e Entrant, cfg CheckConfig) (*CheckResult, error) {
	if len(positions) == 0 {
		return nil, fmt.Errorf("arena: solver check: no positions")
	}
	if cfg.Parallel < 1 {
		return nil, fmt.Errorf("arena: solver check: %d parallel: want at least 1", cfg.Parallel)
	}
	kept := make([]bool, len(positions))
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cfg.Parallel)
	for i := range positions {
		g.Go(func() error {
			c := &positions[i]
			pl, err := e.New(playerSeed(cfg.Seed, i, c.Position.Turn))
			if err != nil {
				return fmt.Errorf("arena: solver check: %s: %w", e.Name(), err)
			}
			m, err := pl.Move(gctx, c.Position)
			if err != nil {
				return fmt.Errorf("arena: solver check: %s, position %d: %w", e.Name(), i+1, err)
			}
			if !c.Position.Legal(m) {
				return fmt.Errorf("arena: solver check: %s played the illegal move %v in position %d", e.Name(), m, i+1)
			}
			kept[i] = c.Keeps(m)
			if cfg.Progress != nil {
				mu.Lock()
				done++
				cfg.Progress(done, len(positions))
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	r := &CheckResult{Positions: len(positions), KeptAt: kept}
	for i, c := range positions {
		if kept[i] {
			r.Kept++
		}
		r.RandomRate += float64(len(c.Winning)) / float64(c.Moves)
	}
	r.RandomRate /= float64(len(positions))
	r.Rate = float64(r.Kept) / float64(r.Positions)
	r.Low, r.High = wilson(r.Kept, r.Positions)
	return r, nil
}

// wilson returns the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.96
	p, nf := float64(k)/float64(n), float64(n)
	center := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(0, center-half), math.Min(1, center+half)
}

// SolverCheck samples critical positions (SampleCritical) and checks a
// player on them (CheckPlayer).
func SolverCheck(ctx context.Context, cfg SampleConfig, e Entrant) (*CheckResult, error) {
	positions, err := SampleCritical(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return CheckPlayer(ctx, positions, e, CheckConfig{Parallel: cfg.Parallel, Seed: cfg.Seed})
}
