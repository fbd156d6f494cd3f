package selfplay

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// surpriseLabelled returns n samples of the board b, of positions of a
// seeded playout, each with one policy entry, told apart by their value
// (sample i has value i/64, which every symmetry keeps) and with the
// surprise surprise[i % len(surprise)].
func surpriseLabelled(t *testing.T, b rules.Board, n int, surprise []float32) []net.Sample {
	t.Helper()
	p, err := b.Position()
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := rules.Playout(rand.New(rand.NewPCG(5, 6)), p, -1)
	if len(ps)-1 < n {
		t.Fatalf("the playout has %d positions, want %d", len(ps)-1, n)
	}
	out := make([]net.Sample, n)
	for i := range out {
		q := ps[i]
		m := q.LegalMoves(nil)[0]
		out[i] = net.Sample{Position: q, Value: float32(i) / 64, Surprise: surprise[i%len(surprise)],
			Policy: []net.ActionProb{{Action: int32(rules.ActionIndex(m, int(q.Size))), Prob: 1}}}
	}
	return out
}

// surpriseWeights are the draw probabilities Replay.SurpriseWeighting
// promises, written out from its formula: w = 0.5 + 0.5·s/s̄ (s̄ the mean
// of the known surprises), 1 for an unknown one, normalised.
func surpriseWeights(surprise []float32) []float64 {
	var sum float64
	known := 0
	for _, s := range surprise {
		if s > 0 {
			sum += float64(s)
			known++
		}
	}
	w := make([]float64, len(surprise))
	var total float64
	for i, s := range surprise {
		w[i] = 1
		if s > 0 {
			w[i] = 0.5 + 0.5*float64(s)/(sum/float64(known))
		}
		total += w[i]
	}
	for i := range w {
		w[i] /= total
	}
	return w
}

// checkDrawShares draws draws samples with draw and checks that each
// label's share is its probability within 4.5 standard errors
// (sqrt(p(1−p)/n)); a seeded test, so it passes or fails for good.
func checkDrawShares(t *testing.T, name string, want []float64, draws int, draw func([]net.Sample)) {
	t.Helper()
	counts := make([]int, len(want))
	batch := make([]net.Sample, 64)
	for n := 0; n < draws; n += len(batch) {
		draw(batch)
		for _, s := range batch {
			counts[int(math.Round(float64(s.Value)*64))]++
		}
	}
	for i, p := range want {
		got := float64(counts[i]) / float64(draws)
		if se := math.Sqrt(p * (1 - p) / float64(draws)); math.Abs(got-p) > 4.5*se {
			t.Errorf("%s: sample %d drawn %.4f of the time, want %.4f ± %.4f", name, i, got, p, 4.5*se)
		}
	}
}

// TestReplaySurpriseDraw: with SurpriseWeighting, Draw picks each sample
// with the probability of the formula (half uniform, half by surprise,
// an unknown surprise as the mean), and so does DrawBoard among one
// board's samples, whatever the surprises of the other boards.
func TestReplaySurpriseDraw(t *testing.T) {
	surprise := []float32{0, 0.05, 0.1, 0.4, 1, 2.45}
	want := surpriseWeights(surprise)
	r := NewReplay(6, 1000, 1000)
	r.SurpriseWeighting = true
	r.Add(surpriseLabelled(t, rules.SquareBoard(6), len(surprise), surprise))
	rng := rand.New(rand.NewPCG(11, 12))
	const draws = 64 * 2000
	checkDrawShares(t, "Draw", want, draws, func(b []net.Sample) { r.Draw(rng, b) })

	multi := NewReplay(0, 1000, 1000)
	multi.SurpriseWeighting = true
	multi.Add(surpriseLabelled(t, rules.SquareBoard(6), len(surprise), surprise))
	multi.Add(surpriseLabelled(t, rules.Board{W: 7, H: 6, Start: rules.Gap}, 4, []float32{50, 0, 90, 120}))
	six := rules.ShapeCode(6, 6)
	checkDrawShares(t, "DrawBoard", want, draws, func(b []net.Sample) {
		if err := multi.DrawBoard(rng, six, b); err != nil {
			t.Fatal(err)
		}
	})
	// New samples change the weights (the cache follows them): a sample
	// of surprise 0.8·11 among them, the mean now 1.5.
	r.Add(surpriseLabelled(t, rules.SquareBoard(6), len(surprise)+1, append(surprise, 8.8))[len(surprise):])
	checkDrawShares(t, "Draw after Add", surpriseWeights(append(surprise, 8.8)), draws, func(b []net.Sample) { r.Draw(rng, b) })
}

