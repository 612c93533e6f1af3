package model

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/calib"
)

// readCSV reads the predict output that the code of format version 1
// wrote (testdata/*_v1.csv, made before the calibration existed).
func readCSV(t *testing.T, path string) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]float64
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		var row []float64
		for _, s := range strings.Split(sc.Text(), ",")[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return rows
}

// points reads testdata/points.libsvm (three features, dense).
func points(t *testing.T) *mat.Dense {
	t.Helper()
	b, err := os.ReadFile("testdata/points.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	x := mat.NewDense(len(lines), 3, nil)
	for i, l := range lines {
		for _, f := range strings.Fields(l)[1:] {
			k, v, _ := strings.Cut(f, ":")
			j, _ := strconv.Atoi(k)
			fv, _ := strconv.ParseFloat(v, 64)
			x.Set(i, j-1, fv)
		}
	}
	return x
}

// TestVersion1Files: model files written by format version 1 load
// without a calibration and predict as before. Bit for bit on one machine:
// the probabilities equal those of the same classifiers saved in the
// current format without a calibration. Against the probabilities the
// version 1 code wrote (testdata/*_v1.csv, on another CPU) within 1e-13:
// OpenBLAS picks its kernels by CPU, which changes the last bits.
func TestVersion1Files(t *testing.T) {
	x := points(t)
	for _, name := range []string{"multi", "binary"} {
		m, err := Load("testdata/" + name + "_v1.pgp")
		if err != nil {
			t.Fatal(err)
		}
		if m.FormatVersion != 1 || m.Calibration != nil {
			t.Fatalf("%s: version %d, calibration %v", name, m.FormatVersion, m.Calibration)
		}
		same := reencode(t, m)
		want := readCSV(t, "testdata/"+name+"_v1.csv")
		n, _ := x.Dims()
		p := mat.NewDense(n, len(m.Outputs()), nil)
		m.ProbTo(p, x)
		ps := mat.NewDense(n, len(m.Outputs()), nil)
		same.ProbTo(ps, x)
		if !mat.Equal(p, ps) {
			t.Fatalf("%s: the version 1 file and its re-encoding predict differently", name)
		}
		for i, row := range want {
			for j, w := range row {
				if got := p.At(i, j); math.Abs(got-w) > 1e-13 {
					t.Fatalf("%s row %d column %d: %v, version 1 gave %v", name, i, j, got, w)
				}
			}
		}
	}
}

// TestCalibrationRoundTrip: a model's calibration is saved (format version
// 2) and loaded exactly, and ProbTo then gives the calibrated
// probabilities.
func TestCalibrationRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 7)
	m.Calibration = &calib.Calibration{A: 2.5, B: []float64{0.1, -0.2, 0.05}}
	got := reencode(t, m)
	if got.FormatVersion != Version || got.Calibration == nil || got.Calibration.A != 2.5 || got.Calibration.B[1] != -0.2 {
		t.Fatalf("calibration after the round trip: %+v", got.Calibration)
	}
	const n = 17
	x := mat.NewDense(n, m.D(), nil)
	for i := range n {
		for j := range m.D() {
			x.Set(i, j, math.Sin(float64(3*i+j)))
		}
	}
	z := mat.NewDense(n, 3, nil)
	got.LatentTo(z, x)
	p := mat.NewDense(n, 3, nil)
	got.ProbTo(p, x)
	for i := 0; i < n; i++ {
		var s float64
		u := make([]float64, 3)
		for j := range u {
			u[j] = 2.5*z.At(i, j) + m.Calibration.B[j]
			s += math.Exp(u[j])
		}
		for j := range u {
			if w := math.Exp(u[j]) / s; math.Abs(p.At(i, j)-w) > 1e-12 {
				t.Fatalf("row %d: %v, want %v", i, p.At(i, j), w)
			}
		}
	}
	// A calibration whose size does not match the classifiers is refused.
	m.Calibration = &calib.Calibration{A: 1, B: []float64{0}}
	if _, err := Encode(m); err == nil {
		t.Error("a 1-class calibration of a 3-class model was written")
	}
	m.Calibration = &calib.Calibration{A: -1, B: []float64{0, 0, 0}}
	if _, err := Encode(m); err == nil {
		t.Error("a calibration with A < 0 was written")
	}
}
