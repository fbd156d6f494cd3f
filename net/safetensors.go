package net

import (
	"bytes"
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
// Decode and LoadCheckpoint wraps exactly one of them.
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
// metadata (plus the checksum) to w.
func writeSafetensors(w io.Writer, meta map[string]string, tensors []stTensor) error {
	header := map[string]any{}
	var data bytes.Buffer
	for _, t := range tensors {
		if prod(t.shape) != len(t.data) {
			return fmt.Errorf("net: tensor %s: %d values for shape %v", t.name, len(t.data), t.shape)
		}
		begin := int64(data.Len())
		for _, v := range t.data {
			binary.Write(&data, binary.LittleEndian, math.Float32bits(v))
		}
		header[t.name] = stEntry{Dtype: "F32", Shape: t.shape, Offsets: [2]int64{begin, int64(data.Len())}}
	}
	m := make(map[string]string, len(meta)+1)
	for k, v := range meta {
		m[k] = v
	}
	delete(m, checksumKey)
	header["__metadata__"] = m
	sum, err := checksum(header, data.Bytes())
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
	for _, b := range [][]byte{lenBuf[:], hb, data.Bytes()} {
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
	if len(file) < 8 {
		return nil, nil, fmt.Errorf("%w: %d bytes, too short for a safetensors header", ErrCorrupt, len(file))
	}
	hlen := binary.LittleEndian.Uint64(file[:8])
	if hlen > uint64(len(file)-8) {
		if hlen > 1<<24 {
			return nil, nil, fmt.Errorf("%w: header length %d is not plausible", ErrFormat, hlen)
		}
		return nil, nil, fmt.Errorf("%w: header of %d bytes, but the file ends after %d", ErrCorrupt, hlen, len(file)-8)
	}
	hb, data := file[8:8+hlen], file[8+hlen:]
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hb, &raw); err != nil {
		return nil, nil, fmt.Errorf("%w: header is not JSON: %v", ErrFormat, err)
	}
	meta := map[string]string{}
	if mr, ok := raw["__metadata__"]; ok {
		if err := json.Unmarshal(mr, &meta); err != nil {
			return nil, nil, fmt.Errorf("%w: metadata is not a map of strings: %v", ErrFormat, err)
		}
	}
	delete(raw, "__metadata__")
	header := map[string]any{}
	entries := make(map[string]stEntry, len(raw))
	names := make([]string, 0, len(raw))
	for name, r := range raw {
		var e stEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, nil, fmt.Errorf("%w: tensor %s: %v", ErrFormat, name, err)
		}
		if e.Dtype != "F32" {
			return nil, nil, fmt.Errorf("%w: tensor %s has dtype %s, want F32", ErrFormat, name, e.Dtype)
		}
		entries[name], header[name] = e, e
		names = append(names, name)
	}
	// The tensors must tile the data section exactly.
	sort.Slice(names, func(i, j int) bool { return entries[names[i]].Offsets[0] < entries[names[j]].Offsets[0] })
	var end int64
	for _, name := range names {
		e := entries[name]
		n := int64(1)
		for _, d := range e.Shape {
			if d < 0 || d > 1<<24 {
				return nil, nil, fmt.Errorf("%w: tensor %s has shape %v", ErrFormat, name, e.Shape)
			}
			n *= int64(d)
		}
		if e.Offsets[0] != end || e.Offsets[1]-e.Offsets[0] != 4*n {
			return nil, nil, fmt.Errorf("%w: tensor %s has data offsets %v for shape %v", ErrFormat, name, e.Offsets, e.Shape)
		}
		end = e.Offsets[1]
	}
	if int64(len(data)) < end {
		return nil, nil, fmt.Errorf("%w: the header declares %d bytes of tensor data, the file holds %d", ErrCorrupt, end, len(data))
	}
	if int64(len(data)) > end {
		return nil, nil, fmt.Errorf("%w: %d bytes after the tensor data", ErrCorrupt, int64(len(data))-end)
	}
	want, ok := meta[checksumKey]
	if !ok {
		return nil, nil, fmt.Errorf("%w: no checksum in the metadata", ErrFormat)
	}
	delete(meta, checksumKey)
	header["__metadata__"] = meta
	got, err := checksum(header, data)
	if err != nil {
		return nil, nil, err
	}
	if got != want {
		return nil, nil, fmt.Errorf("%w: checksum mismatch (file says %s, content gives %s)", ErrCorrupt, want, got)
	}
	tensors := make(map[string]stTensor, len(names))
	for _, name := range names {
		e := entries[name]
		b := data[e.Offsets[0]:e.Offsets[1]]
		t := stTensor{name: name, shape: e.Shape, data: make([]float32, len(b)/4)}
		for i := range t.data {
			t.data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		tensors[name] = t
	}
	return meta, tensors, nil
}
