package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/konanezero/konane/net"
)

func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"version"}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "konane ") || !strings.HasSuffix(out.String(), "network backend "+net.Backend+"\n") {
		t.Errorf("konane version printed %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"version", "--backend"}, strings.NewReader(""), &out, &errOut); err != nil || out.String() != net.Backend+"\n" {
		t.Errorf("konane version --backend: %v, %q", err, out.String())
	}
	if err := run(context.Background(), []string{"version", "extra"}, strings.NewReader(""), &out, &errOut); err == nil {
		t.Error("konane version extra: no error")
	}
}
