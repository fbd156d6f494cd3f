package net

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/mcts"
	"github.com/konanezero/konane/rules"
)

// The "format" metadata value of each kind of file.
const (
	modelFormat      = "konane-zero-model"
	checkpointFormat = "konane-zero-checkpoint"
)

// Save writes the model to path atomically, as a safetensors file with the
// metadata (see Metadata) and a checksum.
func (m *Model) Save(path string) error {
	if err := atomicfile.Write(path, 0o644, m.write); err != nil {
		return fmt.Errorf("net: saving model: %w", err)
	}
	return nil
}

// MarshalBinary returns the bytes Save writes.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if err := m.write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (m *Model) write(w io.Writer) error {
	meta := configMeta(m.cfg)
	putMeta(meta, m.meta)
	meta["format"] = modelFormat
	return writeSafetensors(w, meta, m.tensors(""))
}

// tensors lists the weights in parameter order, names prefixed.
func (m *Model) tensors(prefix string) []stTensor {
	var ts []stTensor
	for _, p := range m.cfg.Params() {
		ts = append(ts, stTensor{name: prefix + p.Name, shape: p.Shape, data: m.weights[p.Name]})
	}
	return ts
}

// Load reads a model file written by Save and checks everything: the
// container, the checksum, the versions, the architecture and the shape of
// every tensor, and that every weight is a finite number. Its errors wrap
// ErrFormat, ErrVersion, ErrCorrupt or ErrNotFinite.
//
// A file larger than MaxFile (or an endless one such as /dev/zero) is
// refused, wrapping ErrFormat, after reading at most MaxFile+1 bytes.
func Load(path string) (*Model, error) {
	data, err := readFileMax(path)
	if err != nil {
		return nil, fmt.Errorf("net: loading model: %w", err)
	}
	m, err := decode(data)
	if err == nil {
		err = m.Check()
	}
	if err != nil {
		return nil, fmt.Errorf("net: model %s: %w", path, err)
	}
	return m, nil
}

// MaxFile is the size in bytes of the largest model or checkpoint file
// that Load and LoadCheckpoint read, many times the largest network.
const MaxFile = 1 << 30

// maxFile is MaxFile, lowered by tests.
var maxFile int64 = MaxFile

// readFileMax is os.ReadFile for files of at most MaxFile bytes; a larger
// one gives an error wrapping ErrFormat.
func readFileMax(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxFile {
		return nil, fmt.Errorf("%s: %w: larger than %d MiB", path, ErrFormat, maxFile>>20)
	}
	return data, nil
}

// Check runs m on probe positions of its board (the start, the first
// moves and jumping positions of a fixed random game, whose input planes
// differ) and fails, wrapping ErrNotFinite, when a value is not a finite
// number in [-1, 1] or a prior is not a finite number: finite weights
// can still overflow (a model whose weights are all 3e38 loaded, then
// failed every move), also on planes that are empty at the start. Load
// checks every model it reads.
func (m *Model) Check() error {
	if m.Shape() != 0 {
		return m.check(m.Shape())
	}
	// A multi-board network given no board: every board it was trained
	// on, or 8x8.
	boards := m.Boards()
	if len(boards) == 0 {
		boards = []rules.Board{rules.SquareBoard(rules.MaxSize)}
	}
	for _, b := range boards {
		if err := m.check(rules.ShapeCode(b.W, b.H)); err != nil {
			return fmt.Errorf("on %s: %w", b, err)
		}
	}
	return nil
}

// check is Check on the board of the shape code.
func (m *Model) check(shape int) error {
	probes, names := checkPositions(shape)
	mb := *m
	mb.shape = shape
	e, err := NewEvaluator(&mb, EvalOptions{Batch: len(probes)})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	var preds []mcts.Prediction
	if w, h := rules.ShapeDims(shape); w > rules.MaxSize || h > rules.MaxSize {
		preds, err = e.EvaluateWide(ctx, probes)
	} else {
		narrow := make([]rules.Position, len(probes))
		for i, p := range probes {
			narrow[i], _ = p.Narrow() // a board Position holds
		}
		preds, err = e.Evaluate(ctx, narrow)
	}
	cancel()
	if rerr := <-done; err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	for k, pred := range preds {
		if v := pred.Value; !(v >= -1 && v <= 1) {
			return fmt.Errorf("%w: on the %s the network's value is %v, want a number in [-1, 1]", ErrNotFinite, names[k], v)
		}
		for i, p := range pred.Policy {
			if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) {
				return fmt.Errorf("%w: on the %s the network's prior of move %d is %v", ErrNotFinite, names[k], i+1, p)
			}
		}
	}
	return nil
}

// checkPositions returns the positions Check probes on the board of the
// shape code and their names: the start (the removal start) and the
// positions after each of the first ten moves of a random game from a
// fixed seed (two removals, then jumps, which fill the capture planes).
// (On a board Position holds, WidePlayout plays the moves Playout did
// before wide boards.)
func checkPositions(shape int) ([]rules.WidePosition, []string) {
	w, h := rules.ShapeDims(shape)
	start, err := rules.Board{W: w, H: h, Start: rules.Removal}.WidePosition()
	if err != nil {
		panic(err) // every board of a shape code has the removal start
	}
	ps, _ := rules.WidePlayout(rand.New(rand.NewPCG(47, 1)), start, 10)
	names := make([]string, len(ps))
	for i := range ps {
		names[i] = fmt.Sprintf("position after %d moves of a test game", i)
	}
	names[0] = "start position"
	return ps, names
}

