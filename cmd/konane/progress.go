package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far a long run is, for every command that shows it:
// a bar with the time left on a terminal, a plain line every tenth of the
// way otherwise, nothing when quiet.
type progress struct {
	cmd   string // names the plain lines
	w     io.Writer
	quiet bool
	tty   bool
	bar   *progressbar.ProgressBar
	start time.Time
	last  int // tenths reported so far (plain mode)
}

func newProgress(cmd string, w io.Writer, quiet bool) *progress {
	return &progress{cmd: cmd, w: w, quiet: quiet, tty: isTerminal(w)}
}

// isTerminal reports whether w is an interactive terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// update returns a callback for done/total counts of the given unit.
func (p *progress) update(unit string) func(done, total int) {
	if p.quiet {
		return nil
	}
	p.start, p.last, p.bar = time.Now(), 0, nil
	return func(done, total int) {
		if p.tty {
			if p.bar == nil {
				p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w),
					progressbar.OptionSetDescription(unit), progressbar.OptionShowCount(), progressbar.OptionShowIts(),
					progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
					progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
			}
			if total > p.bar.GetMax() {
				p.bar.ChangeMax(total)
			}
			p.bar.Set(done)
			return
		}
		if tenth := 10 * done / max(total, 1); tenth > p.last || done == total {
			p.last = tenth
			el := time.Since(p.start)
			left := time.Duration(float64(el) * float64(total-done) / float64(max(done, 1)))
			fmt.Fprintf(p.w, "%s: %d/%d %s, %s elapsed, about %s left\n", p.cmd, done, total, unit, roughly(el), roughly(left))
		}
	}
}

// roughly rounds a duration for display: to 0.1 s under 10 s, else to
// the second.
func roughly(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
