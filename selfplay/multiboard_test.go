package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
)

// tinyMultiConfig is a multi-board run small enough for tests: 4x4,
// 5x4 (gap) and 4x5 (removal, weight 2), a tiny net, few sims.
func tinyMultiConfig(t *testing.T) Config {
	t.Helper()
	c := tiny(multiBoardConfig(t, "4x4,5x4,4x5/removal:2"))
	c.GamesPerGen, c.Parallel = 8, 4
	return c
}

// TestParseBoardShares reads board lists with weights and refuses bad
// ones in one line.
func TestParseBoardShares(t *testing.T) {
	bs, err := ParseBoardShares("6x6, 7x6,7x7,8x8:2")
	if err != nil || BoardSharesString(bs) != "6x6,7x6,7x7,8x8:2" {
		t.Fatalf("ParseBoardShares: %v %v", BoardSharesString(bs), err)
	}
	if bs[1].Board != (rules.Board{W: 7, H: 6, Start: rules.Gap}) || bs[3].Weight != 2 {
		t.Errorf("parsed %+v", bs)
	}
	for bad, want := range map[string]string{
		"":                "empty board list",
		"6x6,6x6":         "names 6x6 twice",
		"6x6,6":           "names 6x6 twice",
		"7x6,7x6/removal": "names 7x6 twice (7x6 and 7x6/removal): one start per board",
		"6x6,banana":      "banana",
		"6x6,9x8,9x8/gap": "names 9x8 twice",
		"8x8:0":           "weight",
		"8x8:x":           "weight",
		"7x7/gap":         "gap",
		"6x6,8x8:1000":    "weight",
		"4x4,17x4,8x8":    "17",
		"6x6,,8x8":        "",
		"6x6,7x6/gap:2":   "",
	} {
		_, err := ParseBoardShares(bad)
		if want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseBoardShares(%q) = %v, want one line with %q", bad, err, want)
		}
	}
	// config.json keeps the list as strings, read back the same.
	c := DefaultMultiBoardConfig(bs)
	b, err := json.Marshal(c)
	if err != nil || !bytes.Contains(b, []byte(`"boards":["6x6","7x6","7x7","8x8:2"]`)) {
		t.Fatalf("config.json: %s (%v)", b, err)
	}
	back, err := parseConfig(b)
	if err != nil || BoardSharesString(back.Boards) != BoardSharesString(bs) {
		t.Fatalf("read back %v (%v)", back.Boards, err)
	}
	// A single-board config.json has no boards key.
	if b, _ := json.Marshal(DefaultConfig(8)); bytes.Contains(b, []byte("boards")) {
		t.Errorf("a single-board config names boards: %s", b)
	}
}

// TestGameBoardCycle checks the boards of a generation's games follow
// the weights in a fixed cycle, and each board's game settings.
func TestGameBoardCycle(t *testing.T) {
	c := tinyMultiConfig(t)
	var got []string
	for i := range 8 {
		got = append(got, c.GameBoard(i).String())
	}
	if want := "4x4 5x4 4x5/removal 4x5/removal 4x4 5x4 4x5/removal 4x5/removal"; strings.Join(got, " ") != want {
		t.Errorf("boards %s, want %s", strings.Join(got, " "), want)
	}
	g := c.BoardGame(rules.Board{W: 5, H: 4, Start: rules.Gap})
	if g.Size != rules.ShapeCode(5, 4) || g.Temperature.Hold != 5 || g.RescoreStones != 25 {
		t.Errorf("5x4's game: size %d, hold %d, rescore %d", g.Size, g.Temperature.Hold, g.RescoreStones)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Gate.Games = 10
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "no gate") {
		t.Errorf("a multi-board run with a gate: %v", err)
	}
}

