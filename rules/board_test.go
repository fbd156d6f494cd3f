package rules

import "testing"

func TestSizeList(t *testing.T) {
	for _, tc := range []struct {
		sizes []int
		want  string
	}{{nil, "none"}, {[]int{5}, "5x5"}, {[]int{6, 8}, "6x6, 8x8"}} {
		if got := SizeList(tc.sizes); got != tc.want {
			t.Errorf("SizeList(%v) = %q, want %q", tc.sizes, got, tc.want)
		}
	}
}
