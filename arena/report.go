package arena

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"text/tabwriter"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/rules"
)

// Report is a match's results with the ratings fitted on them, ready to
// print or save.
type Report struct {
	Results *Results
	Ratings []Rating // nil when they could not be fitted (see RatingsErr)
	// RatingsErr says why there are no ratings.
	RatingsErr error
	Anchor     int     // index of the player rated 0
	Prior      float64 // virtual draws per pair (see FitElo)
}

// NewReport fits the ratings of res anchored on the player at index
// anchor. A failed fit (unbounded ratings with prior 0) is kept in
// RatingsErr, so the rest of the report is still written.
func NewReport(res *Results, anchor int, prior float64) *Report {
	r := &Report{Results: res, Anchor: anchor, Prior: prior}
	r.Ratings, r.RatingsErr = FitElo(res.Names, res.Pairs, anchor, prior)
	return r
}

func (r *Report) anchorName() string {
	if r.Anchor < 0 || r.Anchor >= len(r.Results.Names) {
		return ""
	}
	return r.Results.Names[r.Anchor]
}

// Header is the one-line description of the match (MatchConfig.Describe).
func (r *Report) Header() string { return r.Results.Config.Describe(len(r.Results.Names)) }

// Describe is a one-line description of a match of the given number of
// players, with every setting that makes it reproducible.
func (c MatchConfig) Describe(players int) string {
	kind := "round robin"
	if c.Gauntlet {
		kind = "gauntlet"
	}
	after := "the removals"
	if c.Board.Start == rules.Gap {
		after = "the gap start"
	}
	s := fmt.Sprintf("arena: %s, %s of %d players, %d games per pair, %d random plies after %s, seed %d",
		c.Board, kind, players, c.Games, c.RandomPlies, after, c.Seed)
	if c.SPRT != nil {
		s += ", sprt " + c.SPRT.String()
	}
	return s
}

// WriteText prints the header line, then the tables (WriteTables).
func (r *Report) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, r.Header()); err != nil {
		return err
	}
	return r.WriteTables(w)
}

// WriteTables prints the number of distinct games, the wins and losses of
// each pair, and the ratings from the strongest down.
func (r *Report) WriteTables(w io.Writer) error {
	res := r.Results
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "games: %d played, %d distinct", len(res.Games), res.Distinct())
	if res.Skipped > 0 {
		fmt.Fprintf(tw, ", %d skipped after the SPRT decided", res.Skipped)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "\npair\t\t\twins-losses\tscore")
	for _, p := range res.Pairs {
		fmt.Fprintf(tw, "%s\tvs\t%s\t%d-%d\t%s", res.Names[p.A], res.Names[p.B], p.WinsA, p.WinsB, percent(p.WinsA, p.Games()))
		if res.Config.SPRT != nil {
			lo, hi := res.Config.SPRT.Bounds()
			fmt.Fprintf(tw, "\tsprt of %s: %s", res.Names[p.B], p.Decision)
			if p.DecidedAfter > 0 && p.DecidedAfter < p.Games() {
				fmt.Fprintf(tw, " after %d games", p.DecidedAfter)
			}
			fmt.Fprintf(tw, " (llr %.2f in [%.2f, %.2f])", p.LLR, lo, hi)
		}
		fmt.Fprintln(tw)
	}
	if r.RatingsErr != nil {
		fmt.Fprintf(tw, "\nno Elo ratings: %v\n", r.RatingsErr)
		return tw.Flush()
	}
	fmt.Fprintf(tw, "\nElo (maximum likelihood, %s = 0, prior %g virtual draws per pair)\n", r.anchorName(), r.Prior)
	fmt.Fprintln(tw, "rank\tplayer\tElo\t95% CI\tgames\twins\tscore")
	for rank, i := range r.byStrength() {
		x := r.Ratings[i]
		ci := "anchor"
		if i != r.Anchor {
			ci = fmt.Sprintf("[%+.0f, %+.0f]", x.Low, x.High)
		}
		fmt.Fprintf(tw, "%d\t%s\t%+.0f\t%s\t%d\t%d\t%s\n", rank+1, x.Name, x.Elo, ci, x.Games, x.Wins, percent(x.Wins, x.Games))
	}
	return tw.Flush()
}

