package ladder

import (
	"context"
	"errors"
	"fmt"
	"github.com/konanezero/konane/runfiles"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/internal/lockfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/player"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/selfplay"
)

// Summary says what one call of Update did.
type Summary struct {
	Kept    int               // games kept from earlier calls (none of them replayed)
	Played  int               // games played in this call
	Rated   []int             // generations that got new games or a solver check
	Pending int               // generations left for a later call (Config.Generations)
	Rows    []runfiles.Rating // the ratings after the call (nil if they could not be fitted)
	// RatingsErr says why there are no ratings (too few games so far).
	RatingsErr error
	// Board is "WxH", the folder under DIR/ladder of a multi-board run's
	// ladder on that board; "" for a single-board run's.
	Board string
}

// Update brings the ladder of the run in dir up to date: it plays the
// games that are missing (and only those) for every generation the
// config selects, runs the solver check, and rewrites
// DIR/ladder/ratings.csv and DIR/ladder/elo.png as it goes (after a
// generation, at most every 10 seconds) and at the end.
// It takes the lock DIR/ladder/lock, so two ladders never write one
// folder; a second one fails with an error wrapping *lockfile.BusyError.
// logf, when not nil, receives one line per step. An interrupted Update
// (ctx ended) keeps every finished game and returns ctx's error.
func Update(ctx context.Context, dir string, cfg Config, logf func(format string, a ...any)) (*Summary, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	board, multi, err := runBoard(dir, cfg.Board)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, runfiles.LadderDir)
	if multi { // one ladder per board
		root = filepath.Join(root, ladderFolder(board))
	}
	if err := os.MkdirAll(filepath.Join(root, gamesDir), 0o755); err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	lock, err := lockfile.Acquire(filepath.Join(dir, filepath.FromSlash(runfiles.LadderLockKey)))
	if err != nil {
		return nil, fmt.Errorf("ladder: another ladder is rating %s: %w", dir, err)
	}
	defer lock.Release()
	positions := cfg.Positions
	if !board.Square() || board.W > MaxSolverSize {
		positions = 0
	}
	set := settings{Sims: cfg.Sims, RandomPlies: cfg.RandomPlies, Seed: cfg.Seed, Positions: positions}
	if board.Square() {
		set.Size = board.W
	} else {
		set.Board = board.String()
	}
	if err := checkOrWriteSettings(filepath.Join(root, settingsFile), set); err != nil {
		return nil, err
	}
	u := &updater{dir: dir, root: root, board: board, multi: multi, cfg: cfg, positions: positions, logf: logf}
	if multi {
		u.sum.Board = ladderFolder(board)
	}
	if u.store, err = loadStore(root, board); err != nil {
		return nil, err
	}
	u.sum.Kept = u.store.games()
	if u.solver, err = readSolver(filepath.Join(root, runfiles.SolverFile)); err != nil {
		return nil, err
	}
	err = u.run(ctx)
	if cerr := u.closeEngines(); err == nil {
		err = cerr
	}
	if werr := u.writeOutputs(); err == nil {
		err = werr
	}
	if err != nil {
		return &u.sum, err
	}
	return &u.sum, nil
}

// updater is the state of one Update.
type updater struct {
	dir, root string
	board     rules.Board // the board played: the run's, or one of a multi-board run's
	multi     bool        // a multi-board run's generations, played on board
	cfg       Config
	positions int
	logf      func(string, ...any)
	store     *store
	critical  []arena.Critical
	solver    map[string]*arena.CheckResult
	sum       Summary
	written   time.Time // when the outputs were last written
	engines   map[string]*engine
}

// outputEvery is the least time between two writes of the outputs during
// an update.
const outputEvery = 10 * time.Second

func (u *updater) run(ctx context.Context) error {
	gens, err := u.ladderGenerations()
	if err != nil {
		return err
	}
	// The anchors play each other once, so that their lines are rated.
	// A model anchor (a fixed model file, such as a shipped model) gets
	// one engine, which runs until the update ends and serves every match.
	anchors := map[string]arena.Entrant{}
	runCtx, stop := context.WithCancel(ctx)
	var running sync.WaitGroup
	defer func() {
		stop()
		running.Wait()
	}()
	for _, s := range u.cfg.Anchors {
		if s.Kind == player.KindModel {
			f, err := modelAnchor(s, u.board)
			if err != nil {
				return err
			}
			running.Add(1)
			go func() {
				defer running.Done()
				f.Run(runCtx)
			}()
			anchors[s.Name] = arena.NewEntrant(s.Name, f.New)
			continue
		}
		f, err := player.NewFactory(s)
		if err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
		anchors[s.Name] = f
	}
	for i, a := range u.cfg.Anchors {
		for _, b := range u.cfg.Anchors[i+1:] {
			if _, err := u.play(ctx, anchors[a.Name], anchors[b.Name]); err != nil {
				return err
			}
		}
	}
	if u.positions > 0 {
		if err := u.labelPositions(ctx); err != nil {
			return err
		}
		for _, a := range u.cfg.Anchors {
			if err := u.check(ctx, anchors[a.Name]); err != nil {
				return err
			}
		}
	}
	for k, g := range gens {
		rungs := gens[max(0, k-u.cfg.Rungs):k]
		if !u.needs(g, rungs) {
			continue
		}
		if u.cfg.Generations > 0 && len(u.sum.Rated) == u.cfg.Generations {
			u.sum.Pending++
			continue
		}
		if err := u.rate(ctx, g, rungs, anchors); err != nil {
			return err
		}
		u.sum.Rated = append(u.sum.Rated, g)
		// The outputs after a generation show progress; not more often
		// than every outputEvery, as the plot takes a moment to draw.
		if time.Since(u.written) >= outputEvery {
			if err := u.writeOutputs(); err != nil {
				return err
			}
		}
	}
	return nil
}