// TestReplaySurpriseOff: without SurpriseWeighting, the draws are those
// of a buffer whose samples have no surprise, the uniform draw of every
// run made before the setting (whose resumes stay byte-identical: the
// golden and resume tests of the package).
func TestReplaySurpriseOff(t *testing.T) {
	surprise := []float32{0.3, 0, 2, 0.01}
	a, b := NewReplay(6, 1000, 1000), NewReplay(6, 1000, 1000)
	a.Add(surpriseLabelled(t, rules.SquareBoard(6), 12, surprise))
	b.Add(surpriseLabelled(t, rules.SquareBoard(6), 12, []float32{0}))
	ra, rb := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	ba, bb := make([]net.Sample, 32), make([]net.Sample, 32)
	for range 20 {
		a.Draw(ra, ba)
		b.Draw(rb, bb)
		if !reflect.DeepEqual(ba, bb) {
			t.Fatal("the surprise of the samples changed a draw without SurpriseWeighting")
		}
	}
}

// TestSurpriseShard: samples with a surprise are written in version 6
// over the layout they would have had (3, 4 for several boards, 5 with
// wide samples) and read back the same; without one the shard is what
// it was; a surprise out of range or a layout that is not 3 to 5 is
// refused, naming it.
func TestSurpriseShard(t *testing.T) {
	data, samples := testShard(t)
	if v := binary.LittleEndian.Uint32(data[4:]); v == shardVersionSurprise {
		t.Fatalf("a shard without surprise has version %d", v)
	}
	for i := range samples {
		if samples[i].Policy != nil && i%4 != 1 {
			samples[i].Surprise = 0.125 * float32(i+1)
		}
	}
	if i := 1; samples[i].Policy != nil {
		samples[i].Surprise = net.MinSurprise
	}
	wide := wideSamples(t)
	for i := range wide {
		if wide[i].Policy != nil {
			wide[i].Surprise = float32(i) + 0.5
		}
	}
	for _, tc := range []struct {
		name    string
		size    int
		tag     *shardTag
		samples []net.Sample
		layout  uint32
	}{
		{"6x6", 6, nil, samples, shardVersionAux},
		{"several boards", 0, &shardTag{gen: 3, run: 7}, samples, shardVersionMixed},
		{"wide", 0, &shardTag{gen: 2, run: 5}, wide, shardVersionWide},
	} {
		var b bytes.Buffer
		if err := encodeShard(&b, tc.size, tc.tag, tc.samples); err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		at := shardHeader + shardTagBytes
		if v, l := binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[at:]); v != shardVersionSurprise || l != tc.layout {
			t.Fatalf("%s: version %d of layout %d, want %d of %d", tc.name, v, l, shardVersionSurprise, tc.layout)
		}
		back, _, err := decodeShard(data, tc.size)
		if err != nil || !reflect.DeepEqual(back, tc.samples) {
			t.Fatalf("%s: read back differs (%v)", tc.name, err)
		}
		path := filepath.Join(t.TempDir(), "s.shard")
		if err := WriteShard(path, tc.size, tc.samples); err != nil {
			t.Fatal(err)
		}
		if back, err := ReadShard(path, tc.size); err != nil || !reflect.DeepEqual(back, tc.samples) {
			t.Fatalf("%s: ReadShard: %v", tc.name, err)
		}
	}
	var b bytes.Buffer
	if err := encodeShard(&b, 6, nil, samples); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	at := shardHeader + shardTagBytes
	s0 := at + layoutBytes + sampleHeader + sampleAux // the first sample's surprise
	f32 := func(x float32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[s0:], math.Float32bits(x)) }
	}
	u32 := func(off int, x uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], x) }
	}
	for _, tc := range []struct {
		name string
		edit func([]byte)
		want string
	}{
		{"NaN surprise", f32(float32(math.NaN())), "sample 0: surprise NaN"},
		{"negative surprise", f32(-1), "sample 0: surprise -1"},
		{"surprise below the least", f32(1e-9), "sample 0: surprise 1e-09"},
		{"infinite surprise", f32(float32(math.Inf(1))), "sample 0: surprise +Inf"},
		{"layout 2", u32(at, 2), "format version 6 with samples of version 2, want 3 to 5"},
		{"layout 6", u32(at, 6), "samples of version 6"},
		{"version 7", u32(4, 7), "format version 7, want 1 to 6"},
	} {
		bad := append([]byte(nil), good...)
		tc.edit(bad)
		if _, _, err := decodeShard(resum(bad), 6); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := decodeShard(resum(good[:at+2+4]), 6); err == nil || !strings.Contains(err.Error(), "ends inside its header") {
		t.Errorf("a header cut in its layout: %v", err)
	}
	// Such a surprise is not written either.
	bad := append([]net.Sample(nil), samples...)
	bad[2].Surprise = float32(math.Inf(1))
	if err := encodeShard(&b, 6, nil, bad); err == nil || !strings.Contains(err.Error(), "sample 2: surprise +Inf") {
		t.Errorf("writing an infinite surprise: %v", err)
	}
}

