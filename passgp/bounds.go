package passgp

import (
	"math/rand/v2"
	"slices"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// len2Floor divides the median squared distance of the training inputs to
// give the default lower bound of the SE squared length scale t2.
const len2Floor = 20

// medianSqDist returns the median squared distance between distinct rows of
// a seeded sample of at most 200 rows of x.
func medianSqDist(x Rows, seed uint64) (float64, error) {
	n, d := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	idx := permPrefix(rng, n, 200)
	xs, err := readRows(x, idx)
	if err != nil || xs == nil {
		return 0, err
	}
	raw := xs.RawMatrix()
	var ds []float64
	for a := 0; a < len(idx); a++ {
		ra := raw.Data[a*raw.Stride : a*raw.Stride+d]
		for b := a + 1; b < len(idx); b++ {
			rb := raw.Data[b*raw.Stride : b*raw.Stride+d]
			s := 0.0
			for k, v := range ra {
				t := v - rb[k]
				s += t * t
			}
			ds = append(ds, s)
		}
	}
	if len(ds) == 0 {
		return 0, nil
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

// thetaBounds returns the bounds on θ passed to ep.Optimize: Options.Lower
// and Upper where given; otherwise, for the SE kernels, a floor on the
// squared length scale t2 of median squared distance / len2Floor, and ep's
// defaults for the rest (nil entries). Without the floor, optimising the
// evidence of an active set made of hard points can collapse t2 until the
// kernel is diagonal (every point explained by its own latent), a
// classifier that predicts the prior everywhere; we saw this on USPS with
// fPASS-GP (digit 8: t2 = 0.66 against a median squared distance near 100).
func thetaBounds(c *config, x Rows) (lower, upper []float64, err error) {
	lower, upper = c.Lower, c.Upper
	if lower != nil {
		return lower, upper, nil
	}
	switch c.Kernel.(type) {
	case kernel.SE, kernel.SELin:
	default:
		return nil, upper, nil
	}
	med, err := medianSqDist(x, c.Seed)
	if err != nil || med <= 0 {
		return nil, upper, err
	}
	lower = make([]float64, len(c.Kernel.Params()))
	for j := range lower {
		lower[j] = 1e-8 // ep.DefaultLower
	}
	lower[1] = min(med/len2Floor, c.Kernel.Params()[1])
	return lower, upper, nil
}
