package nettest

import (
	"testing"

	"github.com/konanezero/konane/net"
)

// TinyConfig is the tiny network of a size×size board.
func TinyConfig(size int) net.Config {
	return net.Config{Size: size, Filters: 8, Blocks: 1, ValueHidden: 8}
}

// TinyModel is a new tiny network of a size×size board with weights drawn
// from seed; it fails t if it cannot be built.
func TinyModel(t testing.TB, size int, seed uint64) *net.Model {
	t.Helper()
	m, err := net.New(TinyConfig(size), seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TinyMultiBoardModel is a new tiny multi-board network (it plays every
// board, 4x4 to 16x16) with weights drawn from seed; it fails t if it
// cannot be built.
func TinyMultiBoardModel(t testing.TB, seed uint64) *net.Model {
	t.Helper()
	cfg := net.DefaultMultiBoardConfig()
	cfg.Filters, cfg.Blocks, cfg.ValueHidden = 4, 1, 4
	m, err := net.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ModelBytes is m's model file (net.Model.MarshalBinary), failing t on an
// error.
func ModelBytes(t testing.TB, m *net.Model) []byte {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