// ladderGenerations lists the generations on the ladder: those with a
// model that are multiples of Every, and those rated before.
func (u *updater) ladderGenerations() ([]int, error) {
	gens, err := selfplay.NewRunDir(u.dir).Generations()
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	have := map[int]bool{}
	for _, g := range gens {
		have[g] = true
	}
	on := map[int]bool{}
	for g := range have {
		if g%u.cfg.Every == 0 {
			on[g] = true
		}
	}
	for p := range u.store.pairs {
		for _, n := range []string{p.A, p.B} {
			if g, ok := runfiles.ParseGenDir(n); ok && have[g] {
				on[g] = true
			}
		}
	}
	return sortedKeys(on), nil
}

func (u *updater) pairings(g int, rungs []int) []pairing {
	var out []pairing
	for _, a := range u.cfg.Anchors {
		out = append(out, pairing{runfiles.GenDir(g), a.Name})
	}
	for i := len(rungs) - 1; i >= 0; i-- {
		out = append(out, pairing{runfiles.GenDir(g), runfiles.GenDir(rungs[i])})
	}
	return out
}

// needs reports whether generation g lacks games or its solver check.
func (u *updater) needs(g int, rungs []int) bool {
	for _, p := range u.pairings(g, rungs) {
		if u.missing(p) > 0 {
			return true
		}
	}
	return u.positions > 0 && u.solver[runfiles.GenDir(g)] == nil
}

func (u *updater) missing(p pairing) int {
	t := u.store.pairs[p]
	if t == nil {
		return u.cfg.Games
	}
	n := 0
	for i := 0; i < u.cfg.Games; i++ {
		if !t.kept[i] {
			n++
		}
	}
	return n
}

// rate plays generation g's missing games against the anchors and its
// rungs, and checks it against the solver.
func (u *updater) rate(ctx context.Context, g int, rungs []int, anchors map[string]arena.Entrant) error {
	start := time.Now()
	need := map[string]bool{runfiles.GenDir(g): true}
	for _, p := range u.pairings(g, rungs) {
		if isGenerationName(p.B) && u.missing(p) > 0 {
			need[p.B] = true
		}
	}
	models, err := u.openEngines(ctx, need)
	if err != nil {
		return err
	}
	entrant := func(name string) arena.Entrant {
		if f, ok := models[name]; ok {
			return arena.NewEntrant(name, f.New)
		}
		return anchors[name]
	}
	played := 0
	err = func() error {
		for _, p := range u.pairings(g, rungs) {
			if u.missing(p) == 0 {
				continue // its models may not be loaded
			}
			n, err := u.play(ctx, entrant(p.A), entrant(p.B))
			if err != nil {
				return err
			}
			played += n
		}
		if u.positions > 0 {
			return u.check(ctx, entrant(runfiles.GenDir(g)))
		}
		return nil
	}()
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("generation %d: %d games played against %s", g, played, strings.Join(opponents(u.pairings(g, rungs)), ", "))
	if r := u.solver[runfiles.GenDir(g)]; r != nil {
		msg += fmt.Sprintf("; solver check %.1f%% (%d/%d)", 100*r.Rate, r.Kept, r.Positions)
	}
	u.logf("%s, %s", msg, time.Since(start).Round(time.Second))
	return nil
}

