package passgp

import (
	"context"
	"errors"
	"slices"

	"github.com/passgp-fast/passgp-fast/ep"
)

// boundTheta is the second θ that Options.BoundFITC's trial weighs where
// the budget binds (with Options.RestartStalled): EP on the classifier's
// active set at the run's initial θ (Result.Theta0) and, if the evidence
// (with Options.Prior, the posterior's objective) is higher there than at
// the kept θ, a search from there of at most restartEvals evaluations. It
// returns the classifier at the θ that search ends at when that is higher
// still, else nil: EP's failures at the initial θ leave the kept θ alone,
// and only ctx's error is returned.
//
// Why: θ is kept from the batch in which the budget binds on, and a search
// on a boundary-heavy active set can drift to a short length scale whose
// evidence is a local optimum (the 10-class task, seed 4, class 6: t1 =
// 37.7, t2 = 2.49). Session 28's second start at that batch found the
// better θ for that class but a worse one for the noisy binary task, whose
// active set's evidence also prefers the start: the evidence cannot tell
// the two apart. The trial's held-out likelihood of every training label
// (boundPass) can, so the FITC posterior at this θ competes with the one
// at the kept θ there, and the winner's θ becomes the classifier's
// (docs/method.md).
func boundTheta(ctx context.Context, c *config, res *Result) (*Binary, error) {
	b := res.Model
	if c.FixedTheta || c.RestartStalled <= 0 || len(b.Y) < c.RestartStalled ||
		res.Theta0 == nil || slices.Equal(res.Theta0, b.Kernel.Params()) {
		return nil, nil
	}
	epo := c.epOptions()
	p0, err := ep.InferContext(ctx, b.Kernel.WithParams(res.Theta0), b.X, b.Y, nil, &epo)
	var nc *ep.NotConvergedError
	if errors.As(err, &nc) && nc.Post != nil {
		p0, err = nc.Post, nil
	}
	if err != nil || !(c.objective(p0) > c.objective(b.Post)) {
		return nil, ctx.Err()
	}
	warm := &ep.Sites{Tau: slices.Clone(p0.Sites.Tau), Nu: slices.Clone(p0.Sites.Nu)}
	opt, err := ep.OptimizeContext(ctx, p0.Kernel, b.X, b.Y, warm, c.optimizeOptions(restartEvals, epo))
	if err != nil {
		return nil, ctx.Err()
	}
	p2 := opt.Post
	if p2 == nil || !slices.Equal(p2.Kernel.Params(), opt.Kernel.Params()) {
		if p2, err = ep.InferContext(ctx, opt.Kernel, b.X, b.Y, warm, &epo); err != nil {
			if errors.As(err, &nc) && nc.Post != nil {
				p2, err = nc.Post, nil
			} else {
				return nil, ctx.Err()
			}
		}
	}
	if !(c.objective(p2) > c.objective(b.Post)) {
		return nil, nil
	}
	return newBinary(opt.Kernel, b.X, b.Y, b.Active, p2.Sites)
}

// objective is what θ searches maximise for posterior p: log Z_EP, plus
// the log prior of its θ with Options.Prior. The restarts of a stalled
// search (trainer.restart) and of the FITC trial (boundTheta) compare
// posteriors by it.
func (c *config) objective(p *ep.Posterior) float64 {
	v := p.LogZ
	if c.Prior != nil {
		v += ep.LogPrior(c.Prior, p.Kernel.Params(), nil)
	}
	return v
}
