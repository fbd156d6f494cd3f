//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/konanezero/konane/internal/testwait"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the controlling side, which the test
// types into and reads, and the terminal side the command sees as its
// stdin and stdout, cols columns wide.
func openPTY(t *testing.T, cols int) (control, tty *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { control.Close(); tty.Close() })
	return control, tty
}

// screen collects what the command writes to the terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want n times in all.
func (s *screen) waitFor(t *testing.T, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(s.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q %d times:\n%q", want, n, s.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlayTerminal: on a real (pseudo-)terminal the line is edited in
// place (← and Ctrl-A move the cursor), ↑ recalls the last line instead
// of sending its escape code as a command, lists of moves break between
// moves at the terminal's width, and Ctrl-D leaves.
func TestPlayTerminal(t *testing.T) {
	control, tty := openPTY(t, 40)
	var scr screen
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := control.Read(buf)
			scr.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() {
		var stderr bytes.Buffer
		done <- run(context.Background(), []string{"play", "--size", "6", "--level", "easy"}, tty, tty, &stderr)
	}()
	typeIn := func(keys string) {
		t.Helper()
		if _, err := control.WriteString(keys); err != nil {
			t.Fatal(err)
		}
	}
	prompts := 1
	scr.waitFor(t, "black> ", prompts)
	typeIn("d4\r") // the computer replies, then the prompt again
	prompts++
	scr.waitFor(t, "black> ", prompts)
	typeIn("\x1b[A\r") // ↑ recalls d4: the removals are over
	scr.waitFor(t, `move "d4": illegal move: the removals are over`, 1)
	prompts++
	scr.waitFor(t, "black> ", prompts)
	typeIn("boad\x1b[Dr\r") // ← then r: "board"
	scr.waitFor(t, "x black, o white. black (you) to move.", 3)
	prompts++
	scr.waitFor(t, "black> ", prompts)
	typeIn("oves\x01m\r") // Ctrl-A then m: "moves"
	scr.waitFor(t, "legal moves (", 1)
	prompts++
	scr.waitFor(t, "black> ", prompts)
	typeIn("\x04") // Ctrl-D
	testwait.Returned(t, done, 30*time.Second, "Ctrl-D did not end the game")
	out := scr.String()
	if strings.Contains(out, "unknown command") {
		t.Errorf("an editing key was taken as a command:\n%q", out)
	}
	// The list of moves: every line within 40 columns, every move whole.
	list := out[strings.Index(out, "legal moves ("):]
	list = list[:strings.Index(list, "black> ")]
	move := regexp.MustCompile(`^[a-f][1-6](-[a-f][1-6])?$`)
	for i, l := range strings.Split(strings.TrimRight(list, "\r\n"), "\r\n") {
		if len(l) > 40 {
			t.Errorf("line %q is wider than the terminal", l)
		}
		if i == 0 {
			l = l[strings.Index(l, ": ")+2:]
		}
		for _, f := range strings.Fields(l) {
			if !move.MatchString(f) {
				t.Errorf("%q in the list of moves is not a whole move (line %q)", f, l)
			}
		}
	}
}
