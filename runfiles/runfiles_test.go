package runfiles

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// metricsCSV20 is a metrics.csv as the code before this package wrote it
// (20 columns): it must still read, the later columns zero.
const metricsCSV20 = `generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate,evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best
1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0
2,12,310,610,11,1.4,0.8,0.01,1.1,23,0.25,650,4100,0.12,8.5,2.1,22,0.6,true,1
`

// metricsCSV22 is a metrics.csv as written before the auxiliary losses'
// columns (22 columns): it must still read, those columns zero.
const metricsCSV22 = `generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate,evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best,cpu_secs,load
1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0,19.5,1.25
2,12,310,610,11,1.4,0.8,0.01,1.1,23,0.25,650,4100,0.12,8.5,2.1,22,0.6,true,1,20,0.5
`

// metricsCSV24 is a metrics.csv written before the soft_policy_loss
// column: metricsCSV20 with the cpu_secs and load columns appended, then
// ownership_loss and moves_left_loss. It must still read, that field
// zero.
const metricsCSV24 = `generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate,evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best,cpu_secs,load,ownership_loss,moves_left_loss
1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0,19.5,1.25,0.25,0.125
2,12,310,610,11,1.4,0.8,0.01,1.1,23,0.25,650,4100,0.12,8.5,2.1,22,0.6,true,1,20,0.5,0.2,0
`

// metricsCSV25 is a metrics.csv of the few runs written with the retired
// soft_policy_loss column (8 times the soft policy head's cross-entropy):
// metricsCSV24 with that column appended. It must still read, and be
// written back with it (before soft_policy_kl, zero in its rows).
const metricsCSV25 = `generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate,evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best,cpu_secs,load,ownership_loss,moves_left_loss,soft_policy_loss
1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0,19.5,1.25,0.25,0.125,15.1
2,12,310,610,11,1.4,0.8,0.01,1.1,23,0.25,650,4100,0.12,8.5,2.1,22,0.6,true,1,20,0.5,0.2,0,13.9
`

// metricsCSV is a metrics.csv as this code writes it: metricsCSV24 with
// the soft_policy_kl column appended. The format must not change.
const metricsCSV = `generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate,evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best,cpu_secs,load,ownership_loss,moves_left_loss,soft_policy_kl
1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0,19.5,1.25,0.25,0.125,0.0625
2,12,310,610,11,1.4,0.8,0.01,1.1,23,0.25,650,4100,0.12,8.5,2.1,22,0.6,true,1,20,0.5,0.2,0,0
`

func sampleMetrics() []Metrics {
	return []Metrics{
		{Generation: 1, Games: 12, Samples: 300, Window: 300, Steps: 10, PolicyLoss: 1.5, ValueLoss: 0.9, L2: 0.01,
			PolicyEntropy: 1.2, GameLength: 24.5, BlackWinRate: 0.5, EvalsPerSec: 600, GamesPerHour: 4000,
			CacheHitRate: 0.1, SelfplaySecs: 9, TrainSecs: 2, WallSecs: 11, Best: 0, CPUSecs: 19.5, Load: 1.25,
			OwnershipLoss: 0.25, MovesLeftLoss: 0.125, SoftPolicyKL: 0.0625},
		{Generation: 2, Games: 12, Samples: 310, Window: 610, Steps: 11, PolicyLoss: 1.4, ValueLoss: 0.8, L2: 0.01,
			PolicyEntropy: 1.1, GameLength: 23, BlackWinRate: 0.25, EvalsPerSec: 650, GamesPerHour: 4100,
			CacheHitRate: 0.12, SelfplaySecs: 8.5, TrainSecs: 2.1, WallSecs: 22, GateScore: 0.6, GateAccepted: true, Best: 1, CPUSecs: 20, Load: 0.5,
			OwnershipLoss: 0.2},
	}
}

