package player

// pvTable holds the principal variations of a search in progress, of
// moves M (the triangular table of Engine): pv[ply][:pvLen[ply]] is the
// best line found from ply on.
type pvTable[M any] struct {
	pv    [maxPly + 1][maxPly + 1]M
	pvLen [maxPly + 1]int
}

// setPV makes m followed by the child's principal variation the principal
// variation at ply.
func (t *pvTable[M]) setPV(ply int, m M) {
	t.pv[ply][0] = m
	n := 1
	if ply+1 <= maxPly {
		n += copy(t.pv[ply][1:], t.pv[ply+1][:t.pvLen[ply+1]])
	}
	t.pvLen[ply] = n
}
