package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	stdnet "net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestLoad plays simulated players against (a) one `konane serve` pinned
// to one core (taskset -c 0, GOMAXPROCS=1) and (b) two such replicas
// (cores 0 and 1) behind nginx, which alternates requests between them
// and retries a failed one on the other (proxy_next_upstream error
// timeout non_idempotent). Each player plays whole 8x8 games from a
// loopback address of its own (127.0.0.2 and up, so that per-client limits
// apply as in real life) at a level drawn per game (60% easy, 35% medium,
// 5% hard), thinking 0.3-1 s before each move, and waits out a 503's
// Retry-After. For each number of players (KONANE_LOAD_PLAYERS, default
// "1,2,4,8") it runs KONANE_LOAD_STEP (default 20s) and reports the move
// latency percentiles by level, the answers other than 200, and the
// largest RSS of the replicas. Then, in (b), one replica is killed (kill
// -9) in the middle of a step: every game must go on. Each row also
// gives where the CPU went during the step (the replicas, nginx, the
// players' own process, and the rest of the machine), which is what
// bounds the ratio of (b) to (a) on a small machine, and the share of the
// agents' moves that found their game's search tree in the replica's
// cache (round robin sends a game's moves to both replicas). It needs taskset
// and nginx, binds 127.0.0.1 only, and runs only when
// KONANE_LOAD_TEST=1 (.ci/run runs it with small counts).
func TestLoad(t *testing.T) {
	if os.Getenv("KONANE_LOAD_TEST") == "" {
		t.Skip("starts servers and nginx and loads them for minutes: set KONANE_LOAD_TEST=1 (.ci/run does)")
	}
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		nginx = "/usr/sbin/nginx"
	}
	for _, tool := range []string{"taskset", nginx} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the load test needs %s: %v", tool, err)
		}
	}
	counts := []int{1, 2, 4, 8}
	if s := os.Getenv("KONANE_LOAD_PLAYERS"); s != "" {
		counts = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 || n > 200 {
				t.Fatalf("KONANE_LOAD_PLAYERS %q: want counts 1..200", s)
			}
			counts = append(counts, n)
		}
	}
	step := 20 * time.Second
	if s := os.Getenv("KONANE_LOAD_STEP"); s != "" {
		if step, err = time.ParseDuration(s); err != nil || step < time.Second || step > 5*time.Minute {
			t.Fatalf("KONANE_LOAD_STEP %q: want 1s..5m", s)
		}
	}
	t.Logf("load: %s", loadavg())
	var report strings.Builder
	fmt.Fprintf(&report, "| setup | players | moves | p50 easy | p50 medium | p99 medium | p99 hard | errors | 503 | 429 | RSS max | CPU replicas | CPU nginx | CPU players | CPU others | tree cache hits |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")

	// (a) one replica on one core.
	a := startReplica(t, "0")
	held := map[string]int{}
	for _, n := range counts {
		r := runPlayers(t, a.url, n, step, nil, cpuOf([]*replica{a}, ""))
		r.rss = max(r.rss, a.rss())
		fmt.Fprintf(&report, "| (a) 1 replica | %s |\n", r.row(n))
		if r.holds() {
			held["a"] = n
		}
		if r.errors > 0 {
			t.Errorf("(a) %d players: %d errors (%v)", n, r.errors, r.errorList)
		}
	}
	a.kill()

	// (b) two replicas behind nginx.
	rs := []*replica{startReplica(t, "0"), startReplica(t, "1")}
	proxy := startNginx(t, nginx, rs)
	for _, n := range counts {
		r := runPlayers(t, proxy, n, step, nil, cpuOf(rs, proxy))
		r.rss = max(rs[0].rss(), rs[1].rss())
		fmt.Fprintf(&report, "| (b) 2 replicas + nginx | %s |\n", r.row(n))
		if r.holds() {
			held["b"] = n
		}
		if r.errors > 0 {
			t.Errorf("(b) %d players: %d errors (%v)", n, r.errors, r.errorList)
		}
	}
	// Failover: kill -9 one replica halfway through a step.
	n := counts[len(counts)-1]
	// The killed replica's RSS is read just before its death (VmHWM, its
	// peak), the survivor's after the step.
	var killedRSS float64
	r := runPlayers(t, proxy, n, step, func() { killedRSS = rs[1].rss(); rs[1].kill() }, cpuOf(rs, proxy))
	r.rss = max(rs[0].rss(), killedRSS)
	fmt.Fprintf(&report, "| (b) replica 2 killed halfway | %s |\n", r.row(n))
	if r.errors > 0 || r.lost > 0 {
		t.Errorf("failover: %d errors, %d games lost (%v)", r.errors, r.lost, r.errorList)
	}
	t.Logf("load after: %s\n%s\nplayers held (p99 at medium <= 1s, no error, 503s <= 1%% of requests): (a) %d, (b) %d", loadavg(), report.String(), held["a"], held["b"])
}

