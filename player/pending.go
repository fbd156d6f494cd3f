package player

import "fmt"

// Placeholders until the solver and the network land.

func perfectAvailable() error {
	return fmt.Errorf("player: the perfect player is %w (the solver has not landed)", ErrNotAvailable)
}

func newPerfectFromSpec(s Spec, seed uint64) (Player, error) { return nil, perfectAvailable() }

func openModel(s Spec) (sharedResource, error) {
	return nil, fmt.Errorf("player: the model player is %w (the network has not landed)", ErrNotAvailable)
}
