package net

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/net/internal/nettestutil"
	"github.com/konanezero/konane/rules"
)

func evalAll(t *testing.T, m *Model, batch int, ps []rules.Position) []mcts.Prediction {
	t.Helper()
	e := startEvaluator(t, m, EvalOptions{Batch: batch})
	preds, err := e.Evaluate(context.Background(), ps)
	if err != nil {
		t.Fatal(err)
	}
	return preds
}

// TestSaveLoadRoundTrip: the loaded model has the same metadata and gives
// bit-identical outputs, also through graphs of other batch sizes, with
// either input encoding.
func TestSaveLoadRoundTrip(t *testing.T) {
	for _, captures := range []bool{false, true} {
		cfg := DefaultConfig(6)
		cfg.Captures = captures
		testSaveLoadRoundTrip(t, cfg)
	}
}

func testSaveLoadRoundTrip(t *testing.T, cfg Config) {
	m := perturbed(mustModel(t, cfg, 7), 0.05, 1)
	created := time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC)
	m = m.WithMeta(Metadata{Generation: 3, Steps: 1234, Parent: "gen-0002.safetensors", Seed: 7, Created: created})
	path := filepath.Join(t.TempDir(), "gen-0003.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := LoadForSize(path, 6)
	if err != nil {
		t.Fatal(err)
	}
	if l.Config() != m.Config() {
		t.Errorf("config %+v, want %+v", l.Config(), m.Config())
	}
	want := Metadata{FormatVersion: FormatVersion, EncodingVersion: int(cfg.Encoding()), Size: 6, Arch: m.Config().Arch(),
		Generation: 3, Steps: 1234, Parent: "gen-0002.safetensors", Seed: 7, Created: created}
	if got := l.Meta(); !reflect.DeepEqual(got, want) {
		t.Errorf("metadata %+v, want %+v", got, want)
	}
	ps := nettestutil.Positions(6, 40, 2)
	orig := evalAll(t, m, 8, ps)
	for _, batch := range []int{1, 8, 64} {
		got := evalAll(t, l, batch, ps)
		for i := range ps {
			if !samePrediction(got[i], orig[i]) {
				t.Fatalf("batch %d position %d: loaded %v, saved %v", batch, i, got[i], orig[i])
			}
		}
	}
	// Decode reads the same bytes, and Save wrote exactly MarshalBinary.
	data, _ := os.ReadFile(path)
	mb, err := m.MarshalBinary()
	if err != nil || !bytes.Equal(data, mb) {
		t.Fatalf("MarshalBinary differs from the file (err %v)", err)
	}
	d, err := Decode(data)
	if err != nil || !reflect.DeepEqual(d.Meta(), want) {
		t.Fatalf("Decode: %v %+v", err, d.Meta())
	}
}

// rewrite re-encodes a model file with a changed metadata entry (and a
// valid checksum).
func rewrite(t *testing.T, data []byte, key, value string) []byte {
	t.Helper()
	meta, tensors, err := readSafetensors(data)
	if err != nil {
		t.Fatal(err)
	}
	meta[key] = value
	var ts []stTensor
	for _, p := range DefaultConfig(6).Params() {
		ts = append(ts, tensors[p.Name])
	}
	var b bytes.Buffer
	if err := writeSafetensors(&b, meta, ts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	m := mustModel(t, DefaultConfig(6), 1)
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x10
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrCorrupt, "too short"},
		{"truncated header", good[:100], ErrCorrupt, "file ends"},
		{"truncated data", good[:len(good)-10], ErrCorrupt, "declares"},
		{"trailing bytes", append(append([]byte(nil), good...), 0, 0, 0, 0), ErrCorrupt, "after the tensor data"},
		{"corrupted weight", flip(len(good) - 100), ErrCorrupt, "checksum"},
		{"corrupted metadata", bytes.Replace(good, []byte(`"generation":"0"`), []byte(`"generation":"9"`), 1), ErrCorrupt, "checksum"},
		{"not json", flip(8), ErrFormat, "not JSON"},
		{"text file", []byte("hello, this is not a model at all"), ErrFormat, "not plausible"},
		{"format version", rewrite(t, good, "format_version", "2"), ErrVersion, "file format version 2"},
		{"encoding version", rewrite(t, good, "encoding_version", "7"), ErrVersion, "encoding version 7"},
		{"other format", rewrite(t, good, "format", "konane-zero-checkpoint"), ErrFormat, "format"},
		{"bad size", rewrite(t, good, "size", "12"), ErrFormat, "board size 12"},
		{"shape mismatch", rewrite(t, good, "filters", "16"), ErrFormat, "arch"},
		// A file that says encoding 1 but holds the capture planes' stem.
		{"encoding of other weights", rewrite(t, good, "encoding_version", "1"), ErrFormat, "arch"},
		{"soft policy not true", rewrite(t, good, "soft_policy", "false"), ErrFormat, `soft_policy = "false"`},
		// The file says it has the soft policy head, its arch and tensors not.
		{"soft policy without its head", rewrite(t, good, "soft_policy", "true"), ErrFormat, "arch"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "net: model ") {
			t.Errorf("%s: err = %v, want %v mentioning %q", tc.name, err, tc.want, tc.msg)
		}
	}
	// A good file of another size.
	path := filepath.Join(dir, "six.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadForSize(path, 8); !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), "plays 6x6, not 8x8") {
		t.Errorf("wrong size: err = %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
	// A failed save leaves no file behind.
	if err := m.Save(filepath.Join(dir, "no-such-dir", "m.safetensors")); err == nil {
		t.Error("save into a missing folder succeeded")
	}
}

func TestNewIsSeeded(t *testing.T) {
	cfg := tinyConfig(5)
	a, b, c := mustModel(t, cfg, 1), mustModel(t, cfg, 1), mustModel(t, cfg, 2)
	same := func(x, y *Model) bool {
		for k, w := range x.weights {
			for i := range w {
				if w[i] != y.weights[k][i] {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) || same(a, c) {
		t.Errorf("same seed equal: %v; other seed equal: %v", same(a, b), same(a, c))
	}
	for _, bad := range []Config{{Size: 3, Filters: 8, Blocks: 1, ValueHidden: 8}, {Size: 5, Filters: 0, Blocks: 1, ValueHidden: 8},
		{Size: 5, Filters: 8, Blocks: -1, ValueHidden: 8}, {Size: 5, Filters: 8, Blocks: 1}} {
		if _, err := New(bad, 1); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

// TestLoadRefusesEndlessFile: /dev/zero, a model that never ends, is
// refused after maxFile bytes instead of filling the memory (issue 47).
func TestLoadRefusesEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	defer func(m int64) { maxFile = m }(maxFile)
	maxFile = 1 << 20
	done := make(chan error, 1)
	go func() { _, err := Load("/dev/zero"); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "larger than 1 MiB") {
			t.Fatalf("Load(/dev/zero): %v, want ErrFormat, larger than 1 MiB", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Load(/dev/zero) reads on")
	}
	if _, err := LoadCheckpoint("/dev/zero"); !errors.Is(err, ErrFormat) {
		t.Fatalf("LoadCheckpoint(/dev/zero): %v, want ErrFormat", err)
	}
}