func percent(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// byStrength returns the player indices by decreasing rating.
func (r *Report) byStrength() []int {
	idx := make([]int, len(r.Ratings))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.Ratings[idx[a]].Elo > r.Ratings[idx[b]].Elo })
	return idx
}

// WritePairsCSV writes one row per pair: player_a, player_b, games,
// wins_a, wins_b, and the SPRT decision, its LLR and the games after
// which it decided (empty without an SPRT; decided_after 0 while
// undecided).
func (r *Report) WritePairsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"player_a", "player_b", "games", "wins_a", "wins_b", "sprt", "llr", "decided_after"})
	for _, p := range r.Results.Pairs {
		dec, llr, after := "", "", ""
		if r.Results.Config.SPRT != nil {
			dec, llr, after = p.Decision.String(), strconv.FormatFloat(p.LLR, 'f', 4, 64), strconv.Itoa(p.DecidedAfter)
		}
		cw.Write([]string{r.Results.Names[p.A], r.Results.Names[p.B], strconv.Itoa(p.Games()),
			strconv.Itoa(p.WinsA), strconv.Itoa(p.WinsB), dec, llr, after})
	}
	cw.Flush()
	return cw.Error()
}

// WriteRatingsCSV writes one row per player, in the order given: player,
// elo, ci_low, ci_high, se, games, wins. Without ratings it writes the
// header only.
func (r *Report) WriteRatingsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"player", "elo", "ci_low", "ci_high", "se", "games", "wins"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
	for _, x := range r.Ratings {
		cw.Write([]string{x.Name, f(x.Elo), f(x.Low), f(x.High), f(x.SE), strconv.Itoa(x.Games), strconv.Itoa(x.Wins)})
	}
	cw.Flush()
	return cw.Error()
}

type reportJSON struct {
	Board string `json:"board"`          // as rules.ParseBoard reads it
	Size  int    `json:"size,omitempty"` // N of a square board N×N, as before boards had two sides

	Seed         uint64       `json:"seed"`
	GamesPerPair int          `json:"games_per_pair"`
	RandomPlies  int          `json:"random_plies"`
	Gauntlet     bool         `json:"gauntlet"`
	SPRT         *sprtJSON    `json:"sprt,omitempty"`
	Players      []string     `json:"players"`
	Played       int          `json:"games_played"`
	Distinct     int          `json:"distinct_games"`
	Skipped      int          `json:"games_skipped"`
	Pairs        []pairJSON   `json:"pairs"`
	Anchor       string       `json:"anchor"`
	Prior        float64      `json:"prior"`
	Ratings      []ratingJSON `json:"ratings,omitempty"`
	RatingsError string       `json:"ratings_error,omitempty"`
}

type sprtJSON struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

type pairJSON struct {
	A        string   `json:"player_a"`
	B        string   `json:"player_b"`
	WinsA    int      `json:"wins_a"`
	WinsB    int      `json:"wins_b"`
	Decision string   `json:"sprt,omitempty"`
	LLR      *float64 `json:"llr,omitempty"`
	// DecidedAfter: games played when the SPRT decided.
	DecidedAfter int `json:"decided_after,omitempty"`
}