// modelAnchor returns the players of a model anchor (a fixed model file,
// such as a shipped model) on board b: they search as the generations do
// (selfplay.MatchPlayers), with the spec's simulations. A multi-board
// model plays b; a single-board model must be of b. A run's pointer to
// its newest model (models/latest) gets runfiles.PointerError's line.
func modelAnchor(s player.Spec, b rules.Board) (*player.Factory, error) {
	m, err := net.Load(s.Model)
	if err != nil {
		if perr := runfiles.PointerError(s.Model); perr != nil {
			err = perr
		}
	} else if m.Config().MultiBoard() {
		m, err = m.ForBoard(b)
	} else if err == nil && m.Shape() != rules.ShapeCode(b.W, b.H) {
		err = fmt.Errorf("the model plays %dx%d, not %s", m.Shape(), m.Shape(), b)
	}
	if err != nil {
		return nil, fmt.Errorf("ladder: anchor %s: %w", s.Name, err)
	}
	f, err := selfplay.MatchPlayers(s.Name, m, s.Sims)
	if err != nil {
		return nil, fmt.Errorf("ladder: anchor %s: %w", s.Name, err)
	}
	return f, nil
}

// engine is a generation's model, its evaluator running until stop.
type engine struct {
	players *player.Factory
	stop    context.CancelFunc
	done    chan error
}

// openEngines returns the players of the generations named in need, with
// their evaluators running. Engines of the previous generation that are
// needed again (its rungs) are kept; the others are stopped.
func (u *updater) openEngines(ctx context.Context, need map[string]bool) (map[string]*player.Factory, error) {
	if u.engines == nil {
		u.engines = map[string]*engine{}
	}
	for name, e := range u.engines {
		if !need[name] {
			if err := e.close(); err != nil {
				return nil, err
			}
			delete(u.engines, name)
		}
	}
	out := map[string]*player.Factory{}
	for name := range need {
		if e := u.engines[name]; e != nil {
			out[name] = e.players
			continue
		}
		g, _ := runfiles.ParseGenDir(name)
		m, err := selfplay.NewRunDir(u.dir).LoadModel(g) // arena.Run checks its size
		if err == nil && u.multi {
			m, err = m.ForBoard(u.board)
		}
		if err != nil {
			return nil, fmt.Errorf("ladder: %w", err)
		}
		f, err := selfplay.MatchPlayers(name, m, u.cfg.Sims)
		if err != nil {
			return nil, fmt.Errorf("ladder: %w", err)
		}
		runCtx, stop := context.WithCancel(ctx)
		e := &engine{players: f, stop: stop, done: make(chan error, 1)}
		go func() { e.done <- f.Run(runCtx) }()
		u.engines[name], out[name] = e, f
	}
	return out, nil
}

// close stops the engine's evaluator and returns its error, if any.
func (e *engine) close() error {
	e.stop()
	err := <-e.done
	e.done = nil
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("ladder: %s: %w", e.players.Name(), err)
	}
	return nil
}

// closeEngines stops every engine.
func (u *updater) closeEngines() error {
	var first error
	for name, e := range u.engines {
		if err := e.close(); err != nil && first == nil {
			first = err
		}
		delete(u.engines, name)
	}
	return first
}

func opponents(ps []pairing) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.B)
	}
	return out
}

// play plays the missing games of the pairing a against b and keeps each
// as it ends; it returns how many it played.
func (u *updater) play(ctx context.Context, a, b arena.Entrant) (int, error) {
	p := pairing{a.Name(), b.Name()}
	if u.missing(p) == 0 {
		return 0, nil
	}
	t := u.store.tally(p)
	cfg := arena.MatchConfig{Board: u.board, Games: u.cfg.Games, Parallel: u.cfg.Parallel, RandomPlies: u.cfg.RandomPlies,
		Seed: p.seed(u.cfg.Seed)}
	kept := make(map[int]bool, len(t.kept))
	for i := range t.kept {
		kept[i] = true
	}
	cfg.Skip = func(i int) bool { return kept[i] }
	played := 0
	cfg.OnGame = func(g arena.Game) error {
		played++
		u.sum.Played++
		return u.store.writeGame(p, cfg, g)
	}
	if _, err := arena.Run(ctx, cfg, []arena.Entrant{a, b}); err != nil {
		return played, err
	}
	return played, nil
}

// labelPositions loads the solver-labelled positions, sampling and
// labelling them the first time.
func (u *updater) labelPositions(ctx context.Context) error {
	path := filepath.Join(u.root, criticalFile)
	data, err := os.ReadFile(path)
	if err == nil {
		if u.critical, err = parseCritical(data, u.board.W); err != nil {
			return fmt.Errorf("ladder: %s: %w (delete it to label positions again)", path, err)
		}
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ladder: %w", err)
	}
	start := time.Now()
	u.logf("labelling %d critical positions with the solver (once; kept in %s)", u.positions, path)
	crit, err := arena.SampleCritical(ctx, arena.SampleConfig{Size: u.board.W, Positions: u.positions, Seed: u.cfg.Seed, Parallel: u.cfg.Parallel})
	if err != nil {
		return err
	}
	if len(crit) == 0 {
		return fmt.Errorf("ladder: no critical position found on %s", u.board)
	}
	if err := writeCritical(path, u.board.W, u.cfg.Seed, crit); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	u.critical = crit
	u.logf("labelled %d positions in %s", len(crit), time.Since(start).Round(time.Second))
	return nil
}