// LoadForSize is Load for a network of the given board size: a
// single-board model of another size gives an error wrapping ErrSize; a
// multi-board model is returned for the size×size board (ForBoard),
// whether or not it was trained there (BoardNote says).
func LoadForSize(path string, size int) (*Model, error) {
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	if m.cfg.MultiBoard() {
		return m.forBoardAt(path, rules.SquareBoard(size))
	}
	if m.cfg.Size != size {
		return nil, fmt.Errorf("net: model %s: %w: it plays %dx%d, not %dx%d", path, ErrSize, m.cfg.Size, m.cfg.Size, size, size)
	}
	return m, nil
}

// LoadForBoard is Load for board b: the model ForBoard(b) returns. A
// single-board model plays its own board and the smaller ones its policy
// planes cover (untrained there, as BoardNote says); another board gives
// an error wrapping ErrSize.
func LoadForBoard(path string, b rules.Board) (*Model, error) {
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	return m.forBoardAt(path, b)
}

// forBoardAt is ForBoard with its error naming the file.
func (m *Model) forBoardAt(path string, b rules.Board) (*Model, error) {
	mb, err := m.forBoard(b)
	if err != nil {
		return nil, fmt.Errorf("net: model %s: %w", path, err)
	}
	return mb, mb.check(mb.Shape())
}

// Decode reads a model from the bytes of a model file (for example one
// embedded with go:embed), with the checks of Load.
func Decode(data []byte) (*Model, error) {
	m, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("net: model: %w", err)
	}
	return m, nil
}

// decode is Decode with errors not yet prefixed.
func decode(data []byte) (*Model, error) {
	meta, tensors, err := readSafetensors(data)
	if err != nil {
		return nil, err
	}
	if f := meta["format"]; f != modelFormat {
		return nil, fmt.Errorf("%w: format %q, want %q", ErrFormat, f, modelFormat)
	}
	cfg, md, err := parseMeta(meta)
	if err != nil {
		return nil, err
	}
	w, err := weightsFrom(cfg, tensors, "")
	if err != nil {
		return nil, err
	}
	if len(tensors) != len(w) {
		return nil, fmt.Errorf("%w: %d tensors, the %s architecture has %d", ErrFormat, len(tensors), cfg.Arch(), len(w))
	}
	return &Model{cfg: cfg, meta: md, weights: w}, nil
}

// weightsFrom takes the tensors of cfg's parameters (names prefixed) and
// checks their shapes.
func weightsFrom(cfg Config, tensors map[string]stTensor, prefix string) (map[string][]float32, error) {
	w := make(map[string][]float32)
	for _, p := range cfg.Params() {
		t, ok := tensors[prefix+p.Name]
		if !ok {
			return nil, fmt.Errorf("%w: tensor %s of the %s architecture is missing", ErrFormat, prefix+p.Name, cfg.Arch())
		}
		if !equalShape(t.shape, p.Shape) {
			return nil, fmt.Errorf("%w: tensor %s has shape %v, want %v", ErrFormat, t.name, t.shape, p.Shape)
		}
		if err := checkFinite(t); err != nil {
			return nil, err
		}
		w[p.Name] = t.data
	}
	return w, nil
}

