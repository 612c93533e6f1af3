// Command uspsval compares settings of the USPS multi-class experiment on
// a validation split of the training set (never the test set unless -test
// is given): a fixed random 1458 of the 7291 training images (seed 12345,
// independent of the training seeds) are held out, the ten one-against-
// the-rest classifiers are trained on the rest with the given options for
// seeds -seed0 .. -seed0+seeds-1, and the multi-class validation error is
// reported per seed and as mean ± sd. Every setting uses the same split
// and seeds, so two settings can be compared seed by seed.
//
//	go run ./bench/uspsval --data ../shared/data                       # PASS-GP defaults
//	go run ./bench/uspsval --data ../shared/data --method fpassgp --theta
//
// With -test the classifiers are trained on all 7291 images and scored on
// the 2007 test images instead (to measure a setting already chosen).
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
	"gonum.org/v1/gonum/stat"

	"github.com/passgp-fast/passgp-fast/data"
	"github.com/passgp-fast/passgp-fast/la"
	"github.com/passgp-fast/passgp-fast/passgp"
)

func main() {
	log.SetFlags(0)
	dir := flag.String("data", "../shared/data", "directory with usps.train.bz2 and usps.test.bz2")
	method := flag.String("method", "passgp", "passgp, fpassgp, ivm, random")
	seeds := flag.Int("seeds", 10, "number of training seeds")
	seed0 := flag.Int("seed0", 1, "first training seed")
	nval := flag.Int("nval", 1458, "validation images held out of the training set")
	passes := flag.Int("passes", 0, "Options.Passes (0: default)")
	theta0 := flag.String("theta0", "", "initial θ t1,t2,t3 (default: passgp.DefaultKernel)")
	showTheta := flag.Bool("theta", false, "print every class's final θ, the components at a bound, and the errors predicted as it")
	test := flag.Bool("test", false, "train on all training images and score the test set")
	flag.Parse()

	m, err := passgp.ParseMethod(*method)
	if err != nil {
		log.Fatal(err)
	}
	x, y, xv, yv := load(*dir, *nval, *test)
	base := passgp.Options{Method: m, Passes: *passes}
	_, d := x.Dims()
	if *theta0 != "" {
		base.Kernel = passgp.DefaultKernel(m, d).WithParams(floats(*theta0))
	}
	set := "validation"
	if *test {
		set = "test"
	}
	nv, _ := xv.Dims()
	var errs []float64
	for s := *seed0; s < *seed0+*seeds; s++ {
		o := base
		o.Seed = uint64(s)
		t0 := time.Now()
		restore := la.LimitBLAS(1) // classes concurrently (passgp.TrainMulti)
		res, err := passgp.TrainMulti(context.Background(), x, y, &o)
		restore()
		if err != nil {
			log.Fatal(err)
		}
		pred := make([]float64, nv)
		res.Model.PredictTo(pred, xv)
		bad := 0
		wrongAs := make(map[float64]int) // errors by predicted class
		for i := range pred {
			if pred[i] != yv[i] {
				bad++
				wrongAs[pred[i]]++
			}
		}
		e := 100 * float64(bad) / float64(nv)
		errs = append(errs, e)
		var size []int
		for _, r := range res.PerClass {
			size = append(size, len(r.Model.Active))
		}
		fmt.Printf("seed %d: %s error %d/%d = %.2f%%, %.1f s, |A| %v\n", s, set, bad, nv, e, time.Since(t0).Seconds(), size)
		if *showTheta {
			for j, r := range res.PerClass {
				c := res.Model.Classes[j]
				var at []string
				for k, b := range r.AtBound {
					if b {
						at = append(at, r.Model.Kernel.ParamNames()[k])
					}
				}
				bound := ""
				if len(at) > 0 {
					bound = " (at a bound: " + strings.Join(at, ", ") + ")"
				}
				fmt.Printf("  class %v: θ %.4g%s, %d errors predicted as it\n", c, r.Model.Kernel.Params(), bound, wrongAs[c])
			}
		}
	}
	mean, sd := stat.MeanStdDev(errs, nil)
	if len(errs) < 2 {
		sd = 0
	}
	fmt.Printf("%s error %.3f ± %.3f %% over seeds %d-%d\n", set, mean, sd, *seed0, *seed0+*seeds-1)
}

// load returns the training and evaluation sets: with test, all training
// images and the test set; otherwise the training images less nval held
// out by a fixed permutation, and those nval.
func load(dir string, nval int, test bool) (x *mat.Dense, y []float64, xv *mat.Dense, yv []float64) {
	tr, err := data.Load(filepath.Join(dir, "usps.train.bz2"), data.Options{Dim: 256})
	if err != nil {
		log.Fatal(err)
	}
	if test {
		te, err := data.Load(filepath.Join(dir, "usps.test.bz2"), data.Options{Dim: 256})
		if err != nil {
			log.Fatal(err)
		}
		return tr.Dense(), tr.Y, te.Dense(), te.Y
	}
	all, ally := tr.Dense(), tr.Y
	n, d := all.Dims()
	if nval <= 0 || nval >= n {
		log.Fatalf("uspsval: -nval %d: want 1..%d", nval, n-1)
	}
	perm := rand.New(rand.NewPCG(12345, 678)).Perm(n)
	x, xv = mat.NewDense(n-nval, d, nil), mat.NewDense(nval, d, nil)
	y, yv = make([]float64, n-nval), make([]float64, nval)
	for k, i := range perm {
		if k < n-nval {
			x.SetRow(k, all.RawRowView(i))
			y[k] = ally[i]
		} else {
			xv.SetRow(k-(n-nval), all.RawRowView(i))
			yv[k-(n-nval)] = ally[i]
		}
	}
	return x, y, xv, yv
}

func floats(s string) []float64 {
	var v []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			log.Fatalf("uspsval: %q: %v", s, err)
		}
		v = append(v, x)
	}
	return v
}
