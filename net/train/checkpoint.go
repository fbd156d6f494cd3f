package train

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/konanezero/konane/internal/atomicfile"
	"github.com/konanezero/konane/net"
)

// SaveCheckpoint writes everything needed to resume training exactly
// (net.Checkpoint) to path, atomically.
func (t *Trainer) SaveCheckpoint(path string) error {
	c, err := t.checkpoint()
	if err == nil {
		err = atomicfile.Write(path, 0o644, c.Write)
	}
	if err != nil {
		return fmt.Errorf("train: saving checkpoint: %w", err)
	}
	return nil
}

// MarshalCheckpoint returns the bytes SaveCheckpoint writes.
func (t *Trainer) MarshalCheckpoint() ([]byte, error) {
	var b bytes.Buffer
	c, err := t.checkpoint()
	if err == nil {
		err = c.Write(&b)
	}
	if err != nil {
		return nil, fmt.Errorf("train: saving checkpoint: %w", err)
	}
	return b.Bytes(), nil
}

// checkpoint returns t's state; its tensors are t's own slices.
func (t *Trainer) checkpoint() (*net.Checkpoint, error) {
	rng, err := t.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := &net.Checkpoint{Config: t.cfg, Base: t.base, Step: t.step, Options: t.opts, RNG: rng,
		Weights: t.weights, Momentum: make(map[string][]float32)}
	for i, p := range t.cfg.Params() {
		c.Momentum[p.Name] = t.momentum[i]
	}
	return c, nil
}

// LoadCheckpoint restores the checkpoint file at path, written by
// SaveCheckpoint, into t, whose architecture and batch size must be
// those of the checkpoint (else a *net.MismatchError, or an error
// wrapping net.ErrFormat); the checkpoint's other options replace t's.
// Training then continues exactly as if it had never stopped. On error t
// is unchanged.
func (t *Trainer) LoadCheckpoint(path string) error {
	c, err := net.LoadCheckpoint(path)
	if err != nil {
		return err
	}
	if err := t.restore(c); err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", path, err)
	}
	return nil
}

// RestoreCheckpoint is LoadCheckpoint from the bytes of a checkpoint
// file, which its errors call name.
func (t *Trainer) RestoreCheckpoint(data []byte, name string) error {
	c, err := net.DecodeCheckpoint(data, name)
	if err != nil {
		return err
	}
	if err := t.restore(c); err != nil {
		return fmt.Errorf("train: checkpoint %s: %w", name, err)
	}
	return nil
}

func (t *Trainer) restore(c *net.Checkpoint) error {
	if c.Config != t.cfg {
		return &net.MismatchError{Checkpoint: c.Config, Trainer: t.cfg}
	}
	if c.Options.Batch != t.opts.Batch {
		return fmt.Errorf("%w: the checkpoint trains batches of %d, the trainer %d", net.ErrFormat, c.Options.Batch, t.opts.Batch)
	}
	if t.cfg.SoftPolicy && c.Options.SoftPolicyScale() != t.opts.SoftPolicyScale() {
		// The graphs are built with the trainer's weight.
		return fmt.Errorf("%w: the checkpoint weighs the soft policy loss %v, the trainer %v", net.ErrFormat, c.Options.SoftPolicyScale(), t.opts.SoftPolicyScale())
	}
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(c.RNG); err != nil {
		return fmt.Errorf("%w: train_rng: %v", net.ErrFormat, err)
	}
	// Everything is checked: apply.
	for i, p := range t.cfg.Params() {
		copy(t.weights[p.Name], c.Weights[p.Name]) // every graph's: they share them
		copy(t.momentum[i], c.Momentum[p.Name])
	}
	for _, gr := range t.graphs {
		for _, p := range gr.params {
			if gv, err := p.Grad(); err == nil && gv != nil {
				clear(gv.Data().([]float32))
			}
		}
	}
	t.step, t.opts, t.base = c.Step, c.Options, c.Base
	t.pcg = pcg
	t.rng = rand.New(pcg)
	return nil
}
