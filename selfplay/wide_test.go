package selfplay

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/rules"
)

// wideSamples returns samples of a seeded random 9x8 game (wide, with
// auxiliary targets and a value-only one) and of a 6x6 one.
func wideSamples(t testing.TB) []net.Sample {
	t.Helper()
	start, err := rules.Board{W: 9, H: 8, Start: rules.Gap}.WidePosition()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 8))
	ps, _ := rules.WidePlayout(rng, start, -1)
	var out []net.Sample
	for i, p := range ps[:len(ps)-1] {
		s := net.Sample{Wide: p, Value: float32(1 - 2*rng.IntN(2)), MovesLeft: len(ps) - 1 - i, WideFinal: ps[len(ps)-1].Black}
		if i%4 != 3 {
			moves := p.LegalMoves(nil)
			for _, m := range moves {
				s.Policy = append(s.Policy, net.ActionProb{Action: int32(rules.WideActionIndex(m, 9, 8)), Prob: 1 / float32(len(moves))})
			}
		}
		out = append(out, s)
	}
	_, six := testShard(t)
	for i := range six {
		six[i].MovesLeft = 1
	}
	return append(out, six...)
}

// wideShard returns the bytes of a multi-board shard of wideSamples.
func wideShard(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := encodeShard(&b, 0, &shardTag{gen: 2, run: 5}, wideSamples(t)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWideShard checks the shards of wide samples: version 5, read back
// the same (and refused as a single board's); without a wide sample the
// same run writes version 4, as before; and the replay gives the wide
// samples back, of their board, under its symmetries.
func TestWideShard(t *testing.T) {
	samples := wideSamples(t)
	data := wideShard(t)
	if v := binary.LittleEndian.Uint32(data[4:]); v != shardVersionWide {
		t.Fatalf("a shard with wide samples has version %d, want %d", v, shardVersionWide)
	}
	back, tag, err := decodeShard(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, samples) || *tag != (shardTag{gen: 2, run: 5}) {
		t.Fatalf("read back %d samples (tag %+v), differing from the %d written", len(back), tag, len(samples))
	}
	if _, _, err := decodeShard(data, 6); err == nil || !strings.Contains(err.Error(), "several boards") {
		t.Errorf("a wide shard read as 6x6's: %v", err)
	}
	// A shard of one board holds that board's samples only: writing a
	// 9x8 sample into a 9x8 or 6x6 shard is refused at once (a shard of
	// one size has no room for a wide sample's board and could not be
	// read back).
	for size, want := range map[int]string{6: "sample 0 is of board size 9x8", rules.ShapeCode(9, 8): "a board above 8x8"} {
		var one bytes.Buffer
		err := encodeShard(&one, size, &shardTag{}, samples[:3])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("9x8 samples written into a shard of size %d: %v, want an error saying %q", size, err, want)
		}
	}
	var narrow bytes.Buffer
	var sixes []net.Sample
	for _, s := range samples {
		if !s.IsWide() {
			sixes = append(sixes, s)
		}
	}
	if err := encodeShard(&narrow, 0, &shardTag{}, sixes); err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(narrow.Bytes()[4:]); v != shardVersionMixed {
		t.Errorf("a multi-board shard without wide samples has version %d, want %d", v, shardVersionMixed)
	}
	// Version 5 holding no wide sample is not what a run writes.
	forged := append([]byte(nil), narrow.Bytes()...)
	binary.LittleEndian.PutUint32(forged[4:], shardVersionWide)
	if _, _, err := decodeShard(resum(forged), 0); err == nil {
		t.Error("a version 5 shard of 6x6 samples with one-byte boards was accepted")
	}
	r := NewReplay(0, 10, 1000)
	r.Add(samples)
	batch := make([]net.Sample, 16)
	if err := r.DrawBoard(rand.New(rand.NewPCG(1, 2)), rules.ShapeCode(9, 8), batch); err != nil {
		t.Fatal(err)
	}
	for _, s := range batch {
		if !s.IsWide() || s.Dims() != "9x8" {
			t.Fatalf("drew a %s sample (wide %v)", s.Dims(), s.IsWide())
		}
		var buf bytes.Buffer
		if err := encodeShard(&buf, 0, &shardTag{}, []net.Sample{s}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := decodeShard(buf.Bytes(), 0); err != nil {
			t.Fatalf("a drawn sample (under a symmetry) is not a valid one: %v", err)
		}
	}
}

// TestPlayGameWide plays 9x8 and 15x12 games: wide samples whose policies
// are on legal moves, sum to 1 and come with the game's result and
// auxiliary targets; the same seed gives the same game.
func TestPlayGameWide(t *testing.T) {
	for _, b := range []rules.Board{{W: 9, H: 8, Start: rules.Gap}, {W: 15, H: 12, Start: rules.Gap}} {
		cfg := DefaultMultiBoardConfig([]BoardShare{{Board: b, Weight: 1}}).BoardGame(b)
		cfg.Cap = mcts.PlayoutCap{FullSims: 8, FastSims: 4, FullFraction: 0.5}
		cfg.AuxTargets, cfg.RandomPlies = true, 2
		if cfg.RescoreStones != 0 {
			t.Fatalf("%v: rescore stones %d", b, cfg.RescoreStones)
		}
		g := uniformGame(t, cfg, 11)
		if len(g.Samples) == 0 {
			t.Fatalf("%v: no samples", b)
		}
		for i, s := range g.Samples {
			if !s.IsWide() || s.Dims() != b.String() || s.MovesLeft < 1 || s.WideFinal.IsZero() || (s.Value != 1 && s.Value != -1) {
				t.Fatalf("%v sample %d: wide %v, %s, moves left %d, value %v", b, i, s.IsWide(), s.Dims(), s.MovesLeft, s.Value)
			}
			var sum float32
			for _, ap := range s.Policy {
				if m := rules.WideActionMove(int(ap.Action), b.W, b.H); !s.Wide.Legal(m) {
					t.Fatalf("%v sample %d: policy on %v, not a legal move", b, i, m)
				}
				sum += ap.Prob
			}
			if sum < 0.999 || sum > 1.001 {
				t.Fatalf("%v sample %d: policy sums to %v", b, i, sum)
			}
		}
		again := uniformGame(t, cfg, 11)
		if !reflect.DeepEqual(again.Samples, g.Samples) || !bytes.Equal(must(again.Record.MarshalText()), must(g.Record.MarshalText())) {
			t.Errorf("%v: the same seed played another game", b)
		}
	}
}

// TestWideBoardRun trains a run of 9x8 and 5x4 (a wide board and a
// narrow one) for a generation, twice with the same seed: the same
// shard, games and model bits.
func TestWideBoardRun(t *testing.T) {
	cfg := tiny(multiBoardConfig(t, "9x8,5x4"))
	cfg.Game.Cap = mcts.PlayoutCap{FullSims: 4, FastSims: 2, FullFraction: 0.5}
	cfg.GamesPerGen, cfg.Parallel = 2, 2
	cfg.MinWindow = 20
	cfg.Generations = 1
	var dirs []string
	var log strings.Builder
	for range 2 {
		dir := t.TempDir()
		if err := Run(context.Background(), dir, cfg, train.New, Hooks{}, func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	if !strings.Contains(log.String(), "boards above 8x8 (9x8) play without the exact endgame solver") {
		t.Errorf("the log does not say the solver is off on 9x8:\n%s", log.String())
	}
	for _, f := range []string{"replay/gen-000001.shard", "games/gen-000001/game-00000.txt", "games/gen-000001/game-00001.txt"} {
		a, err1 := os.ReadFile(filepath.Join(dirs[0], f))
		b, err2 := os.ReadFile(filepath.Join(dirs[1], f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Fatalf("%s differs between two runs of the same seed (%v, %v)", f, err1, err2)
		}
	}
	if a, b := modelTensorsHash(t, filepath.Join(dirs[0], "models/gen-000001.safetensors")), modelTensorsHash(t, filepath.Join(dirs[1], "models/gen-000001.safetensors")); a != b {
		t.Fatal("generation 1's weights differ between two runs of the same seed")
	}
	rec, err := os.ReadFile(filepath.Join(dirs[0], "games/gen-000001/game-00000.txt"))
	if err != nil || !strings.Contains(string(rec), `[Board "9x8"]`) {
		t.Errorf("game 0 is not a 9x8 game: %v", err)
	}
	m, err := NewRunDir(dirs[0]).LoadModel(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := net.BoardList(m.Boards()); got != "9x8,5x4" {
		t.Errorf("the model says it was trained on %s", got)
	}
}

// TestWideGameShardReadsBack: a game's own shard, kept until the
// generation's games merge, is read back by recovery on every board of a
// multi-board run — a 9x8 game's in a shard of several boards (a shard of
// one size cannot hold it), a 5x4 game's as before.
func TestWideGameShardReadsBack(t *testing.T) {
	cfg := multiBoardConfig(t, "9x8,5x4")
	if got := []int{cfg.gameShardSize(0), cfg.gameShardSize(1)}; got[0] != 0 || got[1] != rules.ShapeCode(5, 4) {
		t.Fatalf("game shard sizes %v, want [0 %d]", got, rules.ShapeCode(5, 4))
	}
	d, err := OpenRunDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var nine []net.Sample
	for _, s := range wideSamples(t) {
		if s.IsWide() {
			nine = append(nine, s)
		}
	}
	g, err := rules.NewWideGame(cfg.GameBoard(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.writeGame(3, 0, cfg.gameShardSize(0), g.Record(), nine); err != nil {
		t.Fatal(err)
	}
	back, err := d.readGameSamples(3, 0, cfg.gameShardSize(0))
	if err != nil || !reflect.DeepEqual(back, nine) {
		t.Fatalf("9x8 game's shard read back: %d samples of %d, %v", len(back), len(nine), err)
	}
}

// TestWideGameRecovers: an interrupted generation of a multi-board run
// takes back a finished 9x8 game from its record and shard (its plies and
// winner) instead of failing on the record of a board above 8x8, as
// recovery did, which stopped a resumed seven-board run at its start.
func TestWideGameRecovers(t *testing.T) {
	cfg := multiBoardConfig(t, "9x8,5x4")
	d, err := OpenRunDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	g, err := rules.NewWideGame(cfg.GameBoard(0))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for !g.Over() {
		moves := g.Position().LegalMoves(nil)
		if err := g.Play(moves[rng.IntN(len(moves))]); err != nil {
			t.Fatal(err)
		}
	}
	winner, _ := g.Winner()
	var nine []net.Sample
	for _, s := range wideSamples(t) {
		if s.IsWide() {
			nine = append(nine, s)
		}
	}
	if err := d.writeGame(3, 0, cfg.gameShardSize(0), g.Record(), nine); err != nil {
		t.Fatal(err)
	}
	w := &genWork{dir: d, cfg: cfg, gen: 3}
	gs, merged, err := w.recover()
	if err != nil {
		t.Fatalf("recover: %v", err)
	}
	if merged != nil {
		t.Fatalf("recover found a merged shard of %d samples; only game 0 was written", len(merged))
	}
	got := gs.summaries[0]
	if got == nil || got.plies != g.Len() || got.winner != winner || len(gs.samples[0]) != len(nine) {
		t.Fatalf("recovered game 0: %+v with %d samples, want %d plies, winner %v, %d samples", got, len(gs.samples[0]), g.Len(), winner, len(nine))
	}
	for i := 1; i < len(gs.summaries); i++ {
		if gs.summaries[i] != nil {
			t.Fatalf("game %d recovered though never played", i)
		}
	}
}
