// Package rules is the exact game of Kōnane on boards of 4 to 16 files
// and ranks with either start (Board, ParseBoard): positions, moves,
// legal-move generation, notation, symmetries (and Position.Canonical),
// games being played with their history (Game: moves, positions,
// take-backs, its record, its outcome: who won, by no move left or by
// resignation), game records, random games (Playout) and perft. Position
// (one 64-bit word per colour) holds every board of at most 8 files and 8
// ranks; WidePosition (four words) every board up to 16x16. It imports
// nothing else of the project and writes no files.
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
// Moves are written as AbstractPlay does: files a..p from left to right,
// ranks 1..16 from bottom to top; a removal is its square ("d4"), a jump is
// origin and final landing ("f4-d4").
package rules
