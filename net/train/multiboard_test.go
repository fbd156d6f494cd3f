package train

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
	"github.com/konanezero/konane/rules"
)

// TestMultiBoardTrainer trains a multi-board network on batches of
// alternating boards: the boards' graphs share the weights (a snapshot
// reads the same from any), a batch mixing boards is refused, and a
// checkpoint resumes the same steps bit for bit.
func TestMultiBoardTrainer(t *testing.T) {
	m := mustModel(t, multiConfig(), 5)
	opts := net.DefaultTrainOptions()
	opts.Batch, opts.Seed = 8, 9
	boards := []rules.Board{{W: 6, H: 6}, {W: 7, H: 6, Start: rules.Gap}, {W: 5, H: 8, Start: rules.Removal},
		{W: 9, H: 8, Start: rules.Gap}, {W: 15, H: 12, Start: rules.Gap}}
	batches := make([][]net.Sample, len(boards))
	for i, b := range boards {
		batches[i] = randomBoardSamples(t, b, opts.Batch, uint64(i+1))
		for j := range batches[i] {
			batches[i][j].MovesLeft, batches[i][j].Final, batches[i][j].WideFinal = 3, batches[i][j].Position.Black, batches[i][j].Wide.Black
		}
	}
	tr, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	mixed := append(slices.Clone(batches[0][:opts.Batch/2]), batches[1][:opts.Batch/2]...)
	if _, err := tr.Step(mixed); err == nil || !strings.Contains(err.Error(), "one board per batch") {
		t.Errorf("mixed batch: %v", err)
	}
	step := func(tr *Trainer, k int) net.Losses {
		l, err := tr.Step(batches[k%len(batches)])
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for k := range 5 {
		if l := step(tr, k); !(l.Ownership > 0 && l.MovesLeft > 0) {
			t.Fatalf("step %d on %v: auxiliary losses %+v", k, boards[k], l)
		}
	}
	ckpt := filepath.Join(t.TempDir(), "c.ckpt")
	if err := tr.SaveCheckpoint(ckpt); err != nil {
		t.Fatal(err)
	}
	var want []net.Losses
	for k := 5; k < 10; k++ {
		want = append(want, step(tr, k))
	}
	snap, err := tr.Model(net.Metadata{})
	if err != nil {
		t.Fatal(err)
	}
	// Every graph's weights are the snapshot's.
	for shape, gr := range tr.graphs {
		for i, p := range gr.params {
			if !slices.Equal(data32(p), weightsOf(snap)[gr.specs[i].Name]) {
				t.Fatalf("graph of shape %d: %s differs from the snapshot", shape, gr.specs[i].Name)
			}
		}
	}
	if len(tr.graphs) != len(boards) {
		t.Errorf("%d graphs, want one per board (%d)", len(tr.graphs), len(boards))
	}
	re, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := re.LoadCheckpoint(ckpt); err != nil {
		t.Fatal(err)
	}
	for k := 5; k < 10; k++ {
		if got := step(re, k); got != want[k-5] {
			t.Fatalf("resumed step %d: %+v, want %+v", k, got, want[k-5])
		}
	}
}
