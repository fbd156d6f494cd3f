package selfplay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/konanezero/konane/runfiles"
)

func sampleMetrics() []runfiles.Metrics {
	return []runfiles.Metrics{
		{Generation: 1, Games: 12, Samples: 300, Window: 300, Steps: 10, PolicyLoss: 1.5, ValueLoss: 0.9, L2: 0.01,
			PolicyEntropy: 1.2, GameLength: 24.5, BlackWinRate: 0.5, EvalsPerSec: 600, GamesPerHour: 4000,
			CacheHitRate: 0.1, SelfplaySecs: 9, TrainSecs: 2, WallSecs: 11, Best: 0},
		{Generation: 2, Games: 12, Samples: 310, Window: 610, Steps: 11, PolicyLoss: 1.4, ValueLoss: 0.8, L2: 0.01,
			PolicyEntropy: 1.1, GameLength: 23, BlackWinRate: 0.25, EvalsPerSec: 650, GamesPerHour: 4100,
			CacheHitRate: 0.12, SelfplaySecs: 8.5, TrainSecs: 2.1, WallSecs: 22, GateScore: 0.6, GateAccepted: true, Best: 1,
			CPUSecs: 19.5, Load: 7.25, OwnershipLoss: 0.3, MovesLeftLoss: 0.05},
	}
}

func TestMetricsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.csv")
	want := sampleMetrics()
	if err := os.WriteFile(path, runfiles.EncodeMetrics(want), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMetrics(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	if m, err := ReadMetrics(filepath.Join(t.TempDir(), "none.csv")); m != nil || err != nil {
		t.Errorf("missing file: %v, %v; want nothing and no error", m, err)
	}
	bad := strings.Replace(string(mustRead(t, path)), "24.5", "x", 1)
	if _, err := runfiles.ParseMetrics([]byte(bad)); err == nil || !strings.Contains(err.Error(), "game_length") {
		t.Errorf("bad field: got %v, want an error naming game_length", err)
	}
}

// TestMetricsOldFile reads a metrics.csv written before the cpu_secs and
// load columns: its rows read with them 0.
func TestMetricsOldFile(t *testing.T) {
	old := "generation,games,samples,window,steps,policy_loss,value_loss,l2,policy_entropy,game_length,black_win_rate," +
		"evals_per_sec,games_per_hour,cache_hit_rate,selfplay_secs,train_secs,wall_secs,gate_score,gate_accepted,best\n" +
		"1,12,300,300,10,1.5,0.9,0.01,1.2,24.5,0.5,600,4000,0.1,9,2,11,0,false,0\n"
	got, err := runfiles.ParseMetrics([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if want := sampleMetrics()[:1]; !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzParseMetrics(f *testing.F) {
	path := filepath.Join(f.TempDir(), "metrics.csv")
	if err := os.WriteFile(path, runfiles.EncodeMetrics(sampleMetrics()), 0o644); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("generation\n1\n"))
	f.Add([]byte("\"unterminated"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := runfiles.ParseMetrics(data)
		if err != nil {
			return
		}
		// What parses writes back and parses to the same values.
		p := filepath.Join(t.TempDir(), "m.csv")
		if err := os.WriteFile(p, runfiles.EncodeMetrics(ms), 0o644); err != nil {
			t.Fatal(err)
		}
		again, err := ReadMetrics(p)
		if err != nil {
			t.Fatalf("rewritten metrics do not parse: %v", err)
		}
		if len(again) != len(ms) {
			t.Fatalf("%d rows, then %d", len(ms), len(again))
		}
	})
}
