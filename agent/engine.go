package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/models"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
)

// evalOptions suit interactive play: a few games at a time, each asking
// for one position at a time, so a batch runs as soon as it arrives.
var evalOptions = net.EvalOptions{Batch: 8, Wait: 0, CacheSize: 1 << 16}

// Engine is one model ready to play: the network's evaluator, shared by
// every game of that board size. Run must be running while its agents
// think.
type Engine struct {
	model *net.Model
	eval  *net.Evaluator
}

// NewEngine compiles the model's evaluator. It starts no goroutine: call
// Run.
func NewEngine(m *net.Model) (*Engine, error) {
	ev, err := net.NewEvaluator(m, evalOptions)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	return &Engine{model: m, eval: ev}, nil
}

// Size is the board size the model plays.
func (e *Engine) Size() int { return e.model.Config().Size }

// Model returns the engine's model.
func (e *Engine) Model() *net.Model { return e.model }

// Run runs the evaluator until ctx ends (see net.Evaluator.Run).
func (e *Engine) Run(ctx context.Context) error { return e.eval.Run(ctx) }

// NewAgent returns an agent for one game, seeded with seed.
func (e *Engine) NewAgent(seed uint64) (*Agent, error) {
	newNeural := func(stream uint64) (*player.Neural, error) {
		n, err := player.NewNeural(e.eval, mcts.DefaultConfig(), levels[0].Sims, 0, seed^stream)
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		return n, nil
	}
	play, err := newNeural(0)
	if err != nil {
		return nil, err
	}
	advise, err := newNeural(0x61647669) // "advi"
	if err != nil {
		return nil, err
	}
	return &Agent{size: e.Size(), play: play, advise: advise}, nil
}

// LoadModel returns the model a command plays with: the file path when
// it is set (then size, unless 0, must be the model's), else the shipped
// model of size.
func LoadModel(path string, size int) (*net.Model, error) {
	if path == "" {
		m, err := models.Default(size)
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		return m, nil
	}
	m, err := net.Load(path)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if n := m.Config().Size; size != 0 && n != size {
		return nil, fmt.Errorf("agent: model %s plays %dx%d, not %dx%d", path, n, n, size, size)
	}
	return m, nil
}

// Engines holds one engine per board size that has a model.
type Engines struct {
	bySize map[int]*Engine
	sizes  []int
}

// OpenEngines loads the model file path, giving engines for its size
// only, or, when path is "", every shipped model. It starts no
// goroutine: call Run.
func OpenEngines(path string) (*Engines, error) {
	var ms []*net.Model
	if path != "" {
		m, err := LoadModel(path, 0)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	} else {
		for _, n := range models.Sizes() {
			m, err := models.Default(n)
			if err != nil {
				return nil, fmt.Errorf("agent: %w", err)
			}
			ms = append(ms, m)
		}
	}
	return NewEngines(ms...)
}

// NewEngines makes an engine of each model; two models of one size are
// an error.
func NewEngines(ms ...*net.Model) (*Engines, error) {
	es := &Engines{bySize: map[int]*Engine{}}
	for _, m := range ms {
		n := m.Config().Size
		if es.bySize[n] != nil {
			return nil, fmt.Errorf("agent: two models for %dx%d", n, n)
		}
		e, err := NewEngine(m)
		if err != nil {
			return nil, err
		}
		es.bySize[n] = e
		es.sizes = append(es.sizes, n)
	}
	if len(es.sizes) == 0 {
		return nil, fmt.Errorf("agent: no model")
	}
	slices.Sort(es.sizes)
	return es, nil
}

// Sizes returns the board sizes that have an engine, in increasing order.
func (es *Engines) Sizes() []int { return slices.Clone(es.sizes) }

// SizeList is Sizes written for people: "6x6, 8x8".
func (es *Engines) SizeList() string {
	parts := make([]string, len(es.sizes))
	for i, n := range es.sizes {
		parts[i] = fmt.Sprintf("%dx%d", n, n)
	}
	return strings.Join(parts, ", ")
}

// Get returns the engine of size×size boards; the error names the sizes
// there are.
func (es *Engines) Get(size int) (*Engine, error) {
	if e := es.bySize[size]; e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("agent: no model for %dx%d (there is one for %s)", size, size, es.SizeList())
}

// Run runs every engine's evaluator until ctx ends.
func (es *Engines) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, e := range es.bySize {
		g.Go(func() error { return e.Run(ctx) })
	}
	return g.Wait()
}
