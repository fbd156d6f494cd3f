//go:build !trainer

package main

import (
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/selfplay"
)

// newTrainer is nil in a player's konane, built without -tags trainer: it
// links no gradients (no Gorgonia), and its train command runs
// konane-train instead (see trainexec.go).
var newTrainer func(*net.Model, net.TrainOptions) (selfplay.Trainer, error)
