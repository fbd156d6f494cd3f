package ladder

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/konanezero/konane/arena"
	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// Files and folders of DIR/ladder.
const (
	settingsFile = "ladder.json"   // settings the kept games depend on
	gamesDir     = "games"         // games/A_vs_B/NNNNN.txt, one record per game
	criticalFile = "critical.json" // the solver-labelled positions
	PlotFile     = "elo.png"       // the plot of the ratings
)

// pairing is one match of the ladder: A (the newer generation, or the
// first anchor) against B, with its own seed.
type pairing struct{ A, B string }

func (p pairing) dir(root string) string {
	return filepath.Join(root, gamesDir, fileName(p.A)+"_vs_"+fileName(p.B))
}

// seed is the match seed of the pairing: the ladder seed and both names,
// so a pairing's games do not depend on which others were played.
func (p pairing) seed(ladderSeed uint64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", ladderSeed, p.A, p.B)
	return h.Sum64()
}

// tally is what the kept games of a pairing add up to.
type tally struct {
	WinsA, WinsB int
	kept         map[int]bool // schedule indices of the kept games
}

// store holds the tallies of every kept game.
type store struct {
	root  string
	board rules.Board
	pairs map[pairing]*tally
}

func (s *store) tally(p pairing) *tally {
	t := s.pairs[p]
	if t == nil {
		t = &tally{kept: map[int]bool{}}
		s.pairs[p] = t
	}
	return t
}

// games is the number of kept games in all.
func (s *store) games() int {
	n := 0
	for _, t := range s.pairs {
		n += len(t.kept)
	}
	return n
}

// loadStore reads every kept game under root/games.
func loadStore(root string, board rules.Board) (*store, error) {
	s := &store{root: root, board: board, pairs: map[pairing]*tally{}}
	dirs, err := os.ReadDir(filepath.Join(root, gamesDir))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, gamesDir, d.Name()))
		if err != nil {
			return nil, fmt.Errorf("ladder: %w", err)
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || !strings.HasSuffix(name, ".txt") || strings.HasPrefix(name, ".") {
				continue // atomicfile's temporary files start with a dot
			}
			path := filepath.Join(root, gamesDir, d.Name(), name)
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("ladder: %w", err)
			}
			g, err := parseGame(data, board)
			if err != nil {
				return nil, fmt.Errorf("ladder: kept game %s: %w (delete the file to play the game again)", path, err)
			}
			if want := fmt.Sprintf("%05d.txt", g.index+1); name != want || d.Name() != filepath.Base(g.pairing.dir(root)) {
				return nil, fmt.Errorf("ladder: kept game %s: its tags say %s, game %d (want %s)", path, filepath.Base(g.pairing.dir(root)), g.index+1, want)
			}
			t := s.tally(g.pairing)
			t.kept[g.index] = true
			if g.winnerA {
				t.WinsA++
			} else {
				t.WinsB++
			}
		}
	}
	return s, nil
}

// keptGame is what the ladder reads of a kept game record.
type keptGame struct {
	pairing pairing
	index   int // in the pairing's schedule, from 0
	winnerA bool
}

// parseGame reads one kept game: a finished game record of the board
// board whose PlayerA and PlayerB tags name the pairing, Round its
// 1-based index, and Black and White its two players.
func parseGame(data []byte, board rules.Board) (keptGame, error) {
	var g keptGame
	rec, err := rules.ParseRecord(data)
	if err != nil {
		return g, err
	}
	if rb := rec.Board(); rb != board {
		return g, fmt.Errorf("a %s game in a ladder of %s", rb, board)
	}
	g.pairing = pairing{rec.Tag("PlayerA"), rec.Tag("PlayerB")}
	if g.pairing.A == "" || g.pairing.B == "" || g.pairing.A == g.pairing.B {
		return g, errors.New("the PlayerA and PlayerB tags must name two players")
	}
	round, err := strconv.Atoi(rec.Tag("Round"))
	if err != nil || round < 1 || round > maxGames {
		return g, fmt.Errorf("round %q: want 1..%d", rec.Tag("Round"), maxGames)
	}
	g.index = round - 1
	black, white := rec.Tag("Black"), rec.Tag("White")
	if !(black == g.pairing.A && white == g.pairing.B || black == g.pairing.B && white == g.pairing.A) {
		return g, fmt.Errorf("black %q and white %q are not the pairing's players %q and %q", black, white, g.pairing.A, g.pairing.B)
	}
	winner, ok := rec.Winner()
	if !ok {
		return g, errors.New("no result")
	}
	final, err := rec.WideFinal() // a game of any board
	if err != nil {
		return g, err
	}
	if final.HasMoves() {
		return g, errors.New("the game is not over")
	}
	g.winnerA = (winner == rules.Black) == (black == g.pairing.A)
	return g, nil
}

