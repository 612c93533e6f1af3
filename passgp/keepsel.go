package passgp

import "context"

// keepSelection refits res at the θ its active set was selected with
// where PASS-GP's final θ search undid the selection: the inactive points'
// held-out error exceeds the last pass's prequential error (its batches'
// Wrong over Scored) by more than two standard errors, the search having
// followed the evidence of boundary points to a θ under which the rest of
// the data is no longer explained (docs/method.md, Section 3).
func keepSelection(ctx context.Context, c *config, r *runner, res *Result, x Rows, y []float64, held []int) (*Result, error) {
	if c.Method != PASSGP || c.FixedTheta || c.Augment != nil || len(res.Batches) == 0 || budgetBound(res.Batches) {
		return res, nil // no final search
	}
	last := res.Batches[len(res.Batches)-1]
	var n, e [2]float64
	for _, b := range res.Batches {
		if b.Pass == last.Pass {
			n[0], e[0] = n[0]+float64(b.Scored), e[0]+float64(b.Wrong)
		}
	}
	_, yh, bh := HeldView(x, y, res.Model, held)
	inA := make([]bool, len(yh))
	for _, a := range bh.Active {
		if a >= 0 {
			inA[a] = true
		}
	}
	for i, z := range res.HeldOut {
		if !inA[i] {
			n[1]++
			if (z > 0) != (yh[i] > 0) {
				e[1]++
			}
		}
	}
	if !(e[1]/n[1]-e[0]/n[0] > 2*pooledSE(n, e)) {
		return res, nil
	}
	b, err := activeAt(ctx, res.Model, res.Model.Kernel.WithParams(last.Theta), c.finalEPOptions())
	if err != nil {
		return res, err
	}
	res.Model, res.AtBound = b, lastAtBound(res.Batches)
	return res, setHeldOut(ctx, r, res, x, y, c.geom(), held)
}
