package net

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/konanezero/konane/rules"
)

// Metadata describes a model file: how it was made and from what. Save
// writes it; Load checks the versions and the size against the weights.
type Metadata struct {
	FormatVersion   int       // layout of the file (FormatVersion)
	EncodingVersion int       // input planes (Encoding)
	Size            int       // board size (0 for a multi-board network)
	Arch            string    // Config.Arch() of the weights
	Generation      int       // self-play generation (0 for a fresh net)
	Steps           int64     // training steps behind the weights
	Parent          string    // name of the model it was trained from ("" for none)
	Seed            uint64    // seed of the initialisation or training run
	Created         time.Time // when the model was made
	// Boards lists the boards the weights were trained on, in the
	// order of the run's board list: nil for a single-board network
	// (its own board, Size×Size) and for a multi-board one not trained
	// yet.
	Boards []rules.Board
}

// Model is a network's architecture, weights and metadata. It is immutable
// once built or loaded, and safe to share read-only between goroutines;
// evaluators and trainers copy the weights they need.
type Model struct {
	cfg     Config
	meta    Metadata
	weights map[string][]float32 // by Param.Name, row-major
	// shape is the board it plays (a Position's Size), set by ForBoard;
	// 0 for the network's own board (Size×Size; none for a multi-board
	// network).
	shape int
}

// New returns a freshly initialised model: He-normal convolutions, with
// Fixup's scaling for the residual blocks (the first convolution of each
// block scaled by Blocks^-1/2, the second one zero, so every block starts
// as the identity) and small output layers. The same cfg and seed give the
// same weights.
func New(cfg Config, seed uint64) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6574)) // stream "net"
	w := make(map[string][]float32)
	for _, p := range cfg.Params() {
		data := make([]float32, prod(p.Shape))
		std := 0.0
		switch {
		case !p.Decay: // biases start at zero
		case strings.HasSuffix(p.Name, "conv2.w") && strings.HasPrefix(p.Name, "block"):
			// Fixup: the residual branch starts at zero.
		case strings.HasSuffix(p.Name, "pool.w"):
			std = 0.1 / math.Sqrt(float64(p.Shape[0]))
		case p.Name == "policy.conv2.w" || p.Name == "value.fc2.w" || p.Name == "ownership.w" || p.Name == "movesleft.fc2.w" || p.Name == "softpolicy.w":
			std = 0.1 / math.Sqrt(float64(fanIn(p.Shape)))
		default:
			std = math.Sqrt(2 / float64(fanIn(p.Shape)))
			if strings.HasSuffix(p.Name, "conv1.w") && strings.HasPrefix(p.Name, "block") {
				std /= math.Sqrt(float64(cfg.Blocks))
			}
		}
		if std > 0 {
			for i := range data {
				data[i] = float32(rng.NormFloat64() * std)
			}
		}
		w[p.Name] = data
	}
	return &Model{
		cfg: cfg,
		meta: Metadata{
			FormatVersion:   FormatVersion,
			EncodingVersion: int(cfg.Encoding()),
			Size:            cfg.Size,
			Arch:            cfg.Arch(),
			Seed:            seed,
			Created:         time.Now().UTC(),
		},
		weights: w,
	}, nil
}

// Config returns the architecture.
func (m *Model) Config() Config { return m.cfg }

// Shape returns the shape code (a Position's Size) of the board the model
// plays: the one ForBoard chose, else its own board N×N (N), else 0 (a
// multi-board network not yet given a board).
func (m *Model) Shape() int {
	if m.shape != 0 {
		return m.shape
	}
	return m.cfg.Size
}

// Boards returns the boards the weights were trained on: those of the
// metadata, else a single-board network's own board, else none.
func (m *Model) Boards() []rules.Board {
	if len(m.meta.Boards) > 0 || m.cfg.MultiBoard() {
		return slices.Clone(m.meta.Boards)
	}
	return []rules.Board{rules.SquareBoard(m.cfg.Size)}
}

// TrainedOn reports whether b is one of the boards the weights were
// trained on.
func (m *Model) TrainedOn(b rules.Board) bool { return slices.Contains(m.Boards(), b) }

