package net

import (
	"fmt"
	"strings"

	"github.com/konanezero/konane/rules"
)

// FormatVersion is the version of the model file layout. A file of
// another version is refused by Load, as is one of an input encoding this
// build does not know (see Encoding).
const FormatVersion = 1

// Config is the architecture of a network: a residual tower of Blocks
// blocks of two 3x3 convolutions with Filters channels, a policy head of
// two 1x1 convolutions giving one logit per action, and a value head on the
// spatial mean of the tower (a hidden layer of ValueHidden units, then
// tanh). GlobalPool adds KataGo's global-pooling bias to every block: the
// channel means of the first convolution, through a learnt matrix, bias
// every channel before the second one.
//
// A single-board network (Size N) plays the N×N board. A multi-board
// network (Size 0, Hops MultiBoardHops) plays every board a Position holds,
// square or not, one board per evaluator or training graph
// (Model.ForBoard): the tower is convolutional and the value head reads
// the mean over the board's squares, so only the policy head's planes
// depend on the board, and they are laid out for the longest jump of any
// board.
type Config struct {
	Size        int  // board size N (4..8) of a single-board network; 0 for a multi-board network
	Filters     int  // channels of the tower
	Blocks      int  // residual blocks
	ValueHidden int  // hidden units of the value head
	GlobalPool  bool // global-pooling bias in every block
	// Captures adds the input planes of EncodingCaptures: the stones each
	// side could capture and the squares its jumps would land on.
	Captures bool
	// Aux lists the auxiliary heads (none in every model file and
	// config.json written before they existed).
	Aux AuxHeads `json:",omitempty"`
	// SoftPolicy adds KataGo's soft policy head: a second policy output
	// of the main one's shape, one more 1x1 convolution on the policy
	// head's hidden features, trained on the policy target raised to the
	// power 1/4 and renormalised. Like the auxiliary heads, only training
	// computes it (false in every model file and config.json written
	// before it existed).
	SoftPolicy bool `json:",omitempty"`
	// Hops is the number of hop counts per direction of the policy
	// head's planes: 0 for MaxHops(Size), the layout of every
	// single-board network (and of every file and config.json written
	// before multi-board networks), MultiBoardHops for a multi-board one.
	Hops int `json:",omitempty"`
}

// MultiBoardHops is the policy planes' hop counts per direction of a
// multi-board network: MaxHops of the largest board the rules describe
// (rules.MaxSide), not of the largest board it plays today, so that a
// network trained on the boards of up to 8x8 keeps its shape, and every
// plane its meaning, when it goes on to larger boards. The planes of jumps
// longer than a board has are masked; their cost: docs/internals/net.md.
const MultiBoardHops = (rules.MaxSide - 1) / 2

// MultiBoard reports whether c is a multi-board network (Size 0).
func (c Config) MultiBoard() bool { return c.Size == 0 }

// BoardName names the network's board for people: "8x8", or
// "multi-board".
func (c Config) BoardName() string {
	if c.MultiBoard() {
		return "multi-board"
	}
	return fmt.Sprintf("%dx%d", c.Size, c.Size)
}

// hops is the number of hop counts per direction of the policy planes.
func (c Config) hops() int {
	if c.Hops > 0 {
		return c.Hops
	}
	return rules.MaxHops(c.Size)
}

// AuxHeads is a set of auxiliary heads: outputs that only training uses,
// whose targets come from the rest of the game, so that the tower learns
// more from each self-play game (KataGo's ownership and score targets;
// Leela Chess Zero's moves-left head). Search and play read only the
// policy and the value; a model with auxiliary heads plays exactly as the
// same weights without them would.
type AuxHeads uint8

const (
	// AuxOwnership predicts, for every square, whether it holds a stone
	// when the game ends (a sigmoid per square, from a 1x1 convolution of
	// the tower). A stone stays on squares of its own colour, so this says
	// which stones survive and where the jumps end.
	AuxOwnership AuxHeads = 1 << iota
	// AuxMovesLeft predicts the plies left until the game ends, as a
	// fraction of N·N (a sigmoid, from the tower's spatial mean through a
	// hidden layer of ValueHidden units).
	AuxMovesLeft

	auxAll = AuxOwnership | AuxMovesLeft
)

// auxNames names the heads in flags, config.json and model files.
var auxNames = []struct {
	h    AuxHeads
	name string
}{{AuxOwnership, "ownership"}, {AuxMovesLeft, "moves-left"}}

// String is "none" or the heads' names joined by commas, such as
// "ownership,moves-left".
func (a AuxHeads) String() string {
	if a == 0 {
		return "none"
	}
	var names []string
	for _, n := range auxNames {
		if a&n.h != 0 {
			names = append(names, n.name)
		}
	}
	if a&^auxAll != 0 {
		names = append(names, fmt.Sprintf("unknown(%#x)", uint8(a&^auxAll)))
	}
	return strings.Join(names, ",")
}

