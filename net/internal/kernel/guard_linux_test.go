//go:build linux

package kernel

import (
	"os"
	"syscall"
	"unsafe"
)

// guarded returns n floats that end right before an inaccessible page:
// reading or writing past the end faults. The mappings live as long as
// the test process.
func guarded(n int) []float32 {
	page := os.Getpagesize()
	size := (n*4+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]float32, n)
	}
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		return make([]float32, n)
	}
	end := size - page
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[end-n*4])), n)
}