// ForBoard returns the model, sharing m's weights, that plays board b:
// its evaluators and trainers take b's positions (WidePositions above
// 8x8: Evaluator.EvaluateWide). It fails, wrapping ErrSize, when the
// network cannot play b (a single-board network whose policy planes lack
// b's longest jumps, every board above 8x8 among them). A board the
// weights were not trained on is played, untrained; BoardNote says so.
func (m *Model) ForBoard(b rules.Board) (*Model, error) {
	mb, err := m.forBoard(b)
	if err != nil {
		return nil, fmt.Errorf("net: %w", err)
	}
	return mb, nil
}

// forBoard is ForBoard with its errors not yet prefixed.
func (m *Model) forBoard(b rules.Board) (*Model, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	shape := rules.ShapeCode(b.W, b.H)
	if shape == 0 || !m.cfg.Plays(shape) {
		return nil, fmt.Errorf("%w: the %s network (trained on %s) cannot play %s", ErrSize, m.cfg.Arch(), BoardList(m.Boards()), b)
	}
	c := *m
	c.shape = shape
	return &c, nil
}

// BoardNote is "" when the weights were trained on b, else the one line
// that says they were not, such as "the network was not trained on 7x6
// (it was on 6x6, 8x8)".
func (m *Model) BoardNote(b rules.Board) string {
	if m.TrainedOn(b) {
		return ""
	}
	return fmt.Sprintf("the network was not trained on %s (it was on %s)", b, BoardList(m.Boards()))
}

// ParseBoardList reads a comma-separated list of boards (rules.ParseBoard
// each: "6x6,7x6,8"), refusing an empty list and a board named twice.
func ParseBoardList(s string) ([]rules.Board, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty board list: want boards such as 6x6,7x6,8x8")
	}
	var out []rules.Board
	for _, f := range strings.Split(s, ",") {
		b, err := rules.ParseBoard(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, b) {
			return nil, fmt.Errorf("board list %q names %s twice", s, b)
		}
		out = append(out, b)
	}
	return out, nil
}

// BoardList writes boards as ParseBoardList reads them: "6x6,7x6",
// "none" for none.
func BoardList(boards []rules.Board) string {
	if len(boards) == 0 {
		return "none"
	}
	s := make([]string, len(boards))
	for i, b := range boards {
		s[i] = b.String()
	}
	return strings.Join(s, ",")
}

// Meta returns the metadata.
func (m *Model) Meta() Metadata { return m.meta }

// FromWeights returns the model of cfg with the given weights, one per
// Config.Params entry and of its size, and metadata (its versions, size
// and architecture set from cfg, as WithMeta does). The model keeps the
// slices: the caller must not change them afterwards.
func FromWeights(cfg Config, meta Metadata, weights map[string][]float32) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ps := cfg.Params()
	for _, p := range ps {
		if len(weights[p.Name]) != prod(p.Shape) {
			return nil, fmt.Errorf("net: weights of %s missing or of the wrong length", p.Name)
		}
	}
	if len(weights) != len(ps) {
		return nil, fmt.Errorf("net: %d weight tensors for the %s network's %d", len(weights), cfg.Arch(), len(ps))
	}
	m := &Model{cfg: cfg, meta: meta, weights: weights}
	m.fixMeta()
	return m, nil
}

// Weight returns a copy of the weights of the learnt tensor named name
// (a Config.Params entry's), nil if the network has none of that name.
func (m *Model) Weight(name string) []float32 { return slices.Clone(m.weights[name]) }

// WithMeta returns a model sharing m's weights with other metadata, for
// example a new generation number or parent. The versions, size and
// architecture are always those of the weights, whatever meta says.
func (m *Model) WithMeta(meta Metadata) *Model {
	c := *m
	c.meta = meta
	c.fixMeta()
	return &c
}

// fixMeta sets the fields of the metadata that follow from the weights.
func (m *Model) fixMeta() {
	m.meta.FormatVersion = FormatVersion
	m.meta.EncodingVersion = int(m.cfg.Encoding())
	m.meta.Size = m.cfg.Size
	m.meta.Arch = m.cfg.Arch()
	if !m.cfg.MultiBoard() {
		m.meta.Boards = nil
	}
}