// ParseAuxHeads reads what String writes ("none", "ownership",
// "moves-left" or both, comma-separated, in any order).
func ParseAuxHeads(s string) (AuxHeads, error) {
	if s == "none" || s == "" {
		return 0, nil
	}
	var a AuxHeads
next:
	for _, f := range strings.Split(s, ",") {
		for _, n := range auxNames {
			if strings.TrimSpace(f) == n.name {
				a |= n.h
				continue next
			}
		}
		return 0, fmt.Errorf("net: auxiliary head %q: want none, ownership or moves-left (or both, comma-separated)", f)
	}
	return a, nil
}

// Set parses s (a flag.Value).
func (a *AuxHeads) Set(s string) error {
	v, err := ParseAuxHeads(s)
	if err == nil {
		*a = v
	}
	return err
}

// MarshalText writes String.
func (a AuxHeads) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (a *AuxHeads) UnmarshalText(b []byte) error { return a.Set(string(b)) }

// Encoding returns the input encoding of the architecture.
func (c Config) Encoding() Encoding {
	if c.Captures {
		return EncodingCaptures
	}
	return EncodingOrigins
}

// DefaultConfig returns the architecture chosen for a 2-core machine (the
// measurements behind it: docs/results/2026-12-02-defaults.md).
func DefaultConfig(size int) Config {
	return Config{Size: size, Filters: 32, Blocks: 2, ValueHidden: 32, GlobalPool: true, Captures: true}
}

// DefaultMultiBoardConfig returns DefaultConfig's architecture as a
// multi-board network.
func DefaultMultiBoardConfig() Config {
	c := DefaultConfig(0)
	c.Hops = MultiBoardHops
	return c
}

// Validate reports the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Size == 0 && c.Hops == 0:
		return fmt.Errorf("net: board size 0 (a multi-board network) with no hop planes (want hops %d)", MultiBoardHops)
	case c.Size != 0 && (c.Size < rules.MinSize || c.Size > rules.MaxSize):
		return fmt.Errorf("net: board size %d outside %d..%d", c.Size, rules.MinSize, rules.MaxSize)
	case c.Hops < 0 || c.Hops > MultiBoardHops || c.Hops != 0 && c.Size != 0 && c.Hops < rules.MaxHops(c.Size):
		return fmt.Errorf("net: %d hop planes per direction outside %d..%d", c.Hops, rules.MaxHops(max(c.Size, rules.MinSize)), MultiBoardHops)
	case c.Filters < 1 || c.Filters > 512:
		return fmt.Errorf("net: %d filters outside 1..512", c.Filters)
	case c.Blocks < 0 || c.Blocks > 64:
		return fmt.Errorf("net: %d blocks outside 0..64", c.Blocks)
	case c.ValueHidden < 1 || c.ValueHidden > 1024:
		return fmt.Errorf("net: %d value-head units outside 1..1024", c.ValueHidden)
	case c.Aux&^auxAll != 0:
		return fmt.Errorf("net: auxiliary heads %s", c.Aux)
	}
	return nil
}

// Arch is a short name of the architecture, such as "res32x2gp-v32-e2"
// (the suffix names the input encoding, none for the first), then "-own"
// and "-ml" for the auxiliary heads it has, then "-h7" for the policy
// planes of a network with Hops set (a multi-board one), then "-sp" for
// the soft policy head.
func (c Config) Arch() string {
	gp := ""
	if c.GlobalPool {
		gp = "gp"
	}
	enc := ""
	if e := c.Encoding(); e != EncodingOrigins {
		enc = fmt.Sprintf("-e%d", e)
	}
	if c.Aux&AuxOwnership != 0 {
		enc += "-own"
	}
	if c.Aux&AuxMovesLeft != 0 {
		enc += "-ml"
	}
	if c.Hops != 0 {
		enc += fmt.Sprintf("-h%d", c.Hops)
	}
	if c.SoftPolicy {
		enc += "-sp"
	}
	return fmt.Sprintf("res%dx%d%s-v%d%s", c.Filters, c.Blocks, gp, c.ValueHidden, enc)
}

// actionPlanes is the number of policy planes: one for removals and one
// per (direction, hop count) of a jump, each indexed by the origin square.
func (c Config) actionPlanes() int { return 1 + 4*c.hops() }

// Slots is the length of the policy output row on the board of the shape
// code (Position.Size): actionPlanes × W × H. Only the slots of actions
// are ever used (see slotTable).
func (c Config) Slots(shape int) int {
	w, h := rules.ShapeDims(shape)
	return c.actionPlanes() * w * h
}

