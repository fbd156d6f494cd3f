// Package rules is the exact game of Kōnane on square boards of size 4 to 8:
// positions, moves, legal-move generation, notation, symmetries (and
// Position.Canonical, one image for all eight), games being played with
// their history (Game: moves, positions, take-backs, its record, its
// outcome: who won, by no move left or by resignation), game
// records, random games (Playout) and perft.
//
// The design and its reasons: docs/internals/rules.md.
//
// # Usage
//
//	p := rules.NewPosition(8)
//	var buf [rules.MaxMoves]rules.Move
//	for {
//		moves := p.LegalMoves(buf[:0])
//		if len(moves) == 0 {
//			fmt.Println(p.Turn.Other(), "wins")
//			break
//		}
//		p = p.Play(moves[0])
//	}
//
// Moves are written as AbstractPlay does: files a.. from left to right,
// ranks 1.. from bottom to top; a removal is its square ("d4"), a jump is
// origin and final landing ("f4-d4").
package rules