type ratingJSON struct {
	Name  string  `json:"player"`
	Elo   float64 `json:"elo"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
	SE    float64 `json:"se"`
	Games int     `json:"games"`
	Wins  int     `json:"wins"`
}

// MarshalJSON writes the whole report (settings, pairs, ratings) as one
// object.
func (r *Report) MarshalJSON() ([]byte, error) {
	res := r.Results
	c := res.Config
	j := reportJSON{
		Board: c.Board.String(), Seed: c.Seed, GamesPerPair: c.Games, RandomPlies: c.RandomPlies, Gauntlet: c.Gauntlet,
		Players: res.Names, Played: len(res.Games), Distinct: res.Distinct(), Skipped: res.Skipped,
		Anchor: r.anchorName(), Prior: r.Prior,
	}
	if c.Board.Square() {
		j.Size = c.Board.W
	}
	if c.SPRT != nil {
		j.SPRT = &sprtJSON{c.SPRT.Elo0, c.SPRT.Elo1, c.SPRT.Alpha, c.SPRT.Beta}
	}
	for _, p := range res.Pairs {
		pj := pairJSON{A: res.Names[p.A], B: res.Names[p.B], WinsA: p.WinsA, WinsB: p.WinsB}
		if c.SPRT != nil {
			llr := p.LLR
			pj.Decision, pj.LLR, pj.DecidedAfter = p.Decision.String(), &llr, p.DecidedAfter
		}
		j.Pairs = append(j.Pairs, pj)
	}
	for _, x := range r.Ratings {
		j.Ratings = append(j.Ratings, ratingJSON{x.Name, x.Elo, x.Low, x.High, x.SE, x.Games, x.Wins})
	}
	if r.RatingsErr != nil {
		j.RatingsError = r.RatingsErr.Error()
	}
	return json.MarshalIndent(j, "", "  ")
}

// Record returns the game record of g on the match's board (which the
// record names, with its start, as rules records do), tagged with the
// event, round, players, result, seed and opening line.
func (res *Results) Record(g Game) (*rules.Record, error) {
	wg, err := rules.NewWideGame(res.Config.Board)
	if err != nil {
		return nil, err
	}
	for i, m := range g.Moves {
		if err := wg.Play(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return wg.Record(
		rules.Tag{Key: "Event", Value: "konane arena"},
		rules.Tag{Key: "Round", Value: strconv.Itoa(g.Index + 1)},
		rules.Tag{Key: "Black", Value: res.Names[g.Black]},
		rules.Tag{Key: "White", Value: res.Names[g.White]},
		rules.Tag{Key: "Result", Value: rules.ResultFor(g.Winner)},
		rules.Tag{Key: "Seed", Value: strconv.FormatUint(res.Config.Seed, 10)},
		rules.Tag{Key: "Opening", Value: fmt.Sprintf("line %d: the first %d moves were set by the arena", g.Line+1, g.Forced)},
	), nil
}

// Save writes the report into dir (created if needed): its tables
// (SaveTables) and every game as a record in games/NNNNN.txt, numbered by
// round (SaveGame). Every file is written atomically.
func (r *Report) Save(dir string) error {
	if err := r.SaveTables(dir); err != nil {
		return err
	}
	for _, g := range r.Results.Games {
		if err := r.Results.SaveGame(dir, g); err != nil {
			return err
		}
	}
	return nil
}

// SaveTables writes the report's tables into dir (created if needed),
// atomically: results.csv (the pairs), ratings.csv and results.json; for
// a caller that kept the games as they ended (SaveGame).
func (r *Report) SaveTables(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "results.csv"), 0o644, r.WritePairsCSV); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "ratings.csv"), 0o644, r.WriteRatingsCSV); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	data, err := r.MarshalJSON()
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "results.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	return nil
}

// SaveGame writes the record of g as dir/games/NNNNN.txt (numbered by
// round, the directory created if needed), atomically: what Save writes
// for each game, for a caller that keeps each game as it ends
// (MatchConfig.OnGame) so that an interrupted match loses none. res needs only
// its Config and Names.
func (res *Results) SaveGame(dir string, g Game) error {
	games := filepath.Join(dir, "games")
	if err := os.MkdirAll(games, 0o755); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	rec, err := res.Record(g)
	var data []byte
	if err == nil {
		data, err = rec.MarshalText()
	}
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(games, fmt.Sprintf("%05d.txt", g.Index+1)), data, 0o644)
	}
	if err != nil {
		return fmt.Errorf("arena: game %d: %w", g.Index+1, err)
	}
	return nil
}
