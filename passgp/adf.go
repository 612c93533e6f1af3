package passgp

import (
	"math"

	"github.com/passgp-fast/passgp-fast/ep"
)

// adfSites starts the points that a batch includes after PASS-GP's budget
// has bound (State.Frozen) at their ADF sites instead of zero sites, lets
// that batch's EP stop after one sweep (ep.Options.MinSweeps 1) and keeps
// warm sites below zero sites' log Z_EP (ep.Options.KeepWarm). Tests
// compare runs without it. Why: with θ fixed, an included point's
// predictive distribution is its cavity in the next posterior, so one ADF
// step (Minka 2001) puts its site where EP's first sweep would (a batch of
// the noisy 10-class task: one or two sweeps instead of three). Before the
// budget binds the θ searches keep zero sites: their path is fragile to
// the last digits (IJCNN1).
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
