package player

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/konanezero/konane/rules"
)

// Weights are the weights of the PVS engine's evaluation, a linear sum of
// differences of features between the side to move and its opponent:
//
//	Mobility   the jumps a side has (every landing square counts)
//	Safe       its jumps the opponent cannot answer by capturing the
//	           jumper on its landing square
//	Potential  its stones next to an opponent's stone with a square of the
//	           board behind it that is occupied now: jumps that open when
//	           that square empties
//	Tempo      a bonus for the side to move
//	Jumpers    its stones that have a jump (a stone with several jumps
//	           can make only one of them: moves counted apart)
//	Region     its jumpers in regions where the opponent has no jump: the
//	           position split into independent parts (stones joined by
//	           orthogonal contact, since a jump needs contact), where a
//	           part that gives only one side moves is that side's reserve
//
// The evaluation is Mobility·Δmoves + Safe·Δsafe + Potential·Δpotential +
// Tempo + Jumpers·Δjumpers + Region·Δreserve, in units where the default
// Mobility weight is 4 (one jump more than the opponent, and nothing else,
// scores 4).
type Weights struct {
	Mobility, Safe, Potential, Tempo int32
	Jumpers, Region                  int32
}

// Evaluation presets, named in a spec's eval= setting.
var (
	// EvalMobility is the plain mobility difference (Evaluate), times 4.
	EvalMobility = Weights{Mobility: 4}
	// EvalDefault is the PVS engine's evaluation, chosen by matches (see
	// docs/results).
	EvalDefault = Weights{Mobility: 4, Safe: 4, Jumpers: 4}
)

// ParseWeights reads an evaluation: "mob" (EvalMobility), "full"
// (EvalDefault), or four integers M/S/P/T (Mobility, Safe, Potential,
// Tempo), like "4/4/0/0", or six, M/S/P/T/J/R (Jumpers and Region too).
func ParseWeights(s string) (Weights, error) {
	switch strings.ToLower(s) {
	case "mob":
		return EvalMobility, nil
	case "full", "default":
		return EvalDefault, nil
	}
	parts := strings.Split(s, "/")
	if len(parts) != 4 && len(parts) != 6 {
		return Weights{}, fmt.Errorf("want mob, full, or four or six integers M/S/P/T[/J/R] like 4/4/1/0")
	}
	var v [6]int32
	for i, part := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < -1000 || n > 1000 {
			return Weights{}, fmt.Errorf("weight %q: want an integer in -1000..1000", part)
		}
		v[i] = int32(n)
	}
	return Weights{Mobility: v[0], Safe: v[1], Potential: v[2], Tempo: v[3], Jumpers: v[4], Region: v[5]}, nil
}

// String writes the weights as ParseWeights reads them (four numbers when
// Jumpers and Region are 0).
func (w Weights) String() string {
	if w.Jumpers == 0 && w.Region == 0 {
		return fmt.Sprintf("%d/%d/%d/%d", w.Mobility, w.Safe, w.Potential, w.Tempo)
	}
	return fmt.Sprintf("%d/%d/%d/%d/%d/%d", w.Mobility, w.Safe, w.Potential, w.Tempo, w.Jumpers, w.Region)
}

// features are the evaluation's counts for one side.
type features struct {
	moves, safe, potential int32
	jumpers                rules.Bitboard // the stones that have a jump
}

// evaluate returns the evaluation of a jumping position p for its side to
// move, and the number of jumps the side to move has (0: it has lost).
func (w *Weights) evaluate(p rules.Position) (score int32, moves int32) {
	valid := p.Valid()
	own, opp := p.Black, p.White
	if p.Turn == rules.White {
		own, opp = opp, own
	}
	empty := valid &^ (own | opp)
	us := sideFeatures(own, opp, empty, valid)
	if us.moves == 0 {
		return 0, 0
	}
	them := sideFeatures(opp, own, empty, valid)
	score = w.Mobility*(us.moves-them.moves) + w.Safe*(us.safe-them.safe) +
		w.Potential*(us.potential-them.potential) + w.Tempo
	if w.Jumpers != 0 {
		score += w.Jumpers * int32(bits.OnesCount64(us.jumpers)-bits.OnesCount64(them.jumpers))
	}
	if w.Region != 0 {
		score += w.Region * reserve(us.jumpers, them.jumpers, own|opp, valid)
	}
	return score, us.moves
}

