package net

import "fmt"

// TrainOptions configures a trainer (package net/train): stochastic
// gradient descent with momentum, L2 weight decay and a step schedule of
// the learning rate. They live in net, beside the checkpoint that saves
// them, so that a run's config reads without the trainer.
type TrainOptions struct {
	Batch       int     // samples per step; every Step gets exactly this many
	LR          float64 // learning rate after the warm-up
	Momentum    float64 // heavy-ball momentum, 0..1
	WeightDecay float64 // c of the loss term c·Σw² over the weights (not the biases)
	// The learning rate rises linearly from LR/WarmupSteps to LR over the
	// first WarmupSteps steps, then is multiplied by DecayFactor at each
	// step listed in DecaySteps (in increasing order).
	WarmupSteps int64
	DecaySteps  []int64
	DecayFactor float64
	// Augment applies a random symmetry of the board to each sample, drawn
	// from a generator seeded with Seed.
	Augment bool
	Seed    uint64
	// SoftPolicyWeight is the weight of the soft policy head's loss
	// (Config.SoftPolicy) beside the policy's, which counts 1. 0 stands
	// for DefaultSoftPolicyWeight, so options saved before the field
	// existed, and runs that never set it, train and save as they did.
	SoftPolicyWeight float64 `json:",omitempty"`
}

// DefaultSoftPolicyWeight is KataGo's weight of the soft policy loss
// (-soft-policy-weight-scale 8 in its training scripts): once the head
// has learnt the soft target, its loss is small and nearly flat, and 8
// gives it a gradient comparable to the policy's.
const DefaultSoftPolicyWeight = 8

// SoftPolicyScale returns the weight of the soft policy loss in force:
// SoftPolicyWeight, or DefaultSoftPolicyWeight when it is 0.
func (o TrainOptions) SoftPolicyScale() float64 {
	if o.SoftPolicyWeight == 0 {
		return DefaultSoftPolicyWeight
	}
	return o.SoftPolicyWeight
}

// DefaultTrainOptions returns the options used by self-play training.
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{Batch: 64, LR: 0.02, Momentum: 0.9, WeightDecay: 1e-4, WarmupSteps: 50, DecayFactor: 0.1, Augment: true}
}

// Validate reports the first option out of range.
func (o TrainOptions) Validate() error {
	switch {
	case o.Batch < 1 || o.Batch > 4096:
		return fmt.Errorf("net: batch %d outside 1..4096", o.Batch)
	case !(o.LR > 0 && o.LR < 10):
		return fmt.Errorf("net: learning rate %v outside (0, 10)", o.LR)
	case !(o.Momentum >= 0 && o.Momentum < 1):
		return fmt.Errorf("net: momentum %v outside [0, 1)", o.Momentum)
	case !(o.WeightDecay >= 0 && o.WeightDecay < 1):
		return fmt.Errorf("net: weight decay %v outside [0, 1)", o.WeightDecay)
	case o.WarmupSteps < 0:
		return fmt.Errorf("net: negative warm-up %d", o.WarmupSteps)
	case !(o.SoftPolicyWeight >= 0 && o.SoftPolicyWeight <= 100):
		return fmt.Errorf("net: soft policy weight %v outside 0..100", o.SoftPolicyWeight)
	case len(o.DecaySteps) > 0 && !(o.DecayFactor > 0 && o.DecayFactor <= 1):
		return fmt.Errorf("net: decay factor %v outside (0, 1]", o.DecayFactor)
	}
	for i, s := range o.DecaySteps {
		if s < 0 || i > 0 && s <= o.DecaySteps[i-1] {
			return fmt.Errorf("net: decay steps %v are not increasing and non-negative", o.DecaySteps)
		}
	}
	return nil
}

// LRAt returns the learning rate of step (counted from 0).
func (o TrainOptions) LRAt(step int64) float64 {
	lr := o.LR
	if step < o.WarmupSteps {
		lr *= float64(step+1) / float64(o.WarmupSteps)
	}
	for _, s := range o.DecaySteps {
		if step >= s {
			lr *= o.DecayFactor
		}
	}
	return lr
}

// Losses are the terms of the loss of one training step, averaged over
// the batch and measured before the step's update.
type Losses struct {
	Policy float64 // cross-entropy of the masked policy against the target
	Value  float64 // squared error of the value
	L2     float64 // WeightDecay · Σw²
	// The auxiliary heads' terms (Config.Aux), weighted as in the loss;
	// 0 for a head the network does not have.
	Ownership, MovesLeft float64
	// SoftPolicy is the soft policy head's term (Config.SoftPolicy),
	// weighted as in the loss (8 times its cross-entropy); 0 without the
	// head. SoftPolicyKL is what the head has left to learn, unweighted:
	// its cross-entropy minus the soft targets' entropy, the mean over
	// the rows with a policy target of KL(soft target ‖ the head's
	// softmax), 0 once the head predicts its targets exactly.
	SoftPolicy   float64
	SoftPolicyKL float64
	Total        float64 // Policy + Value + L2 + Ownership + MovesLeft + SoftPolicy
	LR           float64 // learning rate used by the step
}
