package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/konanezero/konane/agent"
)

// TestHelp: "konane help CMD" and "konane CMD -help" print the command's
// usage, long help and flags; a bad flag gets the short usage only.
func TestHelp(t *testing.T) {
	for name, c := range commands {
		var out, errOut bytes.Buffer
		if err := run(context.Background(), []string{"help", name}, nil, &out, &errOut); err != nil {
			t.Errorf("help %s: %v", name, err)
		}
		text := out.String()
		if !strings.HasPrefix(text, "usage: konane "+c.usage+"\n") || !strings.Contains(text, strings.TrimSpace(c.long)) {
			t.Errorf("help %s:\n%s", name, text)
		}
		if !strings.Contains(text, "\nflags:\n") {
			t.Errorf("help %s lists no flags:\n%s", name, text)
		}
		out.Reset()
		if err := run(context.Background(), []string{name, "-help"}, nil, &out, &errOut); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errOut.String(), text) {
			t.Errorf("%s -help: %v\n%s", name, err, errOut.String())
		}
		errOut.Reset()
		err := run(context.Background(), []string{name, "--no-such-flag"}, nil, &out, &errOut)
		want := "usage: konane " + c.usage + "\n(run \"konane help " + name + "\" for details)\n"
		if err == nil || !strings.HasSuffix(errOut.String(), want) {
			t.Errorf("%s --no-such-flag: %v\n%s", name, err, errOut.String())
		}
	}
	if err := run(context.Background(), []string{"help", "nosuch"}, nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("help of an unknown command: no error")
	}
}

// TestHelpBoardsFromTable: the help of the commands that play against
// the computer lists the boards it plays from the one table
// (agent.Boards: the solver's boards and the shipped networks'), not by
// hand.
func TestHelpBoardsFromTable(t *testing.T) {
	var names []string
	for _, b := range agent.Boards() {
		names = append(names, b.String())
	}
	want := strings.Join(names, ", ")
	for _, name := range []string{"play", "serve", "gtp"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"help", name}, nil, &out, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(text, want) {
			t.Errorf("konane help %s does not list the boards %s", name, want)
		}
	}
}

// TestNoArgs: a command that takes no positional argument names the one
// given, in one line led by the command.
func TestNoArgs(t *testing.T) {
	for _, name := range []string{"analysis", "gtp", "openings", "play", "solve", "train", "version"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{name, "extra"}, strings.NewReader(""), &out, &out)
		if want := name + `: unexpected argument "extra"`; err == nil || err.Error() != want {
			t.Errorf("%s extra: %v, want %s", name, err, want)
		}
	}
	for _, args := range [][]string{{"dashboard", "--run", "x", "extra"}, {"ladder", "--run", "x", "extra"}, {"perft", "--depth", "1", "extra"}, {"selfplay", "--run", "x", "extra"}, {"serve", "extra"}} {
		var out bytes.Buffer
		err := run(context.Background(), args, strings.NewReader(""), &out, &out)
		if want := args[0] + `: unexpected argument "extra"`; err == nil || err.Error() != want {
			t.Errorf("%v: %v, want %s", args, err, want)
		}
	}
}

// errCase is a command line that must fail, and what its error says.
type errCase struct {
	args []string
	want string
}

// checkErrors runs each command line of cases and fails t for each that
// does not fail with an error that contains its want.
func checkErrors(t *testing.T, cases []errCase) {
	t.Helper()
	for _, tc := range cases {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, strings.NewReader(""), &out, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want %q", tc.args, err, tc.want)
		}
	}
}
