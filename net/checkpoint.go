package net

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Checkpoint is everything a trainer needs to resume training exactly:
// the weights, the momentum of every parameter, the step count, the
// options (schedule included), the state of the augmentation generator
// and the metadata of the model trained from. Its file is a safetensors
// file like a model's (net owns both formats; package net/train, the
// trainer).
type Checkpoint struct {
	Config  Config
	Base    Metadata // of the model trained from
	Step    int64    // steps taken since the start of the run
	Options TrainOptions
	// RNG is the augmentation generator's state (rand.PCG.MarshalBinary).
	RNG []byte
	// Weights and Momentum hold a tensor per Config.Params entry.
	Weights, Momentum map[string][]float32
}

// Write writes the checkpoint file of c to w.
func (c *Checkpoint) Write(w io.Writer) error {
	meta := configMeta(c.Config)
	putMeta(meta, c.Base)
	meta["format"] = checkpointFormat
	meta["train_step"] = strconv.FormatInt(c.Step, 10)
	opts, err := json.Marshal(c.Options)
	if err != nil {
		return err
	}
	meta["train_options"] = string(opts)
	meta["train_rng"] = hex.EncodeToString(c.RNG)
	var ts []stTensor
	for _, s := range c.Config.Params() {
		ts = append(ts,
			stTensor{name: "weight." + s.Name, shape: s.Shape, data: c.Weights[s.Name]},
			stTensor{name: "momentum." + s.Name, shape: s.Shape, data: c.Momentum[s.Name]})
	}
	return writeSafetensors(w, meta, ts)
}

// LoadCheckpoint reads and checks the checkpoint file at path.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	data, err := readFileMax(path)
	if err != nil {
		return nil, fmt.Errorf("net: loading checkpoint: %w", err)
	}
	return DecodeCheckpoint(data, path)
}

// DecodeCheckpoint checks and decodes the bytes of a checkpoint file,
// which its errors call name: every length, offset and checksum as for
// a model, the options, the generator's state, and a weight and a
// momentum of the right shape for every learnt tensor of the network.
func DecodeCheckpoint(data []byte, name string) (*Checkpoint, error) {
	c, err := decodeCheckpoint(data)
	if err != nil {
		return nil, fmt.Errorf("net: checkpoint %s: %w", name, err)
	}
	return c, nil
}

func decodeCheckpoint(data []byte) (*Checkpoint, error) {
	meta, tensors, err := readSafetensors(data)
	if err != nil {
		return nil, err
	}
	if f := meta["format"]; f != checkpointFormat {
		return nil, fmt.Errorf("%w: format %q, want %q", ErrFormat, f, checkpointFormat)
	}
	cfg, base, err := parseMeta(meta)
	if err != nil {
		return nil, err
	}
	step, err := strconv.ParseInt(meta["train_step"], 10, 64)
	if err != nil || step < 0 {
		return nil, fmt.Errorf("%w: train_step %q is not a step count", ErrFormat, meta["train_step"])
	}
	var opts TrainOptions
	if err := json.Unmarshal([]byte(meta["train_options"]), &opts); err != nil {
		return nil, fmt.Errorf("%w: train_options: %v", ErrFormat, err)
	}
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("%w: train_options: %v", ErrFormat, err)
	}
	rng, err := hex.DecodeString(meta["train_rng"])
	if err != nil {
		return nil, fmt.Errorf("%w: train_rng is not hexadecimal", ErrFormat)
	}
	weights, err := weightsFrom(cfg, tensors, "weight.")
	if err != nil {
		return nil, err
	}
	momentum, err := weightsFrom(cfg, tensors, "momentum.")
	if err != nil {
		return nil, err
	}
	if len(tensors) != len(weights)+len(momentum) {
		return nil, fmt.Errorf("%w: %d tensors, want %d", ErrFormat, len(tensors), len(weights)+len(momentum))
	}
	return &Checkpoint{Config: cfg, Base: base, Step: step, Options: opts, RNG: rng, Weights: weights, Momentum: momentum}, nil
}

// MismatchError is the error of a trainer given a checkpoint of another
// network than its own (its errors.Is ErrFormat): the caller knows which
// of the two its user changed.
type MismatchError struct {
	Checkpoint, Trainer Config
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%v: the checkpoint is of a %s %s network, the trainer's is %s %s", ErrFormat,
		e.Checkpoint.BoardName(), e.Checkpoint.Arch(), e.Trainer.BoardName(), e.Trainer.Arch())
}

func (e *MismatchError) Unwrap() error { return ErrFormat }
