package mcts

import (
	"math"
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		field string
		set   func(*Config)
	}{
		{"Sims", func(c *Config) { c.Sims = 0 }},
		{"CPuct", func(c *Config) { c.CPuct = 0 }},
		{"CPuct", func(c *Config) { c.CPuct = math.NaN() }},
		{"CPuctBase", func(c *Config) { c.CPuctBase = -1 }},
		{"FPUReduction", func(c *Config) { c.FPUReduction = -0.1 }},
		{"FPUReduction", func(c *Config) { c.FPUReduction = math.Inf(1) }},
		{"PolicyTemp", func(c *Config) { c.PolicyTemp = 0.05 }},
		{"PolicyTemp", func(c *Config) { c.PolicyTemp = math.NaN() }},
		{"PolicyTemp", func(c *Config) { c.PolicyTemp = 11 }},
		{"DirichletAlpha", func(c *Config) { c.DirichletAlpha = 0 }},
		{"NoiseFraction", func(c *Config) { c.NoiseFraction = 1.5 }},
		{"GumbelSampled", func(c *Config) { c.GumbelSampled = 0 }},
		{"CVisit", func(c *Config) { c.CVisit = -1 }},
		{"CScale", func(c *Config) { c.CScale = math.NaN() }},
		{"LeafBatch", func(c *Config) { c.LeafBatch = 0 }},
		{"LeafBatch", func(c *Config) { c.LeafBatch = MaxLeafBatch + 1 }},
	} {
		c := DefaultConfig()
		tc.set(&c)
		err := c.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "mcts: config "+tc.field+" = ") {
			t.Errorf("%s: error %v", tc.field, err)
		}
	}
}
