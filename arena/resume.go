package arena

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/rules"
)

// MatchFile is the file of an output folder that names the match whose
// games the folder keeps (Resume).
const MatchFile = "match.json"

// Identity is what makes a match the same match: every setting the
// games depend on (not Parallel, nor the anchor and prior of the
// ratings).
type Identity struct {
	Board        string   `json:"board"` // as rules.ParseBoard reads it, with its start
	Players      []string `json:"players"`
	Specs        []string `json:"specs,omitempty"` // the players' specs as given, when they differ from the names
	GamesPerPair int      `json:"games_per_pair"`
	RandomPlies  int      `json:"random_plies"`
	Gauntlet     bool     `json:"gauntlet"`
	Seed         uint64   `json:"seed"`
	SPRT         string   `json:"sprt,omitempty"`
}

// Identity is the identity of the match cfg between the players of the
// given names and specs (nil when the caller has none).
func (c MatchConfig) Identity(names, specs []string) Identity {
	id := Identity{Board: c.Board.String(), Players: names, GamesPerPair: c.Games, RandomPlies: c.RandomPlies,
		Gauntlet: c.Gauntlet, Seed: c.Seed}
	if strings.Join(specs, "\n") != strings.Join(names, "\n") {
		id.Specs = specs
	}
	if c.SPRT != nil {
		id.SPRT = c.SPRT.String()
	}
	return id
}

// diff names the first setting in which id and o differ ("" if none).
func (id Identity) diff(o Identity) string {
	q := func(v []string) string { return strconv.Quote(strings.Join(v, " ")) }
	switch {
	case id.Board != o.Board:
		return fmt.Sprintf("board %s, not %s", o.Board, id.Board)
	case strings.Join(id.Players, "\n") != strings.Join(o.Players, "\n"):
		return fmt.Sprintf("players %s, not %s", q(o.Players), q(id.Players))
	case strings.Join(id.Specs, "\n") != strings.Join(o.Specs, "\n"):
		return fmt.Sprintf("player specs %s, not %s", q(o.Specs), q(id.Specs))
	case id.GamesPerPair != o.GamesPerPair:
		return fmt.Sprintf("%d games per pair, not %d", o.GamesPerPair, id.GamesPerPair)
	case id.RandomPlies != o.RandomPlies:
		return fmt.Sprintf("%d random plies, not %d", o.RandomPlies, id.RandomPlies)
	case id.Gauntlet != o.Gauntlet:
		return fmt.Sprintf("gauntlet %t, not %t", o.Gauntlet, id.Gauntlet)
	case id.Seed != o.Seed:
		return fmt.Sprintf("seed %d, not %d", o.Seed, id.Seed)
	case id.SPRT != o.SPRT:
		return fmt.Sprintf("sprt %q, not %q", o.SPRT, id.SPRT)
	}
	return ""
}