// TestPlayGameSurprise: with GameConfig.Surprise every full search's
// sample has a surprise and the rescored children none; without it no
// sample has one; either way the game and its targets are the same.
func TestPlayGameSurprise(t *testing.T) {
	cfg := tinyConfig()
	ctx := context.Background()
	game := cfg.at(1).Game
	game.RescoreChildren = 2
	plain, err := PlayGame(ctx, mcts.Uniform{}, game, 11)
	if err != nil {
		t.Fatal(err)
	}
	cfg.SurpriseWeighting = true
	game.Surprise = cfg.at(1).Game.Surprise
	g, err := PlayGame(ctx, mcts.Uniform{}, game, 11)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Record.Moves, plain.Record.Moves) || len(g.Samples) != len(plain.Samples) {
		t.Fatal("recording the surprise changed the game")
	}
	full, kids := 0, 0
	for i, s := range g.Samples {
		if plain.Samples[i].HasSurprise() {
			t.Fatalf("sample %d of a game without surprise has one", i)
		}
		s.Surprise = 0
		if !reflect.DeepEqual(s, plain.Samples[i]) {
			t.Fatalf("sample %d: targets differ with the surprise", i)
		}
		switch sp := g.Samples[i].Surprise; {
		case i >= len(g.Samples)-countChildren(g):
			kids++
			if sp != 0 {
				t.Errorf("child sample %d has surprise %v", i, sp)
			}
		default:
			full++
			if !(sp >= net.MinSurprise && sp < 20) {
				t.Errorf("sample %d: surprise %v", i, sp)
			}
		}
	}
	if full == 0 || kids == 0 {
		t.Fatalf("%d searched samples, %d children: the test needs both", full, kids)
	}
}

// countChildren is the number of rescored children at the end of g's
// samples (value-only samples, Game.Samples).
func countChildren(g Game) int {
	n := 0
	for i := len(g.Samples) - 1; i >= 0 && g.Samples[i].Policy == nil; i-- {
		n++
	}
	return n
}

// TestSurpriseRun: a run with surprise weighting and the soft policy head
// writes its samples' surprise in its shards (version 6), reads them back
// into its replay on resuming, and its saved configuration says so (a
// resume without it is refused); its models have the head and
// metrics.csv its loss; and the resumed run is the uninterrupted one, bit
// for bit.
func TestSurpriseRun(t *testing.T) {
	cfg := tinyConfig()
	cfg.SurpriseWeighting, cfg.Net.SoftPolicy = true, true
	cfg.Generations = 2
	whole := t.TempDir()
	mustRun(t, whole, cfg)
	cfg.Generations = 1
	dir := t.TempDir()
	mustRun(t, dir, cfg)
	saved, err := NewRunDir(dir).ReadConfig()
	if err != nil || !saved.SurpriseWeighting || !saved.Net.SoftPolicy {
		t.Fatalf("saved surprise weighting %v, soft policy %v, %v", saved.SurpriseWeighting, saved.Net.SoftPolicy, err)
	}
	if diff := ResumeDiff(saved, tinyConfig()); !strings.Contains(diff, "surprise_weighting") || !strings.Contains(diff, "SoftPolicy") {
		t.Errorf("resuming without surprise weighting and the soft policy head: diff %q", diff)
	}
	saved.Generations = 2
	mustRun(t, dir, saved)
	for _, gen := range []string{"gen-000001.shard", "gen-000002.shard"} {
		data, err := os.ReadFile(filepath.Join(dir, "replay", gen))
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(data[4:]); v != shardVersionSurprise {
			t.Errorf("%s: version %d, want %d", gen, v, shardVersionSurprise)
		}
		back, _, err := decodeShard(data, cfg.Size)
		if err != nil {
			t.Fatal(err)
		}
		known := 0
		for _, s := range back {
			if s.HasSurprise() {
				known++
			}
		}
		if known == 0 {
			t.Errorf("%s: no sample has a surprise", gen)
		}
		if other, err := os.ReadFile(filepath.Join(whole, "replay", gen)); err != nil || !bytes.Equal(other, data) {
			t.Errorf("%s differs between the whole and the resumed run (%v)", gen, err)
		}
	}
	sameOutputs(t, whole, dir)
	m, err := net.Load(filepath.Join(dir, "models", "gen-000002.safetensors"))
	if err != nil || !m.Config().SoftPolicy {
		t.Fatalf("model: %v, %v; want the soft policy head", m, err)
	}
	ms, err := ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil || len(ms) != 2 || !(ms[0].SoftPolicyLoss > 0 && ms[1].SoftPolicyLoss > 0) {
		t.Fatalf("metrics: %+v, %v; want the soft policy loss", ms, err)
	}
}
