package rules

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Perft from the start of AbstractPlay's six boards equals the counts of
// AbstractPlay's own move generator (testdata/abstractplay-perft.txt says
// where they come from and how they were made), on the wide path and, on
// the boards up to 8x8, on the narrow one.
func TestPerftAbstractPlay(t *testing.T) {
	f, err := os.Open("testdata/abstractplay-perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[Board]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			t.Fatalf("bad line %q", line)
		}
		b, err := ParseBoard(fields[0])
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != fields[1] {
			t.Errorf("variant %s is %v here; the data says %s", fields[0], b, fields[1])
		}
		want := make([]uint64, len(fields)-2)
		for i, s := range fields[2:] {
			if want[i], err = strconv.ParseUint(s, 10, 64); err != nil {
				t.Fatalf("bad count in %q", line)
			}
		}
		if testing.Short() && len(want) > 6 {
			want = want[:6]
		}
		seen[b] = true
		wp, err := b.WidePosition()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]uint64, len(want))
		WidePerft(wp, got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s (%v) wide perft %v; AbstractPlay %v", fields[0], b, got, want)
		}
		if b.Narrow() {
			p, err := b.Position()
			if err != nil {
				t.Fatal(err)
			}
			got := make([]uint64, len(want))
			Perft(p, got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s (%v) perft %v; AbstractPlay %v", fields[0], b, got, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, b := range AbstractPlayBoards() {
		if !seen[b] {
			t.Errorf("no AbstractPlay counts for %v", b)
		}
	}
}