// loadavg is the machine's load (/proc/loadavg) for the report.
func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.TrimSpace(string(b))
}

type replica struct {
	cmd *exec.Cmd
	url string
	end chan struct{}
}

// proxyPID is the nginx master's pid by the proxy's URL (for cpuOf).
var proxyPID sync.Map

// cpuSample is a reading of CPU time (seconds) at one instant, and of the
// replicas' tree cache look-ups (konane_tree_cache_total).
type cpuSample struct {
	replicas, nginx, self, machine float64
	hits, misses                   float64
}

// minus is s - o, field by field.
func (s cpuSample) minus(o cpuSample) cpuSample {
	return cpuSample{s.replicas - o.replicas, s.nginx - o.nginx, s.self - o.self, s.machine - o.machine, s.hits - o.hits, s.misses - o.misses}
}

// treeCache reads a replica's tree cache hits and misses from /metrics
// (0, 0 once it is gone).
func treeCache(url string) (hits, misses float64) {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case `konane_tree_cache_total{result="hit"}`:
			hits = v
		case `konane_tree_cache_total{result="miss"}`:
			misses = v
		}
	}
	return hits, misses
}

// cpuOf returns a function reading the CPU seconds used so far by the
// replicas rs, the nginx behind proxy ("" for none) with its workers, this
// process (the players), and the whole machine (busy time of all cores,
// /proc/stat). A replica already gone counts 0: its share of a step is
// then what it used before the sample that still saw it.
func cpuOf(rs []*replica, proxy string) func() cpuSample {
	return func() cpuSample {
		var s cpuSample
		for _, r := range rs {
			s.replicas += procCPU(r.cmd.Process.Pid)
			h, m := treeCache(r.url)
			s.hits += h
			s.misses += m
		}
		if v, ok := proxyPID.Load(proxy); ok {
			master := v.(int)
			s.nginx = procCPU(master)
			for _, child := range childPIDs(master) {
				s.nginx += procCPU(child)
			}
		}
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			s.self = float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
		}
		if b, err := os.ReadFile("/proc/stat"); err == nil {
			line, _, _ := strings.Cut(string(b), "\n")
			f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal ...
			for i, v := range f[1:] {
				if i == 3 || i == 4 { // idle, iowait
					continue
				}
				if i >= 8 { // guest times are already in user and nice
					break
				}
				x, _ := strconv.ParseFloat(v, 64)
				s.machine += x / 100
			}
		}
		return s
	}
}

// procCPU is the user+system CPU seconds of process pid (/proc/pid/stat,
// clock ticks of 1/100 s), 0 when it is gone.
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name is in parentheses and may hold spaces: split after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64) // field 14 utime
	k, _ := strconv.ParseFloat(f[12], 64) // field 15 stime
	return (u + k) / 100
}

