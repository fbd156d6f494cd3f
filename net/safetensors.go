package net

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// The errors of reading a model or checkpoint file; every error of Load,
// Decode and LoadCheckpoint but a failed read wraps exactly one of them.
var (
	// ErrFormat: not a file of this project, or one whose header does not
	// describe the weights of its architecture.
	ErrFormat = errors.New("not a valid konane network file")
	// ErrVersion: a file format or input encoding this build cannot read.
	ErrVersion = errors.New("unsupported version")
	// ErrCorrupt: a truncated file or one whose checksum does not match.
	ErrCorrupt = errors.New("truncated or corrupted file")
	// ErrSize: a network for another board size than the one asked for.
	ErrSize = errors.New("wrong board size")
	// ErrNotFinite: a well-formed file whose weights hold NaN or an
	// infinity (a training that diverged); such a network cannot play.
	ErrNotFinite = errors.New("weights are not finite numbers")
)

// The container is safetensors (https://huggingface.co/docs/safetensors):
//
//	8 bytes   little-endian length H of the header
//	H bytes   JSON header: {"__metadata__": {string: string}, NAME:
//	          {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...},
//	          padded with spaces to a multiple of 8 bytes
//	...       the tensors' bytes, little-endian, offsets relative to here
//
// Our files are ordinary safetensors files that any reader can open. We
// add to the metadata a "checksum": "sha256:HEX" of the header without the
// checksum (in canonical JSON: keys sorted, no spaces) followed by the
// tensor bytes, so that a changed byte anywhere is detected.

// stTensor is one named float32 tensor of a safetensors file.
type stTensor struct {
	name  string
	shape []int
	data  []float32
}

type stEntry struct {
	Dtype   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

const checksumKey = "checksum"

// writeSafetensors writes the tensors, in the given order, and the
// metadata (plus the checksum) to w. It refuses, wrapping ErrNotFinite,
// tensors holding NaN or ±Inf, which no reader accepts: a diverged
// training run fails when it saves instead of replacing a good file with
// one that cannot be loaded.
func writeSafetensors(w io.Writer, meta map[string]string, tensors []stTensor) error {
	for _, t := range tensors {
		if err := checkFinite(t); err != nil {
			return err
		}
	}
	return encodeSafetensors(w, meta, tensors)
}

// encodeSafetensors is writeSafetensors without the check of the values
// (the fuzz tests build files the readers must refuse with it).
func encodeSafetensors(w io.Writer, meta map[string]string, tensors []stTensor) error {
	header := map[string]any{}
	var data []byte
	for _, t := range tensors {
		if prod(t.shape) != len(t.data) {
			return fmt.Errorf("net: tensor %s: %d values for shape %v", t.name, len(t.data), t.shape)
		}
		begin := int64(len(data))
		for _, v := range t.data {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
		}
		header[t.name] = stEntry{Dtype: "F32", Shape: t.shape, Offsets: [2]int64{begin, int64(len(data))}}
	}
	m := make(map[string]string, len(meta)+1)
	for k, v := range meta {
		m[k] = v
	}
	delete(m, checksumKey)
	header["__metadata__"] = m
	sum, err := checksum(header, data)
	if err != nil {
		return err
	}
	m[checksumKey] = sum
	hb, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("net: encoding the file header: %w", err)
	}
	for len(hb)%8 != 0 {
		hb = append(hb, ' ')
	}
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(hb)))
	for _, b := range [][]byte{lenBuf[:], hb, data} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// checksum hashes the canonical JSON of header (which must not hold the
