package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/konanezero/konane/runstore"
	"github.com/konanezero/konane/selfplay"
)

// TestMain lets the test binary run as the konane command, for the tests
// that start konane processes and kill them.
func TestMain(m *testing.M) {
	if os.Getenv("KONANE_TEST_AS_MAIN") == "1" {
		if os.Getenv("KONANE_TEST_NO_TRAINER") == "1" && filepath.Base(os.Args[0]) != trainBinary {
			newTrainer = nil // a player's konane; as konane-train it keeps the trainer
		}
		if v := os.Getenv("KONANE_TEST_VERSION_" + filepath.Base(os.Args[0])); v != "" {
			trainVersion = v // TestKonaneTrainVersion
		}
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// faultRuns are the run locations of the fault test: a directory always,
// and a fresh prefix on the S3 server of KONANE_TEST_S3 when set.
func faultRuns(t *testing.T) map[string]string {
	runs := map[string]string{"file": filepath.Join(t.TempDir(), "run")}
	if base := os.Getenv("KONANE_TEST_S3"); base != "" {
		var b [6]byte
		rand.Read(b[:])
		scheme, rest, _ := strings.Cut(base, "://")
		bucket, query, _ := strings.Cut(rest, "?")
		runs["s3"] = scheme + "://" + strings.TrimSuffix(bucket, "/") + "/fault-" + hex.EncodeToString(b[:]) + "?" + query
	} else if os.Getenv("KONANE_REQUIRE_S3") != "" {
		t.Fatal("KONANE_REQUIRE_S3 is set but KONANE_TEST_S3 names no S3 server")
	}
	return runs
}

// TestScaleOutFaults is the multi-process test of distributed training:
// a trainer (--selfplay=false) and three konane selfplay workers on one
// run; workers are killed with SIGKILL five times and restarted, the
// trainer once. At the end no game that reached a spool is lost, none is
// trained on twice, and every generation trained on at least the games
// wanted, all of models in its window.
//
// The faults are driven by events, not by the clock, so that the test
// exercises the same things on a fast or a loaded machine: worker kill j
// comes once the run has published generation faultGens[j] and the
// workers have uploaded a random 1..4 more games since the previous
// fault, after a random delay of up to 300 ms (in a game, an upload, a
// model switch or a pause); the trainer is killed once it has published
// generation 3 and then seen 0..7 more uploads (ingesting or training
// generation 4). It takes about a minute, so it runs only when
// KONANE_FAULT_TEST=1 (.ci/run runs it on file:// and on S3).
func TestScaleOutFaults(t *testing.T) {
	if os.Getenv("KONANE_FAULT_TEST") == "" {
		t.Skip("starts and kills konane processes for a minute: set KONANE_FAULT_TEST=1 (.ci/run does)")
	}
	for name, run := range faultRuns(t) {
		t.Run(name, func(t *testing.T) { faultTest(t, run) })
	}
}

// faultGens are the generations after whose publication the five worker
// kills come (0: while the workers play the untrained model), and
// trainerFaultGen the trainer's.
// The run goes on for gens-5 generations after the last fault, so that
// the trainer cannot finish before them even on a fast machine.
var faultGens, trainerFaultGen = [5]int{0, 1, 2, 3, 4}, 3

type proc struct {
	cmd *exec.Cmd
	log string
	end chan error
}

// countLines counts the lines holding marker in the files matching glob.
func countLines(glob, marker string) int {
	n := 0
	files, _ := filepath.Glob(glob)
	for _, f := range files {
		b, _ := os.ReadFile(f)
		n += strings.Count(string(b), marker)
	}
	return n
}

func faultTest(t *testing.T, run string) {
	began := time.Now()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("KONANE_FAULT_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("run %s, seed %d (KONANE_FAULT_SEED=%d replays the fault schedule)", run, seed, seed)
	rng := mrand.New(mrand.NewPCG(seed, 12))
	const gens, gamesPerGen = 10, 8
	logs := t.TempDir()
	n := 0
	start := func(args ...string) *proc {
		n++
		p := &proc{log: filepath.Join(logs, fmt.Sprintf("%02d-%s.log", n, args[0])), end: make(chan error, 1)}
		f, err := os.Create(p.log)
		if err != nil {
			t.Fatal(err)
		}
		p.cmd = exec.Command(os.Args[0], args...)
		p.cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1")
		p.cmd.Stdout, p.cmd.Stderr = f, f
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.end <- p.cmd.Wait(); f.Close() }()
		return p
	}
	// On failure, the end of every process's output.
	defer func() {
		if !t.Failed() {
			return
		}
		files, _ := filepath.Glob(filepath.Join(logs, "*.log"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			lines = slices.DeleteFunc(lines, func(l string) bool { return strings.Contains(l, " spooled ") || strings.Contains(l, " uploaded ") })
			t.Logf("%s (without spooled/uploaded lines), last lines:\n%s", filepath.Base(f), strings.Join(lines[max(0, len(lines)-15):], "\n"))
		}
	}()
	// Games of size 6 with every move sampled in the opening (--full-prob
	// 1, no solver) are seldom identical: identical games share a key, and
	// count once.
	trainArgs := []string{"train", "--run", run, "--selfplay=false", "--size", "6", "--filters", "8", "--blocks", "1",
		"--games-per-gen", strconv.Itoa(gamesPerGen), "--sims", "8", "--fast-sims", "4", "--full-prob", "1", "--solver", "off",
		"--batch", "16", "--reuse", "4", "--generations", strconv.Itoa(gens)}
	spools := make([]string, 3)
	workerArgs := func(i, incarnation int, extra ...string) []string {
		return append([]string{"selfplay", "--run", run, "--spool", spools[i], "--workers", "2", "--poll", "200ms", "-v",
			"--seed", strconv.Itoa(1 + i + 10*incarnation)}, extra...)
	}
	ctx := context.Background()
	store, err := runstore.Open(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	generation := func() int {
		var st struct{ Generation int }
		if b, err := store.Read(ctx, "state.json"); err == nil {
			json.Unmarshal(b, &st)
		}
		return st.Generation
	}
	uploads := func() int { return countLines(filepath.Join(logs, "*-selfplay.log"), " uploaded ") }

	trainer := start(trainArgs...)
	workers := make([]*proc, 3)
	incarnations := make([]int, 3)
	for i := range workers {
		spools[i] = filepath.Join(t.TempDir(), "spool")
		workers[i] = start(workerArgs(i, 0)...)
	}
	defer func() {
		for _, p := range append(workers, trainer) {
			p.cmd.Process.Kill()
		}
	}()
	checkWorkers := func() {
		for i, w := range workers {
			select {
			case err := <-w.end:
				b, _ := os.ReadFile(w.log)
				t.Fatalf("worker %d exited: %v\n%s", i, err, b)
			default:
			}
		}
	}

	workerKills, trainerKilled := 0, false
	var second *proc        // a second trainer, started once the first published a model
	mark := 0               // uploads at the last fault
	need := 1 + rng.IntN(4) // uploads before the next worker fault
	trainerNeed := rng.IntN(8)
	deadline := time.Now().Add(4 * time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not reach %d generations in 4 minutes (at %d; %d worker kills, trainer killed %v)", gens, generation(), workerKills, trainerKilled)
		}
		select {
		case err := <-trainer.end:
			if err != nil {
				b, _ := os.ReadFile(trainer.log)
				t.Fatalf("trainer: %v\n%s", err, b)
			}
			if !trainerKilled || workerKills < 5 || second == nil || second.end != nil {
				t.Fatalf("the trainer finished before the faults were injected (%d worker kills, trainer killed %v, second trainer refused %v)",
					workerKills, trainerKilled, second != nil && second.end == nil)
			}
			goto done
		case <-time.After(50 * time.Millisecond):
		}
		checkWorkers()
		g, up := generation(), uploads()
		// A second trainer is refused while the first lives.
		if second == nil && g >= 1 {
			second = start(trainArgs...)
		}
		if second != nil && second.end != nil {
			select {
			case err := <-second.end:
				if err == nil {
					t.Fatal("a second trainer on the run started")
				}
				if b, _ := os.ReadFile(second.log); !strings.Contains(string(b), "in use by another trainer") {
					t.Fatalf("second trainer's output:\n%s\nwant a refusal naming the other trainer", b)
				}
				second.end = nil
			default:
			}
		}
		switch {
		case workerKills < 5 && g >= faultGens[workerKills] && up-mark >= need:
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
			i := rng.IntN(3)
			workers[i].cmd.Process.Signal(syscall.SIGKILL)
			<-workers[i].end
			workerKills++
			incarnations[i]++
			t.Logf("%5.1fs: killed worker %d (kill %d) at generation %d, %d uploads after the last fault", time.Since(began).Seconds(), i, workerKills, g, up-mark)
			workers[i] = start(workerArgs(i, incarnations[i])...)
			mark, need = uploads(), 1+rng.IntN(4)
		case !trainerKilled && g >= trainerFaultGen && up-mark >= trainerNeed:
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
			trainer.cmd.Process.Signal(syscall.SIGKILL)
			<-trainer.end
			trainerKilled = true
			t.Logf("%5.1fs: killed the trainer at generation %d, %d uploads after the last fault", time.Since(began).Seconds(), g, up-mark)
			trainer = start(trainArgs...)
			mark = uploads()
		}
	}
done:
	// Stop the workers, then let each upload what its spool still holds.
	for i, w := range workers {
		w.cmd.Process.Signal(syscall.SIGTERM)
		if err := <-w.end; err != nil {
			b, _ := os.ReadFile(w.log)
			t.Fatalf("worker %d on SIGTERM: %v\n%s", i, err, b)
		}
		workers[i] = start(workerArgs(i, 99, "--time", "1ms")...)
		if err := <-workers[i].end; err != nil {
			b, _ := os.ReadFile(workers[i].log)
			t.Fatalf("worker %d flushing its spool: %v\n%s", i, err, b)
		}
		sp, err := runstore.OpenSpool(spools[i])
		if err != nil {
			t.Fatal(err)
		}
		if left, _ := sp.Pending(); len(left) > 0 {
			t.Errorf("spool %d still holds %d games after the final upload", i, len(left))
		}
		sp.Close()
	}

	// Every game that reached a spool is in the store (by content hash).
	objs, err := store.List(ctx, "replay/gen-")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{} // key → generation
	for _, o := range objs {
		var g int
		if _, err := fmt.Sscanf(o.Key, "replay/gen-%06d/", &g); err == nil && strings.HasSuffix(o.Key, ".shard") && strings.Count(o.Key, "/") == 2 {
			stored[o.Key] = g
		}
	}
	spooled := 0
	logFiles, _ := filepath.Glob(filepath.Join(logs, "*-selfplay.log"))
	for _, lf := range logFiles {
		f, _ := os.Open(lf)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			_, name, ok := strings.Cut(sc.Text(), " spooled ")
			if !ok {
				continue
			}
			spooled++
			var g int
			var sum string
			fmt.Sscanf(name, "gen-%06d-%64s", &g, &sum)
			key := fmt.Sprintf("replay/gen-%06d/%s.shard", g, sum)
			if _, ok := stored[key]; !ok {
				t.Errorf("game %s reached a spool (%s) but not the store: lost", name, filepath.Base(lf))
			}
		}
		f.Close()
	}
	if spooled == 0 {
		t.Fatal("the workers' logs name no spooled game")
	}

	// Every generation trained on its games (at least those wanted), none
	// twice, none missing.
	if g := generation(); g != gens {
		t.Fatalf("state.json at generation %d, want %d", g, gens)
	}
	ingested := map[string]int{}
	for g := 1; g <= gens; g++ {
		b, err := store.Read(ctx, fmt.Sprintf("replay/gen-%06d.keys", g))
		if err != nil {
			t.Fatal(err)
		}
		keys := strings.Fields(string(b))
		if len(keys) < gamesPerGen {
			t.Errorf("generation %d trained on %d games, want at least %d", g, len(keys), gamesPerGen)
		}
		for _, k := range keys {
			if prev, dup := ingested[k]; dup {
				t.Errorf("%s trained on in generations %d and %d", k, prev, g)
			}
			ingested[k] = g
			mg, ok := stored[k]
			if !ok {
				t.Errorf("generation %d trained on %s, which is not in the store", g, k)
			}
			if mg < g-selfplay.AcceptWindow || mg >= g {
				t.Errorf("generation %d trained on %s, a game of model %d outside its window", g, k, mg)
			}
			data, _ := store.Read(ctx, k)
			if !strings.Contains(k, runstore.SHA256(data)) {
				t.Errorf("%s does not hold the content its name hashes", k)
			}
		}
	}
	stale, tail := 0, 0
	staleBy := map[int]int{} // model → games outside the window
	for k, g := range stored {
		if _, ok := ingested[k]; ok {
			continue
		}
		if g <= gens-selfplay.AcceptWindow {
			stale++ // played by a model older than the window when the trainer got to it
			staleBy[g]++
		} else {
			tail++ // waiting for generation gens+1
		}
	}
	t.Logf("games outside the window, by the model that played them: %v (model %d's could still go into the last generation)", staleBy, gens-selfplay.AcceptWindow)
	t.Logf("%d games spooled (with repeats of identical games), %d distinct in the store, %d trained on exactly once, %d outside the window, %d for the next generation; %d worker kills, trainer killed %v; %.0fs",
		spooled, len(stored), len(ingested), stale, tail, workerKills, trainerKilled, time.Since(began).Seconds())
}
