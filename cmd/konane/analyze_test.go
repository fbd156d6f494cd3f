package main

import (
	"bytes"
	"context"
	"encoding/json"
	stdpng "image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/analysis"
	"github.com/konanezero/konane/rules"
)

func analyzeCmd(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	err = run(context.Background(), append([]string{"analyze"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), err
}

// writeGame writes a seeded random 6x6 game to dir and returns its path.
func writeGame(t *testing.T, dir string) (string, *rules.Record) {
	t.Helper()
	_, ms := rules.Playout(rand.New(rand.NewPCG(11, 0)), rules.NewPosition(6), -1)
	rec := rules.NewRecord(6)
	for _, m := range ms {
		rec.AddMove(m, "")
	}
	data, err := rec.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, rec
}

func TestAnalyzeCommand(t *testing.T) {
	dir := t.TempDir()
	game, rec := writeGame(t, dir)
	out := filepath.Join(dir, "annotated.json")
	png := filepath.Join(dir, "graph.png")
	stdout, stderr, err := analyzeCmd("--sims", "8", "--json", "--out", out, "--plot", png, game)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var rep analysis.JSONReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Rows) != len(rec.Moves) || rep.Size != 6 {
		t.Fatalf("--json printed %q (%v)", stdout, err)
	}
	back, err := rules.ReadRecordFile(out)
	if err != nil {
		t.Fatalf("--out does not read back: %v", err)
	}
	if len(back.Moves) != len(rec.Moves) || !strings.Contains(back.Comments[0], "black ") {
		t.Errorf("--out: %d moves, first comment %q", len(back.Moves), back.Comments[0])
	}
	if data, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("--plot: %v", err)
	} else if cfg, err := stdpng.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width < 1000 || cfg.Height < 500 {
		t.Errorf("--plot: %dx%d (%v), want at least 1000x500", cfg.Width, cfg.Height, err)
	} else if dir := os.Getenv("KONANE_KEEP_PLOT"); dir != "" {
		os.WriteFile(filepath.Join(dir, "analyze.png"), data, 0o644) // to look at
	}
	if !strings.Contains(stderr, "positions in") {
		t.Errorf("stderr %q: want the summary line", stderr)
	}
	stdout, _, err = analyzeCmd("--sims", "8", "--quiet", game)
	if err != nil {
		t.Fatal(err)
	}
	// Moves numbered by pairs, as records do: "1." Black's, "1..." White's.
	if !regexp.MustCompile(`^6x6 game, removal start, reviewed by the agent\nno\.\s+player\s+move\s`).MatchString(stdout) || !regexp.MustCompile(`(?m)^1\.\s+black\s+\S+\s+\d+%`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^1\.\.\.\s+white\s`).MatchString(stdout) || !regexp.MustCompile(`(?m)^2\.\s+black\s`).MatchString(stdout) || !strings.Contains(stdout, "\nwhite: ") {
		t.Errorf("table:\n%s", stdout)
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	dir := t.TempDir()
	game, _ := writeGame(t, dir)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("[Size \"6\"]\n\n1. b1\n"), 0o644)
	huge := filepath.Join(dir, "huge.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(game, link); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(huge, []byte("[Size \"6\"]\n\n1. "+strings.Repeat("x", 2_000_000)+"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "name a game record"},
		{[]string{game, game}, "unexpected argument"},
		{[]string{"--sims", "-1", game}, "--sims -1"},
		{[]string{"--time", "-1s", game}, "--time -1s"},
		{[]string{filepath.Join(dir, "missing.txt")}, "missing.txt"},
		{[]string{bad}, "bad.txt"},
		{[]string{huge}, "huge.txt: larger than 1 MiB"},
		{[]string{"--sims", "8", "--plot", game, game}, "--plot " + game + ": that is the record read"},
		{[]string{"--sims", "8", "--out", dir + "/./game.txt", game}, "--out " + dir + "/./game.txt: that is the record read"},
		{[]string{"--sims", "8", "--out", link, game}, "--out " + link + ": that is the record read"},
		{[]string{"--out", filepath.Join(dir, "a.txt"), "--plot", filepath.Join(dir, "a.txt"), game}, "--plot " + filepath.Join(dir, "a.txt") + ": --out writes that file"},
		{[]string{"--sims", "8", "--out", filepath.Join(dir, "no", "such", "dir.txt"), game}, "--out"},
	} {
		before, _ := os.ReadFile(game)
		_, _, err := analyzeCmd(c.args...)
		if after, _ := os.ReadFile(game); !bytes.Equal(before, after) {
			t.Fatalf("analyze %.100q rewrote the record", c.args)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 500 {
			t.Errorf("analyze %.100q: %.500v, want a short error naming %q", c.args, err, c.want)
		}
	}
}

// TestAnalyzeBoards: a 9x8 game (analysis/testdata, an arena game) is
// reviewed by the classical engine, its table, JSON, annotated record
// and plot naming its board; a 7x6 one by a multi-board model's network
// with --model; and the flags or records that do not fit a board are
// refused in one line.
func TestAnalyzeBoards(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join("..", "..", "analysis", "testdata", "game-9x8.txt")
	rect := filepath.Join("..", "..", "analysis", "testdata", "game-7x6.txt")
	out, png := filepath.Join(dir, "annotated.txt"), filepath.Join(dir, "graph.png")
	stdout, stderr, err := analyzeCmd("--depth", "2", "--json", "--out", out, "--plot", png, wide)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var rep analysis.JSONReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Board != "9x8" || rep.Start != "gap" || rep.Size != 0 ||
		!strings.HasPrefix(rep.Engine, "the classical engine (pvs, depth 2 per position") || len(rep.Rows) != 43 || rep.Rows[0].Move != "g5-e5" {
		t.Fatalf("--json printed %.300q (%v)", stdout, err)
	}
	if !strings.Contains(stderr, "by the classical engine (no network plays 9x8)") {
		t.Errorf("stderr %q: want the summary naming the classical engine", stderr)
	}
	back, err := rules.ReadRecordFile(out)
	if err != nil || back.Board().String() != "9x8" || back.Len() != 43 || !strings.HasPrefix(back.Comments[0], "black ") {
		t.Errorf("--out reads back as %v, %v", back, err)
	}
	if data, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("--plot: %v", err)
	}
	stdout, _, err = analyzeCmd("--depth", "2", "--quiet", wide)
	if err != nil || !strings.HasPrefix(stdout, "9x8 game, gap start, reviewed by the classical engine") || !strings.Contains(stdout, "\n22.    black   c7-e7") {
		t.Errorf("table (%v):\n%s", err, stdout)
	}
	multi := agenttest.MultiBoardModelFile(t, rules.Board{W: 7, H: 6, Start: rules.Gap})
	stdout, _, err = analyzeCmd("--sims", "4", "--quiet", "--model", multi, rect)
	if err != nil || !strings.HasPrefix(stdout, "7x6 game, gap start, reviewed by the agent\n") || !strings.Contains(stdout, "\n15.    black   a5-a3") {
		t.Errorf("7x6 by the network (%v):\n%s", err, stdout)
	}
	square, _ := writeGame(t, dir)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("[Board \"9x8\"]\n\n1. j4-h4 *\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--sims", "5", wide}, "--sims 5: the classical engine reviews 9x8 games (analyze reviews the boards above 8x8 with it): give --time or --depth"},
		{[]string{"--model", multi, wide}, "--model " + multi + ": analyze reviews the boards above 8x8, such as 9x8, with the classical engine; a model file is not used there yet, even one trained on 9x8: leave out --model"},
		{[]string{"--depth", "-1", wide}, "--depth -1: want 1..40"},
		{[]string{"--depth", "3", "--time", "1s", wide}, "--depth 3 and --time 1s: give one"},
		{[]string{"--depth", "3", square}, "--depth 3: the network reviews 6x6 games (give --sims or --time)"},
		{[]string{"--model", agenttest.TinyModelFile(t, 6), rect}, "7x6"},
		{[]string{bad}, `bad.txt line 3: black's move 1 "j4-h4": square "j4" is off the 9x8 board`},
	} {
		_, _, err := analyzeCmd(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("analyze %.200q: %.500v, want one line naming %q", c.args, err, c.want)
		}
	}
}

// TestClassicalAnswersWrapped: the analysis help's paragraph on the
// classical engine, whose board lists are generated, keeps to the help's
// 76 columns.
func TestClassicalAnswersWrapped(t *testing.T) {
	text := classicalAnswers()
	for _, line := range strings.Split(text, "\n") {
		if len([]rune(line)) > 76 {
			t.Errorf("line of %d columns: %q", len([]rune(line)), line)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "with a multi-board model file the boards above 8x8 it was not trained on (its network plays every board") {
		t.Errorf("the paragraph:\n%s", text)
	}
}
