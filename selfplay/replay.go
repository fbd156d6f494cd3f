package selfplay

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// A Replay is the training window: the most recent self-play samples,
// kept in memory in compact form and on disk as one shard per generation,
// so that a restarted run finds the same buffer.
//
// The window grows with the run, as KataGo's does: with N samples
// generated in all, it keeps the most recent
//
//	W(N) = min(N, c·(1 + β·((N/c)^α − 1)/α)), capped at Max,
//
// with c = MinWindow, α = 0.75 and β = 0.4, so early generations (made by a
// weak net) leave the window quickly while later ones stay longer.
type Replay struct {
	Size      int
	MinWindow int // c: the window while the run is young
	Max       int // hard cap on the window

	samples []compactSample // every sample loaded, oldest first
	total   int64           // samples ever added (including shards no longer loaded)
}

// compactSample is one training position as stored: bitboards, the side to
// move, the value target and a sparse policy target over the action space.
type compactSample struct {
	black, white uint64
	turn         rules.Color
	value        float32
	policy       []net.ActionProb
}

// NewReplay returns an empty buffer for a board size.
func NewReplay(size, minWindow, max int) *Replay {
	return &Replay{Size: size, MinWindow: minWindow, Max: max}
}

// Window returns the number of most recent samples that training draws from.
func (r *Replay) Window() int {
	n := float64(r.total)
	c := float64(r.MinWindow)
	w := n
	if n > c {
		const alpha, beta = 0.75, 0.4
		w = c * (1 + beta*(math.Pow(n/c, alpha)-1)/alpha)
	}
	w = math.Min(w, float64(r.Max))
	return min(int(w), len(r.samples))
}

// Len returns the number of samples held in memory.
func (r *Replay) Len() int { return len(r.samples) }

// Total returns the number of samples ever added.
func (r *Replay) Total() int64 { return r.total }

// Add appends samples (already in the action space of the buffer's size)
// and forgets what can no longer enter the window.
func (r *Replay) Add(samples []net.Sample) {
	for _, s := range samples {
		r.samples = append(r.samples, compactSample{
			black: s.Position.Black, white: s.Position.White, turn: s.Position.Turn,
			value: s.Value, policy: s.Policy,
		})
	}
	r.total += int64(len(samples))
	if extra := len(r.samples) - r.Max; extra > 0 {
		r.samples = append(r.samples[:0:0], r.samples[extra:]...)
	}
}

// Draw fills batch with samples drawn uniformly from the window, each under
// a uniformly random symmetry of the square.
func (r *Replay) Draw(rng *rand.Rand, batch []net.Sample) {
	w := r.Window()
	base := len(r.samples) - w
	for i := range batch {
		c := &r.samples[base+rng.IntN(w)]
		sym := rules.Symmetry(rng.IntN(rules.NumSymmetries))
		p := rules.Position{Black: c.black, White: c.white, Size: uint8(r.Size), Turn: c.turn}
		batch[i] = net.Sample{Position: p, Policy: c.policy, Value: c.value}.Transform(sym)
	}
}

// Shard files: "KZRS", format version, board size, sample count, then the
// samples, then a CRC-32 (IEEE) of everything before it.
const (
	shardMagic   = "KZRS"
	shardVersion = 1
)

// WriteShard saves samples as one shard file, atomically.
func WriteShard(path string, size int, samples []net.Sample) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		h := crc32.NewIEEE()
		bw := bufio.NewWriter(io.MultiWriter(w, h))
		var hdr [4 + 4 + 4 + 4]byte
		copy(hdr[:], shardMagic)
		binary.LittleEndian.PutUint32(hdr[4:], shardVersion)
		binary.LittleEndian.PutUint32(hdr[8:], uint32(size))
		binary.LittleEndian.PutUint32(hdr[12:], uint32(len(samples)))
		bw.Write(hdr[:])
		for _, s := range samples {
			var b [8 + 8 + 1 + 4 + 2]byte
			binary.LittleEndian.PutUint64(b[0:], s.Position.Black)
			binary.LittleEndian.PutUint64(b[8:], s.Position.White)
			b[16] = byte(s.Position.Turn)
			binary.LittleEndian.PutUint32(b[17:], math.Float32bits(s.Value))
			binary.LittleEndian.PutUint16(b[21:], uint16(len(s.Policy)))
			bw.Write(b[:])
			for _, ap := range s.Policy {
				var e [6]byte
				binary.LittleEndian.PutUint16(e[0:], uint16(ap.Action))
				binary.LittleEndian.PutUint32(e[2:], math.Float32bits(ap.Prob))
				bw.Write(e[:])
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		var sum [4]byte
		binary.LittleEndian.PutUint32(sum[:], h.Sum32())
		_, err := w.Write(sum[:])
		return err
	})
}

// ReadShard loads a shard file written by WriteShard, checking its size,
// version and checksum.
func ReadShard(path string, size int) ([]net.Sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	bad := func(why string) error { return fmt.Errorf("selfplay: replay shard %s: %s", path, why) }
	if len(data) < 20 || string(data[:4]) != shardMagic {
		return nil, bad("not a replay shard (bad magic or too short)")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, bad("checksum mismatch (truncated or corrupted)")
	}
	if v := binary.LittleEndian.Uint32(body[4:]); v != shardVersion {
		return nil, bad(fmt.Sprintf("format version %d, want %d", v, shardVersion))
	}
	if s := int(binary.LittleEndian.Uint32(body[8:])); s != size {
		return nil, bad(fmt.Sprintf("board size %d, want %d", s, size))
	}
	n := int(binary.LittleEndian.Uint32(body[12:]))
	body = body[16:]
	nActions := rules.NumActions(size)
	out := make([]net.Sample, 0, n)
	for i := 0; i < n; i++ {
		if len(body) < 23 {
			return nil, bad("ends inside a sample")
		}
		s := net.Sample{Position: rules.Position{
			Black: binary.LittleEndian.Uint64(body[0:]),
			White: binary.LittleEndian.Uint64(body[8:]),
			Size:  uint8(size),
			Turn:  rules.Color(body[16]),
		}}
		s.Value = math.Float32frombits(binary.LittleEndian.Uint32(body[17:]))
		k := int(binary.LittleEndian.Uint16(body[21:]))
		body = body[23:]
		if len(body) < 6*k {
			return nil, bad("ends inside a policy")
		}
		if err := s.Position.Validate(); err != nil {
			return nil, bad(fmt.Sprintf("sample %d: %v", i, err))
		}
		s.Policy = make([]net.ActionProb, k)
		for j := range s.Policy {
			a := int32(binary.LittleEndian.Uint16(body[6*j:]))
			if int(a) >= nActions {
				return nil, bad(fmt.Sprintf("sample %d: action %d outside the action space", i, a))
			}
			s.Policy[j] = net.ActionProb{Action: a, Prob: math.Float32frombits(binary.LittleEndian.Uint32(body[6*j+2:]))}
		}
		body = body[6*k:]
		out = append(out, s)
	}
	if len(body) != 0 {
		return nil, bad("trailing bytes after the last sample")
	}
	return out, nil
}

// shardName names generation g's shard.
func shardName(g int) string { return fmt.Sprintf("gen-%06d.shard", g) }