// reserve splits the stones occ into regions, the sets of stones joined
// by orthogonal contact (a jump needs an adjacent enemy stone, so jumper
// and captured stone share a region), and returns the jumpers of the
// side to move in regions where the opponent has none, less the
// opponent's jumpers in regions where the side to move has none.
func reserve(ours, theirs, occ, valid rules.Bitboard) int32 {
	var n int32
	for rest := ours | theirs; rest != 0; {
		r := rest & -rest
		for {
			g := (r | north(r, valid) | south(r) | east(r, valid) | west(r)) & occ
			if g == r {
				break
			}
			r = g
		}
		rest &^= r
		switch a, b := ours&r, theirs&r; {
		case b == 0:
			n += int32(bits.OnesCount64(a))
		case a == 0:
			n -= int32(bits.OnesCount64(b))
		}
	}
	return n
}

// Direction shifts on a board whose squares are valid (see rules' bit
// layout): each moves every stone one square and drops those that leave
// the board.
const (
	fileA rules.Bitboard = 0x0101010101010101
	fileH rules.Bitboard = fileA << 7
	rank1 rules.Bitboard = 0xff
	rank8 rules.Bitboard = rank1 << 56
)

func north(b, valid rules.Bitboard) rules.Bitboard { return b << 8 & valid }
func south(b rules.Bitboard) rules.Bitboard        { return b >> 8 }
func east(b, valid rules.Bitboard) rules.Bitboard  { return b << 1 &^ fileA & valid }
func west(b rules.Bitboard) rules.Bitboard         { return b >> 1 &^ fileH }

// sideFeatures counts the features of the side whose stones are own.
func sideFeatures(own, opp, empty, valid rules.Bitboard) features {
	var f features
	// A jumper landing on t is captured at once when an opponent's stone
	// stands just beyond t in the jump's direction (it jumps back into
	// the square the last captured stone left), or when one stands beside
	// t across the jump with an empty square on t's other side.
	pinchH := west(opp)&east(empty, valid) | east(opp, valid)&west(empty)
	pinchV := south(opp)&north(empty, valid) | north(opp, valid)&south(empty)
	// The jumpers: the stones whose first hop lands on an empty square.
	f.jumpers = south(south(north(north(own, valid)&opp, valid)&empty)) |
		north(north(south(south(own)&opp)&empty, valid), valid) |
		west(west(east(east(own, valid)&opp, valid)&empty)) |
		east(east(west(west(own)&opp)&empty, valid), valid)

	// North, south, east and west, each step a rotation and the squares
	// it may land on (the mask drops the stones that leave the board,
	// which the rotation brings round to the other edge); the step back
	// or a pinch across the jump captures a jumper at once.
	f.ray(own, opp, empty, south(opp)|pinchH, 8, valid&^rank1)
	f.ray(own, opp, empty, north(opp, valid)|pinchH, -8, ^rank8)
	f.ray(own, opp, empty, west(opp)|pinchV, 1, valid&^fileA)
	f.ray(own, opp, empty, east(opp, valid)|pinchV, -1, ^fileH)
	return f
}

// ray adds to f the counts of one direction, whose step rotates the
// board by k bits and keeps the squares of mask: the jumps of the stones
// own, single and multiple (moves), those whose landing square is not in
// vuln, where the jumper is captured at once (safe), and the first hops
// over an opponent's stone whose landing square is occupied (potential).
func (f *features) ray(own, opp, empty, vuln rules.Bitboard, k int, mask rules.Bitboard) {
	over, land := opp&mask, empty&mask
	hop := bits.RotateLeft64(bits.RotateLeft64(own, k)&over, k) & mask
	f.potential += int32(bits.OnesCount64(hop &^ empty))
	for l := hop & empty; l != 0; l = bits.RotateLeft64(bits.RotateLeft64(l, k)&over, k) & land {
		f.moves += int32(bits.OnesCount64(l))
		f.safe += int32(bits.OnesCount64(l &^ vuln))
	}
}
