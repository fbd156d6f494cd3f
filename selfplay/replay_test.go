package selfplay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// testShard returns the bytes of a 6x6 shard: the positions of a seeded
// random game that have at least two moves, each with a uniform policy.
func testShard(t testing.TB) ([]byte, []net.Sample) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 0))
	var samples []net.Sample
	for p := rules.NewPosition(6); ; {
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		if len(moves) > 1 {
			s := net.Sample{Position: p, Value: float32(1 - 2*rng.IntN(2))}
			for _, m := range moves {
				if len(samples)%3 == 2 {
					break // a value-only sample
				}
				s.Policy = append(s.Policy, net.ActionProb{Action: int32(rules.ActionIndex(m, 6)), Prob: 1 / float32(len(moves))})
			}
			samples = append(samples, s)
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
	if len(samples) < 4 {
		t.Fatalf("the test game has %d samples", len(samples))
	}
	var b bytes.Buffer
	if err := encodeShard(&b, 6, nil, samples); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), samples
}

// resum returns data with its checksum recomputed, as a forger would.
func resum(data []byte) []byte {
	out := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.ChecksumIEEE(out[:len(out)-4]))
	return out
}

// TestShardHugeCount: a header that claims 0xFFFFFFFF samples, with a
// valid checksum, is refused from the file's length, without allocating
// for the claim (before, ReadShard asked for 240 GB and the runtime died).
func TestShardHugeCount(t *testing.T) {
	data, _ := testShard(t)
	forged := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(forged[12:], 0xFFFFFFFF)
	forged = resum(forged)
	path := filepath.Join(t.TempDir(), "huge.shard")
	if err := os.WriteFile(path, forged, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadShard(path, 6)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "header claims 4294967295 samples") || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing the shard allocated %d bytes", n)
	}
}

// TestShardRefusesBadSamples: each field of a sample that is out of
// range is refused with an error naming it, even with a valid checksum.
func TestShardRefusesBadSamples(t *testing.T) {
	data, samples := testShard(t)
	if back, _, err := decodeShard(data, 6); err != nil || !reflect.DeepEqual(back, samples) {
		t.Fatalf("round trip: %v", err)
	}
	const s0 = shardHeader // the first sample
	k0 := int(binary.LittleEndian.Uint16(data[s0+21:]))
	p0 := s0 + sampleHeader // its first policy entry
	f32 := func(off int, x float32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], math.Float32bits(x)) }
	}
	tests := []struct {
		name  string
		edit  func([]byte)
		want  string
		size  int
		forge bool
	}{
		{"stones off the board", func(b []byte) { b[s0+7] = 0xFF }, "sample 0: rules: stones off the 6x6 board", 6, true},
		{"two stones on a square", func(b []byte) { copy(b[s0+8:s0+16], b[s0:s0+8]) }, "holds two stones", 6, true},
		{"side to move", func(b []byte) { b[s0+16] = 7 }, "side to move 7", 6, true},
		{"NaN value", f32(s0+17, float32(math.NaN())), "value target NaN outside [-1, 1]", 6, true},
		{"value 2", f32(s0+17, 2), "value target 2 outside", 6, true},
		{"terminal position", func(b []byte) {
			binary.LittleEndian.PutUint64(b[s0:], 1)
			binary.LittleEndian.PutUint64(b[s0+8:], 0)
		}, "sample 0: the position has no legal move", 6, true},
		{"more policy entries than moves", func(b []byte) { binary.LittleEndian.PutUint16(b[s0+21:], uint16(k0+1)) }, fmt.Sprintf("sample 0: %d policy entries for %d legal moves", k0+1, k0), 6, true},
		{"policy longer than the file", func(b []byte) { binary.LittleEndian.PutUint16(b[s0+21:], 0xFFFF) }, "ends inside its policy of 65535 entries", 6, true},
		{"action outside the space", func(b []byte) { binary.LittleEndian.PutUint16(b[p0:], 0xFFFF) }, "policy on action 65535, not a legal move", 6, true},
		{"illegal action", func(b []byte) { binary.LittleEndian.PutUint16(b[p0:], 5) }, "policy on action 5, not a legal move", 6, true},
		{"NaN probability", f32(p0+2, float32(math.NaN())), "probability NaN", 6, true},
		{"negative probability", f32(p0+2, -0.5), "probability -0.5", 6, true},
		{"probabilities that do not sum to 1", f32(p0+2, 1), "sum to", 6, true},
		{"count larger than the samples", func(b []byte) { binary.LittleEndian.PutUint32(b[12:], binary.LittleEndian.Uint32(b[12:])+1) }, "the file ends inside it", 6, true},
		{"count smaller than the samples", func(b []byte) { binary.LittleEndian.PutUint32(b[12:], binary.LittleEndian.Uint32(b[12:])-1) }, "trailing bytes", 6, true},
		{"version", func(b []byte) { b[4] = 9 }, "format version 9, want 1", 6, true},
		{"board size", func(b []byte) {}, "board size 6, want 8", 8, false},
		{"unforged edit", func(b []byte) { b[s0+17] ^= 1 }, "checksum mismatch", 6, false},
		{"short", func(b []byte) {}, "too short", 6, false},
	}
	for _, tc := range tests {
		b := append([]byte(nil), data...)
		if tc.name == "short" {
			b = b[:10]
		}
		tc.edit(b)
		if tc.forge {
			b = resum(b)
		}
		if _, _, err := decodeShard(b, tc.size); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if k0 < 1 {
		t.Fatal("the test game's first sample has no policy")
	}
	if k0 > 1 { // a policy entry repeated
		b := append([]byte(nil), data...)
		copy(b[p0+policyEntry:p0+policyEntry+2], b[p0:p0+2])
		if _, _, err := decodeShard(resum(b), 6); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("repeated action: error %v", err)
		}
	}
}

