package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
)

func arenaCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), append([]string{"arena"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestArenaRoundRobin(t *testing.T) {
	dir := t.TempDir()
	out, errOut, err := arenaCmd(t, "--size", "4", "--games", "6", "--parallel", "2", "--seed", "3", "--out", dir,
		"random", "greedy", "alphabeta:depth=2,name=ab")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"arena: 4x4, round robin of 3 players, 6 games per pair, 2 random plies after the removals, seed 3\n",
		"\npair ", "random  vs  greedy  ", "greedy  vs  ab  ",
		"Elo (maximum likelihood, random = 0, prior 1 virtual draws per pair)",
		"rank  player  ",
		"wrote " + dir + ": results.csv, ratings.csv, results.json and 18 games in games/",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`games: 18 played, \d+ distinct`).MatchString(out) {
		t.Errorf("no distinct game count:\n%s", out)
	}
	// Rating lines: rank, name, signed Elo, interval or "anchor".
	if n := len(regexp.MustCompile(`(?m)^[123]  +\S+ +[+-]\d+ +(anchor|\[[+-]\d+, [+-]\d+\])`).FindAllString(out, -1)); n != 3 {
		t.Errorf("%d rating lines, want 3:\n%s", n, out)
	}
	if !strings.Contains(errOut, "arena: 18/18 games") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	games, _ := filepath.Glob(filepath.Join(dir, "games", "*.txt"))
	if len(games) != 18 {
		t.Errorf("%d game records, want 18", len(games))
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Players []string `json:"players"`
		Played  int      `json:"games_played"`
	}
	if err := json.Unmarshal(data, &j); err != nil || len(j.Players) != 3 || j.Played != 18 {
		t.Errorf("results.json: %s (%v)", data, err)
	}
	for _, f := range []string{"results.csv", "ratings.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestArenaKeepsGamesAsTheyEnd: a match stopped after its first game
// keeps, in --out, the games that ended, each as Save would write it; the
// tables, written at the end, are not there.
func TestArenaKeepsGamesAsTheyEnd(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := filepath.Join(dir, "games", "00001.txt")
	go cancelOnFile(ctx, cancel, first)
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"arena", "--size", "6", "--games", "40", "--parallel", "1", "--quiet", "--out", dir,
		"alphabeta:depth=5", "alphabeta:depth=4"}, strings.NewReader(""), &out, &errOut)
	if err == nil {
		t.Skip("the match ended before it could be stopped")
	}
	games, _ := filepath.Glob(filepath.Join(dir, "games", "*.txt"))
	if len(games) == 0 || len(games) == 40 {
		t.Fatalf("%d games kept of a match stopped after its first (%v)", len(games), err)
	}
	for _, g := range games {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := rules.ParseRecord(data)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if _, ok := rec.Winner(); !ok || rec.Tag("Event") != "konane arena" || !strings.HasPrefix(rec.Tag("Black"), "alphabeta:depth=") {
			t.Errorf("%s: tags %v", g, rec.Tags)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err == nil {
		t.Error("results.csv written by a match that did not end")
	}
}

// cancelOnFile cancels ctx as soon as the file at path exists (a match's
// game kept in --out), or returns when ctx ends first.
func cancelOnFile(ctx context.Context, cancel context.CancelFunc, path string) {
	for ctx.Err() == nil {
		if _, err := os.Stat(path); err == nil {
			cancel()
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestArenaContinuesAStoppedMatch: a match stopped after its third game
// and run again with the same command writes the files of an
// uninterrupted run of the same seed.
func TestArenaContinuesAStoppedMatch(t *testing.T) {
	args := []string{"--size", "6", "--games", "6", "--parallel", "1", "--quiet", "--sprt", "0,200,0.2,0.2",
		"alphabeta:depth=3", "alphabeta:depth=2,name=ab2", "greedy"}
	full := t.TempDir()
	if _, _, err := arenaCmd(t, append([]string{"--out", full}, args...)...); err != nil {
		t.Fatal(err)
	}
	part := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	third := filepath.Join(part, "games", "00003.txt")
	go cancelOnFile(ctx, cancel, third)
	var out, errOut bytes.Buffer
	if err := run(ctx, append([]string{"arena", "--out", part}, args...), strings.NewReader(""), &out, &errOut); err == nil {
		t.Skip("the match ended before it could be stopped")
	}
	kept, _ := filepath.Glob(filepath.Join(part, "games", "*.txt"))
	stdout, _, err := arenaCmd(t, append([]string{"--out", part}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("\ncontinuing: %d of 18 games kept in %s\n", len(kept), part); !strings.Contains(stdout, want) {
		t.Errorf("output lacks %q:\n%s", want, stdout)
	}
	for _, name := range []string{"match.json", "results.csv", "ratings.csv", "results.json"} {
		a, _ := os.ReadFile(filepath.Join(full, name))
		b, err := os.ReadFile(filepath.Join(part, name))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s of the continued match differs (%v):\n%s\n---\n%s", name, err, b, a)
		}
	}
	// Another match into the same folder is refused, saying why.
	_, _, err = arenaCmd(t, append([]string{"--out", part, "--seed", "2"}, args...)...)
	if err == nil || !strings.Contains(err.Error(), "holds the games of another match: seed 1, not 2") {
		t.Errorf("another seed into the folder: %v", err)
	}
}

func TestArenaGauntletSPRTAnchor(t *testing.T) {
	out, _, err := arenaCmd(t, "--size", "5", "--games", "60", "--parallel", "1", "--gauntlet", "--quiet", "--sprt", "0,150",
		"--anchor", "alphabeta:depth=3", "random", "alphabeta:depth=3", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"gauntlet of 3 players", "sprt elo0=0 elo1=150 alpha=0.05 beta=0.05",
		"sprt of alphabeta:depth=3: accept H1", "skipped after the SPRT decided",
		"Elo (maximum likelihood, alphabeta:depth=3 = 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "greedy  vs  alphabeta") || strings.Contains(out, "alphabeta:depth=3  vs  greedy") {
		t.Errorf("a gauntlet paired two challengers:\n%s", out)
	}
}

func TestArenaSolverCheck(t *testing.T) {
	out, _, err := arenaCmd(t, "--size", "5", "--solver-check", "--positions", "40", "--quiet", "perfect", "random")
	if err != nil {
		t.Fatal(err)
	}
	// random is compared with perfect on the same positions: every
	// position random lost is one perfect alone kept.
	m := regexp.MustCompile(`random kept the win in (\d+) of 40 positions`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no line for random:\n%s", out)
	}
	kept, _ := strconv.Atoi(m[1])
	for _, want := range []string{
		"arena: solver check of perfect, random on 5x5, 40 critical positions from random games, seed 1\n",
		"perfect kept the win in 40 of 40 positions: 100.0% (95% CI ",
		fmt.Sprintf("random minus perfect: %+.1f points (95%% CI ", -100*float64(40-kept)/40),
		fmt.Sprintf("paired: 0 positions kept by random only, %d by perfect only)\n", 40-kept),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`a random player would keep it in \d+\.\d% \(expected over the same positions\)`).MatchString(out) {
		t.Errorf("no random rate:\n%s", out)
	}
}

func TestArenaErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"random", "greedy"}, "arena: --board is required"},
		{[]string{"--size", "17", "random", "greedy"}, "arena: --size 17: 17x17 is outside the boards 4x4..16x16"},
		{[]string{"--board", "6x6/gap", "random", "greedy"}, "arena: --board 6x6/gap: the gap start needs"},
		{[]string{"--board", "9x8", "random", "mcts:sims=10"}, "a mcts player plays boards of at most 8 files and ranks, not 9x8"},
		{[]string{"--board", "7x6", "--solver-check", "random"}, "only on the square boards up to 6x6"},
		{[]string{"--size", "4", "random"}, "a match needs at least 2 player specs, got 1"},
		{[]string{"--size", "4", "random", "minimax:depth=3"}, `arena: player: spec "minimax:depth=3": unknown player kind "minimax"`},
		{[]string{"--size", "4", "random", "alphabeta:deep=3"}, `unknown setting "deep" for alphabeta`},
		{[]string{"--size", "4", "random", "alphabeta:depth=zero"}, `depth="zero": want a whole number`},
		{[]string{"--size", "4", "random", "random"}, `two players are named "random"`},
		{[]string{"--size", "4", "--games", "0", "random", "greedy"}, "0 games per pair"},
		{[]string{"--size", "4", "--parallel", "0", "random", "greedy"}, "--parallel 0"},
		{[]string{"--size", "4", "--sprt", "10", "random", "greedy"}, `arena: --sprt: arena: sprt "10": want elo0,elo1`},
		{[]string{"--size", "4", "--anchor", "nobody", "random", "greedy"}, `--anchor "nobody" is not the name of a player`},
		{[]string{"--size", "4", "--prior", "-1", "random", "greedy"}, "--prior -1"},
		{[]string{"--size", "4", "--solver-check"}, "--solver-check takes at least one player spec"},
		{[]string{"--size", "8", "--solver-check", "random"}, "only on the square boards up to 6x6"},
		{[]string{"--size", "4", "--solver-check", "--positions", "0", "random"}, "--positions 0"},
		{[]string{"--size", "4", "random", "model:nowhere.safetensors,sims=10"}, "nowhere.safetensors"},
		{[]string{"--size", "4", "random", "model:x.safetensors"}, "model needs level=L, sims=N or time=D"},
	}
	for _, tt := range tests {
		_, _, err := arenaCmd(t, append([]string{"--quiet"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("arena %v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestArenaModel(t *testing.T) {
	path := agenttest.TinyModelFile(t, 4)
	out, _, err := arenaCmd(t, "--size", "4", "--games", "4", "--quiet", "model:"+path+",sims=8,name=tiny", "random")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "tiny  vs  random  ") {
		t.Errorf("output:\n%s", out)
	}
	out, _, err = arenaCmd(t, "--size", "4", "--solver-check", "--positions", "10", "--quiet", "model:"+path+",sims=8,name=tiny")
	if err != nil || !strings.Contains(out, "tiny kept the win in ") {
		t.Errorf("solver check: %v\n%s", err, out)
	}
	_, _, err = arenaCmd(t, "--size", "5", "--quiet", "model:"+path+",sims=8,name=tiny", "random")
	if err == nil || !strings.Contains(err.Error(), "arena: agent: tiny: agent: net: model "+path+": wrong board size: it plays 4x4, not 5x5") {
		t.Errorf("wrong size: %v", err)
	}
}

// TestArenaBoards: arena on a rectangle with a multi-board model (given
// the match's board, trained there or not) beside pvs and greedy, and on
// a wide board with the classical players; the records name the board
// and replay to their results.
func TestArenaBoards(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(6), rules.Board{W: 7, H: 6, Start: rules.Gap})
	for _, tt := range []struct {
		board   string
		players []string
		header  string
	}{
		{"7x6", []string{"model:" + path + ",level=medium,sims=8,name=net", "pvs:depth=2", "greedy"},
			"arena: 7x6, round robin of 3 players, 2 games per pair, 2 random plies after the gap start, seed 1\n"},
		{"size-9", []string{"pvs:depth=2", "greedy"}, "arena: 9x8, round robin of 2 players, 2 games per pair, 2 random plies after the gap start, seed 1\n"},
		{"6x7/removal", []string{"model:" + path + ",sims=8,name=net", "random"}, "arena: 6x7/removal, round robin of 2 players"},
		{"6", []string{"model:" + path + ",sims=8,name=net", "greedy"}, "arena: 6x6, round robin of 2 players, 2 games per pair, 2 random plies after the removals"},
	} {
		dir := t.TempDir()
		out, errOut, err := arenaCmd(t, append([]string{"--board", tt.board, "--games", "2", "--parallel", "2", "--quiet", "--out", dir}, tt.players...)...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.board, err, errOut)
		}
		if !strings.HasPrefix(out, tt.header) {
			t.Errorf("%s: output:\n%s", tt.board, out)
		}
		b, _ := rules.ParseBoard(tt.board)
		games, _ := filepath.Glob(filepath.Join(dir, "games", "*.txt"))
		if want := len(tt.players) * (len(tt.players) - 1); len(games) != want {
			t.Errorf("%s: %d records, want %d", tt.board, len(games), want)
		}
		for _, f := range games {
			rec, err := rules.ReadRecordFile(f)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			g, err := rec.WideGame()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			w, ok := g.Winner()
			rw, rok := rec.Winner()
			if rec.Board() != b || !g.Over() || !ok || !rok || w != rw {
				t.Errorf("%s: board %s, over %v, winner %v/%v", f, rec.Board(), g.Over(), w, rw)
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil || !strings.Contains(string(data), fmt.Sprintf("\"board\": %q", b.String())) {
			t.Errorf("%s: results.json: %v\n%s", tt.board, err, data)
		}
	}
}

// TestArenaWideModel: a multi-board model trained on 9x8 and 15x12 plays
// legal games there against pvs (issue 43's gap-board match, small);
// the same seed gives the same games; a model not trained on the board
// is refused in one line naming the board and the model's boards.
func TestArenaWideModel(t *testing.T) {
	path := agenttest.MultiBoardModelFile(t, rules.SquareBoard(8), rules.Board{W: 9, H: 8, Start: rules.Gap},
		rules.Board{W: 15, H: 12, Start: rules.Gap})
	boards := []string{"9x8", "15x12"}
	if testing.Short() {
		boards = boards[:1]
	}
	for _, board := range boards {
		var first []string
		for range 2 {
			dir := t.TempDir()
			out, errOut, err := arenaCmd(t, "--board", board, "--games", "2", "--parallel", "2", "--quiet", "--seed", "7", "--out", dir,
				"model:"+path+",level=medium,sims=8,name=net", "pvs:depth=1")
			if err != nil {
				t.Fatalf("%s: %v\n%s", board, err, errOut)
			}
			if !regexp.MustCompile(`\n(net\s+vs\s+pvs:depth=1|pvs:depth=1\s+vs\s+net)\s`).MatchString(out) {
				t.Errorf("%s: output:\n%s", board, out)
			}
			b, _ := rules.ParseBoard(board)
			files, _ := filepath.Glob(filepath.Join(dir, "games", "*.txt"))
			if len(files) != 2 {
				t.Fatalf("%s: %d records, want 2", board, len(files))
			}
			var games []string
			for _, f := range files {
				rec, err := rules.ReadRecordFile(f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				g, err := rec.WideGame() // replays every move: legal
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				w, ok := g.Winner()
				rw, rok := rec.Winner()
				if rec.Board() != b || !g.Over() || !ok || !rok || w != rw {
					t.Errorf("%s: board %s, over %v, winner %v/%v", f, rec.Board(), g.Over(), w, rw)
				}
				data, _ := os.ReadFile(f)
				games = append(games, string(data))
			}
			if first == nil {
				first = games
			} else if !slices.Equal(first, games) {
				t.Errorf("%s: seed 7 gave other games the second time:\n%v\n%v", board, first, games)
			}
		}
	}
	_, _, err := arenaCmd(t, "--board", "11x8", "--quiet", "model:"+path+",sims=8,name=net", "pvs:depth=1")
	want := "model " + path + " was not trained on 11x8 (it was on 8x8,9x8,15x12)"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("untrained board: %v, want %q", err, want)
	}
}
