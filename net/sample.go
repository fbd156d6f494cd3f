package net

import (
	"fmt"
	"math"
	"slices"

	"github.com/konanezero/konane/rules"
)

// ActionProb is one entry of a sparse policy: an action of the board's
// action space (rules.ActionIndex) and its probability.
type ActionProb struct {
	Action int32
	Prob   float32
}

// Sample is one training example: a position, the target policy (sparse
// over the action space, a distribution over legal moves, usually MCTS
// visit counts normalised), and the target value from the side to move's
// view (the game's outcome, -1 or +1, or a blend). A sample with no policy
// entries is a value-only sample: it trains the value head alone (the
// policy loss is the mean over the samples that have a policy).
//
// MovesLeft and Final are the targets of the auxiliary heads (Config.Aux),
// from the game the position was played in: the plies from Position to
// the game's end (at least 1, the position not being terminal) and the
// squares holding a stone when it ended. MovesLeft 0 means the sample has
// no auxiliary targets (a sample of a run without auxiliary heads, of a
// shard written before them, or a position off the game's path): it
// trains no auxiliary head.
//
// SurpriseWeight is the sample's weight in KataGo's policy surprise
// weighting (selfplay.Replay.SurpriseWeighting): a full search's sample
// gets 0.5 + 0.5·s/s̄ at the end of its game, s its PolicySurprise and
// s̄ the mean surprise of its game's full searches, so that a game's
// samples share out their count among themselves; it is at least 0.5
// and at most MaxSurpriseWeight. 0 means unknown (a run without surprise
// weighting, a shard written before it, a value-only sample), drawn as
// weight 1.
//
// A sample of a board no Position holds (more than rules.MaxSize files or
// ranks) is wide: its position is Wide and its final stones WideFinal
// (Position and Final are zero), and its policy's actions are those of
// the wide action space (rules.WideActionIndex).
type Sample struct {
	Position       rules.Position
	Policy         []ActionProb
	Value          float32
	MovesLeft      int
	Final          rules.Bitboard
	Wide           rules.WidePosition
	WideFinal      rules.WideBitboard
	SurpriseWeight float32
}

// HasAux reports whether s has targets for the auxiliary heads.
func (s Sample) HasAux() bool { return s.MovesLeft > 0 }

// HasSurpriseWeight reports whether s's SurpriseWeight is known.
func (s Sample) HasSurpriseWeight() bool { return s.SurpriseWeight > 0 }

// MinSurpriseWeight and MaxSurpriseWeight bound a known SurpriseWeight:
// 0.5 + 0.5·s/s̄ is at least 0.5 (a surprise of 0), and at most half
// the game's full searches plus 0.5 (all of the game's surprise in one
// sample), a game on a board of rules.MaxSide squares a side having at
// most one ply per stone.
const (
	MinSurpriseWeight = 0.5
	MaxSurpriseWeight = 0.5 + 0.5*rules.MaxSide*rules.MaxSide
)

// PolicySurprise returns how much a policy target surprised the network
// (KataGo's policy surprise): KL(target ‖ prior) = Σ
// target·ln(target/prior) in nats over the actions target has, prior
// the network's priors of the position's legal moves; an action of
// target that prior lacks counts as a prior of 0, and a prior below 1e-6
// as 1e-6 (so that one underflowed prior does not make a sample all but
// the only one drawn). It is at least 0.
func PolicySurprise(target, prior []ActionProb) float64 {
	var kl float64
	for _, t := range target {
		if t.Prob <= 0 {
			continue
		}
		p := 0.0
		if k := slices.IndexFunc(prior, func(q ActionProb) bool { return q.Action == t.Action }); k >= 0 {
			p = float64(prior[k].Prob)
		}
		kl += float64(t.Prob) * math.Log(float64(t.Prob)/max(p, 1e-6))
	}
	return max(kl, 0)
}

// IsWide reports whether s is a sample of a board no Position holds.
func (s Sample) IsWide() bool { return s.Wide.W != 0 }

