package selfplay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"

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
//
// Size is the board of every sample, a Position's Size (N for N×N); 0
// for a multi-board run's buffer, whose samples each keep their board and
// whose batches are drawn one board at a time (DrawBoard).
//
// SurpriseWeighting draws samples by KataGo's policy surprise weighting
// instead of uniformly: among the samples a draw picks from (the window,
// or its samples of one board for DrawBoard), sample i with probability
// proportional to its net.Sample.SurpriseWeight w_i, given it at the end
// of its game (0.5 + 0.5·s_i/s̄, s̄ the mean surprise of that game's full
// searches: GameConfig.Surprise); a sample whose weight is not known (an
// older shard's, a value-only sample) has w_i = 1. A game's known
// weights sum to their count, so every game keeps its share of the draws
// and a board its share of the window, and no sample weighs more than
// about half its game's length. KataGo writes a sample into its training
// data floor(w) times and once more with probability frac(w), then
// shuffles: it is drawn w times in expectation, as here (its window
// counts the rows written, this one the samples). Off, a draw is exactly
// what it was before the setting.
type Replay struct {
	Size              int
	MinWindow         int // c: the window while the run is young
	Max               int // hard cap on the window
	SurpriseWeighting bool

	samples []compactSample // every sample loaded, oldest first
	total   int64           // samples ever added (including shards no longer loaded)
	// weighted caches, by board (0 for Draw's whole window), the
	// cumulative weights of SurpriseWeighting's draw while the samples
	// stay those of total.
	weighted map[int]*weightedWindow
}

// weightedWindow is the cumulative draw weights of a window's samples
// (SurpriseWeighting): cum[k] is the sum of the weights of the samples
// idx[0..k], indexes into Replay.samples.
type weightedWindow struct {
	total int64
	idx   []int32
	cum   []float64
}

// compactSample is one training position as stored: bitboards, the side to
// move, the value target and a sparse policy target over the action space.
type compactSample struct {
	black, white uint64
	turn         rules.Color
	value        float32
	policy       []net.ActionProb
	movesLeft    uint16 // auxiliary targets (net.Sample)
	final        uint64
	shape        uint16  // the board (rules.ShapeCode) in a multi-board buffer
	weight       float32 // net.Sample.SurpriseWeight (0: unknown)
	// wide holds the position and final stones of a board no Position
	// holds (black, white and final are then zero); nil otherwise.
	wide *wideStones
}

// wideStones is the position and final stones of a wide sample.
type wideStones struct {
	black, white, final rules.WideBitboard
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
		c := compactSample{
			black: s.Position.Black, white: s.Position.White, turn: s.Position.Turn,
			value: s.Value, policy: s.Policy, movesLeft: uint16(s.MovesLeft), final: s.Final, shape: uint16(s.Shape()),
			weight: s.SurpriseWeight,
		}
		if s.IsWide() {
			c.turn, c.wide = s.Wide.Turn, &wideStones{s.Wide.Black, s.Wide.White, s.WideFinal}
		}
		r.samples = append(r.samples, c)
	}
	r.total += int64(len(samples))
	if extra := len(r.samples) - r.Max; extra > 0 {
		r.samples = append(r.samples[:0:0], r.samples[extra:]...)
	}
}

// Draw fills batch with samples drawn uniformly from the window (by
// their surprise weight with SurpriseWeighting), each under a uniformly random
// symmetry of the board (of the square's 8; of the 4 a rectangle keeps).
func (r *Replay) Draw(rng *rand.Rand, batch []net.Sample) {
	w := r.Window()
	base := len(r.samples) - w
	if r.SurpriseWeighting && w > 0 {
		r.drawWeighted(rng, r.weights(0, base, nil), r.Size, batch)
		return
	}
	for i := range batch {
		batch[i] = r.sample(rng, &r.samples[base+rng.IntN(w)], r.Size)
	}
}

// weights returns the cumulative weights of SurpriseWeighting's draw
// over the samples idx (the window's from base on when idx is nil),
// cached as those of board shape (0 for the whole window) until the
// samples change.
func (r *Replay) weights(shape, base int, idx []int32) *weightedWindow {
	if ww := r.cachedWeights(shape); ww != nil {
		return ww
	}
	if idx == nil {
		idx = make([]int32, len(r.samples)-base)
		for i := range idx {
			idx[i] = int32(base + i)
		}
	}
	ww := &weightedWindow{total: r.total, idx: idx, cum: make([]float64, len(idx))}
	var acc float64
	for j, k := range idx {
		w := 1.0
		if s := r.samples[k].weight; s > 0 {
			w = float64(s)
		}
		acc += w
		ww.cum[j] = acc
	}
	if r.weighted == nil {
		r.weighted = make(map[int]*weightedWindow)
	}
	for k, old := range r.weighted {
		if old.total != r.total {
			delete(r.weighted, k) // of samples since replaced
		}
	}
	r.weighted[shape] = ww
	return ww
}

