package selfplay

import (
	"context"
	"fmt"
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
// between games, so positions met again are table hits. On 6x6 (measured
// on 128 self-play games) the positions of 26 stones or fewer cost the
// solver about 0.05 CPU-seconds a game, all of them about 1.8 (the
// positions of plies 2 to 9 take up to millions of nodes each), hence the
// default of 26 there.

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

// rescore gives the samples of g whose positions have at most maxStones
// stones their exact targets, and returns how many it rescored.
func rescore(ctx context.Context, g *Game, maxStones int) (int, error) {
	if maxStones <= 0 {
		return 0, nil
	}
	var s *solver.Solver
	select {
	case s = <-rescoreSolvers:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { rescoreSolvers <- s }()
	n := 0
	// From the end of the game back: the later positions' results are in
	// the table when the earlier ones need them.
	for i := len(g.Samples) - 1; i >= 0; i-- {
		sm := &g.Samples[i]
		if b, w := sm.Position.StoneCount(); b+w > maxStones {
			continue
		}
		results, err := s.Analyze(ctx, sm.Position)
		if err != nil {
			return n, fmt.Errorf("selfplay: rescoring ply %d: %w", i, err)
		}
		exactTargets(sm, solver.WinningMoves(results))
		n++
	}
	return n, nil
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
