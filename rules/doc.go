// Package rules is the exact game of Kōnane on square boards of size 4 to 8:
// positions, moves, legal-move generation, notation, symmetries (and
// Position.Canonical, one image for all eight), games being played with
// their history (Game: moves, positions, take-backs, its record), game
// records, random games (Playout) and perft.
//
// Everything else in the project trusts this package, and it imports
// nothing else of the project; it writes no files either (a record gives
// its bytes with MarshalFor, and the caller writes them). Errors a person
// reads carry their facts in a type (MoveError, GameOverError, RecordError), for each
// interface to phrase.
//
// # The game
//
// Every square starts filled; Black stands on squares whose row+col is even
// (a1 is Black). Black first removes one of its stones from a corner or a
// central square (the middle 2x2 block for even sizes, the middle square
// for odd sizes); White then removes one of its stones orthogonally
// adjacent to that hole. From then on the players alternate jumps: a stone
// jumps orthogonally over an adjacent enemy stone into the empty square
// behind it, capturing it, and may continue in the same direction over
// further enemy stones into empty squares, stopping after any hop. Every
// stopping point is a distinct move. A player who has no legal move loses.
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