// cachedWeights returns the cached weights of board shape (0 for the
// whole window) if the samples have not changed since, else nil.
func (r *Replay) cachedWeights(shape int) *weightedWindow {
	if ww, ok := r.weighted[shape]; ok && ww.total == r.total {
		return ww
	}
	return nil
}

// drawWeighted fills batch with samples of the board of the shape code
// drawn from ww in proportion to their weights, each under a random
// symmetry of the board.
func (r *Replay) drawWeighted(rng *rand.Rand, ww *weightedWindow, shape int, batch []net.Sample) {
	for i := range batch {
		batch[i] = r.sample(rng, &r.samples[ww.pick(rng)], shape)
	}
}

// pick draws the index of a sample in proportion to its weight.
func (ww *weightedWindow) pick(rng *rand.Rand) int32 {
	u := rng.Float64() * ww.cum[len(ww.cum)-1]
	j, _ := slices.BinarySearch(ww.cum, u) // the first cumulative weight ≥ u
	if j < len(ww.cum)-1 && ww.cum[j] == u {
		j++ // u on a boundary belongs to the next sample: [cum[j-1], cum[j])
	}
	return ww.idx[min(j, len(ww.idx)-1)]
}

// sample is c, of the board of the shape code, under a random symmetry.
func (r *Replay) sample(rng *rand.Rand, c *compactSample, shape int) net.Sample {
	var sym rules.Symmetry
	if w, h := rules.ShapeDims(shape); w == h {
		sym = rules.Symmetry(rng.IntN(rules.NumSymmetries))
	} else {
		sym = rectangleSymmetries[rng.IntN(len(rectangleSymmetries))]
	}
	if c.wide != nil {
		w, h := rules.ShapeDims(shape)
		p := rules.WidePosition{Black: c.wide.black, White: c.wide.white, W: uint8(w), H: uint8(h), Turn: c.turn}
		return net.Sample{Wide: p, Policy: c.policy, Value: c.value, MovesLeft: int(c.movesLeft), WideFinal: c.wide.final}.Transform(sym)
	}
	p := rules.Position{Black: c.black, White: c.white, Size: uint8(shape), Turn: c.turn}
	return net.Sample{Position: p, Policy: c.policy, Value: c.value, MovesLeft: int(c.movesLeft), Final: c.final}.Transform(sym)
}

// rectangleSymmetries are the symmetries that keep a rectangle's shape.
var rectangleSymmetries = [4]rules.Symmetry{rules.Identity, rules.Rotate180, rules.FlipFiles, rules.FlipRanks}

// BoardCounts returns, for a multi-board buffer, the number of samples of
// each board (shape code) in the window.
func (r *Replay) BoardCounts() map[int]int {
	out := make(map[int]int)
	for _, c := range r.samples[len(r.samples)-r.Window():] {
		out[int(c.shape)]++
	}
	return out
}

// DrawBoard fills batch with samples of the board of the shape code drawn
// uniformly from those of the window (by their surprise weight with
// SurpriseWeighting), each under a random symmetry of the board, as
// Draw; it fails when the window holds none.
func (r *Replay) DrawBoard(rng *rand.Rand, shape int, batch []net.Sample) error {
	if ww := r.cachedWeights(shape); r.SurpriseWeighting && ww != nil {
		r.drawWeighted(rng, ww, shape, batch)
		return nil
	}
	var idx []int32
	w := r.Window()
	base := len(r.samples) - w
	for i, c := range r.samples[base:] {
		if int(c.shape) == shape {
			idx = append(idx, int32(base+i))
		}
	}
	if len(idx) == 0 {
		bw, bh := rules.ShapeDims(shape)
		return fmt.Errorf("selfplay: the replay window holds no %dx%d sample", bw, bh)
	}
	if r.SurpriseWeighting {
		r.drawWeighted(rng, r.weights(shape, base, idx), shape, batch)
		return nil
	}
	for i := range batch {
		batch[i] = r.sample(rng, &r.samples[idx[rng.IntN(len(idx))]], shape)
	}
	return nil
}