// Deepen returns a network with blocks residual blocks: m's own first,
// with their weights, stem and heads, then new ones that start as the
// identity (their residual branch ends in a convolution of zeros, as
// every block of New), so that it predicts exactly what m predicts until
// training moves them: a trained network grows deeper without starting
// over. The new blocks' other weights are drawn from seed, as by New.
func (m *Model) Deepen(blocks int, seed uint64) (*Model, error) {
	if blocks < m.cfg.Blocks {
		return nil, fmt.Errorf("net: deepen %s to %d blocks: it has %d", m.cfg.Arch(), blocks, m.cfg.Blocks)
	}
	cfg := m.cfg
	cfg.Blocks = blocks
	d, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	for name, w := range m.weights {
		copy(d.weights[name], w) // the same shape: only the block count differs
	}
	meta := m.meta
	meta.Seed = seed
	return d.WithMeta(meta), nil
}

// WithTrainingHeads returns a network of m's architecture with the
// auxiliary heads aux and the soft policy head if soft (the heads only
// training uses): m's weights, new heads drawn from seed as by New, and
// m's heads that aux or soft do not name dropped. It predicts exactly
// what m predicts (those heads play no part in the policy and the value
// search reads), so a trained network gains or loses them without
// starting over.
func (m *Model) WithTrainingHeads(aux AuxHeads, soft bool, seed uint64) (*Model, error) {
	cfg := m.cfg
	cfg.Aux, cfg.SoftPolicy = aux, soft
	d, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	for name, w := range m.weights {
		if dst, ok := d.weights[name]; ok {
			copy(dst, w) // the same shape: only the heads differ
		}
	}
	meta := m.meta
	return d.WithMeta(meta), nil
}

// WithCaptures returns a network of m's architecture with the input
// planes of EncodingCaptures, which predicts exactly what m predicts: its
// stem has m's weights for the planes m reads and zeros for the new ones,
// so a trained network learns from the new planes without starting over.
// m must read EncodingOrigins.
func (m *Model) WithCaptures() (*Model, error) {
	if m.cfg.Captures {
		return nil, fmt.Errorf("net: %s already reads the capture planes", m.cfg.Arch())
	}
	cfg := m.cfg
	cfg.Captures = true
	w := make(map[string][]float32, len(m.weights))
	for name, x := range m.weights {
		w[name] = append([]float32(nil), x...)
	}
	// stem.w is (filters, planes, 3, 3): each filter's planes are
	// consecutive, the new ones after the old.
	old, planes := EncodingOrigins.Planes(), EncodingCaptures.Planes()
	stem := make([]float32, cfg.Filters*planes*9)
	for f := 0; f < cfg.Filters; f++ {
		copy(stem[f*planes*9:], m.weights["stem.w"][f*old*9:(f+1)*old*9])
	}
	w["stem.w"] = stem
	c := &Model{cfg: cfg, meta: m.meta, weights: w}
	c.fixMeta()
	return c, nil
}

// NumParams returns the number of learnt values.
func (m *Model) NumParams() int {
	n := 0
	for _, w := range m.weights {
		n += len(w)
	}
	return n
}

// String is a one-line summary such as "8x8 res32x2gp-v32 gen 3 (41234 params)".
func (m *Model) String() string {
	if m.cfg.MultiBoard() {
		return fmt.Sprintf("boards %s %s gen %d (%d params)", BoardList(m.Boards()), m.cfg.Arch(), m.meta.Generation, m.NumParams())
	}
	return fmt.Sprintf("%dx%d %s gen %d (%d params)", m.cfg.Size, m.cfg.Size, m.cfg.Arch(), m.meta.Generation, m.NumParams())
}

func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// fanIn is the number of inputs of one output unit: everything but the
// first axis for a convolution (out, in, kh, kw), the first axis for a
// dense matrix (in, out).
func fanIn(shape []int) int {
	if len(shape) == 4 {
		return shape[1] * shape[2] * shape[3]
	}
	return shape[0]
}
