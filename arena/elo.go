package arena

import (
	"fmt"
	"math"
)

// Rating is one player's Elo estimate.
type Rating struct {
	Name string
	Elo  float64
	// Low and High bound the 95% confidence interval of Elo relative to
	// the anchor (whose interval is its rating alone), from the observed
	// Fisher information of the fit: Elo ± 1.96 standard errors.
	Low, High float64
	SE        float64 // standard error of Elo
	Games     int
	Wins      int
}

// eloPerNatural converts the natural-log strength scale of the
// Bradley–Terry model to Elo points: 400 / ln 10.
var eloPerNatural = 400 / math.Ln10

// FitElo estimates Elo ratings from pair results by maximum likelihood in
// the Bradley–Terry model, P(i beats j) = 1 / (1 + 10^((Rj - Ri)/400)),
// with Newton's method, anchored so that names[anchor] rates 0.
//
// prior adds that many virtual draws (prior/2 wins each way) to every
// pair that played. With prior 0 the estimate is the pure maximum
// likelihood, which does not exist (it is infinite) when some group of
// players won every game against the rest; FitElo then fails and says so.
// A small prior (1) keeps such ratings finite and large, with wide
// intervals. Every player must be linked to the anchor by played games.
func FitElo(names []string, pairs []Pair, anchor int, prior float64) ([]Rating, error) {
	n := len(names)
	if n == 0 {
		return nil, fmt.Errorf("arena: elo: no players")
	}
	if anchor < 0 || anchor >= n {
		return nil, fmt.Errorf("arena: elo: anchor %d is not a player (0..%d)", anchor, n-1)
	}
	if prior < 0 || math.IsNaN(prior) {
		return nil, fmt.Errorf("arena: elo: prior %g: want ≥ 0", prior)
	}
	ratings := make([]Rating, n)
	w := make([][]float64, n) // w[i][j]: wins of i over j, with the prior
	for i := range w {
		w[i] = make([]float64, n)
		ratings[i].Name = names[i]
	}
	for _, p := range pairs {
		if p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B {
			return nil, fmt.Errorf("arena: elo: pair (%d, %d) is not two players of %d", p.A, p.B, n)
		}
		if p.Games() == 0 {
			continue
		}
		w[p.A][p.B] += float64(p.WinsA) + prior/2
		w[p.B][p.A] += float64(p.WinsB) + prior/2
		ratings[p.A].Games += p.Games()
		ratings[p.B].Games += p.Games()
		ratings[p.A].Wins += p.WinsA
		ratings[p.B].Wins += p.WinsB
	}
	if err := checkEstimable(names, w, anchor); err != nil {
		return nil, err
	}

	// free lists the players whose rating is estimated (all but the anchor).
	free := make([]int, 0, n-1)
	for i := 0; i < n; i++ {
		if i != anchor {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return ratings, nil // the anchor alone: rated 0 by definition
	}
	theta, err := newtonFit(w, free)
	if err != nil {
		return nil, err
	}
	_, info := derivatives(w, theta, free)
	chol, ok := factorize(info)
	if !ok {
		return nil, fmt.Errorf("arena: elo: the information matrix is singular")
	}
	for i := range ratings {
		ratings[i].Elo = theta[i] * eloPerNatural
		ratings[i].Low, ratings[i].High = ratings[i].Elo, ratings[i].Elo
	}
	for k, i := range free {
		se := math.Sqrt(chol.inverseDiag(k)) * eloPerNatural
		ratings[i].SE = se
		ratings[i].Low, ratings[i].High = ratings[i].Elo-1.96*se, ratings[i].Elo+1.96*se
	}
	return ratings, nil
}

// newtonFit returns the maximum-likelihood natural-log strengths of the
// players given the win counts w, by Newton's method with step halving;
// the players not in free (the anchor) stay at 0.
func newtonFit(w [][]float64, free []int) ([]float64, error) {
	n := len(w)
	theta := make([]float64, n) // natural-log strengths, theta[anchor] = 0
	for iter := 0; ; iter++ {
		grad, info := derivatives(w, theta, free)
		chol, ok := factorize(info)
		if !ok {
			return nil, fmt.Errorf("arena: elo: the information matrix is singular")
		}
		step := chol.solve(grad)
		// Newton step, halved until the likelihood does not decrease.
		ll0 := logLikelihood(w, theta)
		next := make([]float64, n)
		maxStep := 0.0
		for scale := 1.0; ; scale /= 2 {
			copy(next, theta)
			maxStep = 0
			for k, i := range free {
				d := scale * step[k]
				next[i] += d
				maxStep = math.Max(maxStep, math.Abs(d))
			}
			if logLikelihood(w, next) >= ll0-1e-12 || scale < 1e-6 {
				break
			}
		}
		theta = next
		if maxStep < 1e-10 {
			return theta, nil
		}
		if iter == 200 {
			return nil, fmt.Errorf("arena: elo: the fit did not converge")
		}
	}
}

func logLikelihood(w [][]float64, theta []float64) float64 {
	ll := 0.0
	for i := range w {
		for j, wins := range w[i] {
			if wins > 0 {
				// log σ(θi-θj), computed stably.
				ll -= wins * math.Log1p(math.Exp(theta[j]-theta[i]))
			}
		}
	}
	return ll
}

// derivatives returns the gradient of the log-likelihood and the observed
// information (minus the Hessian, a symmetric matrix by rows) with
// respect to the free strengths.
func derivatives(w [][]float64, theta []float64, free []int) ([]float64, [][]float64) {
	n := len(w)
	pos := make([]int, n) // index of a player among the free ones, or -1
	for i := range pos {
		pos[i] = -1
	}
	for k, i := range free {
		pos[i] = k
	}
	grad := make([]float64, len(free))
	info := make([][]float64, len(free))
	for k := range info {
		info[k] = make([]float64, len(free))
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			games := w[i][j] + w[j][i]
			if games == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(theta[j]-theta[i])) // P(i beats j)
			v := games * p * (1 - p)
			ki, kj := pos[i], pos[j]
			if ki >= 0 {
				grad[ki] += w[i][j] - games*p
				info[ki][ki] += v
			}
			if kj >= 0 {
				grad[kj] += w[j][i] - games*(1-p)
				info[kj][kj] += v
			}
			if ki >= 0 && kj >= 0 {
				info[ki][kj] -= v
				info[kj][ki] -= v
			}
		}
	}
	return grad, info
}

