package rulestest

import "github.com/konanezero/konane/rules"

// Wins reports whether the side to move wins p with perfect play, by a
// plain memoized negamax over memo: a reference independent of package
// solver, for boards small enough to search to the end (4x4, 5x5).
func Wins(p rules.Position, memo map[rules.Position]bool) bool {
	if w, ok := memo[p]; ok {
		return w
	}
	var buf [rules.MaxMoves]rules.Move
	win := false
	for _, m := range p.LegalMoves(buf[:0]) {
		if !Wins(p.Play(m), memo) {
			win = true
			break
		}
	}
	memo[p] = win
	return win
}
