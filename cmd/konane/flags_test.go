package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAnywhere: every subcommand reads its flags before, between and
// after its positional arguments, and "--" ends the flags. Each row puts a
// flag after a positional argument and names the error that only a parsed
// flag gives (a bad value, refused by the command's own check; or, for a
// command without positional arguments, the unknown flag, reported before
// the stray argument). Then "CMD -- -help" must treat -help as an argument.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	game, _ := writeGame(t, dir)
	model := filepath.Join(dir, "m.safetensors")
	noPositional := func(cmd string) []string { return []string{cmd, "stray", "--no-such-flag"} }
	tests := []struct {
		args []string
		want string // in the error
	}{
		{noPositional("analysis"), "flag provided but not defined"},
		{noPositional("bot"), "flag provided but not defined"},
		{[]string{"analyze", game, "--sims", "-1"}, "--sims -1: want 1.."},
		{[]string{"analyze", "--sims", "1", game, "--time", "-1s"}, "--time -1s: want a positive duration"},
		{[]string{"arena", "random", "--size", "3", "greedy"}, "size"},
		{[]string{"arena", "random", "greedy", "--parallel", "0", "--size", "6"}, "--parallel 0: want at least 1"},
		{noPositional("dashboard"), "flag provided but not defined"},
		{noPositional("gtp"), "flag provided but not defined"},
		{noPositional("ladder"), "flag provided but not defined"},
		{[]string{"model", "new", model, "--size", "3"}, "size"},
		{[]string{"model", "info", "--seed", "2", filepath.Join(dir, "none.safetensors"), "--no-such-flag"}, "flag provided but not defined"},
		{noPositional("openings"), "flag provided but not defined"},
		{noPositional("perft"), "flag provided but not defined"},
		{noPositional("play"), "flag provided but not defined"},
		{noPositional("selfplay"), "flag provided but not defined"},
		{noPositional("serve"), "flag provided but not defined"},
		{noPositional("solve"), "flag provided but not defined"},
		{noPositional("train"), "flag provided but not defined"},
		{noPositional("version"), "flag provided but not defined"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.args[0]] = true
		var out, errOut bytes.Buffer
		err := run(context.Background(), tt.args, strings.NewReader(""), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("konane %s: error %v, want one with %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
	for name := range commands {
		if !covered[name] {
			t.Errorf("no row of TestFlagsAnywhere for %q", name)
		}
		// After "--", -help is an argument: the command refuses it (or,
		// for arena and model, reads it as a spec or action) but prints
		// no help.
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{name, "--", "-help"}, strings.NewReader(""), &out, &errOut)
		if err == nil || errors.Is(err, flag.ErrHelp) || strings.Contains(errOut.String(), "flags:") {
			t.Errorf("konane %s -- -help: %v\n%s", name, err, errOut.String())
		}
	}
}

// TestParseFlags: the positional arguments come back in their order, with
// the flags taken out wherever they stood; "--" ends the flags, unless it
// is a flag's value.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		args []string
		out  string
		json bool
		rest []string
	}{
		{[]string{"a", "--out", "x", "b"}, "x", false, []string{"a", "b"}},
		{[]string{"--json", "a", "b", "--out=y"}, "y", true, []string{"a", "b"}},
		{[]string{"a", "--", "--json", "b"}, "", false, []string{"a", "--json", "b"}},
		{[]string{"--out", "--", "a", "--json"}, "--", true, []string{"a"}},
		{[]string{"--json", "--", "--out"}, "", true, []string{"--out"}},
		{[]string{"-", "--json"}, "", true, []string{"-"}},
		{nil, "", false, nil},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("konane test", flag.ContinueOnError)
		out := fs.String("out", "", "")
		asJSON := fs.Bool("json", false, "")
		if err := parseFlags(fs, tt.args); err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if *out != tt.out || *asJSON != tt.json || strings.Join(fs.Args(), " ") != strings.Join(tt.rest, " ") {
			t.Errorf("%q: out %q json %v args %q, want %q %v %q", tt.args, *out, *asJSON, fs.Args(), tt.out, tt.json, tt.rest)
		}
	}
}
