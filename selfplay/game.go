package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// GameConfig says how one self-play game is searched and which of its
// positions become training samples.
type GameConfig struct {
	Size int
	// Board, when set (W > 0), is the board the games are played on
	// instead of Size×Size: a multi-board run sets it for each of its
	// boards (Config.Boards, which config.json keeps), so it is never
	// saved.
	Board rules.Board `json:"-"`
	MCTS  mcts.Config
	// Cap is KataGo's playout-cap randomization: full searches (with root
	// noise) give the training samples, cheap ones only choose the move.
	Cap mcts.PlayoutCap
	// Temperature by ply for sampling the move of a full search from its
	// policy (PUCT); Gumbel's sampled Best already explores, so Gumbel runs
	// use temperature 0.
	Temperature mcts.TemperatureSchedule
	// ExactValues makes the value target of a position whose search
	// proved the root's value (mcts.Config.Solver) that exact value,
	// instead of the game's result, which a mistake later in the game can
	// contradict.
	ExactValues bool
	// ValueMix is the weight of the root search's value in the value
	// target of the other positions: (1−ValueMix)·result + ValueMix·value
	// (0: the game's result alone, as AlphaZero).
	ValueMix float64
	// RescoreStones gives every sample whose position has at most this
	// many stones its exact targets from the solver once the game is
	// over (see rescore.go; 0: none). The solver runs without a node
	// budget, so this is for positions it settles quickly: 4x4 and 5x5
	// whole, 6x6 from the middle game on, or late endgames of 8x8.
	RescoreStones int `json:",omitempty"`
	// RescoreChildren adds, for every sample that rescoring solved, up to
	// this many of its children (the positions after its legal moves,
	// drawn at random but fixed by the position) as value-only samples
	// with their exact values, which the solver found on the way (0:
	// none). The value head then also learns the positions one mistake
	// away from its own play, which its search must judge.
	RescoreChildren int `json:",omitempty"`
	// RescoreChildPolicy gives each of those children whose side to move
	// wins a policy target as well: the solver analyzes the child, and
	// its winning moves, alike, are the target. The policy head then
	// learns the winning replies to the mistakes its own play avoids,
	// which are what a critical position asks for. With RescoreChildren.
	RescoreChildPolicy bool `json:",omitempty"`
	// RandomPlies opens each game with a uniformly random number, 0 to
	// RandomPlies, of uniformly random moves (removals included), which
	// give no samples: the network then also learns positions its own
	// play would not reach, as its opponents' mistakes make them (0: none).
	// Their values stay right: a position's target is its exact value or
	// the result of the search-played rest of the game.
	RandomPlies int `json:",omitempty"`
	// AuxTargets gives every sample of the game's path the targets of the
	// auxiliary heads (net.Sample's MovesLeft and Final). A run sets it
	// from its network's heads (net.Config.Aux); it is not a setting of
	// its own.
	AuxTargets bool `json:",omitempty"`
	// Surprise gives every full search's sample its weight in KataGo's
	// policy surprise weighting (net.Sample.SurpriseWeight), at the end
	// of the game: 0.5 + 0.5·s/s̄, s the sample's net.PolicySurprise (of
	// the policy target it trains, rescoring's exact one where it
	// replaces the search's, against the root's priors, those of the
	// network that played the game) and s̄ the mean of the game's full
	// searches' (setSurpriseWeights). A run sets it from
	// Config.SurpriseWeighting; it is not a setting of its own.
	Surprise bool `json:",omitempty"`
}

// Validate reports the first invalid setting.
func (c GameConfig) Validate() error {
	if c.Board.W > 0 {
		if err := c.Board.Validate(); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		if !c.Board.Narrow() && c.RescoreStones > 0 {
			return fmt.Errorf("selfplay: board %s: rescore stones %d: the exact solver plays boards of at most %dx%d (0 above)", c.Board, c.RescoreStones, rules.MaxSize, rules.MaxSize)
		}
	} else if c.Size < rules.MinSize || c.Size > rules.MaxSize {
		return fmt.Errorf("selfplay: board size %d outside %d..%d", c.Size, rules.MinSize, rules.MaxSize)
	}
	if err := c.Cap.Validate(); err != nil {
		return err
	}
	if err := c.Temperature.Validate(); err != nil {
		return err
	}
	if !(c.ValueMix >= 0 && c.ValueMix <= 1) {
		return fmt.Errorf("selfplay: value mix %v: want a number in [0, 1]", c.ValueMix)
	}
	if c.RandomPlies < 0 {
		return fmt.Errorf("selfplay: random plies %d: want 0 (none) or more", c.RandomPlies)
	}
	if c.RescoreStones < 0 {
		return fmt.Errorf("selfplay: rescore stones %d: want 0 (off) or more", c.RescoreStones)
	}
	if c.RescoreChildren < 0 || c.RescoreChildren > rules.MaxMoves {
		return fmt.Errorf("selfplay: rescore children %d: want 0 (none) to %d", c.RescoreChildren, rules.MaxMoves)
	}
	if c.RescoreChildren > 0 && c.RescoreStones == 0 {
		return fmt.Errorf("selfplay: rescore children %d without rescoring (rescore stones 0)", c.RescoreChildren)
	}
	if c.RescoreChildPolicy && c.RescoreChildren == 0 {
		return errors.New("selfplay: children's policy targets without children (rescore children 0)")
	}
	return c.MCTS.Validate()
}

