//go:build amd64 && !openblas

package kernel

// baseBLAS is the package's own Sgemm (fmaBLAS), whose rows do not depend
// on the block: no padding.
func baseBLAS() (Sgemmer, bool) { return fmaBLAS{}, false }