// TestMultiBoardRun trains a multi-board run for two generations: every
// board's games are played, the shards hold every board's samples, the
// models record the boards, and an interrupted run resumes to the same
// files as an uninterrupted one; another board list is refused.
func TestMultiBoardRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a multi-board run")
	}
	cfg := tinyMultiConfig(t)
	ctx := context.Background()
	quiet := func(string, ...any) {}
	whole := t.TempDir()
	cfg.Generations = 2
	mustRun(t, whole, cfg)
	d := NewRunDir(whole)
	d.run = cfg.Seed // the run's identity in its shards, as a run's own RunDir has it
	samples, _, err := d.readShard(2, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]int)
	for _, s := range samples {
		seen[s.Position.Dims()]++
	}
	if len(seen) != 3 {
		t.Errorf("generation 2's shard holds samples of %v, want the three boards", seen)
	}
	if _, _, err := d.readShard(2, 4, ""); err == nil || !strings.Contains(err.Error(), "several boards") {
		t.Errorf("a multi-board shard read as 4x4's: %v", err)
	}
	m, err := d.LoadModel(2)
	if err != nil {
		t.Fatal(err)
	}
	if got := net.BoardList(m.Boards()); got != "4x4,5x4,4x5/removal" {
		t.Errorf("the model says it was trained on %s", got)
	}
	rec, err := d.readGameRecord(2, 1)
	if err != nil || !strings.Contains(string(must(rec.MarshalText())), `[Board "5x4"]`) {
		t.Errorf("game 1 of generation 2 is not a 5x4 game: %v", err)
	}

	split := t.TempDir()
	cfg.Generations = 1
	mustRun(t, split, cfg)
	cfg.Generations = 2
	runStopped(t, split, cfg, 3)
	mustRun(t, split, cfg)
	if a, b := modelTensorsHash(t, filepath.Join(whole, "models/gen-000002.safetensors")), modelTensorsHash(t, filepath.Join(split, "models/gen-000002.safetensors")); a != b {
		t.Fatalf("generation 2's weights differ between the whole and the resumed run")
	}
	for _, f := range []string{"replay/gen-000002.shard", "games/gen-000002/game-00003.txt"} {
		a, err1 := os.ReadFile(filepath.Join(whole, f))
		b, err2 := os.ReadFile(filepath.Join(split, f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Fatalf("%s differs between the whole and the resumed run (%v, %v)", f, err1, err2)
		}
	}
	ms, err := NewRunDir(split).Metrics()
	if err != nil || len(ms) != 2 {
		t.Fatalf("metrics %v, %v", ms, err)
	}

	// Another board list is refused, naming it.
	other := cfg
	other.Boards = cfg.Boards[:2]
	err = Run(ctx, split, other, train.New, Hooks{}, quiet)
	if err == nil || !strings.Contains(err.Error(), "boards") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("another board list: %v", err)
	}
	// A single-board shard where a multi-board run reads its own.
	sd := NewRunDir(split)
	sd.run = cfg.Seed
	var four []net.Sample
	for _, s := range samples {
		if s.Position.Size == 4 {
			four = append(four, s)
		}
	}
	sum, err := sd.writeShard(2, 4, four)
	if err != nil {
		t.Fatal(err)
	}
	// As if the shard were the run's own (state.json records its sha256),
	// so that the format, not the checksum, is what refuses it.
	st, err := sd.readState()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.ShardSHA256) >= 2 {
		st.ShardSHA256[1] = sum
		if err := sd.writeState(st); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Generations = 3
	err = Run(ctx, split, cfg, train.New, Hooks{}, quiet)
	if err == nil || !strings.Contains(err.Error(), "holds the samples of one board (4, format version") || strings.Contains(err.Error(), "\n") {
		t.Errorf("an old shard in a multi-board run: %v", err)
	}
	_ = runfiles.ShardKey
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestReplayDrawBoard: a multi-board buffer draws a batch of one board
// under the symmetries that keep it (a rectangle stays a rectangle of its
// shape), counts each board's samples in the window, and says when it
// has none of a board.
func TestReplayDrawBoard(t *testing.T) {
	r := NewReplay(0, 1000, 1000)
	var samples []net.Sample
	for _, b := range []rules.Board{{W: 6, H: 6}, {W: 7, H: 6, Start: rules.Gap}} {
		p, err := b.Position()
		if err != nil {
			t.Fatal(err)
		}
		ps, _ := rules.Playout(rand.New(rand.NewPCG(1, 2)), p, 12)
		for _, q := range ps[:len(ps)-1] {
			moves := q.LegalMoves(nil)
			samples = append(samples, net.Sample{Position: q, Value: 1, Policy: []net.ActionProb{{Action: int32(rules.ActionIndex(moves[0], int(q.Size))), Prob: 1}}})
		}
	}
	r.Add(samples)
	counts := r.BoardCounts()
	six, rect := rules.ShapeCode(6, 6), rules.ShapeCode(7, 6)
	if counts[six] == 0 || counts[rect] == 0 || counts[six]+counts[rect] != len(samples) {
		t.Fatalf("counts %v for %d samples", counts, len(samples))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	batch := make([]net.Sample, 32)
	if err := r.DrawBoard(rng, rect, batch); err != nil {
		t.Fatal(err)
	}
	for i, s := range batch {
		if int(s.Position.Size) != rect || s.Position.Validate() != nil {
			t.Fatalf("sample %d: a %s position", i, s.Position.Dims())
		}
		if m := rules.ActionMove(int(s.Policy[0].Action), rect); !slices.Contains(s.Position.LegalMoves(nil), m) {
			t.Fatalf("sample %d: policy on %v, not a legal move", i, m)
		}
	}
	if err := r.DrawBoard(rng, rules.ShapeCode(8, 8), batch); err == nil || !strings.Contains(err.Error(), "no 8x8 sample") {
		t.Errorf("drawing a board the window lacks: %v", err)
	}
}

// TestPlayEachParallel: playEach (which plays a multi-board run's games of
// every board from one pool) has at most parallel games in flight, plays
// every game once and hands each to done.
func TestPlayEachParallel(t *testing.T) {
	for _, parallel := range []int{1, 2, 3} {
		var mu sync.Mutex
		inFlight, most := 0, 0
		played := make([]int, 9)
		err := playEach(context.Background(), len(played), parallel, func(ctx context.Context, i int) (Game, error) {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			inFlight--
			mu.Unlock()
			return Game{Plies: i}, nil
		}, func(i int, g Game) error {
			played[i]++
			if g.Plies != i {
				t.Errorf("done(%d) got game %d", i, g.Plies)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if most > parallel || most < 1 {
			t.Errorf("parallel %d: %d games in flight at most", parallel, most)
		}
		for i, n := range played {
			if n != 1 {
				t.Errorf("parallel %d: game %d done %d times", parallel, i, n)
			}
		}
	}
}

// TestBoardGameSolveStones: a new multi-board run solves each board's
// leaves up to its own size's default (27 stones on 8x8, mcts's 30 on
// the smaller boards), and a saved run's value other than the 8x8
// default (30 before 8x8 self-play's default became 27) holds on every
// board.
func TestBoardGameSolveStones(t *testing.T) {
	c := multiBoardConfig(t, "6x6,7x6,8x8")
	for _, tc := range []struct {
		board string
		want  int
	}{{"6x6", mcts.DefaultSolveStones}, {"7x6", mcts.DefaultSolveStones}, {"8x8", DefaultConfig(8).Game.MCTS.SolveStones}} {
		b, err := rules.ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.BoardGame(b).MCTS.SolveStones; got != tc.want {
			t.Errorf("new run, %s: SolveStones %d, want %d", tc.board, got, tc.want)
		}
	}
	if DefaultConfig(8).Game.MCTS.SolveStones == mcts.DefaultSolveStones {
		t.Fatal("the test assumes 8x8 self-play's default differs from mcts's")
	}
	c.Game.MCTS.SolveStones = mcts.DefaultSolveStones // a run saved before the 8x8 default changed
	for _, b := range []rules.Board{rules.SquareBoard(6), rules.SquareBoard(8)} {
		if got := c.BoardGame(b).MCTS.SolveStones; got != mcts.DefaultSolveStones {
			t.Errorf("saved run, %s: SolveStones %d, want %d", b, got, mcts.DefaultSolveStones)
		}
	}
}
