package mldata

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Table is a data set read from R's CSV: numeric features and a class
// name per row.
type Table struct {
	Rows    [][]float64
	Class   []int    // index into Classes
	Classes []string // sorted
	D       int
}

// ReadCSV reads write.csv's output: a header, then rows whose label is
// the first column for LetterRecognition and the last otherwise. An "Id"
// column is dropped, and so is a row with a missing value (NA).
func ReadCSV(path, name string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %v", path, err)
	}
	lab := len(head) - 1
	if name == "LetterRecognition" {
		lab = 0
	}
	var cols []int
	for j, h := range head {
		if j != lab && h != "Id" {
			cols = append(cols, j)
		}
	}
	t := &Table{D: len(cols)}
	var names []string
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		row := make([]float64, len(cols))
		missing := false
		for k, j := range cols {
			v := strings.TrimSpace(rec[j])
			if v == "NA" || v == "" {
				missing = true
				break
			}
			if row[k], err = strconv.ParseFloat(v, 64); err != nil || math.IsInf(row[k], 0) || math.IsNaN(row[k]) {
				return nil, fmt.Errorf("%s line %d column %q: %q is not a finite number", path, line, head[j], v)
			}
		}
		if missing || strings.TrimSpace(rec[lab]) == "NA" {
			continue
		}
		t.Rows = append(t.Rows, row)
		names = append(names, rec[lab])
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%s: no complete rows", path)
	}
	t.Classes = slices.Compact(slices.Sorted(slices.Values(names)))
	t.Class = make([]int, len(names))
	for i, c := range names {
		t.Class[i], _ = slices.BinarySearch(t.Classes, c)
	}
	return t, nil
}

// Split returns the training and test rows: of every class, a share
// (rounded; none of a class with one row) goes to the test split, at
// random with the seed; both splits are shuffled.
func (t *Table) Split(seed uint64, share float64) (train, test []int) {
	rng := rand.New(rand.NewPCG(seed, 0x6d6c6265))
	for c := range t.Classes {
		var idx []int
		for i, k := range t.Class {
			if k == c {
				idx = append(idx, i)
			}
		}
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		k := 0
		if len(idx) > 1 {
			k = max(1, int(math.Round(share*float64(len(idx)))))
		}
		test = append(test, idx[:k]...)
		train = append(train, idx[k:]...)
	}
	rng.Shuffle(len(train), func(a, b int) { train[a], train[b] = train[b], train[a] })
	rng.Shuffle(len(test), func(a, b int) { test[a], test[b] = test[b], test[a] })
	return train, test
}

// Write writes the rows idx in LIBSVM format, every feature explicit (so
// that both files have all d), the label being the class index.
func (t *Table) Write(path string, idx []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, i := range idx {
		w.WriteString(strconv.Itoa(t.Class[i]))
		for j, v := range t.Rows[i] {
			fmt.Fprintf(w, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
