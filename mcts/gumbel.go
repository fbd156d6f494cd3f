package mcts

import (
	"math"
	"math/bits"
)

// Gumbel mode follows "Policy improvement by planning with Gumbel"
// (Danihelka, Guez, Schrittwieser, Silver; ICLR 2022) as implemented by
// DeepMind's mctx library:
//
//   - Root: each legal move a gets a score g(a) + logit(a), where g is a
//     Gumbel sample (0 without noise) and logit = log prior. Sequential
//     Halving spends the simulation budget on the m = GumbelSampled best
//     moves by that score, in ⌈log2 m⌉ phases that each drop the worse
//     half by g + logit + σ(q̂), and the survivor is Result.Best. The
//     schedule (which visit count the next root selection must have) is
//     mctx's, so the budget is used exactly and the first m simulations
//     visit the top m moves once each.
//   - Below the root: the paper's deterministic selection, argmax of
//     π'(a) − N(a)/(1+Σ_b N(b)), with π' = softmax(logit + σ(q̂)); no
//     noise and no constant to tune.
//   - q̂ is the completed Q: a visited move's mean value, an unvisited
//     move's the "mixed value" (the node's own evaluation blended with
//     the prior-weighted mean of the visited moves), mapped from the
//     value range [-1,1] to [0,1]; σ(q̂) = (CVisit + max_b N(b)) · CScale · q̂.
//     (mctx instead rescales by the min and max Q among the node's moves,
//     which turns tiny, noisy differences into a full-range spread; a game
//     with known value bounds does not need that.)
//   - The training target (Result.Policy) is π' at the root.
//   - With tree reuse, Sequential Halving counts only this Run's root
//     visits (so it always spends exactly the budget), while Q and the
//     visit counts in σ include the reused subtree.

// halvingSchedule returns, for each of the budget root selections of a
// Run considering m moves, the visit count (in this Run) of the move it
// must pick: the considered move with that count and the best score.
// It reuses buf and scratch.
func halvingSchedule(m, budget int, buf, scratch []int32) (schedule, scratchOut []int32) {
	buf = buf[:0]
	if m <= 1 {
		for i := range budget {
			buf = append(buf, int32(i))
		}
		return buf, scratch
	}
	log2m := bits.Len(uint(m - 1)) // ⌈log2 m⌉
	visits := resize(scratch, m)
	clear(visits)
	considered := m
	for len(buf) < budget {
		extra := max(1, budget/(log2m*considered))
		for range extra {
			buf = append(buf, visits[:considered]...)
			for i := range considered {
				visits[i]++
			}
		}
		considered = max(2, considered/2)
	}
	return buf[:budget], visits
}

// logPrior is the logit of a prior, finite even for a zero prior.
func logPrior(p float32) float64 {
	return math.Log(max(float64(p), math.SmallestNonzeroFloat32))
}

// sigma fills s.sig with σ(q̂) for the children of node idx, counting
// visits in flight as losses, and returns it.
func (s *SearchOf[P, M]) sigma(idx int32) []float64 {
	nd := &s.t.nodes[idx]
	edges := s.t.children(idx)
	s.sig = resize(s.sig, len(edges))
	var sumN, maxN int32
	var sumP, sumPQ float64
	for i := range edges {
		n, q := s.t.childStats(&edges[i])
		s.sig[i] = math.NaN() // completed below
		if n > 0 {
			s.sig[i] = q
			p := max(float64(edges[i].prior), math.SmallestNonzeroFloat32)
			sumN += n
			sumP += p
			sumPQ += p * q
			maxN = max(maxN, n)
		}
	}
	mixed := float64(nd.value)
	if sumN > 0 {
		mixed = (mixed + float64(sumN)*sumPQ/sumP) / float64(sumN+1)
	}
	scale := (s.cfg.CVisit + float64(maxN)) * s.cfg.CScale
	for i := range edges {
		if math.IsNaN(s.sig[i]) {
			s.sig[i] = mixed
		}
		s.sig[i] = scale * (s.sig[i] + 1) / 2
	}
	return s.sig
}

// selectGumbelRoot picks the root move Sequential Halving asks for next.
func (s *SearchOf[P, M]) selectGumbelRoot() int32 {
	sig := s.sigma(0)
	edges := s.t.children(0)
	want := s.schedule[s.selected]
	best, bestScore := -1, math.Inf(-1)
	for i := range sig {
		if s.runVisits[i] != want || s.t.provenLoss(&edges[i]) {
			continue
		}
		if score := s.gumbel[i] + s.logits[i] + sig[i]; score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		// The moves the schedule asks for are proven to lose: take the
		// least visited of the others (by score among equals). Some move
		// is not proven to lose, or the root would be proven.
		fewest := int32(math.MaxInt32)
		for i := range sig {
			if s.t.provenLoss(&edges[i]) {
				continue
			}
			score := s.gumbel[i] + s.logits[i] + sig[i]
			if s.runVisits[i] < fewest || s.runVisits[i] == fewest && score > bestScore {
				best, bestScore, fewest = i, score, s.runVisits[i]
			}
		}
	}
	if best < 0 { // cannot happen; stay safe
		best = 0
	}
	s.runVisits[best]++
	s.selected++
	return s.t.nodes[0].first + int32(best)
}

// gumbelWinner returns the index of the root move Sequential Halving
// chose: among the moves visited most in this Run, the best by
// g + logit + σ(q̂). With proofs, only the moves they allow compete (the
// proven wins of a won root, the moves not proven to lose otherwise).
func (s *SearchOf[P, M]) gumbelWinner() int {
	sig := s.sigma(0)
	edges := s.t.children(0)
	ok := s.allowed(0)
	most := int32(-1)
	for i, v := range s.runVisits {
		if s.t.allows(ok, &edges[i]) {
			most = max(most, v)
		}
	}
	best, bestScore := 0, math.Inf(-1)
	for i := range sig {
		if s.runVisits[i] != most || !s.t.allows(ok, &edges[i]) {
			continue
		}
		if score := s.gumbel[i] + s.logits[i] + sig[i]; score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// improvedPolicy writes π' = softmax(logit + σ(q̂)) of node idx's moves
// into out.
func (s *SearchOf[P, M]) improvedPolicy(idx int32, out []float32) {
	pi := s.improved(idx)
	for i, p := range pi {
		out[i] = float32(p)
	}
}

// improved computes π' of node idx's moves in s.sig and returns it.
func (s *SearchOf[P, M]) improved(idx int32) []float64 {
	edges := s.t.children(idx)
	sig := s.sigma(idx)
	top := math.Inf(-1)
	for i := range sig {
		sig[i] += logPrior(edges[i].prior)
		top = max(top, sig[i])
	}
	return expNormalize(sig, top)
}

// selectGumbel is the paper's deterministic selection below the root:
// argmax π'(a) − N(a)/(1 + Σ_b N(b)).
func (s *SearchOf[P, M]) selectGumbel(idx int32) int32 {
	edges := s.t.children(idx)
	pi := s.improved(idx)
	var total int32
	for i := range edges {
		n, _ := s.t.childStats(&edges[i])
		total += n
	}
	best, bestScore := 0, math.Inf(-1)
	for i := range edges {
		if s.t.provenLoss(&edges[i]) {
			continue
		}
		n, _ := s.t.childStats(&edges[i])
		if score := pi[i] - float64(n)/float64(1+total); score > bestScore {
			best, bestScore = i, score
		}
	}
	return s.t.nodes[idx].first + int32(best)
}
