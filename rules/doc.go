// Package rules is the exact game of Kōnane: positions, moves, legal-move
// generation, notation, symmetries (and Position.Canonical, one image for
// all eight), games being played with their history (Game: moves,
// positions, take-backs, its record), game records, random games (Playout)
// and perft.
//
// # Boards
//
// A Board is any board of 4 to 16 files and ranks with its start (the
// removals, or the gap start of AbstractPlay's 7x6, 9x8, 11x8 and 15x12);
// ParseBoard reads "8", "7x6", "7x6/removal" and AbstractPlay's variant ids.
// Two representations play them, move for move alike: Position, one 64-bit
// word per colour, holds every board of at most 8 files and 8 ranks (the
// square boards 4..8 that the rest of the project plays, and the
// rectangles among them); WidePosition, four words per colour, holds every
// board up to 16x16 and serves perft and notation there. Game, records,
// actions and the symmetry tables of the network still take square sizes.
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
// central square (the middle file, or two files on an even width, on the
// middle rank, or two ranks on an even height); White then removes one of its stones orthogonally
// adjacent to that hole. From then on the players alternate jumps: a stone
// jumps orthogonally over an adjacent enemy stone into the empty square
// behind it, capturing it, and may continue in the same direction over
// further enemy stones into empty squares, stopping after any hop. Every
// stopping point is a distinct move. A player who has no legal move loses.
// With the gap start the two stones of Board.GapSquares are gone from the
// start and Black jumps first.
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
