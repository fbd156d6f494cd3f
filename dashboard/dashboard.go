package dashboard

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/chart"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay"
)

//go:embed static
var static embed.FS

// Options configure a dashboard.
type Options struct {
	Name    string        // what the page calls the run (its directory)
	Refresh time.Duration // how often the page asks for news (0: 5 s)
	// StaleAfter is how long without new data (a game, a generation)
	// before the run counts as quiet: 0 gives 10 minutes, or three
	// times the last generation's training or time per game if longer.
	StaleAfter time.Duration
	// Holder returns the process id that holds the lock of the run at
	// key (runfiles.LockFile: a trainer; runfiles.LadderLockKey: a
	// ladder), 0 for none (lockfile.Holder of the file). nil: the
	// dashboard cannot tell (a run not on this machine), and a run's
	// state rests on the age of its last data alone.
	Holder func(key string) (pid int, err error)
	// Now is the clock (nil: time.Now), for tests.
	Now func() time.Time
}

// Handler serves the dashboard of one run (an http.Handler).
type Handler struct {
	run  fs.FS
	opts Options
	mux  *http.ServeMux

	mu     sync.Mutex // guards the cached charts
	cached string     // Version of the cached charts
	charts []byte     // /api/charts body
}

// New returns the dashboard of the run in fsys. It reads nothing until
// asked.
func New(fsys fs.FS, opts Options) *Handler {
	if opts.Refresh <= 0 {
		opts.Refresh = 5 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Handler{run: fsys, opts: opts, mux: http.NewServeMux()}
	s.mux.HandleFunc("/{$}", s.page)
	s.mux.HandleFunc("/app.js", s.asset("static/app.js", "text/javascript; charset=utf-8"))
	s.mux.HandleFunc("/style.css", s.asset("static/style.css", "text/css; charset=utf-8"))
	s.mux.HandleFunc("/api/status", s.status)
	s.mux.HandleFunc("/api/charts", s.chartsHandler)
	return s
}

// ServeHTTP implements http.Handler: GET and HEAD only.
func (s *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "dashboard: the dashboard only reads (GET)", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

func (s *Handler) page(w http.ResponseWriter, r *http.Request) {
	b, err := static.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	b = bytes.ReplaceAll(b, []byte("{{REFRESH_MS}}"), []byte(strconv.FormatInt(s.opts.Refresh.Milliseconds(), 10)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

func (s *Handler) asset(name, ctype string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := static.ReadFile(name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(b)
	}
}

// Status is the body of /api/status.
type Status struct {
	Name    string `json:"name"`
	Version string `json:"version"` // changes when the charts change
	// Config is the run's config.json as written by konane train (null
	// before the run starts).
	Config json.RawMessage `json:"config"`
	Size   int             `json:"size"`
	// Generation is the last completed generation, and GamesPerGen,
	// GamesDone the self-play progress of the one being played.
	Generation  int     `json:"generation"`
	GamesPerGen int     `json:"games_per_gen"`
	GamesDone   int     `json:"games_done"`
	Hours       float64 `json:"hours"`          // training time so far
	Games       int     `json:"selfplay_games"` // self-play games so far
	// Updated is when the last generation finished (RFC 3339), "" if none.
	Updated string `json:"updated"`
	// Activity is when the run last wrote a game or a generation (RFC
	// 3339), "" if never.
	Activity string `json:"activity"`
	// State is the trainer's: StateTraining, StateQuiet or StateStopped
	// ("" before the run has data); Stale is State != StateTraining.
	State string `json:"state"`
	Stale bool   `json:"stale"`
	// TrainerPID and LadderPID are the processes that hold the run's
	// lock and its ladder's (0: none, or Options.Holder unknown).
	TrainerPID int `json:"trainer_pid,omitempty"`
	LadderPID  int `json:"ladder_pid,omitempty"`
	// Last holds the last generation's metrics by metrics.csv's column
	// names (a value that is not a number is left out).
	Last   map[string]float64 `json:"last,omitempty"`
	Ladder *LadderStatus      `json:"ladder,omitempty"`
	Errors []string           `json:"errors,omitempty"` // files that could not be read
}

// The states of a run's trainer (Status.State).
const (
	// StateTraining: new data came within the run's pace, and a trainer
	// holds the run (or Options.Holder cannot tell).
	StateTraining = "training"
	// StateQuiet: nothing new for longer than the run's pace allows
	// (Options.StaleAfter), though a trainer holds the run (or
	// Options.Holder cannot tell): it hangs, or it stopped elsewhere.
	StateQuiet = "quiet"
	// StateStopped: no trainer holds the run: the process exited, or it
	// finished training (its ladder may still rate: LadderPID).
	StateStopped = "stopped"
)

// LadderStatus summarizes DIR/ladder/ratings.csv.
type LadderStatus struct {
	Rated int `json:"rated"` // generations on the ladder
	// Latest is the newest generation rated (its name, and Generation
	// its number), with Elo and interval: the ladder may lag behind
	// the trainer by several generations.
	Latest     string  `json:"latest"`
	Generation int     `json:"generation"`
	Elo        float64 `json:"elo"`
	Low        float64 `json:"ci_low"`
	High       float64 `json:"ci_high"`
	Best       string  `json:"best"`
	BestElo    float64 `json:"best_elo"`
}

// runFiles is what the dashboard read of the run at one moment.
type runFiles struct {
	config      []byte
	size        int
	gamesPerGen int
	metrics     []runfiles.Metrics
	ratings     []runfiles.Rating // DIR/ladder's, or the first board's ladder of a multi-board run
	// ladders are a multi-board run's ladders, one per board rated
	// (DIR/ladder/WxH), in the order of its board list.
	ladders []boardLadder
	version string
	errs    []string
}

func (s *Handler) read() runFiles {
	var rf runFiles
	var ver []string
	stamp := func(name string) {
		if fi, err := fs.Stat(s.run, name); err == nil {
			ver = append(ver, fmt.Sprintf("%s:%d:%d", name, fi.ModTime().UnixNano(), fi.Size()))
		}
	}
	stamp(runfiles.MetricsFile)
	stamp(runfiles.RatingsKey)
	boards, boardsErr := ladderBoards(s.run)
	for _, b := range boards {
		stamp(path.Join(runfiles.LadderDir, b, runfiles.RatingsFile))
	}
	rf.version = strings.Join(ver, ";")
	readOpt := func(name string) []byte {
		b, err := fs.ReadFile(s.run, name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			rf.errs = append(rf.errs, fmt.Sprintf("%s: %v", name, err))
		}
		return b
	}
	if b := readOpt(runfiles.ConfigFile); b != nil {
		if c, err := runfiles.ParseRunConfig(b); err != nil {
			rf.errs = append(rf.errs, err.Error())
		} else {
			rf.config, rf.size, rf.gamesPerGen = b, c.Size, c.GamesPerGen
		}
	}
	if boardsErr != nil {
		rf.errs = append(rf.errs, boardsErr.Error())
	}
	if b := readOpt(runfiles.MetricsFile); b != nil {
		m, err := runfiles.ParseMetrics(b)
		if err != nil {
			rf.errs = append(rf.errs, fmt.Sprintf("%s: %v", runfiles.MetricsFile, err))
		}
		rf.metrics = m
	}
	if b := readOpt(runfiles.RatingsKey); b != nil {
		r, err := runfiles.ParseRatings(b)
		if err != nil {
			rf.errs = append(rf.errs, fmt.Sprintf("%s: %v", runfiles.RatingsKey, err))
		}
		rf.ratings = r
	}
	for _, board := range boards {
		key := path.Join(runfiles.LadderDir, board, runfiles.RatingsFile)
		if b := readOpt(key); b != nil {
			r, err := runfiles.ParseRatings(b)
			if err != nil {
				rf.errs = append(rf.errs, fmt.Sprintf("%s: %v", key, err))
			}
			rf.ladders = append(rf.ladders, boardLadder{board, r})
		}
	}
	if rf.ratings == nil && len(rf.ladders) > 0 {
		rf.ratings = rf.ladders[0].ratings
	}
	return rf
}

// ladderBoards returns the ladder directory names (WxH, as the ladder
// names them) of the boards of the multi-board run in run, read from its
// config.json with the trainer's board-list parser; none for a
// single-board run or a run without a readable config.json. A board list
// the parser refuses is the error.
func ladderBoards(run fs.FS) ([]string, error) {
	b, err := fs.ReadFile(run, runfiles.ConfigFile)
	if err != nil {
		return nil, nil
	}
	c, err := runfiles.ParseRunConfig(b)
	if err != nil || len(c.Boards) == 0 {
		return nil, nil
	}
	shares, err := selfplay.ParseBoardShares(strings.Join(c.Boards, ","))
	if err != nil {
		return nil, fmt.Errorf("%s: boards: %v", runfiles.ConfigFile, err)
	}
	out := make([]string, len(shares))
	for i, s := range shares {
		out[i] = fmt.Sprintf("%dx%d", s.Board.W, s.Board.H)
	}
	return out, nil
}

// boardLadder is one board's ladder of a multi-board run.
type boardLadder struct {
	board   string
	ratings []runfiles.Rating
}

func (s *Handler) status(w http.ResponseWriter, r *http.Request) {
	rf := s.read()
	st := Status{Name: s.opts.Name, Version: rf.version, Config: rf.config, Size: rf.size, Errors: rf.errs}
	st.GamesPerGen = rf.gamesPerGen
	if n := len(rf.metrics); n > 0 {
		last := rf.metrics[n-1]
		st.Last, st.Generation, st.Hours = lastMetrics(last), last.Generation, last.WallSecs/3600
		for _, m := range rf.metrics {
			st.Games += m.Games
		}
	}
	var activity time.Time
	if fi, err := fs.Stat(s.run, runfiles.MetricsFile); err == nil && len(rf.metrics) > 0 {
		st.Updated = fi.ModTime().UTC().Format(time.RFC3339)
		activity = fi.ModTime()
	}
	// The generation being played keeps each finished game's record.
	if entries, err := fs.ReadDir(s.run, path.Join(runfiles.GamesDir, runfiles.GenDir(st.Generation+1))); err == nil {
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".txt") && !strings.HasPrefix(e.Name(), ".") {
				st.GamesDone++
				if fi, err := e.Info(); err == nil && fi.ModTime().After(activity) {
					activity = fi.ModTime()
				}
			}
		}
	}
	trainer, known := s.holder(runfiles.LockFile, &st)
	st.TrainerPID = trainer
	st.LadderPID, _ = s.holder(runfiles.LadderLockKey, &st)
	if !activity.IsZero() {
		st.Activity = activity.UTC().Format(time.RFC3339)
		switch {
		case known && trainer == 0:
			st.State = StateStopped
		case s.opts.Now().Sub(activity) > s.staleAfter(rf.metrics, st.GamesPerGen):
			st.State = StateQuiet
		default:
			st.State = StateTraining
		}
		st.Stale = st.State != StateTraining
	}
	st.Ladder = ladderStatus(rf.ratings)
	writeJSON(w, st)
}

// holder is the process that holds the lock at key (0: none) and
// whether that is known: not without Options.Holder, nor when it fails
// (its error goes to st.Errors).
func (s *Handler) holder(key string, st *Status) (pid int, known bool) {
	if s.opts.Holder == nil {
		return 0, false
	}
	pid, err := s.opts.Holder(key)
	if err != nil {
		st.Errors = append(st.Errors, fmt.Sprintf("%s: %v", key, err))
		return 0, false
	}
	return pid, true
}

// staleAfter is how long the run may write nothing while it still works:
// Options.StaleAfter, else 10 minutes or three times the longest quiet
// spell of the last generation (its training, or the time per game).
func (s *Handler) staleAfter(ms []runfiles.Metrics, gamesPerGen int) time.Duration {
	if s.opts.StaleAfter > 0 {
		return s.opts.StaleAfter
	}
	quiet := 0.0
	if n := len(ms); n > 0 {
		last := ms[n-1]
		quiet = last.TrainSecs
		if gamesPerGen > 0 && last.SelfplaySecs/float64(gamesPerGen) > quiet {
			quiet = last.SelfplaySecs / float64(gamesPerGen)
		}
	}
	if d := time.Duration(3 * quiet * float64(time.Second)); d > 10*time.Minute {
		return d
	}
	return 10 * time.Minute
}

func lastMetrics(m runfiles.Metrics) map[string]float64 {
	out := map[string]float64{}
	for k, v := range map[string]float64{
		"policy_loss": m.PolicyLoss, "value_loss": m.ValueLoss, "policy_entropy": m.PolicyEntropy,
		"game_length": m.GameLength, "black_win_rate": m.BlackWinRate, "evals_per_sec": m.EvalsPerSec,
		"games_per_hour": m.GamesPerHour, "cache_hit_rate": m.CacheHitRate, "selfplay_secs": m.SelfplaySecs,
		"train_secs": m.TrainSecs, "wall_secs": m.WallSecs,
	} {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[k] = v
		}
	}
	// The auxiliary heads' and the soft policy head's losses only for a
	// run that trains them.
	for k, v := range map[string]float64{"ownership_loss": m.OwnershipLoss, "moves_left_loss": m.MovesLeftLoss, "soft_policy_kl": m.SoftPolicyKL} {
		if v > 0 && !math.IsInf(v, 0) {
			out[k] = v
		}
	}
	return out
}

func ladderStatus(rows []runfiles.Rating) *LadderStatus {
	var ls *LadderStatus
	for _, r := range rows {
		if r.Anchor {
			continue
		}
		if ls == nil {
			ls = &LadderStatus{BestElo: math.Inf(-1)}
		}
		if math.IsNaN(r.Elo) || math.IsNaN(r.Low) || math.IsNaN(r.High) {
			continue
		}
		ls.Rated++
		ls.Latest, ls.Generation, ls.Elo, ls.Low, ls.High = r.Player, r.Generation, r.Elo, r.Low, r.High
		if r.Elo > ls.BestElo {
			ls.Best, ls.BestElo = r.Player, r.Elo
		}
	}
	if ls != nil && ls.Rated == 0 {
		return nil
	}
	return ls
}

// Chart is one entry of /api/charts.
type Chart struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	SVG   string `json:"svg"`
}

// Size of a chart on the page (scaled to the width of the screen).
const (
	chartWidth  = 4.8 * chart.Inch
	chartHeight = 3 * chart.Inch
)

func (s *Handler) chartsHandler(w http.ResponseWriter, r *http.Request) {
	rf := s.read()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.charts == nil || s.cached != rf.version {
		body, err := renderCharts(rf)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.charts, s.cached = body, rf.version
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(s.charts)
}

func renderCharts(rf runFiles) ([]byte, error) {
	var panels []chart.Panel
	var ids []string
	if len(rf.metrics) > 0 {
		for i, p := range chart.MetricsPanels(rf.metrics) {
			panels, ids = append(panels, p), append(ids, fmt.Sprintf("metrics-%d", i))
		}
	}
	ladders := rf.ladders // a multi-board run's, by board
	if len(ladders) == 0 && len(rf.ratings) > 0 {
		ladders = []boardLadder{{"", rf.ratings}}
	}
	for k, l := range ladders {
		anchor := ""
		for _, r := range l.ratings {
			if r.Anchor && r.SE == 0 && r.Elo == 0 {
				anchor = r.Player
			}
		}
		for i, p := range chart.RatingsPanels(l.ratings, anchor) {
			id := fmt.Sprintf("ladder-%d", i)
			if l.board != "" {
				p.Title, id = l.board+": "+p.Title, fmt.Sprintf("ladder-%d-%d", k, i)
			}
			panels, ids = append(panels, p), append(ids, id)
		}
	}
	out := make([]Chart, 0, len(panels))
	for i, p := range panels {
		var buf bytes.Buffer
		if err := chart.WriteSVG(&buf, p, chartWidth, chartHeight); err != nil {
			return nil, fmt.Errorf("dashboard: %w", err)
		}
		out = append(out, Chart{ID: ids[i], Title: p.Title, SVG: buf.String()})
	}
	return json.Marshal(out)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}
