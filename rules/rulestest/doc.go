// Package rulestest gives tests positions from seeded random games, as
// net/http/httptest gives them servers, and a plain negamax (Wins) to
// check the searches against. It imports only rules, so that the
// tests of every package above rules can share it; the internal tests of
// rules itself cannot (rules' own package importing rulestest would be a
// cycle) and keep their helpers in rules/helpers_test.go.
//
// Each function that draws positions takes the caller's random source,
// so that a test keeps its own seed and stream and gets the same
// positions on every run:
//
//	rng := rand.New(rand.NewPCG(seed, 1))
//	for _, p := range rulestest.Games(rng, 6, 10) {
//		// p has a legal move
//	}
package rulestest
