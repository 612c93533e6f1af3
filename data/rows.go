package data

// rowBuf collects dense rows of a common stride in fixed-size chunks, so
// that growing never copies what was read; dense copies them once into the
// exact result. Changing the stride re-lays out the chunks (LIBSVM files
// reveal their width as they go).
type rowBuf struct {
	chunks [][]float64 // each holds whole rows, len a multiple of stride
	stride int
	n      int
}

// chunkElems is the target size of a chunk (1 MiB of float64).
const chunkElems = 1 << 17

// add appends a zeroed row and returns it.
func (b *rowBuf) add() []float64 {
	b.n++
	k := len(b.chunks) - 1
	if k < 0 || cap(b.chunks[k])-len(b.chunks[k]) < b.stride {
		rows := max(1, chunkElems/max(b.stride, 1))
		b.chunks = append(b.chunks, make([]float64, 0, rows*b.stride))
		k++
	}
	c := b.chunks[k]
	row := c[len(c) : len(c)+b.stride]
	clear(row)
	b.chunks[k] = c[:len(c)+b.stride]
	return row
}

// setStride changes the row stride to s, padding rows with zeros or
// dropping trailing columns.
func (b *rowBuf) setStride(s int) {
	switch {
	case s == b.stride:
		return
	case b.stride == 0:
		// Rows of width 0 hold nothing: make them afresh.
		n := b.n
		b.chunks, b.n, b.stride = nil, 0, s
		for range n {
			b.add()
		}
		return
	}
	for k, c := range b.chunks {
		rows := len(c) / b.stride
		out := make([]float64, rows*s, max(rows, chunkElems/max(s, 1))*s)
		for r := range rows {
			copy(out[r*s:(r+1)*s], c[r*b.stride:(r+1)*b.stride])
		}
		b.chunks[k] = out
	}
	b.stride = s
}

// dense returns the rows as one n×d row-major slice (d <= stride drops
// trailing columns, d > stride pads with zeros).
func (b *rowBuf) dense(d int) []float64 {
	x := make([]float64, b.n*d)
	if b.stride == 0 {
		return x
	}
	w := min(d, b.stride)
	i := 0
	for _, c := range b.chunks {
		for r := 0; r+b.stride <= len(c); r += b.stride {
			copy(x[i*d:i*d+w], c[r:r+w])
			i++
		}
	}
	return x
}