// Shard files: "KZRS", format version, board size, sample count, (from
// version 2 on) the generation of the model that played the games and
// the run's identity (its seed), then the samples, then a CRC-32 (IEEE)
// of everything before it. A sample is the
// black and white bitboards (8 bytes each), the side to move (1), the
// value target (float32) and the number k of policy entries (uint16), then
// k entries of an action index (uint16) and its probability (float32);
// k = 0 is a value-only sample (net.Sample). Version 3 is version 2 whose
// samples have the auxiliary targets after the number k: the moves left
// (uint16, 0 for none) and the squares holding a stone at the game's end
// (a bitboard, 8 bytes). A shard is written in version 3 only when one
// of its samples has auxiliary targets, so runs without auxiliary heads
// write exactly the files they wrote before. The board size is a
// Position's Size: N for N×N, 16·W + H for a rectangle. Version 4 is a
// multi-board run's shard: board size 0, and every sample of version 3
// starts with its own board (1 byte, a Position's Size). Version 5 is
// version 4 whose samples start with their board as a shape code of two
// bytes (rules.ShapeCode, above 255 for a board no Position holds); a
// sample of such a board has its bitboards, and its final stones, as
// four words each (rules.WideBitboard, 32 bytes) and its policy in the
// wide action space (rules.WideActionIndex). A shard is written in
// version 5 only when one of its samples is wide, so a run on boards of
// up to 8x8 writes exactly the files it wrote before. Version 6 adds the
// samples' surprise weight (net.Sample.SurpriseWeight) to one of versions
// 3 to 5: after the tag, the version whose layout its samples have (a
// uint32, 3, 4 or 5), and every sample has its surprise weight (float32,
// 0 for unknown, else in [net.MinSurpriseWeight, net.MaxSurpriseWeight])
// right after its moves left and final stones. A shard is written in
// version 6 only when one of its samples has a surprise weight, so runs without surprise weighting write
// exactly the files they wrote before.
const (
	shardMagic           = "KZRS"
	shardVersion         = 2 // 1: no generation nor run, still read
	shardVersionAux      = 3 // version 2 with auxiliary targets
	shardVersionMixed    = 4 // version 3 with a board per sample
	shardVersionWide     = 5 // version 4 with a two-byte board and wide samples
	shardVersionSurprise = 6 // a version 3 to 5 layout with a surprise weight per sample

	shardHeader   = 4 + 4 + 4 + 4 // of version 1
	shardTagBytes = 4 + 8         // version 2's generation and run
	sampleHeader  = 8 + 8 + 1 + 4 + 2
	sampleAux     = 2 + 8 // version 3's moves left and final stones
	wideHeader    = 32 + 32 + 1 + 4 + 2
	wideAux       = 2 + 32
	surpriseBytes = 4 // version 6's surprise weight of a sample
	layoutBytes   = 4 // version 6's layout version
	policyEntry   = 2 + 4
	maxShardBytes = 1 << 30 // far above any shard a run writes (a generation of 64 8x8 games is ~1 MB)
)

// WriteShard saves samples as one shard file, atomically.
func WriteShard(path string, size int, samples []net.Sample) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		return encodeShard(w, size, nil, samples)
	})
}

// EncodeShard writes samples to w in the shard format.
func EncodeShard(w io.Writer, size int, samples []net.Sample) error {
	return encodeShard(w, size, nil, samples)
}

// shardTag is what a shard of a run says it is: the samples of games
// played by the model of generation gen (a local run: the games of
// generation gen) in the run whose seed is run. Shards without one
// (version 1, or written without a run) are taken as what their name
// says.
type shardTag struct {
	gen int
	run uint64
}

// check reports a shard that is not what its name says.
func (t *shardTag) check(gen int, run uint64) error {
	if t != nil && (t.gen != gen || t.run != run) {
		return fmt.Errorf("holds generation %d of run %d, not generation %d of run %d (a file copied from elsewhere?)", t.gen, t.run, gen, run)
	}
	return nil
}

// DecodeShard reads the bytes of a shard (a worker's upload) with the
// checks of ReadShard; name names it in errors.
func DecodeShard(name string, data []byte, size int) ([]net.Sample, error) {
	samples, _, err := decodeShard(data, size)
	if err != nil {
		return nil, fmt.Errorf("selfplay: replay shard %s: %w", name, err)
	}
	return samples, nil
}