// Shape returns the shape code of s's board (rules.ShapeCode).
func (s Sample) Shape() int {
	if s.IsWide() {
		return rules.ShapeCode(int(s.Wide.W), int(s.Wide.H))
	}
	return int(s.Position.Size)
}

// Turn is the side to move of s's position.
func (s Sample) Turn() rules.Color {
	if s.IsWide() {
		return s.Wide.Turn
	}
	return s.Position.Turn
}

// Dims writes the board of s: "15x12".
func (s Sample) Dims() string {
	if s.IsWide() {
		return s.Wide.Dims()
	}
	return s.Position.Dims()
}

// Transform returns the sample under a symmetry of the board: the position
// and every action moved by sym. Because the input planes are relative to
// the side to move, every symmetry gives another valid sample.
func (s Sample) Transform(sym rules.Symmetry) Sample {
	if s.IsWide() {
		return s.transformWide(sym)
	}
	n := int(s.Position.Size)
	out := Sample{Position: sym.Position(s.Position), Value: s.Value, Policy: make([]ActionProb, len(s.Policy)),
		MovesLeft: s.MovesLeft, Final: sym.Bitboard(s.Final, n), SurpriseWeight: s.SurpriseWeight}
	for i, ap := range s.Policy {
		m := sym.Move(rules.ActionMove(int(ap.Action), n), n)
		out.Policy[i] = ActionProb{Action: int32(rules.ActionIndex(m, int(out.Position.Size))), Prob: ap.Prob}
	}
	return out
}

// transformWide is Transform of a wide sample.
func (s Sample) transformWide(sym rules.Symmetry) Sample {
	w, h := int(s.Wide.W), int(s.Wide.H)
	out := Sample{Wide: sym.WidePosition(s.Wide), Value: s.Value, Policy: make([]ActionProb, len(s.Policy)),
		MovesLeft: s.MovesLeft, WideFinal: sym.WideBitboard(s.WideFinal, w, h), SurpriseWeight: s.SurpriseWeight}
	for i, ap := range s.Policy {
		m := sym.WideMove(rules.WideActionMove(int(ap.Action), w, h), w, h)
		out.Policy[i] = ActionProb{Action: int32(rules.WideActionIndex(m, int(out.Wide.W), int(out.Wide.H))), Prob: ap.Prob}
	}
	return out
}

// checkWide is check for a wide sample; legal receives the legal moves.
func (s Sample) checkWide(cfg Config, legal []rules.WideMove) ([]rules.WideMove, error) {
	p := s.Wide
	if err := p.Validate(); err != nil {
		return nil, err
	}
	w, h := int(p.W), int(p.H)
	if w <= rules.MaxSize && h <= rules.MaxSize || s.Position != (rules.Position{}) || s.Final != 0 {
		return nil, fmt.Errorf("a wide sample of the %s board, which a Position holds", p.Dims())
	}
	if !cfg.Plays(s.Shape()) {
		return nil, fmt.Errorf("a %s position for the %s network", p.Dims(), cfg.Arch())
	}
	legal = p.LegalMoves(legal[:0])
	if len(legal) == 0 {
		return nil, fmt.Errorf("position has no legal move")
	}
	if err := s.checkTargets(func(a int) bool {
		m := rules.WideActionMove(a, w, h)
		return m != rules.NoWideMove && slices.Contains(legal, m)
	}); err != nil {
		return nil, err
	}
	if !s.MovesLeftOK() {
		return nil, fmt.Errorf("moves left %d outside 0 to the %s board's squares", s.MovesLeft, p.Dims())
	}
	if !s.WideFinal.AndNot(p.Valid()).IsZero() {
		return nil, fmt.Errorf("final stones off the %s board", p.Dims())
	}
	return legal, nil
}

