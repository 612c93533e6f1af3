package passgpfast

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// recorder keeps a training run's checkpoint in step with the library's
// callbacks, and collects what the classifier is assembled from.
type recorder struct {
	s        *settings
	cp       *model.Checkpoint
	mu       sync.Mutex // classes side by side finish concurrently
	lastSave time.Time
	cancel   func()
	ckErr    error
	// cal is the calibration passgp fitted on the training data.
	cal *calib.Calibration
	// heldOut and heldShare are each classifier's held-out latents of
	// the training points and their prior-variance shares
	// (passgp.Result.HeldOut, HeldOutShare), the data of cal's fit; nil
	// for a binary run resumed after its classifier finished.
	heldOut, heldShare [][]float64
	// held numbers the held-out latents among the training points
	// (passgp.HeldOutRows; nil: all of them, in order).
	held []int
	// seed draws the folds of the cross-fitted estimate (Options.Seed).
	seed uint64
}

// run trains the prepared run on ds (scaled) and assembles the classifier.
func (s *settings) run(ctx context.Context, ds *data.Dataset, p *prepared, x passgp.Rows) (*Classifier, error) {
	cp := p.Checkpoint
	o, err := p.cfg.Options(ds.D)
	if err != nil {
		return nil, err
	}
	o.Threads = s.threads
	if s.start != nil {
		s.start(Plan{Mode: cp.Mode, Classes: cp.Classes, Classifiers: nClassifiers(cp), Done: len(cp.Done), Config: p.cfg, N: ds.N, D: ds.D})
	}
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &recorder{s: s, cp: cp, cancel: cancel, held: o.HeldOutRows(ds.N), seed: o.Seed}
	err = r.train(tctx, x, ds.Y, o)
	if r.ckErr != nil {
		return nil, r.ckErr
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			if serr := r.save(); serr != nil {
				return nil, serr
			}
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", source(ds), err)
	}
	m, err := buildModel(cp)
	if err != nil {
		return nil, err
	}
	m.Calibration, m.Scaling = r.cal, p.scaling
	c := &Classifier{m: m}
	if est, ok, err := r.heldOutMetrics(ctx, m, x, ds.Y, estimateReselects(o)); err != nil {
		return nil, err
	} else if ok {
		c.heldOut = &est
	}
	return c, nil
}

// save writes the checkpoint (when WithCheckpoint asked for one).
func (r *recorder) save() error {
	if r.s.ckPath == "" {
		return nil
	}
	r.lastSave = time.Now()
	return model.SaveCheckpoint(r.s.ckPath, r.cp)
}

func (r *recorder) saveOrStop() {
	if err := r.save(); err != nil && r.ckErr == nil {
		r.ckErr = err
		r.cancel()
	}
}

// label is the name of classifier k: its positive class.
func (r *recorder) label(k int) float64 {
	if r.cp.Mode == model.Binary {
		return r.cp.Classes[1]
	}
	return r.cp.Classes[k]
}

// progress passes a batch of classifier k on to WithProgress.
func (r *recorder) progress(k int, p passgp.Progress) {
	if r.s.state != nil {
		r.s.state(k)
	}
	if r.s.progress != nil {
		r.s.progress(Progress{Progress: p, Classifier: k, Classifiers: nClassifiers(r.cp)})
	}
}

// snapshots returns f, the receiver of passgp's snapshot after every
// batch, when the run writes checkpoints, and nil otherwise: a snapshot
// copies the batches' order, N integers, which at N = 10⁸ is 800 MB a
// batch.
func (r *recorder) snapshots(f func(*passgp.State)) func(*passgp.State) {
	if r.s.ckPath == "" {
		return nil
	}
	return f
}

// batch records the snapshot of classifier k after a batch and writes the
// checkpoint at most every WithCheckpoint's interval.
func (r *recorder) batch(k int, s *passgp.State) {
	r.cp.Current, r.cp.State = k, s
	if r.s.ckPath != "" && time.Since(r.lastSave) >= r.s.ckEvery {
		r.saveOrStop()
	}
}