// decodeRunShard is DecodeShard for a shard of the run whose seed is run
// that its name says holds generation gen: one that says otherwise is
// refused.
func decodeRunShard(name string, data []byte, size, gen int, run uint64) ([]net.Sample, error) {
	samples, tag, err := decodeShard(data, size)
	if err == nil {
		err = tag.check(gen, run)
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: replay shard %s: %w", name, err)
	}
	return samples, nil
}

// encodeShard writes the shard of samples to w: of version 2 with tag,
// of version 1 without; of version 3 if a sample has auxiliary targets
// (with tag, or with generation 0 of run 0 if it is nil); of version 4
// for size 0 (samples of any boards up to 8x8), of version 5 for size 0
// when a sample is of a board above 8x8; of version 6 with one of those
// layouts (3 at least) when a sample has a surprise weight. A shard of one size
// (size > 0) holds samples of that board only: a sample of another board
// is refused, as is a surprise weight out of range (net.Sample), so that
// no shard is written that could not be read back.
func encodeShard(w io.Writer, size int, tag *shardTag, samples []net.Sample) error {
	mixed := size == 0
	if !mixed {
		if w, h := rules.ShapeDims(size); w > rules.MaxSize || h > rules.MaxSize {
			return fmt.Errorf("selfplay: replay shard of board size %s: a board above 8x8 is written in a shard of several boards (size 0)", shapeName(size))
		}
		for i, s := range samples {
			if s.Shape() != size {
				return fmt.Errorf("selfplay: replay shard of board size %s: sample %d is of board size %s (a shard of several boards has size 0)",
					shapeName(size), i, shapeName(s.Shape()))
			}
		}
	}
	wide := mixed && slices.ContainsFunc(samples, net.Sample.IsWide)
	surprise := slices.ContainsFunc(samples, net.Sample.HasSurpriseWeight)
	for i, s := range samples {
		if err := checkSurprise(s.SurpriseWeight, i); err != nil {
			return fmt.Errorf("selfplay: replay shard: %w", err)
		}
	}
	aux := mixed || surprise || slices.ContainsFunc(samples, net.Sample.HasAux)
	if aux && tag == nil {
		tag = &shardTag{}
	}
	h := crc32.NewIEEE()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	var hdr [shardHeader + shardTagBytes + layoutBytes]byte
	copy(hdr[:], shardMagic)
	binary.LittleEndian.PutUint32(hdr[4:], 1)
	binary.LittleEndian.PutUint32(hdr[8:], uint32(size))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(samples)))
	n := shardHeader
	if tag != nil {
		binary.LittleEndian.PutUint32(hdr[4:], shardVersion)
		if aux {
			binary.LittleEndian.PutUint32(hdr[4:], shardVersionAux)
		}
		if mixed {
			binary.LittleEndian.PutUint32(hdr[4:], shardVersionMixed)
		}
		if wide {
			binary.LittleEndian.PutUint32(hdr[4:], shardVersionWide)
		}
		binary.LittleEndian.PutUint32(hdr[16:], uint32(tag.gen))
		binary.LittleEndian.PutUint64(hdr[20:], tag.run)
		n += shardTagBytes
		if surprise {
			copy(hdr[n:], hdr[4:8]) // the layout: the version it would be
			binary.LittleEndian.PutUint32(hdr[4:], shardVersionSurprise)
			n += layoutBytes
		}
	}
	bw.Write(hdr[:n])
	for _, s := range samples {
		switch {
		case wide:
			var b [2]byte
			binary.LittleEndian.PutUint16(b[:], uint16(s.Shape()))
			bw.Write(b[:])
		case mixed:
			bw.WriteByte(s.Position.Size)
		}
		if s.IsWide() {
			writeWideSample(bw, s, surprise)
			continue
		}
		var b [sampleHeader]byte
		binary.LittleEndian.PutUint64(b[0:], s.Position.Black)
		binary.LittleEndian.PutUint64(b[8:], s.Position.White)
		b[16] = byte(s.Position.Turn)
		binary.LittleEndian.PutUint32(b[17:], math.Float32bits(s.Value))
		binary.LittleEndian.PutUint16(b[21:], uint16(len(s.Policy)))
		bw.Write(b[:])
		if aux {
			var a [sampleAux]byte
			binary.LittleEndian.PutUint16(a[0:], uint16(s.MovesLeft))
			binary.LittleEndian.PutUint64(a[2:], s.Final)
			bw.Write(a[:])
		}
		if surprise {
			writeSurprise(bw, s.SurpriseWeight)
		}
		writePolicy(bw, s.Policy)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], h.Sum32())
	_, err := w.Write(sum[:])
	return err
}

