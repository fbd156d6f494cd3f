package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/net"
)

func TestModelNewAndInfo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen0.safetensors")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"model", "new", "--size", "5", "--seed", "3", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"model", "info", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"board:       5x5", "arch:        res32x2gp-v32-e2", "generation:  0", "steps:       0",
		"parent:      (none)", "seed:        3", "format:      version 1, input encoding 2", "created:     "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("info output lacks %q:\n%s", want, out.String())
		}
	}
	// Without the capture planes: input encoding 1.
	if err := run(context.Background(), []string{"model", "new", "--size", "5", "--captures=false", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"model", "info", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "arch:        res32x2gp-v32 (") || !strings.Contains(out.String(), "input encoding 1") {
		t.Errorf("model new --captures=false:\n%s", out.String())
	}
}

func TestModelErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("not a model"), 0o644)
	checkErrors(t, []errCase{
		{[]string{"model"}, "missing action"},
		{[]string{"model", "info"}, "exactly one FILE"},
		{[]string{"model", "frob", "x"}, `unknown action "frob"`},
		{[]string{"model", "info", junk}, "model: net: model " + junk},
		{[]string{"model", "info", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"model", "new", filepath.Join(dir, "m")}, "model: --board is required"},
		{[]string{"model", "new", "--size", "6", "--filters", "0", filepath.Join(dir, "m")}, "model: net: 0 filters"},
	})
}

// TestModelInfoEscapes: metadata strings reach the terminal with their
// control characters escaped (before, an ANSI escape in parent moved the
// cursor and faked lines).
func TestModelInfoEscapes(t *testing.T) {
	m, err := net.New(net.DefaultConfig(5), 1)
	if err != nil {
		t.Fatal(err)
	}
	const parent = "gen-1\x1b[2K\rgeneration:  999\nsteps: 0"
	m = m.WithMeta(net.Metadata{Parent: parent, Created: time.Unix(0, 0)})
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"model", "info", path}, nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\r") || strings.Count(out.String(), "\n") != 11 {
		t.Errorf("control characters reached the output:\n%q", out.String())
	}
	if want := `parent:      "gen-1\x1b[2K\rgeneration:  999\nsteps: 0"`; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %s:\n%s", want, out.String())
	}
}

// withNaN makes the last weight of the model file at path NaN and
// recomputes the checksum as the format defines it (sha256 of the
// compact header without the checksum, then the tensor data), as a
// diverged training or a forger would leave it.
func withNaN(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(data)
	body := append([]byte(nil), data[8+n:]...)
	binary.LittleEndian.PutUint32(body[len(body)-4:], math.Float32bits(float32(math.NaN())))
	var header map[string]json.RawMessage
	var meta map[string]string
	if err := json.Unmarshal(data[8:8+n], &header); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(header["__metadata__"], &meta); err != nil {
		t.Fatal(err)
	}
	delete(meta, "checksum")
	canon := map[string]any{}
	for k, v := range header {
		canon[k] = v
	}
	canon["__metadata__"] = meta
	hb, _ := json.Marshal(canon)
	sum := sha256.Sum256(append(hb, body...))
	meta["checksum"] = "sha256:" + hex.EncodeToString(sum[:])
	hb, _ = json.Marshal(canon)
	for len(hb)%8 != 0 {
		hb = append(hb, ' ')
	}
	out := append(binary.LittleEndian.AppendUint64(nil, uint64(len(hb))), hb...)
	if err := os.WriteFile(path, append(out, body...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestModelNotFinite: a model holding NaN is refused by model info and by
// play --model with one error (before, play accepted it and failed at the
// computer's first move: "value NaN outside [-1, 1]").
func TestModelNotFinite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nan.safetensors")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"model", "new", "--size", "5", path}, nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	withNaN(t, path)
	for _, args := range [][]string{{"model", "info", path}, {"play", "--model", path, "--color", "white"}} {
		out.Reset()
		err := run(context.Background(), args, strings.NewReader("quit\n"), &out, &out)
		if err == nil || !strings.Contains(err.Error(), path+": weights are not finite numbers: tensor ") || !strings.Contains(err.Error(), "holds NaN") {
			t.Errorf("%v: err = %v; output:\n%s", args, err, out.String())
		}
	}
}

// TestModelInfoRunPointer: model info of a run's models/latest says it
// is the run's pointer and names the model to give, in one line.
func TestModelInfoRunPointer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "latest")
	if err := os.WriteFile(path, []byte("gen-000012.safetensors\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"model", "info", path}, strings.NewReader(""), &out, &out)
	if err == nil || !strings.Contains(err.Error(), "pointer to its newest model, not a model file: give that model, "+filepath.Join(filepath.Dir(path), "gen-000012.safetensors")) || strings.Contains(err.Error(), "\n") {
		t.Errorf("model info of a run's pointer: %v", err)
	}
}
