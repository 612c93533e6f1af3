// Command mnistscale chooses the input scale g of the MNIST polynomial
// covariance k(x,x') = t1 (g x·x' + 1)^9 + t3 δ(x,x') on a validation split
// of the training set (never the test set): for each scale it trains
// PASS-GP (MNIST settings of bench/repro: N_sub = 100, θ on every 10th
// batch) for one digit against the rest on the first -ntr training images
// and reports the error and Brier score on the remaining ones. With -ev N
// it reports instead the optimised log Z_EP of a random N-point subset for
// each scale (the evidence, for comparison). With -shifts it also runs the
// invariance stage of bench/repro (8 one-pixel shifts of the active images,
// θ fixed, p_inc = 0.9, -sub2 batches, -passes2 passes) and reports the
// validation error after it.
//
//	go run ./bench/mnistscale --data ../shared/data --digit 9 --g 1,3,6,12
//	go run ./bench/mnistscale --data ../shared/data --digit 0 --g 3 --shifts
//
// Scales are given in units of 1/784 (1 is LIBSVM's default gamma = 1/d).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/ep"
	"github.com/passgp-fast/passgp-fast/kernel"
	"github.com/passgp-fast/passgp-fast/passgp"
)

func main() {
	log.SetFlags(0)
	dir := flag.String("data", "../shared/data", "directory with train-images-idx3-ubyte.gz and train-labels-idx1-ubyte.gz")
	digit := flag.Int("digit", 9, "digit trained against the rest")
	gs := flag.String("g", "1,3,6,12", "comma-separated input scales, in units of 1/784")
	ntr := flag.Int("ntr", 50000, "training images used for training; the rest validate")
	sub := flag.Int("sub", 100, "number of batches N_sub")
	hypEvery := flag.Int("hyp-every", 10, "optimise θ on every K-th batch")
	seed := flag.Uint64("seed", 1, "random seed")
	threads := flag.Int("threads", 0, "threads (0: all cores)")
	shifts := flag.Bool("shifts", false, "also run the invariance stage (8 shifts, p_inc 0.9) and validate after it")
	sub2 := flag.Int("sub2", 5, "batches of the invariance stage (bench/repro: 5)")
	passes2 := flag.Int("passes2", 1, "passes of the invariance stage (bench/repro: 1)")
	evn := flag.Int("ev", 0, "evidence mode: optimised log Z_EP on a random subset of this size")
	flag.Parse()

	ds, err := data.Load(filepath.Join(*dir, "train-images-idx3-ubyte.gz"),
		data.Options{Labels: filepath.Join(*dir, "train-labels-idx1-ubyte.gz")})
	if err != nil {
		log.Fatal(err)
	}
	if *ntr <= 0 || *ntr >= ds.N {
		log.Fatalf("mnistscale: -ntr %d: want 0 < ntr < %d", *ntr, ds.N)
	}
	var scales []float64
	for _, s := range strings.Split(*gs, ",") {
		g, err := strconv.ParseFloat(s, 64)
		if err != nil || g <= 0 {
			log.Fatalf("mnistscale: -g: bad scale %q", s)
		}
		scales = append(scales, g)
	}
	d := ds.D
	x := mat.NewDense(*ntr, d, ds.X[:*ntr*d])
	xv := mat.NewDense(ds.N-*ntr, d, ds.X[*ntr*d:])
	pos := float64(*digit)
	y, err := data.BinaryLabels(ds.Y[:*ntr], &pos)
	if err != nil {
		log.Fatalf("mnistscale: training part: %v", err)
	}
	yv, err := data.BinaryLabels(ds.Y[*ntr:], &pos)
	if err != nil {
		log.Fatalf("mnistscale: validation part: %v", err)
	}
	polyAt := func(g float64) kernel.Poly {
		return kernel.Poly{Var: 1, Jitter: 1e-2, Degree: 9, Gamma: g / float64(d)}
	}

	if *evn > 0 {
		rng := rand.New(rand.NewPCG(*seed, 0))
		xs := mat.NewDense(*evn, d, nil)
		ys := make([]float64, *evn)
		for i, j := range rng.Perm(*ntr)[:*evn] {
			xs.SetRow(i, x.RawRowView(j))
			ys[i] = y[j]
		}
		for _, g := range scales {
			t0 := time.Now()
			r, err := ep.Optimize(polyAt(g), xs, ys, nil, &ep.OptimizeOptions{MaxEvals: 60})
			if err != nil {
				log.Fatalf("scale %g: %v", g, err)
			}
			fmt.Printf("digit %d scale %g/784: n %d log Z_EP %.3f theta %.4g (%d evaluations, %s) %v\n",
				*digit, g, *evn, r.Post.LogZ, r.Kernel.Params(), r.Evals, r.Status, time.Since(t0).Round(time.Second))
		}
		return
	}
	report := func(stage string, g float64, res *passgp.Result, el time.Duration) {
		prob := make([]float64, len(yv))
		res.Model.PredictTo(prob, xv)
		fmt.Printf("digit %d scale %g/784%s: validation error %.3f%% Brier %.4f |A| %d theta %.4g training %v\n", *digit, g, stage,
			100*calib.ProbErrorRate(prob, yv), calib.Brier(prob, yv), len(res.Model.Y), res.Model.Kernel.Params(), el.Round(time.Second))
	}
	for _, g := range scales {
		o := passgp.Options{Method: passgp.PASSGP, Kernel: polyAt(g), Sub: *sub, HypEvery: *hypEvery, Seed: *seed, Threads: *threads}
		t0 := time.Now()
		res, err := passgp.Train(context.Background(), x, y, &o)
		if err != nil {
			log.Fatalf("scale %g: %v", g, err)
		}
		report("", g, res, time.Since(t0))
		if !*shifts {
			continue
		}
		o2 := passgp.Options{Augment: &passgp.Augmentation{Shifts: 8, ImageW: 28, ImageH: 28, PInc: 0.9}, Sub: *sub2, Passes: *passes2, Seed: *seed, Threads: *threads}
		t0 = time.Now()
		res2, err := passgp.TrainAugmented(context.Background(), res.Model, x, y, &o2)
		if err != nil {
			log.Fatalf("scale %g, invariance stage: %v", g, err)
		}
		report(" +8 shifts", g, res2, time.Since(t0))
	}
}
