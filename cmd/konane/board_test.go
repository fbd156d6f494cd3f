package main

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// TestBoardFlag: --size reads a whole number, get checks its range with
// the command's name and gives 0 when the flag is absent.
func TestBoardFlag(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		size    int
		given   bool
		wantErr string
	}{
		{nil, 0, false, ""},
		{[]string{"--size", "6"}, 6, true, ""},
		{[]string{"--size", "9"}, 0, true, "cmd: --size 9: supported board sizes are 4..8"},
		{[]string{"--size", "0"}, 0, true, "cmd: --size 0: supported board sizes are 4..8"},
		{[]string{"--size", "six"}, 0, false, `invalid value "six" for flag -size: want a whole number`},
	} {
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		b := addBoardFlag(fs, "required")
		err := fs.Parse(tc.args)
		size := 0
		if err == nil {
			size, err = b.get("cmd")
		}
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
		case err != nil || size != tc.size || b.Given() != tc.given:
			t.Errorf("%v: size %d given %v err %v, want %d %v", tc.args, size, b.Given(), err, tc.size, tc.given)
		}
	}
}
