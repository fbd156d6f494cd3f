package net

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/konanezero/konane/internal/atomicfile"
)

// SaveCheckpoint writes everything needed to resume training exactly:
// the weights, the momentum of every parameter, the step count, the
// options (schedule included), the state of the augmentation generator
// and the metadata of the model trained from. The file is a safetensors
// file like a model's, written atomically.
func (t *Trainer) SaveCheckpoint(path string) error {
	err := atomicfile.Write(path, 0o644, t.writeCheckpoint)
	if err != nil {
		return fmt.Errorf("net: saving checkpoint: %w", err)
	}
	return nil
}

// MarshalCheckpoint returns the bytes SaveCheckpoint writes.
func (t *Trainer) MarshalCheckpoint() ([]byte, error) {
	var b bytes.Buffer
	if err := t.writeCheckpoint(&b); err != nil {
		return nil, fmt.Errorf("net: saving checkpoint: %w", err)
	}
	return b.Bytes(), nil
}

func (t *Trainer) writeCheckpoint(w io.Writer) error {
	meta := configMeta(t.cfg)
	putMeta(meta, t.base)
	meta["format"] = checkpointFormat
	meta["train_step"] = strconv.FormatInt(t.step, 10)
	opts, err := json.Marshal(t.opts)
	if err != nil {
		return err
	}
	meta["train_options"] = string(opts)
	rng, err := t.pcg.MarshalBinary()
	if err != nil {
		return err
	}
	meta["train_rng"] = hex.EncodeToString(rng)
	var ts []stTensor
	for i, s := range t.cfg.params() {
		ts = append(ts,
			stTensor{name: "weight." + s.name, shape: s.shape, data: t.weights[s.name]},
			stTensor{name: "momentum." + s.name, shape: s.shape, data: t.momentum[i]})
	}
	return writeSafetensors(w, meta, ts)
}

// LoadCheckpoint restores a checkpoint written by SaveCheckpoint into t,
// whose architecture and batch size must be those of the checkpoint; the
// checkpoint's other options replace t's. Training then continues exactly
// as if it had never stopped. On error t is unchanged.
func (t *Trainer) LoadCheckpoint(path string) error {
	data, err := readFileMax(path)
	if err != nil {
		return fmt.Errorf("net: loading checkpoint: %w", err)
	}
	if err := t.restore(data); err != nil {
		return fmt.Errorf("net: checkpoint %s: %w", path, err)
	}
	return nil
}

// RestoreCheckpoint is LoadCheckpoint from the bytes of a checkpoint
// file, which its errors call name.
func (t *Trainer) RestoreCheckpoint(data []byte, name string) error {
	if err := t.restore(data); err != nil {
		return fmt.Errorf("net: checkpoint %s: %w", name, err)
	}
	return nil
}

func (t *Trainer) restore(data []byte) error {
	meta, tensors, err := readSafetensors(data)
	if err != nil {
		return err
	}
	if f := meta["format"]; f != checkpointFormat {
		return fmt.Errorf("%w: format %q, want %q", ErrFormat, f, checkpointFormat)
	}
	cfg, base, err := parseMeta(meta)
	if err != nil {
		return err
	}
	if cfg != t.cfg {
		return &MismatchError{Checkpoint: cfg, Trainer: t.cfg}
	}
	step, err := strconv.ParseInt(meta["train_step"], 10, 64)
	if err != nil || step < 0 {
		return fmt.Errorf("%w: train_step %q is not a step count", ErrFormat, meta["train_step"])
	}
	var opts TrainOptions
	if err := json.Unmarshal([]byte(meta["train_options"]), &opts); err != nil {
		return fmt.Errorf("%w: train_options: %v", ErrFormat, err)
	}
	if err := opts.Validate(); err != nil {
		return fmt.Errorf("%w: train_options: %v", ErrFormat, err)
	}
	if opts.Batch != t.opts.Batch {
		return fmt.Errorf("%w: the checkpoint trains batches of %d, the trainer %d", ErrFormat, opts.Batch, t.opts.Batch)
	}
	rngState, err := hex.DecodeString(meta["train_rng"])
	if err != nil {
		return fmt.Errorf("%w: train_rng is not hexadecimal", ErrFormat)
	}
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(rngState); err != nil {
		return fmt.Errorf("%w: train_rng: %v", ErrFormat, err)
	}
	weights, err := weightsFrom(cfg, tensors, "weight.")
	if err != nil {
		return err
	}
	momentum, err := weightsFrom(cfg, tensors, "momentum.")
	if err != nil {
		return err
	}
	if len(tensors) != len(weights)+len(momentum) {
		return fmt.Errorf("%w: %d tensors, want %d", ErrFormat, len(tensors), len(weights)+len(momentum))
	}
	// Everything is checked: apply.
	for i, s := range t.cfg.params() {
		copy(t.weights[s.name], weights[s.name]) // every graph's: they share them
		copy(t.momentum[i], momentum[s.name])
	}
	for _, gr := range t.graphs {
		for _, p := range gr.params {
			if gv, err := p.Grad(); err == nil && gv != nil {
				clear(gv.Data().([]float32))
			}
		}
	}
	t.step, t.opts, t.base = step, opts, base
	t.pcg = pcg
	t.rng = rand.New(pcg)
	return nil
}

// MismatchError is the error of LoadCheckpoint when the checkpoint holds
// another network than the trainer's (its errors.Is ErrFormat): the
// caller knows which of the two its user changed.
type MismatchError struct {
	Checkpoint, Trainer Config
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%v: the checkpoint is of a %s %s network, the trainer's is %s %s", ErrFormat,
		e.Checkpoint.BoardName(), e.Checkpoint.Arch(), e.Trainer.BoardName(), e.Trainer.Arch())
}

func (e *MismatchError) Unwrap() error { return ErrFormat }