// slotTable returns the policy-row index of every action of the board of
// the shape code (see slotTables), nil when the network cannot play it
// (a jump longer than its planes).
func (c Config) slotTable(shape int) []int32 {
	if shape < 0 || shape >= 256 {
		return nil
	}
	return slotTables[c.hops()][shape]
}

// Plays reports whether the network can play the board of the shape code
// (Position.Size): a board a Position holds whose longest jump has a
// policy plane. A multi-board network plays every one; a single-board
// network N×N plays its own board, and also the smaller ones (its planes
// cover their jumps), though it never trained there.
//
// A board no Position holds (more than rules.MaxSize files or ranks) is
// played as WidePositions (Evaluator.EvaluateWide): by the network whose
// planes hold its longest jump, every multi-board network.
func (c Config) Plays(shape int) bool {
	if w, h := rules.ShapeDims(shape); w > rules.MaxSize || h > rules.MaxSize {
		return rules.MaxHops(max(w, h)) <= c.hops()
	}
	return c.slotTable(shape) != nil
}

// Param names one learnt tensor of a network and its shape.
type Param struct {
	Name  string
	Shape []int
	Decay bool // subject to weight decay (weights, not biases)
}

// Params lists every learnt tensor of the architecture, in a fixed order
// (initialisation draws from the seed in this order). The auxiliary
// heads' and then the soft policy head's come last, so that the other
// weights of New do not depend on them.
func (c Config) Params() []Param {
	f := c.Filters
	ps := []Param{
		{"stem.w", []int{f, c.Encoding().Planes(), 3, 3}, true},
		{"stem.b", []int{1, f, 1, 1}, false},
	}
	for i := 0; i < c.Blocks; i++ {
		p := fmt.Sprintf("block%d.", i)
		ps = append(ps,
			Param{p + "conv1.w", []int{f, f, 3, 3}, true},
			Param{p + "conv1.b", []int{1, f, 1, 1}, false},
		)
		if c.GlobalPool {
			ps = append(ps, Param{p + "pool.w", []int{f, f}, true})
		}
		ps = append(ps,
			Param{p + "conv2.w", []int{f, f, 3, 3}, true},
			Param{p + "conv2.b", []int{1, f, 1, 1}, false},
		)
	}
	a := c.actionPlanes()
	ps = append(ps,
		Param{"policy.conv1.w", []int{f, f, 1, 1}, true},
		Param{"policy.conv1.b", []int{1, f, 1, 1}, false},
		Param{"policy.conv2.w", []int{a, f, 1, 1}, true},
		Param{"policy.conv2.b", []int{1, a, 1, 1}, false},
		Param{"value.fc1.w", []int{f, c.ValueHidden}, true},
		Param{"value.fc1.b", []int{1, c.ValueHidden}, false},
		Param{"value.fc2.w", []int{c.ValueHidden, 1}, true},
		Param{"value.fc2.b", []int{1, 1}, false},
	)
	if c.Aux&AuxOwnership != 0 {
		ps = append(ps,
			Param{"ownership.w", []int{1, f, 1, 1}, true},
			Param{"ownership.b", []int{1, 1, 1, 1}, false},
		)
	}
	if c.Aux&AuxMovesLeft != 0 {
		ps = append(ps,
			Param{"movesleft.fc1.w", []int{f, c.ValueHidden}, true},
			Param{"movesleft.fc1.b", []int{1, c.ValueHidden}, false},
			Param{"movesleft.fc2.w", []int{c.ValueHidden, 1}, true},
			Param{"movesleft.fc2.b", []int{1, 1}, false},
		)
	}
	if c.SoftPolicy {
		ps = append(ps,
			Param{"softpolicy.w", []int{a, f, 1, 1}, true},
			Param{"softpolicy.b", []int{1, a, 1, 1}, false},
		)
	}
	return ps
}

// FLOPs returns the floating-point operations of one forward pass for one
// position (a multiply-add counts as two), counting the convolutions and
// matrix products, which dominate, on the network's board (8x8 for a
// multi-board network). The auxiliary heads and the soft policy head do
// not count: only training computes them.
func (c Config) FLOPs() int64 {
	sq := int64(c.Size * c.Size)
	if c.MultiBoard() {
		sq = rules.MaxSize * rules.MaxSize
	}
	f := int64(c.Filters)
	macs := sq * f * int64(c.Encoding().Planes()) * 9 // stem
	for i := 0; i < c.Blocks; i++ {
		macs += 2 * sq * f * f * 9
		if c.GlobalPool {
			macs += f * f
		}
	}
	macs += sq*f*f + sq*f*int64(c.actionPlanes())         // policy head
	macs += f*int64(c.ValueHidden) + int64(c.ValueHidden) // value head
	return 2 * macs
}
