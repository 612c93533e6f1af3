package data

// rowBuf collects dense rows of a common stride in fixed-size chunks, so
// that growing never copies what was read; dense copies them once into the
// exact result.
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