// Game is one finished self-play game.
type Game struct {
	Record  *rules.Record
	Samples []net.Sample // full-search positions with their targets, then children (GameConfig.RescoreChildren)
	Winner  rules.Color
	Plies   int
	// Endgame counts the work of the search's endgame solver in the game.
	Endgame mcts.EndgameStats
}

// PlayGame plays one game against itself with the evaluator. The same seed
// and a deterministic evaluator give the same game. A game of a board no
// Position holds (GameConfig.Board above 8x8) is played on WidePositions
// (mcts.WideSearch, its endgame solver off) and needs an evaluator that is
// also an mcts.WideEvaluator (net.Evaluator is); its samples are wide.
func PlayGame(ctx context.Context, eval mcts.Evaluator, cfg GameConfig, seed uint64) (Game, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5e1f))
	var g Game
	var priors [][]net.ActionProb // of the full searches' samples, g.Samples[:len(priors)]
	var err error
	if cfg.Board.W > 0 && !cfg.Board.Narrow() {
		weval, ok := eval.(mcts.WideEvaluator)
		if !ok {
			return Game{}, fmt.Errorf("selfplay: board %s: the evaluator %T does not evaluate WidePositions", cfg.Board, eval)
		}
		search, err := mcts.NewWide(weval, cfg.MCTS, seed)
		if err != nil {
			return Game{}, err
		}
		game, err := rules.NewWideGame(cfg.Board)
		if err != nil {
			return Game{}, fmt.Errorf("selfplay: %w", err)
		}
		w, h := cfg.Board.W, cfg.Board.H
		g, priors, err = playGame(ctx, search.Run, game, cfg, rng, seed, func(p rules.WidePosition, res mcts.WideResult) net.Sample {
			out := net.Sample{Wide: p, Policy: make([]net.ActionProb, 0, len(res.Moves))}
			for i, m := range res.Moves {
				if res.Policy[i] > 0 {
					out.Policy = append(out.Policy, net.ActionProb{Action: int32(rules.WideActionIndex(m, w, h)), Prob: res.Policy[i]})
				}
			}
			return out
		}, func(s *net.Sample, final rules.WidePosition) { s.WideFinal = final.Black.Or(final.White) })
		if err != nil {
			return Game{}, err
		}
		g.Endgame = search.EndgameStats()
	} else {
		search, err := mcts.New(eval, cfg.MCTS, seed)
		if err != nil {
			return Game{}, err
		}
		game, err := cfg.newGame()
		if err != nil {
			return Game{}, fmt.Errorf("selfplay: %w", err)
		}
		g, priors, err = playGame(ctx, search.Run, game, cfg, rng, seed, func(p rules.Position, res mcts.Result) net.Sample {
			return net.Sample{Position: p, Policy: actionPolicy(res, int(p.Size))}
		}, func(s *net.Sample, final rules.Position) { s.Final = final.Black | final.White })
		if err != nil {
			return Game{}, err
		}
		g.Endgame = search.EndgameStats()
	}
	played := len(g.Samples) // rescore appends the children
	n, kids, err := rescore(ctx, &g, cfg)
	if err != nil {
		return Game{}, err
	}
	setSurpriseWeights(g.Samples[:len(priors)], priors)
	if cfg.RescoreStones > 0 {
		tag := fmt.Sprintf("%d of %d samples", n, played)
		switch {
		case cfg.RescoreChildPolicy:
			tag += fmt.Sprintf(", %d children (%d with policies)", kids.added, kids.withPolicy)
		case cfg.RescoreChildren > 0:
			tag += fmt.Sprintf(", %d value-only children", kids.added)
		}
		g.Record.SetTag("Rescored", tag)
	}
	return g, nil
}

// selfplayGame is what playGame needs of a game: *rules.Game or
// *rules.WideGame.
type selfplayGame[P, M any] interface {
	Position() P
	Len() int
	Play(M) error
	Over() bool
	Turn() rules.Color
	SetTag(key, value string)
	SetComment(comment string)
	Winner() (rules.Color, bool)
	Record(tags ...rules.Tag) *rules.Record
}

