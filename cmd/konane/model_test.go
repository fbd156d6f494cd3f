package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModelNewAndInfo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen0.safetensors")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"model", "new", "--size", "5", "--seed", "3", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"model", "info", path}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"board:       5x5", "arch:        res32x2gp-v32", "generation:  0", "steps:       0",
		"parent:      (none)", "seed:        3", "format:      version 1, input encoding 1", "created:     "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("info output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestModelErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("not a model"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"model"}, "missing action"},
		{[]string{"model", "info"}, "exactly one FILE"},
		{[]string{"model", "frob", "x"}, `unknown action "frob"`},
		{[]string{"model", "info", junk}, "model: net: model " + junk},
		{[]string{"model", "info", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"model", "new", filepath.Join(dir, "m")}, "--size 0"},
		{[]string{"model", "new", "--size", "6", "--filters", "0", filepath.Join(dir, "m")}, "model: net: 0 filters"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), tc.args, nil, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
}