func TestMetricsFormat(t *testing.T) {
	if got := string(EncodeMetrics(sampleMetrics())); got != metricsCSV {
		t.Errorf("metrics.csv changed:\n%s\nwant\n%s", got, metricsCSV)
	}
	got, err := ParseMetrics([]byte(metricsCSV))
	if err != nil || !reflect.DeepEqual(got, sampleMetrics()) {
		t.Fatalf("parse: %+v, %v", got, err)
	}
	// A file with the retired soft_policy_loss column parses, and is
	// written back with it.
	want := sampleMetrics()
	want[0].SoftPolicyKL = 0
	want[0].OldSoftPolicyLoss, want[1].OldSoftPolicyLoss = 15.1, 13.9
	if got, err := ParseMetrics([]byte(metricsCSV25)); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("25-column file: %+v, %v", got, err)
	}
	resumed := append(slices.Clone(want), want[1])
	resumed[2].Generation, resumed[2].OldSoftPolicyLoss, resumed[2].SoftPolicyKL = 3, 0, 0.5
	rewritten := string(EncodeMetrics(resumed))
	header, _, _ := strings.Cut(metricsCSV25, "\n")
	if !strings.HasPrefix(rewritten, header+",soft_policy_kl\n") ||
		!strings.Contains(rewritten, ",0.2,0,13.9,0\n3,") || !strings.HasSuffix(rewritten, ",0.2,0,0,0.5\n") {
		t.Errorf("a resumed run's file with the retired column:\n%s", rewritten)
	}
	if back, err := ParseMetrics([]byte(rewritten)); err != nil || !reflect.DeepEqual(back, resumed) {
		t.Errorf("read back: %+v, %v", back, err)
	}
	// A file written before the soft policy head's column parses, that
	// field zero; one written before the auxiliary losses' columns too.
	want = sampleMetrics()
	for i := range want {
		want[i].SoftPolicyKL = 0
	}
	if got, err := ParseMetrics([]byte(metricsCSV24)); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("24-column file: %+v, %v", got, err)
	}
	for i := range want {
		want[i].OwnershipLoss, want[i].MovesLeftLoss = 0, 0
	}
	if got, err := ParseMetrics([]byte(metricsCSV22)); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("22-column file: %+v, %v", got, err)
	}
	// A file written before the cpu_secs and load columns parses, those
	// fields zero too.
	for i := range want {
		want[i].CPUSecs, want[i].Load = 0, 0
	}
	if got, err := ParseMetrics([]byte(metricsCSV20)); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("20-column file: %+v, %v", got, err)
	}
	// A file written before a column existed parses, the field zero.
	lines := strings.Split(metricsCSV20, "\n")
	var old []string
	for _, l := range lines {
		if i := strings.LastIndex(l, ","); i >= 0 {
			l = l[:i]
		}
		old = append(old, l)
	}
	got, err = ParseMetrics([]byte(strings.Join(old, "\n")))
	if err != nil || got[1].Best != 0 || got[1].GateScore != 0.6 {
		t.Fatalf("without the best column: %+v, %v", got, err)
	}
	for _, bad := range []string{
		strings.Replace(metricsCSV20, "24.5", "x", 1),
		strings.Replace(metricsCSV20, "best\n", "bestest\n", 1),
		strings.Replace(metricsCSV20, ",best\n", ",games\n", 1),
		strings.Replace(metricsCSV20, ",true,1\n", ",true\n", 1),
	} {
		if _, err := ParseMetrics([]byte(bad)); err == nil {
			t.Errorf("parsed a bad metrics.csv:\n%s", bad)
		}
	}
}

