package main

import (
	"bufio"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/passgp-fast/passgp-fast/data"
)

// subsample returns n of the indices 0..size-1 drawn at random without
// replacement with seed (all of them when n is 0 or at least size), in
// random order.
func subsample(size, n int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x64657673))
	idx := rng.Perm(size)
	if n > 0 && n < size {
		idx = idx[:n]
	}
	return idx
}

// dropRare returns idx without the points of classes that have fewer
// than k of them there, and those classes' labels: a k-fold split cannot
// put such a class in every training part, and a model never trained on
// a class cannot score it.
func dropRare(y []float64, idx []int, k int) (kept []int, dropped []float64) {
	count := map[float64]int{}
	for _, i := range idx {
		count[y[i]]++
	}
	for _, i := range idx {
		if count[y[i]] >= k {
			kept = append(kept, i)
		}
	}
	for c, n := range count {
		if n < k {
			dropped = append(dropped, c)
		}
	}
	slices.Sort(dropped)
	return kept, dropped
}

// stratifiedFolds splits idx into k disjoint test folds covering it: the
// points of each class (classes in increasing label order) are shuffled
// with seed and dealt to the folds in turn, the deal going on from class
// to class, so every fold has each class's share to within one point and
// fold sizes differ by at most one. Each fold keeps idx's order.
func stratifiedFolds(y []float64, idx []int, k int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 0x666f6c64))
	byClass := map[float64][]int{}
	for _, i := range idx {
		byClass[y[i]] = append(byClass[y[i]], i)
	}
	fold := make(map[int]int, len(idx))
	next := 0
	for _, c := range slices.Sorted(maps.Keys(byClass)) {
		pts := byClass[c]
		rng.Shuffle(len(pts), func(a, b int) { pts[a], pts[b] = pts[b], pts[a] })
		for _, i := range pts {
			fold[i] = next
			next = (next + 1) % k
		}
	}
	folds := make([][]int, k)
	for _, i := range idx {
		folds[fold[i]] = append(folds[fold[i]], i)
	}
	return folds
}

// complement returns the points of idx that are not in fold, in idx's
// order: the training part of that fold.
func complement(idx, fold []int) []int {
	in := make(map[int]bool, len(fold))
	for _, i := range fold {
		in[i] = true
	}
	var out []int
	for _, i := range idx {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

// writeLIBSVM writes the rows idx of ds in LIBSVM format: the label, the
// non-zero features and always the last one (so that every fold file has
// all D features), each value in the shortest form that reads back
// exactly.
func writeLIBSVM(path string, ds *data.Dataset, idx []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	var buf []byte
	for _, i := range idx {
		buf = strconv.AppendFloat(buf[:0], ds.Y[i], 'g', -1, 64)
		for j, v := range ds.Row(i) {
			if v != 0 || j == ds.D-1 {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(j+1), 10)
				buf = append(buf, ':')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