// checkEstimable fails when some player is not linked to the anchor by
// games, or when the maximum likelihood is infinite: when some player
// cannot reach the anchor, or be reached from it, along "beat" edges
// (some group then won, or lost, every game against the others).
func checkEstimable(names []string, w [][]float64, anchor int) error {
	n := len(w)
	reach := func(from int, edge func(i, j int) bool) []bool {
		seen := make([]bool, n)
		seen[from] = true
		stack := []int{from}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := 0; j < n; j++ {
				if !seen[j] && edge(i, j) {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	linked := reach(anchor, func(i, j int) bool { return w[i][j]+w[j][i] > 0 })
	beaten := reach(anchor, func(i, j int) bool { return w[i][j] > 0 }) // players the anchor's group beat, transitively
	beat := reach(anchor, func(i, j int) bool { return w[j][i] > 0 })   // players who beat the anchor, transitively
	for i := 0; i < n; i++ {
		switch {
		case !linked[i]:
			return fmt.Errorf("arena: elo: %s played no game linked to the anchor %s", names[i], names[anchor])
		case !beaten[i]:
			return fmt.Errorf("arena: elo: %s rates infinitely above the anchor %s: no chain of won games leads from %s to it (use a prior > 0)", names[i], names[anchor], names[anchor])
		case !beat[i]:
			return fmt.Errorf("arena: elo: %s rates infinitely below the anchor %s: no chain of won games leads from it to %s (use a prior > 0)", names[i], names[anchor], names[anchor])
		}
	}
	return nil
}

// cholesky is the factor L of a symmetric positive definite matrix
// A = L·Lᵀ (lower triangle, by rows): the information matrices of the fit,
// a few players across.
type cholesky [][]float64

// factorize returns the Cholesky factor of the symmetric matrix a, and
// false if a is not positive definite.
func factorize(a [][]float64) (cholesky, bool) {
	n := len(a)
	l := make(cholesky, n)
	for i := range l {
		l[i] = make([]float64, i+1)
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(s > 0) {
					return nil, false
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	return l, true
}

// solve returns x with A·x = b.
func (l cholesky) solve(b []float64) []float64 {
	n := len(l)
	x := make([]float64, n)
	for i := 0; i < n; i++ { // L·y = b
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * x[k]
		}
		x[i] = s / l[i][i]
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ·x = y
		s := x[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}

// inverseDiag returns the k-th diagonal entry of A⁻¹: the squared norm
// of column k of L⁻¹ (A⁻¹ = L⁻ᵀ·L⁻¹), from the solve of L·y = e_k.
func (l cholesky) inverseDiag(k int) float64 {
	n := len(l)
	y := make([]float64, n)
	var sum float64
	for i := k; i < n; i++ {
		s := 0.0
		if i == k {
			s = 1
		}
		for j := k; j < i; j++ {
			s -= l[i][j] * y[j]
		}
		y[i] = s / l[i][i]
		sum += y[i] * y[i]
	}
	return sum
}
