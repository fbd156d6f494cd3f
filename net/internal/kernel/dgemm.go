package kernel

// Dgemm computes C = alpha·op(A)·op(B) + beta·C in float64, by plain
// loops: the products of the float64 networks of the gradient check
// only (training and inference run in float32).
func Dgemm(tA, tB Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	at := func(i, p int) float64 {
		if tA == Trans {
			return a[p*lda+i]
		}
		return a[i*lda+p]
	}
	bt := func(p, j int) float64 {
		if tB == Trans {
			return b[j*ldb+p]
		}
		return b[p*ldb+j]
	}
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				s += at(i, p) * bt(p, j)
			}
			if beta == 0 {
				c[i*ldc+j] = alpha * s
			} else {
				c[i*ldc+j] = alpha*s + beta*c[i*ldc+j]
			}
		}
	}
}