// writeWideSample writes a wide sample of a version 5 shard, or of a
// version 6 one with its surprise weight (after its final stones).
func writeWideSample(bw *bufio.Writer, s net.Sample, surprise bool) {
	var b [wideHeader + wideAux]byte
	for k := range 4 {
		binary.LittleEndian.PutUint64(b[8*k:], s.Wide.Black[k])
		binary.LittleEndian.PutUint64(b[32+8*k:], s.Wide.White[k])
	}
	b[64] = byte(s.Wide.Turn)
	binary.LittleEndian.PutUint32(b[65:], math.Float32bits(s.Value))
	binary.LittleEndian.PutUint16(b[69:], uint16(len(s.Policy)))
	binary.LittleEndian.PutUint16(b[71:], uint16(s.MovesLeft))
	for k := range 4 {
		binary.LittleEndian.PutUint64(b[73+8*k:], s.WideFinal[k])
	}
	bw.Write(b[:])
	if surprise {
		writeSurprise(bw, s.SurpriseWeight)
	}
	writePolicy(bw, s.Policy)
}

// writeSurprise writes a sample's surprise weight (version 6).
func writeSurprise(bw *bufio.Writer, surprise float32) {
	var b [surpriseBytes]byte
	binary.LittleEndian.PutUint32(b[:], math.Float32bits(surprise))
	bw.Write(b[:])
}

// readSurprise reads the surprise weight of sample i from the front of
// body (version 6), checked by checkSurprise.
func readSurprise(body []byte, i int) (float32, error) {
	if len(body) < surpriseBytes {
		return 0, fmt.Errorf("sample %d: the file ends inside it", i)
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(body))
	if err := checkSurprise(v, i); err != nil {
		return 0, err
	}
	return v, nil
}

// checkSurprise reports a surprise weight that no sample has
// (net.Sample.SurpriseWeight): neither 0 (unknown) nor in
// [net.MinSurpriseWeight, net.MaxSurpriseWeight].
func checkSurprise(v float32, i int) error {
	if v != 0 && !(v >= net.MinSurpriseWeight && v <= net.MaxSurpriseWeight) {
		return fmt.Errorf("sample %d: surprise weight %v: want 0 (unknown) or %g to %g", i, v, net.MinSurpriseWeight, net.MaxSurpriseWeight)
	}
	return nil
}

// writePolicy writes a sample's policy entries, each its action and its
// probability's bits.
func writePolicy(bw *bufio.Writer, policy []net.ActionProb) {
	for _, ap := range policy {
		var e [policyEntry]byte
		binary.LittleEndian.PutUint16(e[0:], uint16(ap.Action))
		binary.LittleEndian.PutUint32(e[2:], math.Float32bits(ap.Prob))
		bw.Write(e[:])
	}
}

// ReadShard loads a shard file written by WriteShard. The file is
// untrusted: besides its size, version and checksum, every count is
// checked against the bytes that are there before anything is allocated,
// and every sample must be a valid position with a value target in
// [-1, 1] and a policy target that is a probability distribution over
// distinct legal moves of that position.
func ReadShard(path string, size int) ([]net.Sample, error) {
	data, err := readShardFile(path)
	if err != nil {
		return nil, err
	}
	samples, _, err := decodeShard(data, size)
	if err != nil {
		return nil, fmt.Errorf("selfplay: replay shard %s: %w", path, err)
	}
	return samples, nil
}

// readShardFile reads the bytes of a shard file, refusing one too large
// before reading it.
func readShardFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	if fi.Size() > maxShardBytes {
		return nil, fmt.Errorf("selfplay: replay shard %s: %d bytes, more than the %d a shard may have", path, fi.Size(), maxShardBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxShardBytes+1))
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	return data, nil
}

