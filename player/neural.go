package player

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// timeChunk is the number of simulations a time-limited neural player
// runs between two looks at the clock.
const timeChunk = 16

// Neural is the trained agent: MCTS (PUCT, no exploration noise, tree
// reused between moves) guided by an evaluator, normally the network's.
// It runs Sims simulations per move, or searches until MoveTime has
// passed (in chunks of 16 simulations, so it may overrun by one chunk),
// or both, whichever ends first; it plays the most visited move.
type Neural struct {
	name     string
	Sims     int           // simulations per move; 0 = no count limit
	MoveTime time.Duration // time per move; 0 = no time limit
	size     int           // the board size of the evaluator; 0 = any
	search   *mcts.Search
}

// NewNeural returns a neural player searching with eval (which may be
// shared with other players: it is safe for concurrent use) and the
// search settings cfg. At least one of sims and moveTime must be set.
func NewNeural(eval mcts.Evaluator, cfg mcts.Config, sims int, moveTime time.Duration, seed uint64) (*Neural, error) {
	if sims <= 0 && moveTime <= 0 {
		return nil, errors.New("player: neural: set simulations or time per move")
	}
	if moveTime > 0 {
		cfg.Reuse = true // the chunks of one move build one tree
		cfg.Gumbel = false
	}
	s, err := mcts.New(eval, cfg, seed^streamNeural)
	if err != nil {
		return nil, fmt.Errorf("player: neural: %w", err)
	}
	return &Neural{name: "neural", Sims: sims, MoveTime: moveTime, search: s}, nil
}

// Name implements Player.
func (n *Neural) Name() string { return n.name }

// Move implements Player: the recommended move of Analyze.
func (n *Neural) Move(ctx context.Context, p rules.Position) (rules.Move, error) {
	res, err := n.Analyze(ctx, p)
	if err != nil {
		return rules.NoMove, err
	}
	return res.Best, nil
}

// neuralShared is what the neural players of one factory share: the
// model's evaluator, run by Factory.Run.
type neuralShared struct {
	size int
	eval *net.Evaluator
}

// evalOptions suit an arena: a handful of concurrent games, each asking
// for one position at a time, so batches are run as soon as they arrive.
var evalOptions = net.EvalOptions{Batch: 16, Wait: 0, CacheSize: 1 << 16}

func openModel(s Spec) (sharedResource, error) {
	m, err := net.Load(s.Model)
	if err != nil {
		return nil, fmt.Errorf("player: %s: %w", s.Name, err)
	}
	ev, err := net.NewEvaluator(m, evalOptions)
	if err != nil {
		return nil, fmt.Errorf("player: %s: %w", s.Name, err)
	}
	return &neuralShared{size: m.Config().Size, eval: ev}, nil
}

func (r *neuralShared) run(ctx context.Context) error { return r.eval.Run(ctx) }

func (r *neuralShared) boardSize() int { return r.size }

func (r *neuralShared) newPlayer(s Spec, seed uint64) (Player, error) {
	p, err := NewNeural(r.eval, mcts.DefaultConfig(), s.Sims, s.Time, seed)
	if err != nil {
		return nil, err
	}
	p.name, p.size = s.Name, r.size
	return p, nil
}