// childPIDs lists the processes whose parent is pid.
func childPIDs(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(string(b[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// startReplica starts `konane serve` on cpu alone (GOMAXPROCS=1) on a free
// port of 127.0.0.1, trusting the loopback proxy, and waits until it is
// ready.
func startReplica(t *testing.T, cpu string) *replica {
	t.Helper()
	ln, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command("taskset", "-c", cpu, os.Args[0], "serve", "--addr", addr, "--trusted-proxies", "127.0.0.1",
		"--max-level", "hard", "--move-timeout", "30s", "--log-format", "json")
	cmd.Env = append(os.Environ(), "KONANE_TEST_AS_MAIN=1", "GOMAXPROCS=1")
	logf, err := os.Create(filepath.Join(t.TempDir(), "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{cmd: cmd, url: "http://" + addr, end: make(chan struct{})}
	go func() { cmd.Wait(); logf.Close(); close(r.end) }()
	t.Cleanup(r.kill)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(r.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return r
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica on %s is not ready after a minute", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kill ends the replica with SIGKILL (at once: no drain).
func (r *replica) kill() {
	r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.end
}

// rss is the replica's resident memory in MiB (its konane process: the
// taskset has exec'ed it), 0 once it is gone.
func (r *replica) rss() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// startNginx runs nginx on a free port of 127.0.0.1 in front of rs, round
// robin, a failed request retried on the other replica.
func startNginx(t *testing.T, nginx string, rs []*replica) string {
	t.Helper()
	dir := t.TempDir()
	ln, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var servers strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&servers, "    server %s max_fails=1 fail_timeout=10s;\n", strings.TrimPrefix(r.url, "http://"))
	}
	conf := fmt.Sprintf(`daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  upstream konane {
%[2]s    keepalive 32;
  }
  server {
    listen %[3]s;
    location / {
      proxy_pass http://konane;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 2;
      proxy_read_timeout 60s;
    }
  }
}
`, dir, servers.String(), addr)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-c", path, "-p", dir, "-e", filepath.Join(dir, "error.log"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); <-done })
	proxyPID.Store("http://"+addr, cmd.Process.Pid)
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return "http://" + addr
		}
		select {
		case <-done:
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx ended: %s %s", out.String(), b)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("nginx does not answer")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// loadResult is what the players of one step saw.
type loadResult struct {
	mu        sync.Mutex
	latency   map[string][]time.Duration // of the move requests answered 200, by level
	moves     int
	requests  int // requests sent, 503s and 429s included
	errors    int // answers other than 200, 503 and 429, and failed requests
	errorList []string
	busy      int // 503
	limited   int // 429
	lost      int // games that could not go on
	rss       float64
	cpu       cpuSample // CPU seconds used during the step
	secs      float64   // the step's wall time
}

func (r *loadResult) pct(level string, p float64) string {
	l := slices.Clone(r.latency[level])
	if len(l) == 0 {
		return "-"
	}
	slices.Sort(l)
	return fmt.Sprintf("%.2fs", l[min(len(l)-1, int(p*float64(len(l))))].Seconds())
}

// holds reports whether the step kept p99 at medium within 1 s, without
// errors, refusing (503) at most 1% of the requests.
func (r *loadResult) holds() bool {
	l := slices.Clone(r.latency["medium"])
	if len(l) == 0 || r.errors > 0 || r.busy*100 > r.requests {
		return false
	}
	slices.Sort(l)
	return l[min(len(l)-1, int(0.99*float64(len(l))))] <= time.Second
}

func (r *loadResult) row(n int) string {
	// CPU as cores busy on average over the step.
	c := func(x float64) string { return fmt.Sprintf("%.2f", x/r.secs) }
	others := r.cpu.machine - r.cpu.replicas - r.cpu.nginx - r.cpu.self
	hits := "-"
	if n := r.cpu.hits + r.cpu.misses; n > 0 {
		hits = fmt.Sprintf("%.0f%%", 100*r.cpu.hits/n)
	}
	return fmt.Sprintf("%d | %d | %s | %s | %s | %s | %d | %d | %d | %.0f MiB | %s | %s | %s | %s | %s", n, r.moves, r.pct("easy", 0.5), r.pct("medium", 0.5),
		r.pct("medium", 0.99), r.pct("hard", 0.99), r.errors, r.busy, r.limited, r.rss,
		c(r.cpu.replicas), c(r.cpu.nginx), c(r.cpu.self), c(max(others, 0)), hits)
}

func (r *loadResult) fail(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors++
	if len(r.errorList) < 5 {
		r.errorList = append(r.errorList, what)
	}
}

// runPlayers runs n players against base for d; halfway, it calls fault
// (if not nil). cpu reads the CPU counters before and after.
func runPlayers(t *testing.T, base string, n int, d time.Duration, fault func(), cpu func() cpuSample) *loadResult {
	t.Helper()
	res := &loadResult{latency: map[string][]time.Duration{}}
	start, before := time.Now(), cpu()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loadPlayer(ctx, base, i, res)
		}()
	}
	var gone cpuSample // what a replica killed by fault counted, which then reads 0
	if fault != nil {
		time.Sleep(d / 2)
		alive := cpu()
		fault()
		dead := cpu()
		gone = cpuSample{replicas: alive.replicas - dead.replicas, hits: alive.hits - dead.hits, misses: alive.misses - dead.misses}
	}
	wg.Wait()
	after := cpu()
	res.secs = time.Since(start).Seconds()
	res.cpu = after.minus(before)
	res.cpu.replicas += gone.replicas
	res.cpu.hits += gone.hits
	res.cpu.misses += gone.misses
	return res
}

// loadPlayer plays games until ctx ends, from 127.0.0.(2+i).
func loadPlayer(ctx context.Context, base string, i int, res *loadResult) {
	ip := stdnet.IPv4(127, 0, byte(i/250), byte(2+i%250))
	dialer := &stdnet.Dialer{LocalAddr: &stdnet.TCPAddr{IP: ip}, Timeout: 5 * time.Second}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 2}, Timeout: 60 * time.Second}
	defer client.CloseIdleConnections()
	rng := mrand.New(mrand.NewPCG(uint64(i), 7))
	type state struct {
		Game  json.RawMessage `json:"game"`
		Legal []string        `json:"legal"`
		Over  bool            `json:"over"`
	}
	// call posts body, waiting out 503s; it returns the state, or false
	// when ctx ended or the request failed (counted).
	call := func(path string, body any, level string) (state, bool) {
		data, _ := json.Marshal(body)
		for {
			start := time.Now()
			req, _ := http.NewRequestWithContext(context.WithoutCancel(ctx), "POST", base+path, bytes.NewReader(data))
			res.mu.Lock()
			res.requests++
			res.mu.Unlock()
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				res.fail(err.Error())
				return state{}, false
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch resp.StatusCode {
			case 200:
				var st state
				if err := json.Unmarshal(b, &st); err != nil {
					res.fail(err.Error())
					return state{}, false
				}
				if path == "/api/v2/move" {
					res.mu.Lock()
					res.moves++
					res.latency[level] = append(res.latency[level], time.Since(start))
					res.mu.Unlock()
				}
				return st, true
			case 503, 429:
				res.mu.Lock()
				if resp.StatusCode == 503 {
					res.busy++
				} else {
					res.limited++
				}
				res.mu.Unlock()
				wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
				select {
				case <-ctx.Done():
					return state{}, false
				case <-time.After(time.Duration(max(wait, 1)) * time.Second):
				}
			default:
				res.fail(fmt.Sprintf("%s: %d %s", path, resp.StatusCode, b))
				return state{}, false
			}
		}
	}
	for ctx.Err() == nil {
		level := "easy"
		switch x := rng.Float64(); {
		case x >= 0.95:
			level = "hard"
		case x >= 0.60:
			level = "medium"
		}
		st, ok := call("/api/v2/new", map[string]any{"size": 8, "color": "black", "level": level}, level)
		for ok && !st.Over && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(300+rng.IntN(700)) * time.Millisecond):
			}
			if ctx.Err() != nil {
				break
			}
			st, ok = call("/api/v2/move", map[string]any{"game": st.Game, "move": st.Legal[rng.IntN(len(st.Legal))]}, level)
			if !ok && ctx.Err() == nil {
				res.mu.Lock()
				res.lost++
				res.mu.Unlock()
			}
		}
	}
}
