package passgpfast

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/passgp-fast/passgp-fast/kernel"
)

// Relevances are the learned relevances of the input features of a
// classifier whose kernel has one length scale per feature (seard,
// seard+bias): automatic relevance determination (Rasmussen & Williams
// 2006, §5.1). Feature j here is column j of the input matrix, which is
// feature j+1 in the numbering a user sees: the LIBSVM index, the
// (j+1)-th feature column of a CSV file (label column not counted), pixel
// j+1 of an IDX image.
type Relevances struct {
	// Raw[k][j] = 1/ℓ²_kj, with ℓ²_kj = t2_j the squared length scale of
	// feature j in binary classifier k (model.Model.Binaries order: one
	// per class for one-vs-rest, one otherwise). The kernel is
	// exp(-½ Σ_j (x_j-x'_j)²/ℓ²_j), so 1/ℓ²_j is the curvature of the
	// log covariance along feature j: how fast the latent function can
	// change as feature j moves. A large ℓ_j makes the function nearly
	// constant along feature j, which the evidence chooses when feature
	// j does not help to explain the labels.
	//
	// The units are those of the model's scaled inputs (Scale): the
	// classifier saw the features after its stored Scaling, so 1/ℓ² per
	// squared standard deviation with standard scaling and per squared
	// half range with minmax, which puts every feature on one footing;
	// with no scaling, per squared unit of each feature as given, so
	// features on different scales compare only through their units.
	Raw [][]float64 `json:"raw"`
	// Normalized[k] is Raw[k] divided by its largest entry: 1 for the
	// most relevant feature of classifier k.
	Normalized [][]float64 `json:"normalized"`
	// Mean[j] is the mean over the classifiers of Normalized[k][j] (for
	// one classifier, Normalized[0]): the summary that train prints and
	// plot draws.
	Mean []float64 `json:"mean"`
	// Scale is the scaling of the space the relevances are measured in:
	// "standard", "minmax" or "" (none), as Config.Scale.
	Scale string `json:"scale,omitempty"`
}

// Relevances returns the feature relevances of c. ok is false, and r the
// zero value, when c's kernel has no length scale per feature (se,
// se+bias, se+lin, poly): as with HeldOut, a missing quantity is reported
// by the comma-ok idiom rather than an error, since it is not a failure.
func (c *Classifier) Relevances() (r Relevances, ok bool) {
	k := len(c.m.Binaries)
	len2 := make([][]float64, k)
	for i, b := range c.m.Binaries {
		if len2[i], ok = ardLen2(b.Kernel); !ok || len(len2[i]) != len(len2[0]) {
			return Relevances{}, false
		}
	}
	if k == 0 || len(len2[0]) == 0 {
		return Relevances{}, false
	}
	d := len(len2[0])
	r.Raw, r.Normalized, r.Mean = make([][]float64, k), make([][]float64, k), make([]float64, d)
	for i := range len2 {
		raw, norm := make([]float64, d), make([]float64, d)
		for j, l := range len2[i] {
			raw[j] = 1 / l
		}
		top := slices.Max(raw)
		for j, v := range raw {
			norm[j] = v / top
			r.Mean[j] += norm[j] / float64(k)
		}
		r.Raw[i], r.Normalized[i] = raw, norm
	}
	var o struct {
		Scale string `json:"scale"`
	}
	if c.m.Scaling != nil && json.Unmarshal(c.m.Options, &o) == nil {
		r.Scale = o.Scale
	}
	return r, true
}

// ardLen2 returns the squared length scales of an ARD kernel.
func ardLen2(k kernel.Kernel) ([]float64, bool) {
	switch k := k.(type) {
	case kernel.SEARD:
		return k.Len2, true
	case kernel.SEARDBias:
		return k.Len2, true
	}
	return nil, false
}

// Ranked returns the feature indices (0-based columns) ordered by Mean,
// most relevant first; ties keep the lower index first.
func (r Relevances) Ranked() []int {
	idx := make([]int, len(r.Mean))
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(r.Mean[b], r.Mean[a]) })
	return idx
}

// Ignored counts the features whose Mean is below frac times the largest
// Mean: with frac = 0.01, the features the kernel effectively ignores
// (their length scale is 10 times the most relevant feature's or more).
func (r Relevances) Ignored(frac float64) int {
	if len(r.Mean) == 0 {
		return 0
	}
	top, n := slices.Max(r.Mean), 0
	for _, v := range r.Mean {
		if v < frac*top {
			n++
		}
	}
	return n
}
