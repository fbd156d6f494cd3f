package web

import (
	"context"
	"io"
	stdnet "net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/agent"
	"github.com/konanezero/konane/agent/agenttest"
	"github.com/konanezero/konane/internal/testwait"
	"github.com/konanezero/konane/web/api"
	"github.com/konanezero/konane/web/api/apitest"
	"github.com/konanezero/konane/web/messages"
)

// testServer is a Server behind httptest, with the catalog of its page.
type testServer struct {
	*Server
	url  string
	msgs messages.Catalog
}

func newTestServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	if cfg.API.Engines == nil {
		cfg.API.Engines = agenttest.RunEngines(t)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := messages.Load()
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return &testServer{Server: srv, url: hs.URL, msgs: msgs}
}

// checkSecurityHeaders: the page keeps to itself (no framing, nothing
// from elsewhere, no type sniffing, no referrer).
func checkSecurityHeaders(t *testing.T, path string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
		h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("%s: security headers %q, %q, %q", path, csp, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
	}
}

func TestStaticAndHeaders(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, tc := range []struct{ path, ctype, want string }{
		{"/", "text/html", "<title>"},
		{"/main.js", "text/javascript", "import "},
		{"/game.js", "text/javascript", "api/v2/move"},
		{"/theme.js", "text/javascript", "konaneApplyTheme"},
		{"/style.css", "text/css", "#board"},
		{"/healthz", "text/plain", "ok"},
		{"/api/v2/config", "application/json", "defaultLevel"},
	} {
		resp, err := http.Get(ts.url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		checkSecurityHeaders(t, tc.path, resp.Header)
	}
	resp, err := http.Post(ts.url+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
	// No page refers to anything outside the server.
	files, err := static.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, _ := static.ReadFile("static/" + f.Name())
		if strings.Contains(string(data), "http://") || strings.Contains(string(data), "https://") {
			t.Errorf("%s refers to another site", f.Name())
		}
	}
}

// The imports of an ES module: import {a, b} from "./file.js";
var (
	importLine = regexp.MustCompile(`(?m)^import \{([^}]*)\} from "\./([a-z0-9]+\.js)";$`)
	exportDecl = regexp.MustCompile(`(?m)^export (?:async )?(?:function|const|let|class) ([A-Za-z_$][\w$]*)`)
)

// TestModules: the page's script is ES modules that index.html loads from
// main.js: every import names a file of static/ and a name it exports,
// the imports run one way (no cycle), every module is reached from
// main.js, and no file is longer than 600 lines (one to read in a
// sitting).
func TestModules(t *testing.T) {
	index, err := static.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `<script type="module" src="main.js"></script>`) {
		t.Error("index.html does not load main.js as a module")
	}
	files, err := static.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, f := range files {
		data, err := static.ReadFile("static/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > 600 {
			t.Errorf("static/%s has %d lines, more than 600", f.Name(), n)
		}
		if strings.HasSuffix(f.Name(), ".js") && f.Name() != "theme.js" { // theme.js runs before the first paint, not a module
			src[f.Name()] = string(data)
		}
	}
	exports := map[string]map[string]bool{}
	for name, text := range src {
		exports[name] = map[string]bool{}
		for _, m := range exportDecl.FindAllStringSubmatch(text, -1) {
			exports[name][m[1]] = true
		}
	}
	reached, open := map[string]bool{}, map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if open[name] {
			t.Errorf("%s imports itself through its imports: the modules import one way", name)
			return
		}
		if reached[name] {
			return
		}
		reached[name], open[name] = true, true
		defer delete(open, name)
		for _, m := range importLine.FindAllStringSubmatch(src[name], -1) {
			file := m[2]
			if _, ok := src[file]; !ok {
				t.Errorf("%s imports from %s, which is not a module of static/", name, file)
				continue
			}
			for _, id := range strings.Split(m[1], ",") {
				if id = strings.TrimSpace(id); !exports[file][id] {
					t.Errorf("%s imports %s from %s, which does not export it", name, id, file)
				}
			}
			visit(file)
		}
	}
	visit("main.js")
	for name := range src {
		if !reached[name] {
			t.Errorf("%s is not reached from main.js", name)
		}
	}
}

// TestServeShutdown: Serve answers on its listener until ctx ends, then
// returns nil.
func TestServeShutdown(t *testing.T) {
	es := agenttest.RunEngines(t)
	srv, err := New(Config{API: api.Config{Engines: es}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	var c struct {
		Sizes        []int `json:"sizes"`
		DefaultSize  int   `json:"defaultSize"`
		Levels       []any `json:"levels"`
		DefaultLevel string
	}
	apitest.Call(t, "http://"+ln.Addr().String()+"/api/v2/config", "", &c)
	if len(c.Sizes) == 0 || c.DefaultSize != 8 || len(c.Levels) != len(agent.Levels()) || c.DefaultLevel != agent.DefaultLevel {
		t.Errorf("config %+v", c)
	}
	cancel()
	testwait.Returned(t, done, 10*time.Second, "Serve did not return after its context ended")
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

// TestServeDrain: when Serve's context ends, a request in flight
// finishes and is answered, /readyz fails during the drain delay, then
// the server stops.
func TestServeDrain(t *testing.T) {
	es := agenttest.RunEngines(t)
	srv, err := New(Config{API: api.Config{Engines: es}, DrainDelay: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	// A request to /slow is in flight until unblocked.
	arrived, unblock := make(chan struct{}), make(chan struct{})
	h := srv.Handler()
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(arrived)
			<-unblock
		}
		h.ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.serve(ctx, ln, slow) }()
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get(url + "/slow")
		if err != nil {
			answered <- -1
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-arrived
	cancel()
	time.Sleep(50 * time.Millisecond)
	if resp, err := http.Get(url + "/readyz"); err != nil || resp.StatusCode != 503 {
		t.Errorf("/readyz during the drain: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	var e struct{ Code string }
	if code := apitest.Call(t, url+"/api/v2/new", `{"size":6,"color":"white","level":"easy"}`, &e); code != 503 || e.Code != "error.busy" {
		t.Errorf("a search during the drain: %d %+v", code, e)
	}
	close(unblock)
	if code := <-answered; code != 404 { // /slow is no page: answered as such
		t.Errorf("the request in flight was answered %d", code)
	}
	testwait.Returned(t, done, 10*time.Second, "Serve did not return")
}

// TestFavicon: the icon browsers ask for is there.
func TestFavicon(t *testing.T) {
	ts := newTestServer(t, Config{})
	resp, err := http.Get(ts.url + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// An ICO file: reserved 0, type 1 (icon), one image.
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") || !strings.HasPrefix(string(data), "\x00\x00\x01\x00\x01\x00") {
		t.Errorf("/favicon.ico: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(data))
	}
}

// TestNewConfigErrors: the page's own settings are checked, and the play
// service's errors come through.
func TestNewConfigErrors(t *testing.T) {
	es := agenttest.RunEngines(t)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "web: api: no engines"},
		{Config{API: api.Config{Engines: es}, DrainDelay: -time.Second}, "drain delay"},
		{Config{API: api.Config{Engines: es}, PublicURL: "ftp://x/"}, "public URL"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v; want %q", tc.cfg, err, tc.want)
		}
	}
}

// TestInvalidPathNotFound: a path no file can have (invalid UTF-8) is
// not found, not a server fault (issue 47).
func TestInvalidPathNotFound(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, p := range []string{"/%ff", "/a/%ff%fe", "/%c0%af"} {
		resp, err := http.Get(ts.url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
}
