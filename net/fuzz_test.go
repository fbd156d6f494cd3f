package net

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sealed re-encodes a file whose structure parses (whatever its checksum)
// with the given edit applied and a valid checksum, as a forger would;
// ok is false when the structure does not parse.
func sealed(data []byte, edit func(meta map[string]string, ts map[string]stTensor)) (out []byte, ok bool) {
	st, err := parseSafetensors(data)
	if err != nil {
		return nil, false
	}
	delete(st.meta, checksumKey)
	ts := st.tensors()
	if edit != nil {
		edit(st.meta, ts)
	}
	list := make([]stTensor, 0, len(st.names))
	for _, name := range st.names {
		list = append(list, ts[name])
	}
	var b bytes.Buffer
	if err := encodeSafetensors(&b, st.meta, list); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// mustSeal is sealed for a test's own good file.
func mustSeal(t testing.TB, data []byte, edit func(meta map[string]string, ts map[string]stTensor)) []byte {
	t.Helper()
	out, ok := sealed(data, edit)
	if !ok {
		t.Fatal("the test file does not parse")
	}
	return out
}

// setValue changes one value of a tensor.
func setValue(name string, i int, v float32) func(map[string]string, map[string]stTensor) {
	return func(_ map[string]string, ts map[string]stTensor) {
		d := append([]float32(nil), ts[name].data...)
		d[i] = v
		t := ts[name]
		t.data = d
		ts[name] = t
	}
}

// TestSaveRefusesNonFinite: a model whose weights hold NaN (a diverged
// training run) is not written; the file saved before stays as it was.
func TestSaveRefusesNonFinite(t *testing.T) {
	m := mustModel(t, tinyConfig(5), 1)
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := m.cfg.Params()[0].Name
	m.weights[name][2] = float32(math.NaN())
	err = m.Save(path)
	if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "tensor "+name+" holds NaN at index 2") {
		t.Errorf("Save with a NaN weight: err = %v", err)
	}
	if _, err := m.MarshalBinary(); !errors.Is(err, ErrNotFinite) {
		t.Errorf("MarshalBinary with a NaN weight: err = %v", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the file saved before changed (err %v)", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("directory holds %d files after the refused save, want 1", len(entries))
	}
}

// TestLoadRefusesNonFinite: a model or checkpoint whose weights hold NaN or
// an infinity, with a valid checksum, is refused when loading with one
// error naming the tensor (before, it loaded and failed only at the first
// evaluation: "value NaN outside [-1, 1]").
func TestLoadRefusesNonFinite(t *testing.T) {
	m := mustModel(t, tinyConfig(5), 1)
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	name := m.cfg.Params()[0].Name
	dir := t.TempDir()
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		path := filepath.Join(dir, "bad.safetensors")
		if err := os.WriteFile(path, mustSeal(t, good, setValue(name, 3, v)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "tensor "+name+" holds") || !strings.Contains(err.Error(), "index 3") {
			t.Errorf("weight %v: err = %v", v, err)
		}
	}
	// The checkpoint reader, for weights and momentum alike.
	var ckpt bytes.Buffer
	if err := testCheckpoint(m).Write(&ckpt); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "run.ckpt")
	for _, prefix := range []string{"weight.", "momentum."} {
		if err := os.WriteFile(path, mustSeal(t, ckpt.Bytes(), setValue(prefix+name, 0, float32(math.NaN()))), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadCheckpoint(path); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), prefix+name) {
			t.Errorf("checkpoint with NaN in %s: err = %v", prefix+name, err)
		}
	}
}