func TestRatingsRoundTrip(t *testing.T) {
	rows := []Rating{
		{Player: "random", Anchor: true, SelfplayGames: math.NaN(), Hours: math.NaN(), SolverRate: 0.5, SolverLow: 0.4, SolverHigh: 0.6,
			SolverRandom: 0.5, SolverPositions: 10, SolverKept: 5, Games: 4, Wins: 1},
		{Player: GenDir(3), Generation: 3, SelfplayGames: 12, Hours: 0.5, CPUHours: 0.75, Elo: 100, Low: 50, High: 150, SE: 25, Games: 4, Wins: 3,
			SolverRate: math.NaN(), SolverLow: math.NaN(), SolverHigh: math.NaN(), SolverRandom: math.NaN()},
	}
	rows[0].CPUHours = math.NaN()
	var b bytes.Buffer
	if err := WriteRatings(&b, rows); err != nil {
		t.Fatal(err)
	}
	const want = "player,kind,generation,selfplay_games,hours,elo,ci_low,ci_high,se,games,wins,solver_positions,solver_kept,solver_rate,solver_low,solver_high,solver_random,cpu_hours\n" +
		"random,anchor,,,,0.0000,0.0000,0.0000,0.0000,4,1,10,5,0.5000,0.4000,0.6000,0.5000,\n" +
		"gen-000003,generation,3,12.0000,0.5000,100.0000,50.0000,150.0000,25.0000,4,3,0,0,,,,,0.7500\n"
	if b.String() != want {
		t.Errorf("ratings.csv changed:\n%s\nwant\n%s", b.String(), want)
	}
	back, err := ParseRatings(b.Bytes())
	if err != nil || len(back) != 2 || back[1].Elo != 100 || !math.IsNaN(back[0].Hours) || back[1].CPUHours != 0.75 || !math.IsNaN(back[0].CPUHours) {
		t.Fatalf("parse: %+v, %v", back, err)
	}
	// A file from before cpu_hours reads back with CPUHours unknown.
	const old = "player,kind,generation,selfplay_games,hours,elo,ci_low,ci_high,se,games,wins,solver_positions,solver_kept,solver_rate,solver_low,solver_high,solver_random\n" +
		"gen-000003,generation,3,12.0000,0.5000,100.0000,50.0000,150.0000,25.0000,4,3,0,0,,,,\n"
	back, err = ParseRatings([]byte(old))
	if err != nil || len(back) != 1 || back[0].Hours != 0.5 || !math.IsNaN(back[0].CPUHours) {
		t.Fatalf("parse of a file without cpu_hours: %+v, %v", back, err)
	}
	// A header that is neither is refused, naming the one expected.
	if _, err := ParseRatings([]byte("player,kind\nx,anchor\n")); err == nil || !strings.Contains(err.Error(), "cpu_hours") {
		t.Errorf("a wrong header: %v", err)
	}
}

