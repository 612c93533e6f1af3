package synth

import (
	"math"
	"math/rand/v2"

	"github.com/passgp-fast/passgp-fast/data"
)

// BandsNoise is the noise level of the demo problem.
const BandsNoise = 0.2

// Bands generates n points of a k-class problem in dim >= 2 dimensions
// with Gaussian noise of standard deviation noise (BandsNoise: the demo's):
// each class is a noisy curved band. In the first two coordinates the
// classes are interleaved arcs of a spiral whose neighbours overlap; the
// other coordinates bend with the arc position, so no class is linearly
// separable from the rest and the Bayes error is a few percent.
//
// It is the problem of `passgp-fast demo`.
func Bands(seed uint64, n, k, dim int, noise float64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	ds := &data.Dataset{N: n, D: dim, X: make([]float64, n*dim), Y: make([]float64, n), Source: "demo"}
	for i := 0; i < n; i++ {
		c := rng.IntN(k)
		t := rng.Float64() // position along the band
		ang := 2*math.Pi*float64(c)/float64(k) + 2.2*t
		r := 0.6 + 1.6*t
		row := ds.X[i*dim : (i+1)*dim]
		row[0] = r*math.Cos(ang) + noise*rng.NormFloat64()
		row[1] = r*math.Sin(ang) + noise*rng.NormFloat64()
		for j := 2; j < dim; j++ {
			row[j] = 0.7*math.Sin(3*t+float64(c)+0.9*float64(j)) + noise*rng.NormFloat64()
		}
		ds.Y[i] = float64(c)
	}
	return ds
}
