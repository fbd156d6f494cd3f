package player

import "fmt"

// Placeholder until the network lands.

func openModel(s Spec) (sharedResource, error) {
	return nil, fmt.Errorf("player: the model player is %w (the network has not landed)", ErrNotAvailable)
}