// decodeShard reads the bytes of a shard (see ReadShard), and its tag
// (nil for version 1).
func decodeShard(data []byte, size int) (out []net.Sample, tag *shardTag, err error) {
	h, err := decodeShardHeader(data, size)
	if err != nil {
		return nil, nil, err
	}
	body := h.body
	out = make([]net.Sample, 0, h.n)
	for i := 0; i < int(h.n); i++ {
		var s net.Sample
		if h.wide {
			s, body, err = decodeWideSample(body, i, h.surprise)
		} else {
			s, body, err = decodeSample(body, i, size, h.aux, h.mixed, h.surprise)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
	}
	if len(body) != 0 {
		return nil, nil, errors.New("trailing bytes after the last sample")
	}
	// What the writer never writes (encodeShard) is refused, so that
	// every shard read is written back to the same bytes.
	if h.wide && !slices.ContainsFunc(out, net.Sample.IsWide) {
		return nil, nil, fmt.Errorf("format version %d without a sample of a board above %dx%d (version %d holds those)", shardVersionWide, rules.MaxSize, rules.MaxSize, shardVersionMixed)
	}
	if h.surprise && !slices.ContainsFunc(out, net.Sample.HasSurpriseWeight) {
		return nil, nil, fmt.Errorf("format version %d without a sample of known surprise weight (it is written in the version of its layout)", shardVersionSurprise)
	}
	if h.aux && !h.mixed && !h.surprise && !slices.ContainsFunc(out, net.Sample.HasAux) {
		return nil, nil, fmt.Errorf("format version %d without a sample of auxiliary targets (version %d holds those)", shardVersionAux, shardVersion)
	}
	return out, h.tag, nil
}

// shardHead is what a shard's header says: whether its samples carry the
// auxiliary targets (and their surprise weight), how many there are, its tag
// (nil for version 1) and the bytes of the samples.
type shardHead struct {
	aux, surprise bool
	// mixed: every sample says its board (version 4); wide: in two
	// bytes, and may be wide (version 5)
	mixed, wide bool
	n           uint64
	tag         *shardTag
	body        []byte
}

// decodeShardHeader checks a shard's magic, size, checksum, version and
// board size, and reads its header.
func decodeShardHeader(data []byte, size int) (shardHead, error) {
	var h shardHead
	if len(data) < shardHeader+4 || string(data[:4]) != shardMagic {
		return h, errors.New("not a replay shard (bad magic or too short)")
	}
	if len(data) > maxShardBytes {
		return h, fmt.Errorf("%d bytes, more than the %d a shard may have", len(data), maxShardBytes)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return h, errors.New("checksum mismatch (truncated or corrupted)")
	}
	version := binary.LittleEndian.Uint32(body[4:])
	if version < 1 || version > shardVersionSurprise {
		return h, fmt.Errorf("format version %d, want 1 to %d", version, shardVersionSurprise)
	}
	v := version // the layout of the samples
	if v == shardVersionSurprise {
		at := shardHeader + shardTagBytes
		if len(body) < at+layoutBytes {
			return h, errors.New("the file ends inside its header")
		}
		layout := binary.LittleEndian.Uint32(body[at:])
		if layout < shardVersionAux || layout > shardVersionWide {
			return h, fmt.Errorf("format version %d with samples of version %d, want %d to %d", v, layout, shardVersionAux, shardVersionWide)
		}
		h.surprise, v = true, layout
	}
	h.aux, h.mixed, h.wide = v >= shardVersionAux, v >= shardVersionMixed, v == shardVersionWide
	perSample := sampleHeader
	if h.aux {
		perSample += sampleAux
	}
	if h.mixed {
		perSample++
	}
	if h.wide {
		perSample++ // the smallest: a narrow sample with a two-byte board
	}
	if h.surprise {
		perSample += surpriseBytes
	}
	s := binary.LittleEndian.Uint32(body[8:])
	switch {
	case size == 0 && !h.mixed:
		return h, fmt.Errorf("holds the samples of one board (%s, format version %d): a multi-board run reads only its own shards, of version %d to %d", shapeName(int(s)), version, shardVersionMixed, shardVersionSurprise)
	case size != 0 && h.mixed:
		return h, fmt.Errorf("holds the samples of several boards (a multi-board run's), want %s ones", shapeName(size))
	case s != uint32(size) || h.mixed != (s == 0):
		return h, fmt.Errorf("board size %s, want %s", shapeName(int(s)), shapeName(size))
	case size != 0 && rules.NumActions(size) == 0:
		return h, fmt.Errorf("board size %d: no board of %d..%d files and ranks", size, rules.MinSize, rules.MaxSize)
	}
	h.n = uint64(binary.LittleEndian.Uint32(body[12:]))
	body = body[shardHeader:]
	if v >= shardVersion {
		if len(body) < shardTagBytes {
			return h, errors.New("the file ends inside its header")
		}
		h.tag = &shardTag{gen: int(binary.LittleEndian.Uint32(body[0:])), run: binary.LittleEndian.Uint64(body[4:])}
		body = body[shardTagBytes:]
	}
	if h.surprise {
		body = body[layoutBytes:] // read above
	}
	if most := uint64(len(body) / perSample); h.n > most {
		return h, fmt.Errorf("header claims %d samples, but its %d bytes hold at most %d", h.n, len(body), most)
	}
	h.body = body
	return h, nil
}

// decodeWideSample reads sample i of a version 5 shard (or of a version
// 6 one of that layout, with surprise) from the front of body (its
// two-byte board first), checked as decodeSample checks, and returns it
// with the bytes after it.
func decodeWideSample(body []byte, i int, surprise bool) (net.Sample, []byte, error) {
	if len(body) < 2 {
		return net.Sample{}, nil, fmt.Errorf("sample %d: the file ends inside it", i)
	}
	shape := int(binary.LittleEndian.Uint16(body))
	w, h := rules.ShapeDims(shape)
	switch {
	case w == 0:
		return net.Sample{}, nil, fmt.Errorf("sample %d: board %d is no board of %d..%d files and ranks", i, shape, rules.MinSide, rules.MaxSide)
	case shape < 256:
		return decodeSample(body[2:], i, shape, true, false, surprise)
	}
	body = body[2:]
	if len(body) < wideHeader+wideAux {
		return net.Sample{}, nil, fmt.Errorf("sample %d: the file ends inside it", i)
	}
	p := rules.WidePosition{W: uint8(w), H: uint8(h), Turn: rules.Color(body[64])}
	var final rules.WideBitboard
	for k := range 4 {
		p.Black[k] = binary.LittleEndian.Uint64(body[8*k:])
		p.White[k] = binary.LittleEndian.Uint64(body[32+8*k:])
		final[k] = binary.LittleEndian.Uint64(body[73+8*k:])
	}
	s := net.Sample{Wide: p, WideFinal: final, MovesLeft: int(binary.LittleEndian.Uint16(body[71:]))}
	if err := p.Validate(); err != nil {
		return s, nil, fmt.Errorf("sample %d: %w", i, err)
	}
	s.Value = math.Float32frombits(binary.LittleEndian.Uint32(body[65:]))
	if err := checkTargets(s, i); err != nil {
		return s, nil, err
	}
	k := int(binary.LittleEndian.Uint16(body[69:]))
	body = body[wideHeader+wideAux:]
	if surprise {
		var err error
		if s.SurpriseWeight, err = readSurprise(body, i); err != nil {
			return s, nil, err
		}
		body = body[surpriseBytes:]
	}
	if len(body) < policyEntry*k {
		return s, nil, fmt.Errorf("sample %d: the file ends inside its policy of %d entries", i, k)
	}
	legal := p.LegalMoves(nil)
	policy, err := decodePolicyOf(body[:policyEntry*k], i, legal, func(a int) rules.WideMove { return rules.WideActionMove(a, w, h) })
	if err != nil {
		return s, nil, err
	}
	s.Policy = policy
	return s, body[policyEntry*k:], nil
}

// checkTargets reports why the targets of sample i (its position valid)
// cannot be: a value outside [-1, 1], more moves left than a game on its
// board has, final stones off its board.
func checkTargets(s net.Sample, i int) error {
	if !(s.Value >= -1 && s.Value <= 1) {
		return fmt.Errorf("sample %d: value target %v outside [-1, 1]", i, s.Value)
	}
	if !s.MovesLeftOK() {
		return fmt.Errorf("sample %d: %d moves left, more than a game on its board has", i, s.MovesLeft)
	}
	if !s.FinalOnBoard() {
		return fmt.Errorf("sample %d: final stones off the board", i)
	}
	return nil
}

// decodeSample reads sample i from the front of body, checked against
// the rules, and returns it with the bytes after it; mixed: it starts with
// its board (size is then 0); surprise: its surprise weight follows its
// auxiliary targets (version 6).
func decodeSample(body []byte, i, size int, aux, mixed, surprise bool) (net.Sample, []byte, error) {
	perSample := sampleHeader
	if aux {
		perSample += sampleAux
	}
	if mixed {
		if len(body) < 1 {
			return net.Sample{}, nil, fmt.Errorf("sample %d: the file ends inside it", i)
		}
		if size = int(body[0]); rules.NumActions(size) == 0 {
			return net.Sample{}, nil, fmt.Errorf("sample %d: board size %d is no board of %d..%d files and ranks", i, size, rules.MinSize, rules.MaxSize)
		}
		body = body[1:]
	}
	if len(body) < perSample {
		return net.Sample{}, nil, fmt.Errorf("sample %d: the file ends inside it", i)
	}
	s := net.Sample{Position: rules.Position{
		Black: binary.LittleEndian.Uint64(body[0:]),
		White: binary.LittleEndian.Uint64(body[8:]),
		Size:  uint8(size),
		Turn:  rules.Color(body[16]),
	}}
	if body[16] > byte(rules.White) {
		return s, nil, fmt.Errorf("sample %d: side to move %d is neither black nor white", i, body[16])
	}
	if err := s.Position.Validate(); err != nil {
		return s, nil, fmt.Errorf("sample %d: %w", i, err)
	}
	s.Value = math.Float32frombits(binary.LittleEndian.Uint32(body[17:]))
	k := int(binary.LittleEndian.Uint16(body[21:]))
	body = body[sampleHeader:]
	if aux {
		s.MovesLeft = int(binary.LittleEndian.Uint16(body[0:]))
		s.Final = binary.LittleEndian.Uint64(body[2:])
		body = body[sampleAux:]
	}
	if err := checkTargets(s, i); err != nil {
		return s, nil, err
	}
	if surprise {
		var err error
		if s.SurpriseWeight, err = readSurprise(body, i); err != nil {
			return s, nil, err
		}
		body = body[surpriseBytes:]
	}
	if len(body) < policyEntry*k {
		return s, nil, fmt.Errorf("sample %d: the file ends inside its policy of %d entries", i, k)
	}
	policy, err := decodePolicy(body[:policyEntry*k], i, s.Position)
	if err != nil {
		return s, nil, err
	}
	s.Policy = policy
	return s, body[policyEntry*k:], nil
}

// decodePolicy reads the policy entries of sample i (data holds exactly
// its entries): each on a distinct legal move of p, with a probability in
// (0, 1], summing to 1; nil for none.
func decodePolicy(data []byte, i int, p rules.Position) ([]net.ActionProb, error) {
	var moves [rules.MaxMoves]rules.Move
	size := int(p.Size)
	return decodePolicyOf(data, i, p.LegalMoves(moves[:0]), func(a int) rules.Move { return rules.ActionMove(a, size) })
}

// decodePolicyOf is decodePolicy given the position's legal moves and
// the move of each action (a move that is not legal for an action out of
// range).
func decodePolicyOf[M interface {
	comparable
	String() string
}](data []byte, i int, legal []M, move func(int) M) ([]net.ActionProb, error) {
	k := len(data) / policyEntry
	if len(legal) == 0 {
		return nil, fmt.Errorf("sample %d: the position has no legal move", i)
	}
	if k > len(legal) {
		return nil, fmt.Errorf("sample %d: %d policy entries for %d legal moves", i, k, len(legal))
	}
	if k == 0 {
		return nil, nil
	}
	var seenBuf [rules.MaxMoves]bool
	var seen []bool
	if len(legal) <= len(seenBuf) {
		seen = seenBuf[:len(legal)]
	} else {
		seen = make([]bool, len(legal))
	}
	policy := make([]net.ActionProb, k)
	sum := 0.0
	for j := range policy {
		a := int(binary.LittleEndian.Uint16(data[policyEntry*j:]))
		pr := math.Float32frombits(binary.LittleEndian.Uint32(data[policyEntry*j+2:]))
		m := slices.Index(legal, move(a))
		switch {
		case m < 0:
			return nil, fmt.Errorf("sample %d: policy on action %d, not a legal move of the position", i, a)
		case seen[m]:
			return nil, fmt.Errorf("sample %d: policy on %v twice", i, legal[m])
		case !(pr > 0 && pr <= 1):
			return nil, fmt.Errorf("sample %d: policy probability %v of %v outside (0, 1]", i, pr, legal[m])
		}
		seen[m] = true
		sum += float64(pr)
		policy[j] = net.ActionProb{Action: int32(a), Prob: pr}
	}
	if math.Abs(sum-1) > 1e-3 {
		return nil, fmt.Errorf("sample %d: policy probabilities sum to %v, want 1", i, sum)
	}
	return policy, nil
}

// shapeName writes a shard's board size for people: N for N×N (as shards
// have always said), "7x6" for a rectangle, "0 (several boards)", or the
// number when it is no board.
func shapeName(shape int) string {
	if shape == 0 {
		return "0 (several boards)"
	}
	if w, h := rules.ShapeDims(shape); w > 0 && w != h {
		return fmt.Sprintf("%dx%d", w, h)
	}
	return fmt.Sprint(shape)
}
