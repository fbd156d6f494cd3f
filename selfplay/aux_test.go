package selfplay

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/runfiles"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// TestAuxSamples: with auxiliary heads, every sample on the game's path
// has the plies from its position to the end and the final stones as
// targets, and the samples off the path (rescored children) have none;
// without them no sample has any, and the game is the same.
func TestAuxSamples(t *testing.T) {
	cfg := tinyConfig()
	ctx := context.Background()
	plain, err := PlayGame(ctx, mcts.Uniform{}, cfg.at(1).Game, 11)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Net.Aux = net.AuxOwnership | net.AuxMovesLeft
	g, err := PlayGame(ctx, mcts.Uniform{}, cfg.at(1).Game, 11)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Record.Moves, plain.Record.Moves) || len(g.Samples) != len(plain.Samples) {
		t.Fatal("the auxiliary targets changed the game")
	}
	ply := map[rules.Position]int{}
	p := rules.NewPosition(4)
	for i, m := range g.Record.Moves {
		ply[p] = i
		p = p.Play(m)
	}
	final := p.Black | p.White
	onPath := 0
	for i, s := range g.Samples {
		if plain.Samples[i].HasAux() {
			t.Fatalf("sample %d of a run without auxiliary heads has targets", i)
		}
		k, ok := ply[s.Position]
		if s.Policy == nil { // a rescored child (value-only): off the path
			if s.HasAux() {
				t.Fatalf("sample %d, a rescored child, has auxiliary targets", i)
			}
			continue
		}
		if !ok {
			t.Fatalf("sample %d is not a position of the game", i)
		}
		onPath++
		if s.MovesLeft != len(g.Record.Moves)-k || s.Final != final {
			t.Fatalf("sample %d at ply %d of %d: moves left %d, final %#x (want %#x)", i, k, len(g.Record.Moves), s.MovesLeft, s.Final, final)
		}
	}
	if onPath == 0 {
		t.Fatal("no sample on the game's path")
	}
}

// TestAuxShards: a shard with auxiliary targets is of version 3 and reads
// back the same, through the replay buffer too; one without is written
// byte for byte as before (version 1 or 2), and the shards of the
// fixture runs, written before auxiliary targets, still read, with none.
func TestAuxShards(t *testing.T) {
	_, samples := testShard(t)
	aux := make([]net.Sample, len(samples))
	for i, s := range samples {
		s.MovesLeft, s.Final = len(samples)-i, s.Position.Black
		aux[i] = s
	}
	aux[1].MovesLeft, aux[1].Final = 0, 0 // a sample without targets
	for _, tag := range []*shardTag{nil, {gen: 3, run: 9}} {
		var b bytes.Buffer
		if err := encodeShard(&b, 6, tag, aux); err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(b.Bytes()[4:]); v != shardVersionAux {
			t.Fatalf("version %d, want %d", v, shardVersionAux)
		}
		back, _, err := decodeShard(b.Bytes(), 6)
		if err != nil || !reflect.DeepEqual(back, aux) {
			t.Fatalf("round trip: %v", err)
		}
		if tag != nil {
			if _, err := decodeRunShard("x", b.Bytes(), 6, 3, 9); err != nil {
				t.Fatal(err)
			}
		}
		var plain bytes.Buffer
		if err := encodeShard(&plain, 6, tag, samples); err != nil {
			t.Fatal(err)
		}
		want := uint32(1)
		if tag != nil {
			want = shardVersion
		}
		if v := binary.LittleEndian.Uint32(plain.Bytes()[4:]); v != want {
			t.Fatalf("a shard without auxiliary targets has version %d, want %d", v, want)
		}
	}
	// A forged final bitboard off the board is refused.
	var b bytes.Buffer
	bad := append([]net.Sample(nil), aux...)
	bad[0].Final = 1 << 63
	encodeShard(&b, 6, nil, bad)
	if _, _, err := decodeShard(b.Bytes(), 6); err == nil {
		t.Error("final stones off the board read")
	}
	// More plies left than a 6x6 game has (36 squares) is refused; as
	// many as it has are read.
	for left, ok := range map[int]bool{36: true, 37: false, 200: false} {
		b.Reset()
		many := append([]net.Sample(nil), aux...)
		many[0].MovesLeft = left
		encodeShard(&b, 6, nil, many)
		if _, _, err := decodeShard(b.Bytes(), 6); (err == nil) != ok {
			t.Errorf("a 6x6 sample with %d moves left: read error %v", left, err)
		}
	}

	r := NewReplay(6, 1000, 1000)
	r.Add(aux)
	batch := make([]net.Sample, 50)
	r.Draw(rand.New(rand.NewPCG(1, 2)), batch)
	for _, s := range batch {
		if s.HasAux() && s.Final != s.Position.Black {
			t.Fatalf("drawn sample's final stones %#x do not follow its position's symmetry", s.Final)
		}
	}

	for _, dir := range []string{"run-local", "run-workers"} {
		paths, _ := filepath.Glob(filepath.Join("testdata", dir, "replay", "*.shard"))
		more, _ := filepath.Glob(filepath.Join("testdata", dir, "replay", "*", "*.shard"))
		paths = append(paths, more...)
		if len(paths) == 0 {
			t.Fatalf("no shards in testdata/%s", dir)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := decodeShard(data, 4)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, s := range back {
				if s.HasAux() {
					t.Fatalf("%s: an old shard's sample has auxiliary targets", path)
				}
			}
		}
	}
}

// TestAuxRun: a run with auxiliary heads trains them (its models and
// shards have them) and resumes.
func TestAuxRun(t *testing.T) {
	cfg := tinyConfig()
	cfg.Net.Aux = net.AuxOwnership | net.AuxMovesLeft
	cfg.Generations = 1
	dir := t.TempDir()
	quiet := func(string, ...any) {}
	var log []string // the generations' log lines, as konane train prints them
	hooks := Hooks{Generation: func(m runfiles.Metrics) { log = append(log, m.String()) }}
	if err := Run(context.Background(), dir, cfg, train.New, hooks, quiet); err != nil {
		t.Fatal(err)
	}
	// The auxiliary losses are in metrics.csv and in the generation's log line.
	ms, err := ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil || len(ms) != 1 || ms[0].OwnershipLoss <= 0 || ms[0].MovesLeftLoss <= 0 {
		t.Fatalf("metrics: %+v, %v; want both auxiliary losses > 0", ms, err)
	}
	if all := strings.Join(log, "\n"); !strings.Contains(all, " ownership ") || !strings.Contains(all, " moves-left ") {
		t.Errorf("log without the auxiliary losses:\n%s", all)
	}
	saved, err := NewRunDir(dir).ReadConfig()
	if err != nil || saved.Net.Aux != cfg.Net.Aux {
		t.Fatalf("saved heads %v, %v", saved.Net.Aux, err)
	}
	saved.Generations = 2
	mustRun(t, dir, saved)
	m, err := net.Load(filepath.Join(dir, "models", "gen-000002.safetensors"))
	if err != nil || m.Config().Aux != cfg.Net.Aux {
		t.Fatalf("model: %v, %v", m, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "replay", "gen-000002.shard"))
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != shardVersionAux {
		t.Errorf("shard version %d, want %d", v, shardVersionAux)
	}
}
