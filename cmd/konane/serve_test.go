package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/testwait"
	"github.com/konanezero/konane/web/api/apitest"
)

// TestServe starts "konane serve" on a free port, plays a move through
// the API and stops it by its context.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		var errb bytes.Buffer
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--level", "easy"}, strings.NewReader(""), outW, &errb)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no greeting: %v", err)
	}
	go io.Copy(io.Discard, outR)
	m := regexp.MustCompile(`serving on (http://\S+/) \(the agent on ` + regexp.QuoteMeta(agentBoards()) + `, the classical engine on the other boards up to 16x16`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("greeting %q", line)
	}
	base := m[1]
	var st struct {
		Level string   `json:"level"`
		Moves []string `json:"moves"`
	}
	if code := apitest.Call(t, base+"api/v2/new", `{"size":6,"color":"white"}`, &st); code != 200 || st.Level != "easy" || len(st.Moves) != 1 {
		t.Errorf("new game as White: %d %+v", code, st)
	}
	cancel()
	testwait.Returned(t, done, 20*time.Second, "serve did not stop")
}

func TestServeFlagErrors(t *testing.T) {
	checkErrors(t, []errCase{
		{[]string{"serve", "--max-sessions", "200"}, "--max-sessions is gone: the server keeps no games now"},
		{[]string{"serve", "--idle", "1h"}, "--idle is gone"},
		{[]string{"serve", "--idle-unplayed", "5m"}, "--idle-unplayed is gone"},
		{[]string{"serve", "--max-reviews", "2"}, "--max-reviews is gone: reviews take their simulations from the budget of --searches"},
		{[]string{"serve", "--max-level", "silly"}, `--max-level: agent: unknown level "silly"`},
		{[]string{"serve", "--log-format", "xml"}, `--log-format "xml"`},
		{[]string{"serve", "--move-timeout", "0s"}, "--move-timeout 0s"},
		{[]string{"serve", "--level", "silly"}, `unknown level "silly"`},
		{[]string{"serve", "--addr", "256.0.0.1:99999"}, "serve: listen"},
		{[]string{"serve", "--model", "/nonexistent.safetensors"}, "nonexistent.safetensors"},
		{[]string{"serve", "extra"}, `unexpected argument "extra"`},
	})
}