// check runs the solver check of e unless it was run before.
func (u *updater) check(ctx context.Context, e arena.Entrant) error {
	if u.solver[e.Name()] != nil {
		return nil
	}
	r, err := arena.CheckPlayer(ctx, u.critical, e, arena.CheckConfig{Parallel: u.cfg.Parallel, Seed: u.cfg.Seed})
	if err != nil {
		return err
	}
	u.solver[e.Name()] = r
	names := make([]string, 0, len(u.solver))
	for n := range u.solver {
		names = append(names, n)
	}
	sortNames(names)
	return writeSolver(filepath.Join(u.root, runfiles.SolverFile), names, u.solver)
}

// writeOutputs fits the ratings and rewrites ratings.csv and elo.png.
func (u *updater) writeOutputs() error {
	u.written = time.Now()
	rows, err := fit(u.store, u.cfg.anchorNames(), u.cfg.AnchorName(), u.cfg.Prior)
	u.sum.Rows, u.sum.RatingsErr = rows, err
	if err != nil {
		return nil // not an error of the ladder: too few games yet
	}
	metrics, err := selfplay.NewRunDir(u.dir).Metrics()
	if err != nil {
		return err
	}
	games, cpu := 0.0, 0.0
	played, hours, cpuHours := map[int]float64{}, map[int]float64{}, map[int]float64{}
	for _, m := range metrics {
		games += float64(m.Games)
		// A generation without its CPU time (metrics from before it was
		// recorded) leaves every later sum unknown.
		if m.CPUSecs <= 0 {
			cpu = math.NaN()
		}
		cpu += m.CPUSecs
		played[m.Generation], hours[m.Generation], cpuHours[m.Generation] = games, m.WallSecs/3600, cpu/3600
	}
	for i := range rows {
		r := &rows[i]
		if g, ok := played[r.Generation]; ok && !r.Anchor {
			r.SelfplayGames, r.Hours, r.CPUHours = g, hours[r.Generation], cpuHours[r.Generation]
		}
		if c := u.solver[r.Player]; c != nil {
			r.SolverPositions, r.SolverKept = c.Positions, c.Kept
			r.SolverRate, r.SolverLow, r.SolverHigh, r.SolverRandom = c.Rate, c.Low, c.High, c.RandomRate
		}
	}
	if err := atomicfile.Write(filepath.Join(u.root, runfiles.RatingsFile), 0o644, func(w io.Writer) error { return runfiles.WriteRatings(w, rows) }); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	return SavePlot(filepath.Join(u.root, PlotFile), rows, u.cfg.AnchorName())
}

// readSolver reads solver.csv (empty when missing).
func readSolver(path string) (map[string]*arena.CheckResult, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]*arena.CheckResult{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	m, err := parseSolver(data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return m, nil
}

// runBoard reads the board of the run in dir from its config.json: its
// own, or for a multi-board run (multi) board, which must be one of the
// boards of its list; board given for a single-board run must be its own.
// The zero board is none given.
func runBoard(dir string, board rules.Board) (b rules.Board, multi bool, err error) {
	c, err := selfplay.NewRunDir(dir).ReadConfig()
	if errors.Is(err, fs.ErrNotExist) {
		return b, false, fmt.Errorf("ladder: %s holds no training run (no config.json): %w", dir, err)
	}
	if err != nil {
		// ReadConfig names the file and what is wrong with it; a config it
		// accepts has passed Validate, board size included.
		return b, false, fmt.Errorf("ladder: %w", err)
	}
	given := board != rules.Board{}
	if !c.MultiBoard() {
		own := rules.SquareBoard(c.Size)
		if given && board != own {
			return b, false, fmt.Errorf("ladder: %s trains %s, not %s", dir, own, board)
		}
		return own, false, nil
	}
	list := c.BoardList()
	if !slices.Contains(list, board) {
		return b, true, fmt.Errorf("ladder: %s trains the boards %s: give --board, one of them", dir, selfplay.BoardSharesString(c.Boards))
	}
	return board, true, nil
}

// ladderFolder is the folder under DIR/ladder of a multi-board run's
// ladder on b: "WxH", as the dashboard reads it.
func ladderFolder(b rules.Board) string { return fmt.Sprintf("%dx%d", b.W, b.H) }

// sortNames orders anchors (alphabetically) before generations (in order).
func sortNames(names []string) {
	key := func(n string) string {
		if isGenerationName(n) {
			return "1" + n
		}
		return "0" + n
	}
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && key(names[j]) < key(names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}
