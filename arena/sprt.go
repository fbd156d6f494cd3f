package arena

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is Wald's sequential probability ratio test of a player's Elo
// advantage over an opponent, on won and lost games (Kōnane has no
// draws): H0 says the advantage is Elo0, H1 says Elo1 (Elo1 > Elo0).
// Alpha is the probability of accepting H1 when H0 holds, Beta of
// accepting H0 when H1 holds.
//
// The usual use is gating a new network: SPRT{Elo0: 0, Elo1: 30, Alpha:
// 0.05, Beta: 0.05} accepts H1 when the new one is likely stronger.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Decision is the state of an SPRT.
type Decision int

// The three states of an SPRT.
const (
	Continue Decision = iota // play on
	AcceptH0                 // the advantage is Elo0 or less
	AcceptH1                 // the advantage is Elo1 or more
)

func (d Decision) String() string {
	return [...]string{"continue", "accept H0", "accept H1"}[d]
}

// DefaultSPRTError is the Alpha and Beta of ParseSPRT when they are not
// given.
const DefaultSPRTError = 0.05

// ParseSPRT reads "elo0,elo1" or "elo0,elo1,alpha,beta".
func ParseSPRT(text string) (SPRT, error) {
	parts := strings.Split(text, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return SPRT{}, fmt.Errorf("arena: sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", text)
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return SPRT{}, fmt.Errorf("arena: sprt %q: %q is not a number", text, p)
		}
		v[i] = x
	}
	s := SPRT{v[0], v[1], DefaultSPRTError, DefaultSPRTError}
	if len(parts) == 4 {
		s.Alpha, s.Beta = v[2], v[3]
	}
	if err := s.Validate(); err != nil {
		return SPRT{}, fmt.Errorf("arena: sprt %q: %w", text, err)
	}
	return s, nil
}

// Validate reports a test that cannot be run.
func (s SPRT) Validate() error {
	switch {
	case !(s.Elo1 > s.Elo0):
		return fmt.Errorf("elo1 (%g) must be greater than elo0 (%g)", s.Elo1, s.Elo0)
	case math.Abs(s.Elo0) > 2000 || math.Abs(s.Elo1) > 2000:
		return fmt.Errorf("elo0 and elo1 must lie within ±2000")
	case !(s.Alpha > 0 && s.Alpha < 0.5) || !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("alpha (%g) and beta (%g) must lie strictly between 0 and 0.5", s.Alpha, s.Beta)
	}
	return nil
}

// WinProbability is the expected score of a player elo points above its
// opponent: 1 / (1 + 10^(-elo/400)).
func WinProbability(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// LLR is the log-likelihood ratio of H1 against H0 after wins and losses.
func (s SPRT) LLR(wins, losses int) float64 {
	p0, p1 := WinProbability(s.Elo0), WinProbability(s.Elo1)
	return float64(wins)*math.Log(p1/p0) + float64(losses)*math.Log((1-p1)/(1-p0))
}

// Bounds returns Wald's bounds: H0 is accepted when the LLR falls to
// lower, H1 when it reaches upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Test returns the decision after wins and losses.
func (s SPRT) Test(wins, losses int) Decision {
	llr := s.LLR(wins, losses)
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

func (s SPRT) String() string {
	return fmt.Sprintf("elo0=%g elo1=%g alpha=%g beta=%g", s.Elo0, s.Elo1, s.Alpha, s.Beta)
}