// done records finished classifier k, reports it and writes the
// checkpoint.
func (r *recorder) done(k int, res *passgp.Result) {
	c := model.FromBinary(res.Model)
	c.Class = r.label(k)
	c.Elapsed = res.Elapsed.Seconds()
	c.History = history(res.Batches)
	r.cp.Done = append(r.cp.Done, c)
	if res.HeldOut != nil {
		r.cp.Held = append(r.cp.Held, model.HeldOut{Class: c.Class, Z: res.HeldOut, Share: res.HeldOutShare, Lost: res.HeldOutLost})
	}
	r.cp.Current, r.cp.State = k+1, nil
	if r.s.report != nil {
		r.s.report(newReport(k, c.Class, res))
	}
	if k+1 < nClassifiers(r.cp) {
		r.saveOrStop()
	}
}

// doneAny is done for classes that finish in any order (side by side):
// the finished classifiers stay in class order.
func (r *recorder) doneAny(k int, res *passgp.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done(k, res)
	slices.SortFunc(r.cp.Done, func(a, b model.Classifier) int {
		return cmp.Compare(slices.Index(r.cp.Classes, a.Class), slices.Index(r.cp.Classes, b.Class))
	})
	r.cp.Current = len(r.cp.Done)
}

// train trains the run's classifiers on x with labels y: TrainMulti for a
// one-vs-rest run, Train otherwise.
func (r *recorder) train(ctx context.Context, x passgp.Rows, y []float64, o passgp.Options) error {
	if r.cp.Mode == model.OneVsRest {
		return r.trainMulti(ctx, x, y, o)
	}
	return r.trainBinary(ctx, x, targets(r.cp, y, 0), o)
}

// trainBinary trains the one classifier of a Binary or PositiveVsRest run
// with passgp.Train.
func (r *recorder) trainBinary(ctx context.Context, x passgp.Rows, y []float64, o passgp.Options) error {
	if r.cp.Current > 0 {
		// Resumed after the classifier finished: fit its calibration, on
		// its held-out latents as the uninterrupted run did where the
		// checkpoint has them.
		if h := r.cp.HeldOutOf(r.cp.Done[0].Class); h != nil {
			var err error
			r.cal, err = calib.FitBinary(h.Z, h.Share, passgp.Gather(y, r.held))
			r.heldOut, r.heldShare = [][]float64{h.Z}, [][]float64{h.Share}
			return err
		}
		b, err := r.cp.Done[0].Build()
		if err != nil {
			return err
		}
		r.cal, err = passgp.CalibrateBinaryRows(b, x, y)
		return err
	}
	name := model.FormatLabel(r.label(0))
	o.Progress = func(p passgp.Progress) {
		p.Class = name
		r.progress(0, p)
	}
	o.Resume = r.cp.State
	o.Checkpoint = r.snapshots(func(s *passgp.State) { r.batch(0, s) })
	res, err := passgp.TrainRows(ctx, x, y, &o)
	if err != nil {
		return fmt.Errorf("classifier %s: %w", name, err)
	}
	r.done(0, res)
	r.cal = res.Calibration
	r.heldOut, r.heldShare = [][]float64{res.HeldOut}, [][]float64{res.HeldOutShare}
	return nil
}

