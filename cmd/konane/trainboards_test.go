package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/selfplay"
)

// TestTrainBoardList: --board with a list trains one network of every
// board (a multi-board run whose list is part of its identity); a bad list
// is refused in one line; one square board is a single-board run as ever.
func TestTrainBoardList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if out, err := trainRun(dir, "--board", "4x4,5x4:2", "--generations", "1", "--games-per-gen", "3", "--sims", "8", "--fast-sims", "4",
		"--filters", "4", "--blocks", "1", "--batch", "8"); err != nil {
		t.Fatalf("new multi-board run: %v\n%s", err, out)
	}
	c, err := selfplay.NewRunDir(dir).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if selfplay.BoardSharesString(c.Boards) != "4x4,5x4:2" || c.Size != 0 || !c.Net.MultiBoard() || c.Net.Hops != net.MultiBoardHops {
		t.Fatalf("config: boards %v size %d net %+v", c.Boards, c.Size, c.Net)
	}
	if out, err := trainRun(dir, "--generations", "2"); err != nil || !strings.Contains(out, "gen 2:") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	// A board above 8x8 trains with the others (as WidePositions).
	wide := filepath.Join(t.TempDir(), "wide")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"train", "--run", wide, "--board", "4x4,9x8", "--generations", "1", "--games-per-gen", "2",
		"--sims", "4", "--fast-sims", "2", "--filters", "4", "--blocks", "1", "--batch", "8"}, nil, &out, &out); err != nil || !strings.Contains(out.String(), "gen 1:") {
		t.Fatalf("a run of 4x4,9x8: %v\n%s", err, out.String())
	}
	// One square board above 8x8 is a run of that one board's network.
	nine := filepath.Join(t.TempDir(), "nine")
	out.Reset()
	if err := run(context.Background(), []string{"train", "--run", nine, "--board", "9x9", "--generations", "1", "--games-per-gen", "1",
		"--sims", "4", "--fast-sims", "2", "--filters", "4", "--blocks", "1", "--batch", "8"}, nil, &out, &out); err != nil || !strings.Contains(out.String(), "gen 1:") {
		t.Fatalf("a run of 9x9: %v\n%s", err, out.String())
	}
	for _, tc := range []struct{ args, want string }{
		{"--board 4x4,5x4", `--board "4x4,5x4": ` + dir + " holds a run of 4x4,5x4:2"},
		{"--board 4x4", "--board 4x4: " + dir + " holds a run of 4x4,5x4:2"},
		{"--board 6x6,6", `names 6x6 twice`},
		{"--board 6x6,9x8,9x8/gap", "names 9x8 twice"},
		{"--board 6x6,17x8", "17x8"},
		{"--board 6x6,banana", `unknown board`},
		{"--board 6x6,8x8:0", "weight"},
		{"--board 6x6,8x8 --gate-games 10", "no gate"},
		{"--board 6x6,8x8 --selfplay=false", "plays its own games"},
		{"--board 4x4,5x4 --init " + agenttest.TinyModelFile(t, 4), "the model plays 4x4 only; a multi-board run starts from a multi-board model"},
	} {
		d := dir
		if !strings.Contains(tc.want, "holds a run") {
			d = filepath.Join(t.TempDir(), "other")
		}
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"train", "--run", d, "--generations", "1"}, strings.Fields(tc.args)...), nil, &out, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line with %q", tc.args, err, tc.want)
		}
	}
}