// checksum itself) and the tensor bytes.
func checksum(header map[string]any, data []byte) (string, error) {
	hb, err := json.Marshal(header)
	if err != nil {
		return "", fmt.Errorf("net: encoding the file header: %w", err)
	}
	h := sha256.New()
	h.Write(hb)
	h.Write(data)
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// readSafetensors parses and verifies a file written by writeSafetensors.
// The errors wrap ErrFormat or ErrCorrupt.
func readSafetensors(file []byte) (map[string]string, map[string]stTensor, error) {
	st, err := parseSafetensors(file)
	if err != nil {
		return nil, nil, err
	}
	if err := st.verify(); err != nil {
		return nil, nil, err
	}
	return st.meta, st.tensors(), nil
}

// stFile is a parsed safetensors file whose checksum is not yet verified.
type stFile struct {
	meta    map[string]string // with the checksum
	entries map[string]stEntry
	names   []string // in the order of their data
	data    []byte
}

// parseSafetensors reads the structure of a safetensors file: every
// length and offset is checked against the bytes that are there before
// anything is allocated for it. The errors wrap ErrFormat or ErrCorrupt.
func parseSafetensors(file []byte) (*stFile, error) {
	if len(file) < 8 {
		return nil, fmt.Errorf("%w: %d bytes, too short for a safetensors header", ErrCorrupt, len(file))
	}
	hlen := binary.LittleEndian.Uint64(file[:8])
	if hlen > uint64(len(file)-8) {
		if hlen > 1<<24 {
			return nil, fmt.Errorf("%w: header length %d is not plausible", ErrFormat, hlen)
		}
		return nil, fmt.Errorf("%w: header of %d bytes, but the file ends after %d", ErrCorrupt, hlen, len(file)-8)
	}
	hb, data := file[8:8+hlen], file[8+hlen:]
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hb, &raw); err != nil {
		return nil, fmt.Errorf("%w: header is not JSON: %v", ErrFormat, err)
	}
	st := &stFile{meta: map[string]string{}, data: data}
	if mr, ok := raw["__metadata__"]; ok {
		if err := json.Unmarshal(mr, &st.meta); err != nil {
			return nil, fmt.Errorf("%w: metadata is not a map of strings: %v", ErrFormat, err)
		}
		if st.meta == nil { // "__metadata__": null
			st.meta = map[string]string{}
		}
	}
	delete(raw, "__metadata__")
	st.entries = make(map[string]stEntry, len(raw))
	for name, r := range raw {
		var e stEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("%w: tensor %s: %v", ErrFormat, name, err)
		}
		if e.Dtype != "F32" {
			return nil, fmt.Errorf("%w: tensor %s has dtype %s, want F32", ErrFormat, name, e.Dtype)
		}
		st.entries[name] = e
		st.names = append(st.names, name)
	}
	// The tensors must tile the data section exactly, each holding the
	// values of its shape (whose product is bounded by the data as it is
	// formed, so that it cannot overflow).
	sort.Slice(st.names, func(i, j int) bool {
		a, b := st.entries[st.names[i]].Offsets[0], st.entries[st.names[j]].Offsets[0]
		return a < b || a == b && st.names[i] < st.names[j]
	})
	values := int64(len(data) / 4)
	var end int64
	for _, name := range st.names {
		e := st.entries[name]
		n := int64(1)
		for _, d := range e.Shape {
			if d < 0 || d > 1<<24 {
				return nil, fmt.Errorf("%w: tensor %s has shape %v", ErrFormat, name, e.Shape)
			}
			if n *= int64(d); n > values {
				return nil, fmt.Errorf("%w: tensor %s of shape %v holds more values than the file's %d", ErrCorrupt, name, e.Shape, values)
			}
		}
		if e.Offsets[0] != end || e.Offsets[1]-e.Offsets[0] != 4*n {
			return nil, fmt.Errorf("%w: tensor %s has data offsets %v for shape %v", ErrFormat, name, e.Offsets, e.Shape)
		}
		end = e.Offsets[1]
		if end > int64(len(data)) {
			return nil, fmt.Errorf("%w: the header declares at least %d bytes of tensor data, the file holds %d", ErrCorrupt, end, len(data))
		}
	}
	if int64(len(data)) > end {
		return nil, fmt.Errorf("%w: %d bytes after the tensor data", ErrCorrupt, int64(len(data))-end)
	}
	return st, nil
}

// verify checks the file's checksum and removes it from the metadata.
func (st *stFile) verify() error {
	want, ok := st.meta[checksumKey]
	if !ok {
		return fmt.Errorf("%w: no checksum in the metadata", ErrFormat)
	}
	got, err := st.checksum()
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%w: checksum mismatch (file says %s, content gives %s)", ErrCorrupt, want, got)
	}
	delete(st.meta, checksumKey)
	return nil
}

// checksum computes what the file's checksum should be.
func (st *stFile) checksum() (string, error) {
	meta := make(map[string]string, len(st.meta))
	for k, v := range st.meta {
		if k != checksumKey {
			meta[k] = v
		}
	}
	header := map[string]any{"__metadata__": meta}
	for name, e := range st.entries {
		header[name] = e
	}
	return checksum(header, st.data)
}

// tensors decodes the tensors' values.
func (st *stFile) tensors() map[string]stTensor {
	tensors := make(map[string]stTensor, len(st.names))
	for _, name := range st.names {
		e := st.entries[name]
		b := st.data[e.Offsets[0]:e.Offsets[1]]
		t := stTensor{name: name, shape: e.Shape, data: make([]float32, len(b)/4)}
		for i := range t.data {
			t.data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		tensors[name] = t
	}
	return tensors
}
