package runfiles

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Rating is one player of the ladder, one row of ladder/ratings.csv.
type Rating struct {
	Player string
	// Generation is the run's generation (0 for an anchor); SelfplayGames,
	// Hours and CPUHours are the self-play games played, the training
	// (wall) hours and the run's own CPU hours spent up to it (NaN when
	// the run's metrics do not say: not yet, or, for CPUHours, a
	// metrics.csv from before cpu_secs was recorded).
	Generation    int
	SelfplayGames float64
	Hours         float64
	CPUHours      float64
	Anchor        bool // a fixed player
	// Elo with its 95% interval (Low = High = Elo for the player rated 0).
	Elo, Low, High, SE float64
	Games, Wins        int // ladder games played and won
	// The solver check, when there is one (Positions 0 otherwise).
	SolverPositions, SolverKept int
	SolverRate, SolverLow       float64
	SolverHigh, SolverRandom    float64
}

// ratingsHeader is the header of ratings.csv; files written before the
// last column, cpu_hours, was added read back with CPUHours NaN.
var ratingsHeader = []string{"player", "kind", "generation", "selfplay_games", "hours", "elo", "ci_low", "ci_high", "se",
	"games", "wins", "solver_positions", "solver_kept", "solver_rate", "solver_low", "solver_high", "solver_random", "cpu_hours"}

// WriteRatings writes rows as ratings.csv: the anchors, then the
// generations in order.
func WriteRatings(w io.Writer, rows []Rating) error {
	cw := csv.NewWriter(w)
	cw.Write(ratingsHeader)
	for _, r := range rows {
		kind, gen := "generation", strconv.Itoa(r.Generation)
		if r.Anchor {
			kind, gen = "anchor", ""
		}
		cw.Write([]string{r.Player, kind, gen, ffmt(r.SelfplayGames), ffmt(r.Hours), ffmt(r.Elo), ffmt(r.Low), ffmt(r.High), ffmt(r.SE),
			strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.SolverPositions), strconv.Itoa(r.SolverKept),
			ffmt(r.SolverRate), ffmt(r.SolverLow), ffmt(r.SolverHigh), ffmt(r.SolverRandom), ffmt(r.CPUHours)})
	}
	cw.Flush()
	return cw.Error()
}

// ParseRatings reads a ratings.csv.
func ParseRatings(data []byte) ([]Rating, error) {
	rows, err := readCSV(data, ratingsHeader)
	if err != nil {
		// A file from before cpu_hours.
		old, oldErr := readCSV(data, ratingsHeader[:len(ratingsHeader)-1])
		if oldErr != nil {
			return nil, fmt.Errorf("ladder: ratings: %w", err)
		}
		rows = old
		for i := range rows {
			rows[i] = append(rows[i], "")
		}
	}
	out := make([]Rating, 0, len(rows))
	for i, f := range rows {
		line := i + 2
		r := Rating{Player: f[0]}
		switch f[1] {
		case "anchor":
			r.Anchor = true
			if f[2] != "" {
				return nil, fmt.Errorf("ladder: ratings line %d: an anchor with a generation", line)
			}
		case "generation":
			g, err := strconv.Atoi(f[2])
			if err != nil || g < 1 {
				return nil, fmt.Errorf("ladder: ratings line %d: generation %q", line, quote(f[2]))
			}
			r.Generation = g
		default:
			return nil, fmt.Errorf("ladder: ratings line %d: kind %q, want anchor or generation", line, quote(f[1]))
		}
		if r.Player == "" {
			return nil, fmt.Errorf("ladder: ratings line %d: no player name", line)
		}
		x, err := parseFloats([]string{f[3], f[4], f[5], f[6], f[7], f[8], f[13], f[14], f[15], f[16], f[17]}, line)
		if err != nil {
			return nil, fmt.Errorf("ladder: ratings: %w", err)
		}
		r.SelfplayGames, r.Hours, r.Elo, r.Low, r.High, r.SE = x[0], x[1], x[2], x[3], x[4], x[5]
		r.SolverRate, r.SolverLow, r.SolverHigh, r.SolverRandom, r.CPUHours = x[6], x[7], x[8], x[9], x[10]
		ints := []*int{&r.Games, &r.Wins, &r.SolverPositions, &r.SolverKept}
		for k, s := range []string{f[9], f[10], f[11], f[12]} {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("ladder: ratings line %d: %s %q is not a count", line, ratingsHeader[9+k], quote(s))
			}
			*ints[k] = n
		}
		if r.Wins > r.Games || r.SolverKept > r.SolverPositions {
			return nil, fmt.Errorf("ladder: ratings line %d: more wins than games", line)
		}
		out = append(out, r)
	}
	return out, nil
}

// readCSV reads CSV data whose first row must be header, every row as long.
func readCSV(data []byte, header []string) ([][]string, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("the header is not %s", strings.Join(header, ","))
	}
	return rows[1:], nil
}

// parseFloats parses numbers of a CSV line; an empty field is NaN.
func parseFloats(fields []string, line int) ([]float64, error) {
	out := make([]float64, len(fields))
	for k, f := range fields {
		if f == "" {
			out[k] = math.NaN()
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q is not a number", line, quote(f))
		}
		out[k] = x
	}
	return out, nil
}

// ffmt writes a number of ratings.csv; NaN is an empty field.
func ffmt(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}
