//go:build trainer

package main

import (
	"github.com/konanezero/konane/net/train"
	"github.com/konanezero/konane/selfplay"
)

// newTrainer makes the trainers of konane train: this konane, built with
// -tags trainer, is konane-train (see trainexec.go).
var newTrainer = selfplay.TrainerFunc(train.New)