// withSurprise returns samples with a surprise on those with a policy.
func withSurprise(samples []net.Sample) []net.Sample {
	out := slices.Clone(samples)
	for i := range out {
		if out[i].Policy != nil {
			out[i].SurpriseWeight = float32(i%5) + 0.5
		}
	}
	return out
}

// withoutSurprise returns samples without their surprise weights.
func withoutSurprise(samples []net.Sample) []net.Sample {
	out := slices.Clone(samples)
	for i := range out {
		out[i].SurpriseWeight = 0
	}
	return out
}

// FuzzReadShard: no input makes the shard reader panic or allocate for
// what is not there, and whatever it accepts is written back to the same
// bytes. Each input is also read with its checksum recomputed, so that
// the fuzzer explores the samples behind the checksum. The seeds run in
// every go test.
func FuzzReadShard(f *testing.F) {
	data, _ := testShard(f)
	f.Add(data, 6)
	forged := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(forged[12:], 0xFFFFFFFF)
	f.Add(resum(forged), 6)
	f.Add(data[:len(data)/2], 6)
	f.Add(resum(data[:shardHeader+4]), 6)
	var empty bytes.Buffer
	encodeShard(&empty, 4, nil, nil)
	f.Add(empty.Bytes(), 4)
	// A multi-board run's shard (version 4), read as such and as 6x6's.
	samples, _, err := decodeShard(data, 6)
	if err != nil {
		f.Fatal(err)
	}
	var mixed bytes.Buffer
	encodeShard(&mixed, 0, &shardTag{gen: 3, run: 7}, samples)
	f.Add(mixed.Bytes(), 0)
	f.Add(mixed.Bytes(), 6)
	// A multi-board run's shard with wide samples (version 5).
	wide := wideShard(f)
	f.Add(wide, 0)
	f.Add(wide, 6)
	f.Add(resum(wide[:len(wide)-40]), 0)
	// Version 6, with the samples' surprise, over each layout.
	for i := range samples {
		if samples[i].Policy != nil {
			samples[i].SurpriseWeight = 0.5 + 0.25*float32(i)
		}
	}
	for _, c := range []struct {
		size int
		tag  *shardTag
		s    []net.Sample
	}{{6, nil, samples}, {0, &shardTag{gen: 1, run: 2}, samples}, {0, &shardTag{gen: 4, run: 2}, withSurprise(wideSamples(f))}} {
		var b bytes.Buffer
		if err := encodeShard(&b, c.size, c.tag, c.s); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes(), c.size)
	}
	// A run's shards of one board (versions 2, 3 and 6 over 3), tagged,
	// read as such.
	aux := slices.Clone(samples)
	for i := range aux {
		aux[i].MovesLeft, aux[i].Final = 1, aux[i].Position.Black|aux[i].Position.White
	}
	for _, s := range [][]net.Sample{withoutSurprise(samples), withoutSurprise(aux), aux} {
		var b bytes.Buffer
		if err := encodeShard(&b, 6, &shardTag{gen: 3, run: 7}, s); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes(), 6)
	}
	f.Fuzz(func(t *testing.T, data []byte, size int) {
		inputs := [][]byte{data}
		if len(data) >= 4 {
			inputs = append(inputs, resum(data))
		}
		for _, in := range inputs {
			samples, tag, err := decodeShard(in, size)
			if err != nil {
				continue
			}
			var back bytes.Buffer
			if err := encodeShard(&back, size, tag, samples); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back.Bytes(), in) {
				t.Errorf("accepted shard of %d bytes re-encodes to %d different bytes", len(in), back.Len())
			}
		}
	})
}
