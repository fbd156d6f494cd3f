package mcts

import "math"

// selectPUCT returns the edge of node idx that maximizes AlphaZero's
// PUCT score Q + c·P·√N/(1+n), where an untried move's Q is the parent's
// mean value lowered by first-play urgency. prior, when not nil, replaces
// the edges' priors (the root's noisy priors).
func (s *SearchOf[P, M]) selectPUCT(idx int32, prior []float64) int32 {
	nd := &s.t.nodes[idx]
	edges := s.t.children(idx)
	parentN := float64(nd.n + nd.vl)
	c := s.cfg.CPuct
	if s.cfg.CPuctBase > 0 {
		c += math.Log((parentN + s.cfg.CPuctBase + 1) / s.cfg.CPuctBase)
	}
	c *= math.Sqrt(parentN)

	p := func(i int) float64 {
		if prior != nil {
			return prior[i]
		}
		return float64(edges[i].prior)
	}
	parentQ := float64(nd.value)
	if nd.n > 0 {
		parentQ = -nd.w / float64(nd.n)
	}
	visitedMass := 0.0
	for i := range edges {
		if ch := edges[i].child; ch != 0 && s.t.nodes[ch].n+s.t.nodes[ch].vl > 0 {
			visitedMass += p(i)
		}
	}
	fpu := parentQ - s.cfg.FPUReduction*math.Sqrt(visitedMass)

	// A move proven to lose is never chosen: the node is not proven
	// (proofs stop the search there), so some move is not proven to lose.
	best, bestScore := 0, math.Inf(-1)
	for i := range edges {
		if s.t.provenLoss(&edges[i]) {
			continue
		}
		n, q := s.t.childStats(&edges[i])
		if n == 0 {
			q = fpu
		}
		if score := q + c*p(i)/(1+float64(n)); score > bestScore {
			best, bestScore = i, score
		}
	}
	return nd.first + int32(best)
}
