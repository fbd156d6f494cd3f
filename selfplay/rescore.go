package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/solver"
)

// Rescoring replaces a finished game's targets by exact ones wherever the
// solver can give them, as Leela Chess Zero's rescorer does with endgame
// tablebases (GameConfig.RescoreStones): every sample whose position has
// at most that many stones is solved exactly, without a node budget;
// its value target becomes the exact ±1, and when the side to move wins
// its policy target keeps only the winning moves (the search's weights
// on them, renormalized, or all of them alike when the search gave them
// none). A lost position keeps the search's policy: every move loses.
//
// The moves of the game are not changed, so the positions trained on are
// still the ones the network's own play reaches, mistakes included; only
// what it learns about them is exact. The solvers keep their tables
// between games, so positions met again are table hits. (What rescoring
// costs per game, and hence the default of 26 stones on 6x6:
// docs/results/2026-12-02-defaults.md.)
//
// With GameConfig.RescoreChildren, each rescored position also brings some
// of its children as value-only samples (net.Sample without a policy):
// Analyze has already said which moves win, so their exact values cost
// nothing more, and the value head learns the positions one mistake away
// from the games' own, which the search must judge. With
// GameConfig.RescoreChildPolicy, a child whose side to move wins is
// analyzed too and gets its winning moves, alike, as its policy target:
// the winning replies to the mistakes the network's own play avoids.

// rescoreSolvers holds one solver per core for the whole process, so that
// their tables (64 MiB each) stay warm from game to game. The answers are
// exact, so which solver a game gets, and what its table holds, changes
// how long a rescore takes but never its result.
var rescoreSolvers = make(chan *solver.Solver, runtime.GOMAXPROCS(0))

func init() {
	for range cap(rescoreSolvers) {
		rescoreSolvers <- solver.New() // each allocates its table on first use
	}
}

// childCount is what rescoring added: children samples, and how many of
// them have a policy target (GameConfig.RescoreChildPolicy).
type childCount struct{ added, withPolicy int }

// rescore gives the samples of g whose positions have at most
// cfg.RescoreStones stones their exact targets, adds up to
// cfg.RescoreChildren children samples for each of them, and returns how
// many samples it rescored and what it added.
func rescore(ctx context.Context, g *Game, cfg GameConfig) (rescored int, kids childCount, err error) {
	if cfg.RescoreStones <= 0 {
		return 0, kids, nil
	}
	var s *solver.Solver
	select {
	case s = <-rescoreSolvers:
	case <-ctx.Done():
		return 0, kids, ctx.Err()
	}
	defer func() { rescoreSolvers <- s }()
	var children []net.Sample
	// From the end of the game back: the later positions' results are in
	// the table when the earlier ones need them.
	for i := len(g.Samples) - 1; i >= 0; i-- {
		sm := &g.Samples[i]
		if b, w := sm.Position.StoneCount(); sm.IsWide() || b+w > cfg.RescoreStones {
			continue
		}
		results, err := s.Analyze(ctx, sm.Position)
		if err != nil {
			return rescored, kids, fmt.Errorf("selfplay: rescoring ply %d: %w", i, err)
		}
		exactTargets(sm, solver.WinningMoves(results))
		rescored++
		children = append(children, childSamples(sm.Position, results, cfg.RescoreChildren)...)
	}
	if cfg.RescoreChildPolicy {
		for i := range children {
			c := &children[i]
			if c.Value < 0 {
				continue // every move of a lost child loses: no policy to learn
			}
			results, err := s.Analyze(ctx, c.Position)
			if err != nil {
				return rescored, kids, fmt.Errorf("selfplay: rescoring a child: %w", err)
			}
			exactTargets(c, solver.WinningMoves(results))
			kids.withPolicy++
		}
	}
	g.Samples = append(g.Samples, children...)
	kids.added = len(children)
	return rescored, kids, nil
}

// childSamples returns up to n value-only samples of the children of p,
// whose exact results are results (Analyze's): a move that wins for the
// player making it leaves the opponent, to move, lost. The children are
// drawn at random with a generator seeded by p, so the same position
// always gives the same ones; a child without a legal move (the game is
// over there) is not a sample.
func childSamples(p rules.Position, results []solver.MoveResult, n int) []net.Sample {
	if n <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(p.Hash(), uint64(p.Turn)))
	var out []net.Sample
	for _, i := range rng.Perm(len(results)) {
		if len(out) == n {
			break
		}
		c := p.Play(results[i].Move)
		if !c.HasMoves() {
			continue
		}
		v := float32(1)
		if results[i].Wins {
			v = -1
		}
		out = append(out, net.Sample{Position: c, Value: v})
	}
	return out
}

// exactTargets sets the targets of a sample whose winning moves are wins
// (none: the side to move loses).
func exactTargets(sm *net.Sample, wins []rules.Move) {
	if len(wins) == 0 {
		sm.Value = -1
		return
	}
	sm.Value = 1
	size := int(sm.Position.Size)
	winning := make(map[int32]bool, len(wins))
	for _, m := range wins {
		winning[int32(rules.ActionIndex(m, size))] = true
	}
	var kept []net.ActionProb
	var sum float32
	for _, ap := range sm.Policy {
		if winning[ap.Action] && ap.Prob > 0 {
			kept = append(kept, ap)
			sum += ap.Prob
		}
	}
	if sum == 0 {
		kept = kept[:0]
		for _, m := range wins {
			kept = append(kept, net.ActionProb{Action: int32(rules.ActionIndex(m, size)), Prob: 1 / float32(len(wins))})
		}
		sm.Policy = kept
		return
	}
	for i := range kept {
		kept[i].Prob /= sum
	}
	sm.Policy = kept
}
