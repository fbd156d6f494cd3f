package selfplay

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
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
// surprise weight weight[i % len(weight)].
func surpriseLabelled(t *testing.T, b rules.Board, n int, weight []float32) []net.Sample {
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
		out[i] = net.Sample{Position: q, Value: float32(i) / 64, SurpriseWeight: weight[i%len(weight)],
			Policy: []net.ActionProb{{Action: int32(rules.ActionIndex(m, int(q.Size))), Prob: 1}}}
	}
	return out
}

// surpriseWeights are the draw probabilities Replay.SurpriseWeighting
// promises: in proportion to the samples' weights, 1 for an unknown one
// (0), normalised; the other samples of the window do not matter.
func surpriseWeights(weight []float32) []float64 {
	w := make([]float64, len(weight))
	var total float64
	for i, s := range weight {
		w[i] = 1
		if s > 0 {
			w[i] = float64(s)
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
// in proportion to the weight its game gave it (an unknown one as 1),
// whatever the other samples of the window, and so does DrawBoard among
// one board's samples, whatever the weights of the other boards.
func TestReplaySurpriseDraw(t *testing.T) {
	weight := []float32{0, 0.5, 0.75, 1.5, 3, 12}
	want := surpriseWeights(weight)
	r := NewReplay(6, 1000, 1000)
	r.SurpriseWeighting = true
	r.Add(surpriseLabelled(t, rules.SquareBoard(6), len(weight), weight))
	rng := rand.New(rand.NewPCG(11, 12))
	const draws = 64 * 2000
	checkDrawShares(t, "Draw", want, draws, func(b []net.Sample) { r.Draw(rng, b) })

	multi := NewReplay(0, 1000, 1000)
	multi.SurpriseWeighting = true
	multi.Add(surpriseLabelled(t, rules.SquareBoard(6), len(weight), weight))
	multi.Add(surpriseLabelled(t, rules.Board{W: 7, H: 6, Start: rules.Gap}, 4, []float32{50, 0, 90, 120}))
	six := rules.ShapeCode(6, 6)
	checkDrawShares(t, "DrawBoard", want, draws, func(b []net.Sample) {
		if err := multi.DrawBoard(rng, six, b); err != nil {
			t.Fatal(err)
		}
	})
	// New samples change the draw (the cache follows them), not the old
	// samples' weights: those of a surprising game do not make the
	// earlier ones less likely against each other.
	r.Add(surpriseLabelled(t, rules.SquareBoard(6), len(weight)+1, append(weight, 100))[len(weight):])
	checkDrawShares(t, "Draw after Add", surpriseWeights(append(weight, 100)), draws, func(b []net.Sample) { r.Draw(rng, b) })
}

// TestReplaySurpriseOff: without SurpriseWeighting, the draws are those
// of a buffer whose samples have no surprise, the uniform draw of every
// run made before the setting (whose resumes stay byte-identical: the
// golden and resume tests of the package).
func TestReplaySurpriseOff(t *testing.T) {
	weight := []float32{0.6, 0, 2, 0.5}
	a, b := NewReplay(6, 1000, 1000), NewReplay(6, 1000, 1000)
	a.Add(surpriseLabelled(t, rules.SquareBoard(6), 12, weight))
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
			samples[i].SurpriseWeight = 0.5 + 0.125*float32(i)
		}
	}
	if i := 1; samples[i].Policy != nil {
		samples[i].SurpriseWeight = net.MaxSurpriseWeight
	}
	wide := wideSamples(t)
	for i := range wide {
		if wide[i].Policy != nil {
			wide[i].SurpriseWeight = float32(i) + 0.5
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
		{"NaN surprise", f32(float32(math.NaN())), "sample 0: surprise weight NaN"},
		{"negative surprise", f32(-1), "sample 0: surprise weight -1"},
		{"surprise below the least", f32(0.4999), "sample 0: surprise weight 0.4999"},
		{"surprise above the most", f32(128.6), "sample 0: surprise weight 128.6"},
		{"infinite surprise", f32(float32(math.Inf(1))), "sample 0: surprise weight +Inf"},
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
	// What the writer never writes: version 6 without a known surprise
	// weight, version 3 without auxiliary targets. And a multi-board run
	// is told the version of a one-board shard, not its layout's.
	one := withoutSurprise(samples)
	one[0].SurpriseWeight, one[0].MovesLeft = 1, 0
	var ob bytes.Buffer
	if err := encodeShard(&ob, 6, nil, one); err != nil {
		t.Fatal(err)
	}
	unknown := append([]byte(nil), ob.Bytes()...)
	f32(0)(unknown)
	if _, _, err := decodeShard(resum(unknown), 6); err == nil || !strings.Contains(err.Error(), "format version 6 without a sample of known surprise weight") {
		t.Errorf("version 6 without a known surprise weight: %v", err)
	}
	one[0].SurpriseWeight, one[0].MovesLeft, one[0].Final = 0, 1, one[0].Position.Black
	ob.Reset()
	if err := encodeShard(&ob, 6, nil, one); err != nil {
		t.Fatal(err)
	}
	noAux := append([]byte(nil), ob.Bytes()...)
	if v := binary.LittleEndian.Uint32(noAux[4:]); v != shardVersionAux {
		t.Fatalf("a shard with auxiliary targets has version %d", v)
	}
	u32(at+sampleHeader, 0)(noAux) // the first sample's moves left (and half its final stones)
	if _, _, err := decodeShard(resum(noAux), 6); err == nil || !strings.Contains(err.Error(), "format version 3 without a sample of auxiliary targets") {
		t.Errorf("version 3 without auxiliary targets: %v", err)
	}
	if _, _, err := decodeShard(good, 0); err == nil || !strings.Contains(err.Error(), "(6, format version 6): a multi-board run reads only its own shards, of version 4 to 6") {
		t.Errorf("a one-board shard of version 6 read by a multi-board run: %v", err)
	}
	if _, _, err := decodeShard(resum(good[:at+2+4]), 6); err == nil || !strings.Contains(err.Error(), "ends inside its header") {
		t.Errorf("a header cut in its layout: %v", err)
	}
	// Such a surprise is not written either, also when no sample has a
	// known one (it is not dropped).
	bad := append([]net.Sample(nil), samples...)
	bad[2].SurpriseWeight = float32(math.Inf(1))
	if err := encodeShard(&b, 6, nil, bad); err == nil || !strings.Contains(err.Error(), "sample 2: surprise weight +Inf") {
		t.Errorf("writing an infinite surprise: %v", err)
	}
	for _, v := range []float32{float32(math.NaN()), -1, 0.25} {
		bad = withoutSurprise(samples)
		bad[3].SurpriseWeight = v
		if err := encodeShard(&b, 6, nil, bad); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("sample 3: surprise weight %v", v)) {
			t.Errorf("writing surprise weight %v, the only one: %v", v, err)
		}
	}
}

// TestPlayGameSurprise: with GameConfig.Surprise every full search's
// sample has the weight of KataGo's surprise weighting within its game,
// 0.5 + 0.5·s/s̄ with s its surprise, ln n − H(target) against the n
// uniform priors of mcts.Uniform, of the target it trains (rescoring's
// where it replaced the search's), and s̄ the game's mean, so that the
// game's weights sum to their count; the rescored children have none;
// without it no sample has one; either way the game and its targets are
// the same.
func TestPlayGameSurprise(t *testing.T) {
	cfg := tinyConfig()
	ctx := context.Background()
	game := cfg.at(1).Game
	game.RescoreChildren = 2
	game.MCTS.Solver = false // the search's targets, not the solver's, before rescoring
	if game.RescoreStones < 16 {
		t.Fatalf("rescoring up to %d stones: the test wants every 4x4 position rescored", game.RescoreStones)
	}
	cfg.SurpriseWeighting = true
	with := game
	with.Surprise = cfg.at(1).Game.Surprise
	unscored := with
	unscored.RescoreStones, unscored.RescoreChildren = 0, 0
	changed := 0
	for seed := uint64(11); seed < 14; seed++ {
		plain, err := PlayGame(ctx, mcts.Uniform{}, game, seed)
		if err != nil {
			t.Fatal(err)
		}
		g, err := PlayGame(ctx, mcts.Uniform{}, with, seed)
		if err != nil {
			t.Fatal(err)
		}
		u, err := PlayGame(ctx, mcts.Uniform{}, unscored, seed)
		if err != nil {
			t.Fatal(err)
		}
		checkGameWeights(t, g, seed)
		for i, s := range u.Samples {
			if !reflect.DeepEqual(s.Policy, g.Samples[i].Policy) {
				changed++
			}
		}
		if !reflect.DeepEqual(g.Record.Moves, plain.Record.Moves) || len(g.Samples) != len(plain.Samples) {
			t.Fatal("recording the surprise changed the game")
		}
		checkGameWeights(t, g, seed)
		for i, s := range g.Samples {
			if plain.Samples[i].HasSurpriseWeight() {
				t.Fatalf("sample %d of a game without surprise has one", i)
			}
			s.SurpriseWeight = 0
			if !reflect.DeepEqual(s, plain.Samples[i]) {
				t.Fatalf("sample %d: targets differ with the surprise", i)
			}
		}
	}
	if changed == 0 {
		t.Fatal("rescoring changed no policy target: the test needs some")
	}
}

// checkGameWeights checks the surprise weights of game g against
// mcts.Uniform's priors: every sample with a policy has 0.5 + 0.5·s/s̄,
// s = ln n − H(its policy target) for the n legal moves of its position,
// s̄ the mean of s over them (every weight 1 if s̄ is 0), and a
// value-only sample none; it returns the number of full searches.
func checkGameWeights(t *testing.T, g Game, seed uint64) int {
	t.Helper()
	var surprise []float64
	var sum, weights float64
	for _, s := range g.Samples {
		if s.Policy == nil {
			continue
		}
		kl := math.Log(float64(len(s.Position.LegalMoves(nil))))
		for _, ap := range s.Policy {
			kl += float64(ap.Prob) * math.Log(float64(ap.Prob))
		}
		surprise = append(surprise, kl)
		sum += kl
	}
	if len(surprise) < 2 || sum == 0 {
		t.Fatalf("game %d: %d full searches, surprise %v: the test needs a surprising game", seed, len(surprise), sum)
	}
	mean := sum / float64(len(surprise))
	k := 0
	for i, s := range g.Samples {
		if s.Policy == nil {
			if s.SurpriseWeight != 0 {
				t.Errorf("game %d: value-only sample %d has surprise weight %v", seed, i, s.SurpriseWeight)
			}
			continue
		}
		want := 0.5 + 0.5*surprise[k]/mean
		if math.Abs(float64(s.SurpriseWeight)-want) > 1e-5*want {
			t.Errorf("game %d: sample %d: surprise weight %v, want %v", seed, i, s.SurpriseWeight, want)
		}
		weights += float64(s.SurpriseWeight)
		k++
	}
	if math.Abs(weights-float64(k)) > 1e-4*float64(k) {
		t.Errorf("game %d: the weights of its %d full searches sum to %v", seed, k, weights)
	}
	return k
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
			if s.HasSurpriseWeight() {
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
	if err != nil || len(ms) != 2 || !(ms[0].SoftPolicyKL > 0 && ms[1].SoftPolicyKL > 0) {
		t.Fatalf("metrics: %+v, %v; want the soft policy loss", ms, err)
	}
}

// TestSurpriseRunDraws: a run with surprise weighting trains on draws by
// weight (its loop's replay has SurpriseWeighting): its first generation
// plays the games of the same run without it, the same samples but for
// their weights, and trains another model from them.
func TestSurpriseRunDraws(t *testing.T) {
	cfg := tinyConfig()
	cfg.Generations = 1
	plain := t.TempDir()
	mustRun(t, plain, cfg)
	cfg.SurpriseWeighting = true
	weighted := t.TempDir()
	mustRun(t, weighted, cfg)
	var samples [2][]net.Sample
	for i, dir := range []string{plain, weighted} {
		data, err := os.ReadFile(filepath.Join(dir, "replay", "gen-000001.shard"))
		if err != nil {
			t.Fatal(err)
		}
		if samples[i], _, err = decodeShard(data, cfg.Size); err != nil {
			t.Fatal(err)
		}
	}
	known := 0
	for i := range samples[1] {
		if samples[1][i].HasSurpriseWeight() {
			known++
		}
		samples[1][i].SurpriseWeight = 0
	}
	if known == 0 || !reflect.DeepEqual(samples[0], samples[1]) {
		t.Fatalf("%d samples of known weight; the same samples otherwise: %v", known, reflect.DeepEqual(samples[0], samples[1]))
	}
	if reflect.DeepEqual(latestOutputs(t, plain), latestOutputs(t, weighted)) {
		t.Error("the run with surprise weighting trained the model of the run without it: its draws were not weighted")
	}
}