// maxGames bounds the games of a pairing (Config.Games).
const maxGames = 10000

// writeGame keeps one finished game of pairing p.
func (s *store) writeGame(p pairing, cfg arena.MatchConfig, g arena.Game) error {
	res := &arena.Results{Config: cfg, Names: []string{p.A, p.B}}
	rec, err := res.Record(g)
	if err != nil {
		return fmt.Errorf("ladder: game %d: %w", g.Index+1, err)
	}
	rec.SetTag("Event", "konane ladder")
	rec.SetTag("PlayerA", p.A)
	rec.SetTag("PlayerB", p.B)
	if err := os.MkdirAll(p.dir(s.root), 0o755); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	data, err := rec.MarshalText()
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(p.dir(s.root), fmt.Sprintf("%05d.txt", g.Index+1)), data, 0o644)
	}
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	t := s.tally(p)
	t.kept[g.Index] = true
	if (g.Winner == rules.Black) == (g.Black == 0) {
		t.WinsA++
	} else {
		t.WinsB++
	}
	return nil
}

// criticalJSON is the file of solver-labelled positions.
type criticalJSON struct {
	Size      int            `json:"size"`
	Seed      uint64         `json:"seed"`
	Positions []criticalItem `json:"positions"`
}

type criticalItem struct {
	Board   string   `json:"board"`   // rules.Position.String
	Winning []string `json:"winning"` // the moves that keep the win
	Moves   int      `json:"moves"`   // legal moves
}

func writeCritical(path string, size int, seed uint64, cs []arena.Critical) error {
	j := criticalJSON{Size: size, Seed: seed}
	for _, c := range cs {
		it := criticalItem{Board: c.Position.String(), Moves: c.Moves}
		for _, m := range c.Winning {
			it.Winning = append(it.Winning, m.String())
		}
		j.Positions = append(j.Positions, it)
	}
	data, err := json.MarshalIndent(j, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o644)
}

// parseCritical reads the labelled positions back, checking each against
// the rules: the board, its winning moves legal and distinct, and the
// number of legal moves.
func parseCritical(data []byte, size int) ([]arena.Critical, error) {
	var j criticalJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, err
	}
	if j.Size != size {
		return nil, fmt.Errorf("positions of %dx%d, want %dx%d", j.Size, j.Size, size, size)
	}
	out := make([]arena.Critical, 0, len(j.Positions))
	for i, it := range j.Positions {
		p, err := rules.ParsePosition(it.Board)
		if err != nil {
			return nil, fmt.Errorf("position %d: %w", i+1, err)
		}
		if int(p.Size) != size {
			return nil, fmt.Errorf("position %d is %dx%d", i+1, p.Size, p.Size)
		}
		if n := p.CountMoves(); it.Moves != n {
			return nil, fmt.Errorf("position %d: %d legal moves, the file says %d", i+1, n, it.Moves)
		}
		c := arena.Critical{Position: p, Moves: it.Moves}
		for _, text := range it.Winning {
			m, err := rules.ParseMove(p, text)
			if err != nil {
				return nil, fmt.Errorf("position %d: %w", i+1, err)
			}
			if c.Keeps(m) {
				return nil, fmt.Errorf("position %d: winning move %s listed twice", i+1, text)
			}
			c.Winning = append(c.Winning, m)
		}
		if len(c.Winning) == 0 || len(c.Winning) >= c.Moves {
			return nil, fmt.Errorf("position %d: %d winning moves of %d is not a critical position", i+1, len(c.Winning), c.Moves)
		}
		out = append(out, c)
	}
	return out, nil
}

// writeSolver writes the solver check of the players named, in that
// order, as solver.csv (runfiles.EncodeSolverChecks).
func writeSolver(path string, names []string, results map[string]*arena.CheckResult) error {
	rows := make([]runfiles.SolverCheck, len(names))
	for i, n := range names {
		r := results[n]
		rows[i] = runfiles.SolverCheck{Player: n, Positions: r.Positions, Kept: r.Kept, Rate: r.Rate, Low: r.Low, High: r.High, RandomRate: r.RandomRate}
	}
	return atomicfile.WriteFile(path, runfiles.EncodeSolverChecks(rows), 0o644)
}

// parseSolver reads solver.csv back (runfiles.ParseSolverChecks), by
// player.
func parseSolver(data []byte) (map[string]*arena.CheckResult, error) {
	rows, err := runfiles.ParseSolverChecks(data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*arena.CheckResult, len(rows))
	for _, r := range rows {
		out[r.Player] = &arena.CheckResult{Positions: r.Positions, Kept: r.Kept, Rate: r.Rate, Low: r.Low, High: r.High, RandomRate: r.RandomRate}
	}
	return out, nil
}
