package runfiles

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
)

// SolverFile holds the ladder's solver check, one row per player
// checked, under LadderDir.
const SolverFile = "solver.csv"

// SolverCheck is one player's solver check, one row of ladder/solver.csv:
// of Positions critical positions, the player kept the win in Kept; Rate
// is Kept/Positions, Low and High bound its 95% interval, and RandomRate
// is what a random player is expected to reach on the same positions
// (NaN is an empty field).
type SolverCheck struct {
	Player                      string
	Positions, Kept             int
	Rate, Low, High, RandomRate float64
}

// solverHeader is the header of solver.csv.
var solverHeader = []string{"player", "positions", "kept", "rate", "ci_low", "ci_high", "random_rate"}

// EncodeSolverChecks returns rows as a solver.csv, in the order given.
func EncodeSolverChecks(rows []SolverCheck) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(solverHeader)
	for _, r := range rows {
		w.Write([]string{r.Player, strconv.Itoa(r.Positions), strconv.Itoa(r.Kept), ffmt(r.Rate), ffmt(r.Low), ffmt(r.High), ffmt(r.RandomRate)})
	}
	w.Flush()
	return b.Bytes()
}

// ParseSolverChecks reads a solver.csv: its header, then one row per
// player, each named once, with 1 or more positions and at most as many
// kept.
func ParseSolverChecks(data []byte) ([]SolverCheck, error) {
	rows, err := readCSV(data, solverHeader)
	if err != nil {
		return nil, fmt.Errorf("ladder: %s: %w", SolverFile, err)
	}
	out := make([]SolverCheck, 0, len(rows))
	seen := map[string]bool{}
	for i, r := range rows {
		line := i + 2
		c := SolverCheck{Player: r[0]}
		if c.Positions, err = strconv.Atoi(r[1]); err == nil {
			c.Kept, err = strconv.Atoi(r[2])
		}
		if err != nil || c.Positions < 1 || c.Kept < 0 || c.Kept > c.Positions {
			return nil, fmt.Errorf("ladder: %s line %d: %s kept the win in %q of %q positions", SolverFile, line, quote(r[0]), quote(r[2]), quote(r[1]))
		}
		fs, err := parseFloats(r[3:], line)
		if err != nil {
			return nil, fmt.Errorf("ladder: %s: %w", SolverFile, err)
		}
		c.Rate, c.Low, c.High, c.RandomRate = fs[0], fs[1], fs[2], fs[3]
		if seen[c.Player] || c.Player == "" {
			return nil, fmt.Errorf("ladder: %s line %d: player %q empty or listed twice", SolverFile, line, quote(c.Player))
		}
		seen[c.Player] = true
		out = append(out, c)
	}
	return out, nil
}