// trainMulti trains a one-vs-rest run with passgp.TrainMulti, one class
// at a time (a checkpoint holds one class in progress), resuming from the
// checkpoint's finished classifiers and snapshot, or side by side
// (WithClassesSideBySide, or every class at once with a remote scorer).
func (r *recorder) trainMulti(ctx context.Context, x passgp.Rows, labels []float64, o passgp.Options) error {
	cp := r.cp
	index := make(map[float64]int, len(cp.Classes))
	names := make(map[string]int, len(cp.Classes))
	for k, c := range cp.Classes {
		index[c] = k
		names[strconv.FormatFloat(c, 'g', -1, 64)] = k
	}
	var err error
	if o.Multi.Finished, err = finished(cp); err != nil {
		return err
	}
	if cp.State != nil {
		s := *cp.State
		s.Class = cp.Classes[cp.Current]
		o.Resume = &s
	}
	o.Progress = func(p passgp.Progress) { r.progress(names[p.Class], p) }
	o.Multi.ClassWorkers = 1
	o.Checkpoint = r.snapshots(func(s *passgp.State) { r.batch(index[s.Class], s) })
	o.Multi.ClassDone = func(c float64, res *passgp.Result) { r.done(index[c], res) }
	if (r.s.sideBySide || r.s.remote != nil) && r.s.ckPath == "" && cp.State == nil && len(cp.Done) == 0 && o.Method != passgp.Full && o.Augment == nil {
		// Full EP and the invariance stage hold posteriors of thousands
		// of points per class: one class at a time.
		// The classes are independent and seeded alike, so the
		// classifiers are the ones trained one after another.
		o.Multi.ClassWorkers = 0
		if r.s.remote != nil {
			// The scoring, most of a class's work, runs on the remote
			// scorer's workers: every class at once, so that their
			// pipelines run side by side, whatever the BLAS policy.
			o.Multi.ClassWorkers = len(cp.Classes)
		}
		o.Checkpoint = nil
		o.Multi.ClassDone = func(c float64, res *passgp.Result) { r.doneAny(index[c], res) }
	}
	mr, err := passgp.TrainMultiRows(ctx, x, labels, &o)
	if err == nil {
		r.cal = mr.Calibration
		for _, res := range mr.PerClass {
			r.heldOut = append(r.heldOut, res.HeldOut)
			r.heldShare = append(r.heldShare, res.HeldOutShare)
		}
	}
	return err
}

// finished returns the checkpoint's finished classifiers for
// passgp.Options.Multi.Finished.
func finished(cp *model.Checkpoint) (map[float64]*passgp.Result, error) {
	f := make(map[float64]*passgp.Result, len(cp.Done))
	for i := range cp.Done {
		b, err := cp.Done[i].Build()
		if err != nil {
			return nil, fmt.Errorf("checkpoint: finished classifier %d: %w", i, err)
		}
		res := &passgp.Result{Model: b}
		if h := cp.HeldOutOf(cp.Done[i].Class); h != nil {
			res.HeldOut, res.HeldOutShare, res.HeldOutLost = h.Z, h.Share, h.Lost
		}
		f[cp.Done[i].Class] = res
	}
	return f, nil
}

// targets returns the ±1 labels of classifier k.
func targets(cp *model.Checkpoint, y []float64, k int) []float64 {
	pos := cp.Classes[len(cp.Classes)-1]
	if cp.Mode != model.Binary {
		pos = cp.Classes[k]
	}
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = -1
		if v == pos {
			t[i] = 1
		}
	}
	return t
}

// nClassifiers is the number of binary classifiers of the run.
func nClassifiers(cp *model.Checkpoint) int {
	if cp.Mode == model.OneVsRest {
		return len(cp.Classes)
	}
	return 1
}

func history(bs []passgp.BatchStats) []model.Batch {
	h := make([]model.Batch, len(bs))
	for i, b := range bs {
		h[i] = model.Batch{Pass: b.Pass, Batch: b.Batch, Active: b.Active, Included: b.Included, Deleted: b.Deleted, LogZ: b.LogZ}
	}
	return h
}

// buildModel rebuilds the finished classifiers of cp as a model, exactly
// as model.Load does.
func buildModel(cp *model.Checkpoint) (*model.Model, error) {
	m := &model.Model{Mode: cp.Mode, Classes: cp.Classes, Options: cp.Options}
	for i := range cp.Done {
		b, err := cp.Done[i].Build()
		if err != nil {
			return nil, fmt.Errorf("classifier %d: %w", i, err)
		}
		m.Binaries = append(m.Binaries, b)
		m.History = append(m.History, cp.Done[i].History)
		m.Elapsed = append(m.Elapsed, time.Duration(cp.Done[i].Elapsed*float64(time.Second)))
	}
	return m, nil
}
