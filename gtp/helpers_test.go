package gtp

import "github.com/konanezero/konane/net"

// agentModel makes a tiny random-weights network for size×size boards.
func agentModel(size int) (*net.Model, error) {
	return net.New(net.Config{Size: size, Filters: 8, Blocks: 1, ValueHidden: 8}, uint64(size))
}