// checkFinite fails, wrapping ErrNotFinite, when t holds NaN or ±Inf.
func checkFinite(t stTensor) error {
	bad, first := 0, -1
	for i, v := range t.data {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			if bad++; first < 0 {
				first = i
			}
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("%w: tensor %s holds %v at index %d (%d of its %d values are not finite)", ErrNotFinite, t.name, t.data[first], first, bad, len(t.data))
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// configMeta writes cfg as metadata strings.
func configMeta(cfg Config) map[string]string {
	meta := map[string]string{
		"size":         strconv.Itoa(cfg.Size),
		"filters":      strconv.Itoa(cfg.Filters),
		"blocks":       strconv.Itoa(cfg.Blocks),
		"value_hidden": strconv.Itoa(cfg.ValueHidden),
		"global_pool":  strconv.FormatBool(cfg.GlobalPool),
		// The encoding is part of the architecture (Config.Captures).
		"encoding_version": strconv.Itoa(int(cfg.Encoding())),
	}
	// Only a model with auxiliary heads says so: files without them stay
	// as they were. So for the hop planes of a multi-board network and
	// for the soft policy head.
	if cfg.Aux != 0 {
		meta["aux_heads"] = cfg.Aux.String()
	}
	if cfg.Hops != 0 {
		meta["hops"] = strconv.Itoa(cfg.Hops)
	}
	if cfg.SoftPolicy {
		meta["soft_policy"] = "true"
	}
	return meta
}

// putMeta writes md as metadata strings; the format version is this
// build's, and the architecture that of the weights.
func putMeta(meta map[string]string, md Metadata) {
	meta["format_version"] = strconv.Itoa(FormatVersion)
	meta["arch"] = md.Arch
	meta["generation"] = strconv.Itoa(md.Generation)
	meta["steps"] = strconv.FormatInt(md.Steps, 10)
	meta["parent"] = md.Parent
	meta["seed"] = strconv.FormatUint(md.Seed, 10)
	meta["created"] = md.Created.UTC().Format(time.RFC3339Nano)
	if len(md.Boards) > 0 { // a multi-board network's; none in older files
		meta["boards"] = BoardList(md.Boards)
	}
}

// parseMeta reads and validates the configuration and metadata.
func parseMeta(meta map[string]string) (Config, Metadata, error) {
	var cfg Config
	var md Metadata
	var err error
	num := func(key string) int {
		if err != nil {
			return 0
		}
		v, e := strconv.Atoi(meta[key])
		if e != nil {
			err = fmt.Errorf("%w: metadata %s = %q is not a number", ErrFormat, key, meta[key])
		}
		return v
	}
	md.FormatVersion = num("format_version")
	if err == nil && md.FormatVersion != FormatVersion {
		return cfg, md, fmt.Errorf("%w: file format version %d, this build reads %d", ErrVersion, md.FormatVersion, FormatVersion)
	}
	md.EncodingVersion = num("encoding_version")
	if err == nil && !Encoding(md.EncodingVersion).known() {
		return cfg, md, fmt.Errorf("%w: input encoding version %d, this build encodes %d or %d", ErrVersion, md.EncodingVersion, EncodingOrigins, EncodingCaptures)
	}
	cfg.Captures = Encoding(md.EncodingVersion) == EncodingCaptures
	cfg.Size = num("size")
	cfg.Filters = num("filters")
	cfg.Blocks = num("blocks")
	cfg.ValueHidden = num("value_hidden")
	md.Generation = num("generation")
	if err != nil {
		return cfg, md, err
	}
	if md.Generation < 0 {
		return cfg, md, fmt.Errorf("%w: metadata generation %d is negative", ErrFormat, md.Generation)
	}
	if cfg.GlobalPool, err = strconv.ParseBool(meta["global_pool"]); err != nil {
		return cfg, md, fmt.Errorf("%w: metadata global_pool = %q is not a boolean", ErrFormat, meta["global_pool"])
	}
	if s, ok := meta["aux_heads"]; ok { // absent: none (files written before them)
		if cfg.Aux, err = ParseAuxHeads(s); err != nil || cfg.Aux == 0 {
			return cfg, md, fmt.Errorf("%w: metadata aux_heads = %q is not a list of auxiliary heads", ErrFormat, s)
		}
	}
	if s, ok := meta["hops"]; ok { // absent: a single-board network
		if cfg.Hops, err = strconv.Atoi(s); err != nil || cfg.Hops == 0 {
			return cfg, md, fmt.Errorf("%w: metadata hops = %q is not a hop count", ErrFormat, s)
		}
	}
	if s, ok := meta["soft_policy"]; ok { // absent: none (files written before it)
		if s != "true" {
			return cfg, md, fmt.Errorf("%w: metadata soft_policy = %q, want true or no such key", ErrFormat, s)
		}
		cfg.SoftPolicy = true
	}
	if e := cfg.Validate(); e != nil {
		return cfg, md, fmt.Errorf("%w: %v", ErrFormat, e)
	}
	if s, ok := meta["boards"]; ok {
		if !cfg.MultiBoard() {
			return cfg, md, fmt.Errorf("%w: metadata boards = %q in a single-board %dx%d network", ErrFormat, s, cfg.Size, cfg.Size)
		}
		bs, e := ParseBoardList(s)
		if e != nil {
			return cfg, md, fmt.Errorf("%w: metadata boards: %v", ErrFormat, e)
		}
		for _, b := range bs {
			if !cfg.Plays(rules.ShapeCode(b.W, b.H)) {
				return cfg, md, fmt.Errorf("%w: metadata boards: the network cannot play %s", ErrFormat, b)
			}
		}
		md.Boards = bs
	}
	md.Size, md.Arch, md.Parent = cfg.Size, meta["arch"], meta["parent"]
	if md.Arch != cfg.Arch() {
		return cfg, md, fmt.Errorf("%w: metadata arch %q does not match the configuration %s", ErrFormat, md.Arch, cfg.Arch())
	}
	if md.Steps, err = strconv.ParseInt(meta["steps"], 10, 64); err != nil || md.Steps < 0 {
		return cfg, md, fmt.Errorf("%w: metadata steps = %q is not a step count", ErrFormat, meta["steps"])
	}
	if md.Seed, err = strconv.ParseUint(meta["seed"], 10, 64); err != nil {
		return cfg, md, fmt.Errorf("%w: metadata seed = %q is not a number", ErrFormat, meta["seed"])
	}
	if md.Created, err = time.Parse(time.RFC3339Nano, meta["created"]); err != nil {
		return cfg, md, fmt.Errorf("%w: metadata created = %q is not a time", ErrFormat, meta["created"])
	}
	return cfg, md, nil
}