// TestLoadRefusesBadNumbers: lengths, shapes and metadata numbers out of
// bounds are refused, with a valid checksum, without allocating for them.
func TestLoadRefusesBadNumbers(t *testing.T) {
	m := mustModel(t, tinyConfig(5), 1)
	good, _ := m.MarshalBinary()
	meta := func(key, value string) func(map[string]string, map[string]stTensor) {
		return func(md map[string]string, _ map[string]stTensor) { md[key] = value }
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"negative generation", mustSeal(t, good, meta("generation", "-5")), "generation -5 is negative"},
		{"negative steps", mustSeal(t, good, meta("steps", "-1")), `steps = "-1"`},
		{"huge shape", rawFile(`{"a":{"dtype":"F32","shape":[16777216,16777216,16777216],"data_offsets":[0,16]}}`, 16), "holds more values than the file's 4"},
		{"offsets past the end", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}}`, 16), "declares at least 24 bytes of tensor data, the file holds 16"},
		{"header length 2^63", append([]byte{0, 0, 0, 0, 0, 0, 0, 0x80}, good[8:]...), "not plausible"},
	} {
		if _, err := Decode(tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// rawFile is a safetensors file of the given header and n zero bytes of data.
func rawFile(header string, n int) []byte {
	for len(header)%8 != 0 {
		header += " "
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, n)...)
}

// roundTrip fails the test unless m survives MarshalBinary and Decode
// (its config, metadata and every weight bit for bit), and returns the
// decoded model.
func roundTrip(t *testing.T, m *Model) *Model {
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatalf("an accepted model does not decode after writing: %v", err)
	}
	if back.cfg != m.cfg || !reflect.DeepEqual(back.meta, m.meta) {
		t.Fatalf("round trip: %+v %+v, want %+v %+v", back.cfg, back.meta, m.cfg, m.meta)
	}
	for k, w := range m.weights {
		for i := range w {
			if math.Float32bits(w[i]) != math.Float32bits(back.weights[k][i]) {
				t.Fatalf("round trip changed %s[%d]", k, i)
			}
		}
	}
	return back
}

// FuzzDecode: no input makes the model reader panic or allocate for what
// is not there; an accepted model writes back to one that decodes the
// same. Each input whose structure parses is also read with its checksum
// made valid, so that the fuzzer reaches the checks behind it. The seeds
// run in every go test.
func FuzzDecode(f *testing.F) {
	m := mustModel(f, Config{Size: 4, Filters: 2, Blocks: 0, ValueHidden: 2}, 1)
	good, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(mustSeal(f, good, func(md map[string]string, _ map[string]stTensor) { md["generation"] = "-1" }))
	// Both input encodings.
	captures, err := mustModel(f, Config{Size: 4, Filters: 2, Blocks: 0, ValueHidden: 2, Captures: true}, 1).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(captures)
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{}              "))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputs := [][]byte{data}
		if s, ok := sealed(data, nil); ok {
			inputs = append(inputs, s)
		}
		for _, in := range inputs {
			if m, err := Decode(in); err == nil {
				roundTrip(t, m)
			} else if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrNotFinite) {
				t.Fatalf("error wraps none of the file errors: %v", err)
			}
		}
	})
}

// testCheckpoint is a checkpoint of a trainer of m at step 7, its
// momentum all 0.5.
func testCheckpoint(m *Model) *Checkpoint {
	c := &Checkpoint{Config: m.cfg, Base: m.meta, Step: 7, RNG: []byte("pcg:0123456789abcdef0123456789ab"),
		Options: TrainOptions{Batch: 2, LR: 0.01, Momentum: 0.9, DecaySteps: []int64{5}, DecayFactor: 0.5},
		Weights: m.weights, Momentum: make(map[string][]float32)}
	for name, w := range m.weights {
		c.Momentum[name] = make([]float32, len(w))
		for i := range c.Momentum[name] {
			c.Momentum[name][i] = 0.5
		}
	}
	return c
}

// FuzzDecodeCheckpoint: no input makes the checkpoint reader panic, and
// a checkpoint it accepts writes back to bytes that decode to the same
// checkpoint. Inputs are sealed as in FuzzDecode. The seeds run in every
// go test.
func FuzzDecodeCheckpoint(f *testing.F) {
	m := mustModel(f, Config{Size: 4, Filters: 2, Blocks: 0, ValueHidden: 2}, 1)
	var good bytes.Buffer
	if err := testCheckpoint(m).Write(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:100])
	f.Add(mustSeal(f, good.Bytes(), func(md map[string]string, _ map[string]stTensor) { md["train_step"] = "-3" }))
	f.Add(mustSeal(f, good.Bytes(), func(md map[string]string, _ map[string]stTensor) { md["train_rng"] = "0z" }))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputs := [][]byte{data}
		if s, ok := sealed(data, nil); ok {
			inputs = append(inputs, s)
		}
		for _, in := range inputs {
			c, err := DecodeCheckpoint(in, "fuzz")
			if err != nil {
				continue
			}
			var again bytes.Buffer
			if err := c.Write(&again); err != nil {
				t.Fatal(err)
			}
			back, err := DecodeCheckpoint(again.Bytes(), "again")
			if err != nil || !reflect.DeepEqual(back, c) {
				t.Fatalf("a decoded checkpoint does not round-trip: %v", err)
			}
		}
	})
}

// TestLoadRefusesOverflowingModel: finite weights that overflow (all
// 3e38, a valid file) are refused at load with one error, instead of
// failing every move later.
func TestLoadRefusesOverflowingModel(t *testing.T) {
	m := mustModel(t, tinyConfig(5), 1)
	for _, w := range m.weights {
		for i := range w {
			w[i] = 3e38
		}
	}
	path := filepath.Join(t.TempDir(), "huge.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "start position") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Load of an overflowing model: %v, want an error wrapping ErrNotFinite", err)
	}
	if err := mustModel(t, tinyConfig(5), 1).Check(); err != nil {
		t.Errorf("a fresh model fails its check: %v", err)
	}
}

// TestCheckProbesJumpingPositions: a model that overflows only on the
// capture planes, which are empty at the start, is refused at load rather
// than failing every move of the jumping phase (issue 47).
func TestCheckProbesJumpingPositions(t *testing.T) {
	cfg := tinyConfig(6)
	cfg.Captures = true
	m := mustModel(t, cfg, 1)
	w := m.weights["stem.w"]
	planes := cfg.Encoding().Planes()
	for o := range cfg.Filters {
		for p := planeOwnCaptures; p < planes; p++ {
			for k := range 9 {
				w[(o*planes+p)*9+k] = 3e38
			}
		}
	}
	path := filepath.Join(t.TempDir(), "captures.safetensors")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "moves of a test game") {
		t.Fatalf("Load of a model overflowing on the capture planes: %v, want ErrNotFinite", err)
	}
}
