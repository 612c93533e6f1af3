package passgp

import (
	"math"

	"github.com/passgp-fast/passgp-fast/ep"
)

// adfSites starts the points that a batch includes after PASS-GP's budget
// has bound (State.Frozen) at their ADF sites instead of zero sites, lets
// that batch's EP stop after one sweep (ep.Options.MinSweeps 1) when the
// sweep changes log Z_EP by less than its tolerance, and keeps the warm
// sites even where their log Z_EP is below zero sites' (ep.Options.
// KeepWarm; on IJCNN every frozen batch had restarted from zero sites).
// Tests compare runs without it.
//
// Why: once the budget binds, θ stays fixed and each batch swaps a few
// percent of A. EP on the new active set starts from the last batch's
// sites (they are nearly at the new fixed point) and zero sites for the
// included points, whose sites the sweeps then build up: three sweeps per
// batch on the noisy 10-class task of docs/results.md, each an O(|A|³)
// refresh. The batch has already scored each included point: its
// predictive distribution under the batch's posterior, which is its
// cavity in the next batch's posterior as long as the other sites stay.
// The site moment matching gives for that cavity (one ADF step, Minka
// 2001; the IVM's update) is where EP's first sweep would take it, so
// the first sweep mostly finds the sites at rest: on that task log Z_EP
// changes by 6·10⁻⁶ to 4·10⁻³ in it, against 0.04 to 2.3 from zero sites,
// and a batch's EP takes one or two sweeps instead of three.
// Before the budget binds the sites warm-start θ
// searches, whose path a change in the last digits moves (IJCNN's is
// fragile), so the searches keep zero sites.
var adfSites = true

// adfSite is the site ep.MatchSite gives label y for the cavity N(mean,
// variance), or the zero site where that is not a usable site (a NaN or
// infinite score, or a negative precision).
func adfSite(y, mean, variance, flip float64) (tau, nu float64) {
	tau, nu = ep.MatchSite(y, mean, variance, flip)
	if !(tau >= 0) || math.IsInf(tau, 0) || math.IsNaN(nu) || math.IsInf(nu, 0) {
		return 0, 0
	}
	return tau, nu
}