// checkTargets reports a policy entry whose action isLegal rejects or
// whose probability is not one, a policy whose entries sum to 0, or a
// value outside [-1, 1]: the checks that check and checkWide share.
func (s Sample) checkTargets(isLegal func(action int) bool) error {
	var sum float64
	for _, ap := range s.Policy {
		if !isLegal(int(ap.Action)) {
			return fmt.Errorf("policy action %d is not a legal move", ap.Action)
		}
		if !(ap.Prob >= 0) || math.IsInf(float64(ap.Prob), 0) {
			return fmt.Errorf("policy probability %v of action %d is not a probability", ap.Prob, ap.Action)
		}
		sum += float64(ap.Prob)
	}
	if len(s.Policy) > 0 && !(sum > 0) {
		return fmt.Errorf("policy sums to 0")
	}
	if !(s.Value >= -1 && s.Value <= 1) {
		return fmt.Errorf("value %v outside [-1, 1]", s.Value)
	}
	return nil
}

// check reports why s cannot train a network of cfg: a bad position, one
// of a board the network does not play (a single-board network plays its
// own board only in training), a
// terminal one, a policy entry that is not a legal move or not a
// probability, a policy whose entries sum to 0 (no entries at all is a
// value-only sample), a value outside [-1, 1], or auxiliary targets out
// of range (a negative or too large MovesLeft, Final off the board).
// legal receives the legal moves.
func (s Sample) check(cfg Config, legal []rules.Move) ([]rules.Move, error) {
	p := s.Position
	if s.IsWide() {
		return nil, fmt.Errorf("a wide sample where a Position's is expected")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	size := int(p.Size)
	if !cfg.MultiBoard() && size != cfg.Size {
		return nil, fmt.Errorf("position of size %d for a %dx%d network", p.Size, cfg.Size, cfg.Size)
	}
	if !cfg.Plays(size) {
		return nil, fmt.Errorf("a %s position for the %s network", p.Dims(), cfg.Arch())
	}
	legal = p.LegalMoves(legal[:0])
	if len(legal) == 0 {
		return nil, fmt.Errorf("position has no legal move")
	}
	if err := s.checkTargets(func(a int) bool {
		m := rules.ActionMove(a, size)
		return m != rules.NoMove && contains(legal, m)
	}); err != nil {
		return nil, err
	}
	if !s.MovesLeftOK() {
		return nil, fmt.Errorf("moves left %d outside 0 to the %s board's squares", s.MovesLeft, p.Dims())
	}
	if s.Final&^p.Valid() != 0 {
		return nil, fmt.Errorf("final stones %#x off the %s board", s.Final, p.Dims())
	}
	return legal, nil
}

// FinalOnBoard reports whether s's final stones (Final, or WideFinal on a
// board above 8x8) all lie on its board (its position must be valid).
func (s Sample) FinalOnBoard() bool {
	if s.IsWide() {
		return s.WideFinal.AndNot(s.Wide.Valid()).IsZero()
	}
	return s.Final&^s.Position.Valid() == 0
}

// MovesLeftOK reports whether s.MovesLeft is possible on s's board (its
// position must be valid): 0 up to the board's number of squares, as no
// game has more plies than its board has squares (two removals, then each
// jump captures a stone).
func (s Sample) MovesLeftOK() bool {
	squares := s.Position.Width() * s.Position.Height()
	if s.IsWide() {
		squares = int(s.Wide.W) * int(s.Wide.H)
	}
	return s.MovesLeft >= 0 && s.MovesLeft <= squares
}

func contains(moves []rules.Move, m rules.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// maskedLogit is added to the logit of every illegal action before the
// softmax: exp of it is exactly 0 in float32 and float64, and it stays
// finite, so a zero target times its log-probability is 0, not NaN.
const maskedLogit = -1e9

// SampleEncoder writes samples as the rows of a training batch of a
// network of one board: the inputs, the policy's mask and target, and
// the auxiliary heads' targets, as the network's training reads them. It
// keeps buffers for the legal moves: it belongs to one goroutine at a
// time.
type SampleEncoder struct {
	cfg       Config
	shape     int
	w, h      int
	legal     []rules.Move
	wideLegal []rules.WideMove
}

// NewSampleEncoder returns the encoder of samples of the board of the
// shape code (Sample.Shape) for a network of cfg (Check refuses every
// sample if the network cannot play the board).
func NewSampleEncoder(cfg Config, shape int) *SampleEncoder {
	w, h := rules.ShapeDims(shape)
	return &SampleEncoder{cfg: cfg, shape: shape, w: w, h: h,
		legal: make([]rules.Move, 0, rules.MaxMoves), wideLegal: make([]rules.WideMove, 0, rules.WideMaxMoves)}
}

// InputLen is the number of inputs of a row (Encoding.EncodedLen), Slots
// that of policy logits (Config.Slots), Squares that of ownership
// targets (the board's squares).
func (e *SampleEncoder) InputLen() int { return e.cfg.Encoding().EncodedLen(e.shape) }
func (e *SampleEncoder) Slots() int    { return e.cfg.Slots(e.shape) }
func (e *SampleEncoder) Squares() int  { return e.w * e.h }

// Check reports why s cannot train the network on the encoder's board:
// another board, and every reason of Sample.check.
func (e *SampleEncoder) Check(s Sample) error {
	if s.Shape() != e.shape {
		return fmt.Errorf("a %s position for the %dx%d board's encoder", s.Dims(), e.w, e.h)
	}
	var err error
	if s.IsWide() {
		_, err = s.checkWide(e.cfg, e.wideLegal)
	} else {
		_, err = s.check(e.cfg, e.legal)
	}
	return err
}

// Encode writes sample s (checked, and already transformed by any
// symmetry) as one row of a batch: its InputLen inputs into x, its mask
// into mask (0 on the slots of legal actions, maskedLogit on the others)
// and its target distribution into policy (the policy normalised, 0
// outside it; all 0 for a value-only sample), both of Slots entries.
func (e *SampleEncoder) Encode(s Sample, x, mask, policy []float32) {
	clear(policy)
	for i := range mask {
		mask[i] = maskedLogit
	}
	var sum float32
	for _, ap := range s.Policy {
		sum += ap.Prob
	}
	encoding := e.cfg.Encoding()
	if s.IsWide() {
		moves := s.Wide.LegalMoves(e.wideLegal[:0])
		encoding.encodeWideRows(s.Wide, moves, x)
		hops := e.cfg.hops()
		for _, m := range moves {
			mask[wideSlot(m, e.w, hops)] = 0
		}
		for _, ap := range s.Policy {
			policy[wideSlot(rules.WideActionMove(int(ap.Action), e.w, e.h), e.w, hops)] += ap.Prob / sum
		}
		return
	}
	slot := e.cfg.slotTable(e.shape)
	moves := s.Position.LegalMoves(e.legal[:0])
	encoding.encodeRows(s.Position, moves, x)
	for _, m := range moves {
		mask[slot[rules.ActionIndex(m, e.shape)]] = 0
	}
	for _, ap := range s.Policy {
		policy[int(slot[ap.Action])] += ap.Prob / sum
	}
}

// AuxTargets writes the ownership target of s into own, unless it is
// nil (Squares entries: 1 on every square holding a stone at the game's
// end, square (row, col) at row·W + col), and returns the sample's
// weight in the auxiliary losses (1 if it has auxiliary targets, else 0)
// and its moves-left target (the plies left as a fraction of the
// board's squares, at most 1).
func (e *SampleEncoder) AuxTargets(s Sample, own []float32) (weight, movesLeft float32) {
	w, h := e.w, e.h
	for r := 0; r < h && own != nil; r++ {
		for c := 0; c < w; c++ {
			if s.IsWide() {
				own[r*w+c] = 0
				if s.WideFinal.Has(rules.WideSquareAt(r, c)) {
					own[r*w+c] = 1
				}
				continue
			}
			own[r*w+c] = float32(s.Final >> rules.SquareAt(r, c) & 1)
		}
	}
	if !s.HasAux() {
		return 0, 0
	}
	return 1, min(1, float32(s.MovesLeft)/float32(w*h))
}
