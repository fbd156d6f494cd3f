// Package selfplaytest gives the tests of the packages that read a
// training run (ladder, the konane commands) a small run directory to
// read. Its own package, not agenttest: it imports selfplay, which
// agenttest must not (the tests of the packages below selfplay use it).
package selfplaytest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/rules"
	"github.com/konanezero/konane/runfiles"
	"github.com/konanezero/konane/selfplay"
)

// MultiBoardRun makes a multi-board run in a new temporary folder of the
// test and returns its directory: the config of a run training boards
// (the list of "konane train --board", such as "6x6,7x6") and, as each
// generation of gens, one tiny multi-board model that records those
// boards as trained. It fails t if boards cannot be read.
func MultiBoardRun(t testing.TB, boards string, gens ...int) string {
	t.Helper()
	bs, err := selfplay.ParseBoardShares(boards)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg, err := json.Marshal(selfplay.DefaultMultiBoardConfig(bs))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runfiles.ConfigFile), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	trained := make([]rules.Board, len(bs))
	for i, b := range bs {
		trained[i] = b.Board
	}
	model, err := os.ReadFile(agenttest.MultiBoardModelFile(t, trained...))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, runfiles.ModelsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, g := range gens {
		if err := os.WriteFile(filepath.Join(dir, runfiles.ModelsDir, runfiles.ModelName(g)), model, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