// playGame is PlayGame's game on positions P with moves M: run is the
// search's Run, sample makes a full search's sample (its position and
// policy), final gives a sample the stones that ended the game. With
// cfg.Surprise it also returns the root's priors of each sample (as a
// policy of every legal move whose prior is above 0), for
// setSurpriseWeights once the targets are final.
func playGame[P interface{ LegalMoves([]M) []M }, M any](ctx context.Context, run func(context.Context, P, mcts.RunOptions) (mcts.ResultOf[M], error),
	game selfplayGame[P, M], cfg GameConfig, rng *rand.Rand, seed uint64,
	sample func(P, mcts.ResultOf[M]) net.Sample, final func(*net.Sample, P)) (Game, [][]net.ActionProb, error) {
	game.SetTag("Seed", fmt.Sprint(seed))
	var samples []net.Sample
	var searched []searchValue    // of each sample
	var plies []int               // of each sample
	var turns []rules.Color       // of each sample
	var priors [][]net.ActionProb // of each sample (cfg.Surprise)
	if c := cfg.RandomPlies; c > 0 {
		for range rng.IntN(c + 1) {
			moves := game.Position().LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			if err := game.Play(moves[rng.IntN(len(moves))]); err != nil {
				return Game{}, nil, err
			}
			game.SetComment("random opening")
		}
	}
	for !game.Over() {
		pos, ply, turn := game.Position(), game.Len(), game.Turn()
		opts, full := cfg.Cap.Choose(rng)
		res, err := run(ctx, pos, opts)
		if err != nil {
			return Game{}, nil, err
		}
		move := res.Best
		if full {
			samples = append(samples, sample(pos, res))
			if cfg.Surprise {
				// The root's priors as a sample's policy: kept until the
				// game's targets are final (rescoring changes some).
				pr := res
				pr.Policy = res.Prior
				priors = append(priors, sample(pos, pr).Policy)
			}
			searched = append(searched, searchValue{res.Value, res.Proven})
			plies = append(plies, ply)
			turns = append(turns, turn)
			if !cfg.MCTS.Gumbel {
				if move, err = mcts.SelectMove(res, cfg.Temperature.At(ply), rng); err != nil {
					return Game{}, nil, err
				}
			}
		}
		if err := game.Play(move); err != nil {
			return Game{}, nil, fmt.Errorf("selfplay: the search's move at ply %d: %w", ply, err)
		}
		game.SetComment(searchComment(res.Sims, res.Value, res.Proven, full))
	}
	winner, _ := game.Winner()
	for i := range samples {
		samples[i].Value = cfg.valueTarget(outcome(turns[i], winner), searched[i])
		if cfg.AuxTargets {
			samples[i].MovesLeft = game.Len() - plies[i]
			final(&samples[i], game.Position())
		}
	}
	return Game{Record: game.Record(), Samples: samples, Winner: winner, Plies: game.Len()}, priors, nil
}

// newGame starts a game on the board: Board if set, else Size×Size.
func (c GameConfig) newGame() (*rules.Game, error) {
	if c.Board.W > 0 {
		return rules.NewBoardGame(c.Board)
	}
	return rules.NewGame(c.Size)
}

// searchValue is what the root search of a sample said of its value.
type searchValue struct {
	value  float32
	proven bool
}

// valueTarget is the value target of a sample whose side to move got the
// game's result z (±1) and whose search said sv.
func (c GameConfig) valueTarget(z float32, sv searchValue) float32 {
	if sv.proven && c.ExactValues {
		return sv.value
	}
	m := float32(c.ValueMix)
	return (1-m)*z + m*sv.value
}

// outcome is the game's result for the side to move turn.
func outcome(turn, winner rules.Color) float32 {
	if turn == winner {
		return 1
	}
	return -1
}

// actionPolicy turns the search's policy target (per legal move) into a
// sparse distribution over the action space.
func actionPolicy(res mcts.Result, size int) []net.ActionProb {
	out := make([]net.ActionProb, 0, len(res.Moves))
	for i, m := range res.Moves {
		if res.Policy[i] > 0 {
			out = append(out, net.ActionProb{Action: int32(rules.ActionIndex(m, size)), Prob: res.Policy[i]})
		}
	}
	return out
}

// searchComment is the record's comment of a searched move: the search's
// kind, simulations and value.
func searchComment(sims int, value float32, proven, full bool) string {
	kind := "fast"
	if full {
		kind = "full"
	}
	if proven {
		kind += " proven"
	}
	return fmt.Sprintf("%s sims=%d v=%.3f", kind, sims, value)
}

// setSurpriseWeights gives a game's full searches' samples their
// SurpriseWeight from their surprise s, net.PolicySurprise of the policy
// target they train (the search's, or rescoring's exact one) against the
// root's priors of the sample's position, as KataGo's play.cpp shares
// out a game's weight among its full searches (policySurpriseDataWeight
// 0.5, valueSurpriseDataWeight 0): w = 0.5 + 0.5·s/s̄, s̄ the mean
// surprise of the game's full searches, so that their weights sum to
// their count and none exceeds half their count plus 0.5; all 1 when s̄
// is 0 (no search surprised the network; KataGo then gives them 0.5).
func setSurpriseWeights(samples []net.Sample, priors [][]net.ActionProb) {
	surprise := make([]float64, len(samples))
	var sum float64
	for i, s := range samples {
		surprise[i] = net.PolicySurprise(s.Policy, priors[i])
		sum += surprise[i]
	}
	for i := range samples {
		w := 1.0
		if sum > 0 {
			w = 0.5 + 0.5*surprise[i]*float64(len(surprise))/sum
		}
		samples[i].SurpriseWeight = float32(w)
	}
}
