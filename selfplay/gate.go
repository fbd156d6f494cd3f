package selfplay

import (
	"context"
	"fmt"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
)

// GateConfig is the optional gate of a generation (AlphaGo Zero's
// evaluator): the newly trained model plays the current best one, and
// becomes the best, the model that plays self-play, only if a sequential
// probability ratio test accepts that it is stronger. Games 0 turns gating
// off: every generation's model then plays the next self-play (AlphaZero).
type GateConfig struct {
	Games int        `json:"games"` // most games per gate; 0 = no gating
	Sims  int        `json:"sims"`  // simulations per move of both models
	SPRT  arena.SPRT `json:"sprt"`  // e.g. Elo0 0, Elo1 30, Alpha = Beta = 0.05
}

// Validate reports a bad setting.
func (g GateConfig) Validate() error {
	if g.Games == 0 {
		return nil
	}
	if g.Games < 2 || g.Sims < 1 {
		return fmt.Errorf("selfplay: gate of %d games at %d sims: want ≥ 2 games and ≥ 1 sim", g.Games, g.Sims)
	}
	return g.SPRT.Validate()
}

// MatchPlayers returns the players of a model in a match (the gate, the
// ladder): a plain search of sims simulations per move, on an evaluator
// of their own, which the factory's Run runs.
func MatchPlayers(name string, m *net.Model, sims int) (*player.Factory, error) {
	ev, err := net.NewEvaluator(m, net.PlayEvalOptions())
	if err != nil {
		return nil, err
	}
	return player.NewNeuralFactory(name, ev, mcts.DefaultConfig(), player.Limits{Sims: sims})
}

// gateResult is the outcome of one gate.
type gateResult struct {
	wins, losses int // of the candidate
	accepted     bool
}

// gate plays the candidate model against the best one.
func gate(ctx context.Context, cfg GateConfig, size int, seed uint64, candidate, best *net.Model) (gateResult, error) {
	var entrants []arena.Entrant
	for _, e := range []struct {
		name  string
		model *net.Model
	}{{"best", best}, {"candidate", candidate}} {
		f, err := MatchPlayers(e.name, e.model, cfg.Sims)
		if err != nil {
			return gateResult{}, fmt.Errorf("selfplay: gate: %w", err)
		}
		entrants = append(entrants, f)
	}
	sprt := cfg.SPRT
	res, err := arena.Run(ctx, arena.MatchConfig{Board: rules.SquareBoard(size), Games: cfg.Games, Parallel: 8, Gauntlet: true,
		RandomPlies: 2, Seed: seed, SPRT: &sprt}, entrants)
	if err != nil {
		return gateResult{}, fmt.Errorf("selfplay: gate: %w", err)
	}
	p := res.Pairs[0]
	r := gateResult{wins: p.WinsB, losses: p.WinsA}
	// Accepted by the test, or, when the games ran out first, by a score
	// better than even.
	r.accepted = p.Decision == arena.AcceptH1 || p.Decision == arena.Continue && r.wins > r.losses
	return r, nil
}
