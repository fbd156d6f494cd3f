package models

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestEveryModelDecodes: every embedded file is a model of the size its
// name says, and Sizes lists exactly the embedded files.
func TestEveryModelDecodes(t *testing.T) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("no model is embedded")
	}
	sizes := Sizes()
	if len(sizes) != len(entries) {
		t.Fatalf("Sizes() = %v for %d embedded files: a file is misnamed", sizes, len(entries))
	}
	for _, n := range sizes {
		m, err := Default(n)
		if err != nil {
			t.Fatalf("size %d: %v", n, err)
		}
		if m.Config().Size != n || m.Meta().Size != n {
			t.Errorf("%s: config size %d, metadata size %d", fileName(n), m.Config().Size, m.Meta().Size)
		}
	}
}

// TestShippedSizes: the product promises 8x8 (the standard board), 7x7
// and 6x6 (4x4 and 5x5 are the exact solver's, package agent).
func TestShippedSizes(t *testing.T) {
	for _, n := range []int{6, 7, 8} {
		if !slices.Contains(Sizes(), n) {
			t.Errorf("no %dx%d model shipped (have %v)", n, n, Sizes())
		}
	}
}

func TestDefaultMissingSize(t *testing.T) {
	_, err := Default(5)
	if err == nil {
		t.Fatal("Default(5): no error")
	}
	if !strings.Contains(err.Error(), "5x5") || !strings.Contains(err.Error(), SizeList()) {
		t.Errorf("error %q should name the size asked and the sizes shipped (%s)", err, SizeList())
	}
}
