package selfplay

import (
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
)

// TestBackendSetting: the network backend is part of a run's identity —
// a run saved without one (made before the setting) is a float32 run, a
// resume on another backend is refused naming it — and an unknown
// backend is refused in one line.
func TestBackendSetting(t *testing.T) {
	saved := DefaultConfig(6)
	if saved.Backend != net.BackendFloat32 {
		t.Fatalf("default backend %q, want %q", saved.Backend, net.BackendFloat32)
	}
	old := saved
	old.Backend = "" // a config.json of before the setting
	if diff := ResumeDiff(old, saved); diff != "" {
		t.Errorf("a run without a backend resumed on float32: %s", diff)
	}
	given := saved
	given.Backend = net.BackendBF16
	if diff := ResumeDiff(old, given); !strings.Contains(diff, "backend") {
		t.Errorf("a float32 run resumed on bf16: diff %q", diff)
	}
	if err := given.Validate(); err != nil {
		t.Errorf("bf16: %v", err)
	}
	given.Backend = "fp8"
	if err := given.Validate(); err == nil || !strings.Contains(err.Error(), `backend "fp8"`) {
		t.Errorf("unknown backend: %v", err)
	}
}