// Resume prepares dir to keep the games of the match cfg between the
// players of the given names and specs, and returns the games it
// already keeps, for MatchConfig.Kept. The first time it writes dir/
// match.json (MatchFile) with the match's Identity; later it refuses a
// dir whose match.json names another match, saying what differs, unless
// the dir keeps no game yet (then match.json is written anew). It
// reads back every game record dir/games/NNNNN.txt (SaveGame) and
// refuses, naming its file, one that does not parse or is not a game of
// this match's schedule (never replaying or dropping it). A dir without
// match.json that keeps games (written before match.json was) is taken
// when every game is one of the schedule.
func Resume(dir string, cfg MatchConfig, names, specs []string) ([]Game, error) {
	if err := cfg.validate(len(names)); err != nil {
		return nil, err
	}
	id := cfg.Identity(names, specs)
	path := filepath.Join(dir, MatchFile)
	data, err := os.ReadFile(path)
	var old Identity
	if err == nil {
		if err := json.Unmarshal(data, &old); err != nil {
			return nil, fmt.Errorf("arena: %s: %w", path, err)
		}
	}
	switch d := id.diff(old); {
	case err == nil && d == "":
		return readKept(dir, cfg, names)
	case err == nil && keepsGames(dir):
		return nil, fmt.Errorf("arena: %s holds the games of another match: %s (use another --out folder)", dir, d)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("arena: %w", err)
	}
	// The first run, one that stopped before its first game, or games
	// kept before match.json was: written once the games check.
	kept, err := readKept(dir, cfg, names)
	if err != nil {
		return nil, err
	}
	data, err = json.MarshalIndent(id, "", "  ")
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = atomicfile.WriteFile(path, append(data, '\n'), 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	return kept, nil
}

// keepsGames reports whether dir/games holds a file other than a
// temporary one.
func keepsGames(dir string) bool {
	files, _ := os.ReadDir(filepath.Join(dir, "games"))
	for _, f := range files {
		if !atomicfile.IsTemp(f.Name()) {
			return true
		}
	}
	return false
}

// readKept reads the game records of dir/games, in schedule order, each
// checked against the schedule of cfg.
func readKept(dir string, cfg MatchConfig, names []string) ([]Game, error) {
	files, err := os.ReadDir(filepath.Join(dir, "games"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	pairings := Pairings(len(names), cfg.Gauntlet)
	lines, err := Openings(cfg.Board, (cfg.Games+1)/2, cfg.RandomPlies, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	var kept []Game
	for _, f := range files {
		if f.IsDir() || atomicfile.IsTemp(f.Name()) {
			continue
		}
		path := filepath.Join(dir, "games", f.Name())
		g, err := readGame(path, cfg, index, len(pairings))
		if err == nil {
			err = cfg.checkKept(&g, pairings, lines)
		}
		if err != nil {
			return nil, fmt.Errorf("arena: kept game %s: %s (move the file away to play the game again)",
				path, strings.TrimPrefix(err.Error(), "arena: "))
		}
		if want := fmt.Sprintf("%05d.txt", g.Index+1); f.Name() != want {
			return nil, fmt.Errorf("arena: kept game %s: its Round tag says game %d (want %s)", path, g.Index+1, want)
		}
		kept = append(kept, g)
	}
	sort.Slice(kept, func(a, b int) bool { return kept[a].Index < kept[b].Index })
	return kept, nil
}

// readGame reads the game record at path as SaveGame wrote it (the
// match's board, event and seed, Round the 1-based index, Black and
// White two of the players, a result) in a match of the given number of
// pairs.
func readGame(path string, cfg MatchConfig, index map[string]int, pairs int) (Game, error) {
	var g Game
	data, err := os.ReadFile(path)
	if err != nil {
		return g, err
	}
	rec, err := rules.ParseRecord(data)
	if err != nil {
		return g, err
	}
	if b := rec.Board(); b != cfg.Board {
		return g, fmt.Errorf("a game of %s, not %s", b, cfg.Board)
	}
	if rec.Tag("Event") != "konane arena" || rec.Tag("Seed") != strconv.FormatUint(cfg.Seed, 10) {
		return g, fmt.Errorf("event %q and seed %q, want \"konane arena\" and %d", rec.Tag("Event"), rec.Tag("Seed"), cfg.Seed)
	}
	round, err := strconv.Atoi(rec.Tag("Round"))
	if err != nil || round < 1 {
		return g, fmt.Errorf("round %q: want a game number from 1", rec.Tag("Round"))
	}
	var ok bool
	if g.Black, ok = index[rec.Tag("Black")]; !ok {
		return g, fmt.Errorf("black %q is not a player of the match", rec.Tag("Black"))
	}
	if g.White, ok = index[rec.Tag("White")]; !ok {
		return g, fmt.Errorf("white %q is not a player of the match", rec.Tag("White"))
	}
	if g.Winner, ok = rec.Winner(); !ok {
		return g, errors.New("no result")
	}
	wg, err := rec.WideGame()
	if err != nil {
		return g, err
	}
	g.Index, g.Moves = round-1, wg.Moves()
	// The schedule sets the line and its length; checkKept compares.
	g.Line = g.Index / pairs / 2
	if _, err := fmt.Sscanf(rec.Tag("Opening"), "line %d: the first %d moves", new(int), &g.Forced); err != nil {
		return g, fmt.Errorf("opening %q: %w", rec.Tag("Opening"), err)
	}
	return g, nil
}