func TestNames(t *testing.T) {
	sum := strings.Repeat("0f", 32)
	for _, c := range []struct{ got, want string }{
		{ModelKey(12), "models/gen-000012.safetensors"},
		{CheckpointKey(12), "checkpoints/gen-000012.ckpt"},
		{ShardKey(12), "replay/gen-000012.shard"},
		{KeysKey(12), "replay/gen-000012.keys"},
		{GameRecordKey(12, 3), "games/gen-000012/game-00003.txt"},
		{GameShardKey(12, 3), "replay/gen-000012/game-00003.shard"},
		{WorkerShardKey(12, sum), "replay/gen-000012/" + sum + ".shard"},
		{SpoolName(12, sum), "gen-000012-" + sum + ".shard"},
		{RatingsKey, "ladder/ratings.csv"},
		{LatestKey, "models/latest.json"},
		{LatestModelKey, "models/latest"},
		{ModelFileKey("gen-000012.safetensors"), "models/gen-000012.safetensors"},
		{CheckpointFileKey("gen-000012.ckpt"), "checkpoints/gen-000012.ckpt"},
		{GenReplayDir(12), "replay/gen-000012"},
		{WorkerShardPrefix(12), "replay/gen-000012/"},
		{Prefix(ModelsDir), "models/"},
	} {
		if c.got != c.want {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
	if g := GenerationOf(ModelName(7)); g != 7 {
		t.Errorf("GenerationOf(ModelName(7)) = %d", g)
	}
	if g, ok := ParseGenDir(GenDir(7)); !ok || g != 7 {
		t.Errorf("ParseGenDir: %d %v", g, ok)
	}
	if g, ok := ParseModelKey(ModelKey(7)); !ok || g != 7 {
		t.Errorf("ParseModelKey(ModelKey(7)): %d %v", g, ok)
	}
	for _, k := range []string{"models/gen-7.safetensors", "models/gen-000000.safetensors", "models/latest", "replay/gen-000007.safetensors", "models/gen-000007.safetensors.tmp"} {
		if g, ok := ParseModelKey(k); ok {
			t.Errorf("ParseModelKey(%q) = %d, true", k, g)
		}
	}
	if _, ok := ParseGenDir("gen-7"); ok {
		t.Error("ParseGenDir took gen-7")
	}
	for _, k := range []string{"models/x", "a/b/c"} {
		if !ValidKey(k) {
			t.Errorf("%q refused", k)
		}
	}
	for _, k := range []string{"", "/a", "a/", "a//b", "../a", "a/./b", "a/.x", "a.tmp", "a.tmp.3"} {
		if ValidKey(k) {
			t.Errorf("%q taken as a key", k)
		}
	}
}

func TestStateAndLatest(t *testing.T) {
	st := State{RunID: NewRunID(), Generation: 2, Checkpoint: CheckpointName(2), Model: ModelName(2), ShardSHA256: []string{"", strings.Repeat("cd", 32)}, WallSecs: 3}
	b, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseState(b)
	if err != nil || !reflect.DeepEqual(back, st) {
		t.Fatalf("state round trip: %+v, %v", back, err)
	}
	for _, bad := range []string{`{"generation":2,"checkpoint":"../x","model":"gen-000002.safetensors"}`, `{"generation":1}{}`, `null`, `{"x":1}`} {
		if _, err := ParseState([]byte(bad)); err == nil {
			t.Errorf("state %s taken", bad)
		}
	}
	for _, c := range []struct {
		change func(*State)
		want   string
	}{
		{func(s *State) { s.RunID = "42" }, `run_id "42": want 32 hex digits`},
		{func(s *State) { s.RunID = strings.ToUpper(s.RunID) + "X" }, "run_id"},
		{func(s *State) { s.ShardSHA256 = s.ShardSHA256[:1] }, "shard_sha256 has 1 entries for 2 generations"},
		{func(s *State) { s.ShardSHA256[0] = "abc" }, `shard_sha256 of generation 1, "abc"`},
	} {
		bad := st
		bad.ShardSHA256 = slices.Clone(st.ShardSHA256)
		c.change(&bad)
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("state %+v: %v, want an error saying %q", bad, err, c.want)
		}
	}
	if a, b := NewRunID(), NewRunID(); a == b || !ValidRunID(a) {
		t.Errorf("run identities %q, %q: want two valid, different ones", a, b)
	}
	l := Latest{Generation: 3, Model: ModelKey(3), SHA256: strings.Repeat("ab", 32), GamesPerGen: 8, Window: 2}
	b, err = l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := ParseLatest(b); err != nil || back != l {
		t.Fatalf("pointer round trip: %+v, %v", back, err)
	}
	c, err := ParseRunConfig([]byte(`{"size": 6, "seed": 3, "games_per_gen": 40, "net": {"filters": 32}}`))
	if err != nil || !reflect.DeepEqual(c, RunConfig{Size: 6, Seed: 3, GamesPerGen: 40}) {
		t.Fatalf("run config: %+v, %v", c, err)
	}
	c, err = ParseRunConfig([]byte(`{"size": 0, "seed": 3, "boards": ["6x6", "8x8:2"]}`))
	if err != nil || !reflect.DeepEqual(c.Boards, []string{"6x6", "8x8:2"}) {
		t.Fatalf("multi-board run config: %+v, %v", c, err)
	}
}

func TestSolverChecks(t *testing.T) {
	rows := []SolverCheck{
		{Player: "random", Positions: 10, Kept: 5, Rate: 0.5, Low: 0.25, High: 0.75, RandomRate: 0.5},
		{Player: GenDir(2), Positions: 4, Kept: 4, Rate: 1, Low: 0.5, High: 1, RandomRate: math.NaN()},
	}
	b := EncodeSolverChecks(rows)
	const want = "player,positions,kept,rate,ci_low,ci_high,random_rate\n" +
		"random,10,5,0.5000,0.2500,0.7500,0.5000\n" +
		"gen-000002,4,4,1.0000,0.5000,1.0000,\n"
	if string(b) != want {
		t.Errorf("solver.csv changed:\n%s\nwant\n%s", b, want)
	}
	back, err := ParseSolverChecks(b)
	if err != nil || len(back) != 2 || back[0] != rows[0] || back[1].Kept != 4 || !math.IsNaN(back[1].RandomRate) {
		t.Fatalf("parse: %+v, %v", back, err)
	}
	for _, c := range []struct{ data, want string }{
		{"player,positions\nx,1\n", "header"},
		{"player,positions,kept,rate,ci_low,ci_high,random_rate\nx,1,2,,,,\n", "line 2: x kept the win in \"2\" of \"1\""},
		{"player,positions,kept,rate,ci_low,ci_high,random_rate\nx,1,1,a,,,\n", "line 2: \"a\" is not a number"},
		{"player,positions,kept,rate,ci_low,ci_high,random_rate\nx,1,1,,,,\nx,2,1,,,,\n", "line 3: player \"x\" empty or listed twice"},
	} {
		if _, err := ParseSolverChecks([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "ladder: solver.csv") {
			t.Errorf("%q: %v, want an error with %q", c.data, err, c.want)
		}
	}
}

// TestPointedModel: a run's two pointers to its newest model name its
// file; anything else, a model file's first bytes or a name of another
// kind among them, is no pointer.
func TestPointedModel(t *testing.T) {
	js, err := Latest{Generation: 12, Model: ModelKey(12), SHA256: strings.Repeat("ab", 32)}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for data, want := range map[string]string{
		"gen-000934.safetensors\n":         "gen-000934.safetensors",
		"gen-000934.safetensors":           "gen-000934.safetensors",
		string(js):                         "gen-000012.safetensors",
		"gen-000000.safetensors\n":         "",
		"gen-34.safetensors\n":             "",
		"gen-000934.ckpt\n":                "",
		"\x90\x1f\x00\x00\x00\x00\x00\x00": "",
		"":                                 "",
	} {
		name, ok := PointedModel([]byte(data))
		if name != want || ok != (want != "") {
			t.Errorf("PointedModel(%q) = %q, %v; want %q", data, name, ok, want)
		}
	}
}

// TestPointerError: a run's models/latest gets the one line naming its
// model; a model-like file, or none, gets nil.
func TestPointerError(t *testing.T) {
	dir := t.TempDir()
	latest, other := filepath.Join(dir, "latest"), filepath.Join(dir, "x.safetensors")
	os.WriteFile(latest, []byte("gen-000007.safetensors\n"), 0o644)
	os.WriteFile(other, []byte("\x10\x00\x00\x00\x00\x00\x00\x00{}"), 0o644)
	want := latest + " is a training run's pointer to its newest model, not a model file: give that model, " + filepath.Join(dir, "gen-000007.safetensors")
	if err := PointerError(latest); err == nil || err.Error() != want {
		t.Errorf("PointerError(latest) = %v, want %q", err, want)
	}
	for _, p := range []string{other, filepath.Join(dir, "missing")} {
		if err := PointerError(p); err != nil {
			t.Errorf("PointerError(%s) = %v", p, err)
		}
	}
}
