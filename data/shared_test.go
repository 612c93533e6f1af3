package data

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sharedData is the evaluation data directory (../shared/data from the
// repository root); tests using it skip when it is absent.
const sharedData = "../../shared/data"

func sharedFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(sharedData, name)
	if _, err := os.Stat(p); err != nil {
		// CI sets PASSGP_REQUIRE_SHARED=1 (.ci/run; internal/testenv,
		// which this package, importing nothing of ours, does not use).
		if v := os.Getenv("PASSGP_REQUIRE_SHARED"); v != "" && v != "0" {
			t.Fatalf("PASSGP_REQUIRE_SHARED is set, but %s is not available: %v", p, err)
		}
		t.Skipf("%s not available: %v", p, err)
	}
	return p
}

// labelCounts returns how often each of the labels 0..k-1 occurs, failing
// on any other label.
func labelCounts(t *testing.T, y []float64, k int) []int {
	t.Helper()
	c := make([]int, k)
	for i, v := range y {
		if v != float64(int(v)) || v < 0 || int(v) >= k {
			t.Fatalf("label %d = %v, want an integer in [0,%d)", i, v, k)
		}
		c[int(v)]++
	}
	return c
}

func valueRange(x []float64) (lo, hi float64) {
	return slices.Min(x), slices.Max(x)
}

// TestUSPS checks the counts in ../shared/data/README.md and that the LIBSVM
// conversion equals the original dense text read as CSV, value for value.
func TestUSPS(t *testing.T) {
	for _, tc := range []struct {
		libsvm, dense string
		n             int
		counts        []int
		long          bool
	}{
		{"usps.train.bz2", "usps-esl.zip.train.gz", 7291, []int{1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644}, false},
		{"usps.test.bz2", "usps-esl.zip.test.gz", 2007, []int{359, 264, 198, 166, 200, 160, 170, 147, 166, 177}, true},
	} {
		t.Run(tc.libsvm, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("short mode")
			}
			ds, err := Load(sharedFile(t, tc.libsvm), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, ds, tc.n, 256, nil, nil)
			if got := labelCounts(t, ds.Y, 10); !slices.Equal(got, tc.counts) {
				t.Errorf("label counts %v, want %v", got, tc.counts)
			}
			if lo, hi := valueRange(ds.X); lo != -1 || hi != 1 {
				t.Errorf("values in [%v, %v], want [-1, 1]", lo, hi)
			}
			dense, err := Load(sharedFile(t, tc.dense), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dense.X, ds.X) || !slices.Equal(dense.Y, ds.Y) {
				t.Errorf("%s and %s differ", tc.libsvm, tc.dense)
			}
		})
	}
}

func TestIJCNN1(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		neg, pos int
		lo, hi   float64
		long     bool
	}{
		{"ijcnn1.train.bz2", 49990, 45137, 4853, -0.930435, 1, false},
		{"ijcnn1.test.bz2", 91701, 82989, 8712, -1.321543, 1.312081, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("short mode")
			}
			ds, err := Load(sharedFile(t, tc.name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, ds, tc.n, 22, nil, nil)
			y, err := ds.BinaryLabels(nil)
			if err != nil {
				t.Fatal(err)
			}
			var neg, pos int
			for i, v := range y {
				if v != ds.Y[i] {
					t.Fatalf("label %d: %v mapped to %v", i, ds.Y[i], v)
				}
				if v > 0 {
					pos++
				} else {
					neg++
				}
			}
			if neg != tc.neg || pos != tc.pos {
				t.Errorf("labels -1: %d, +1: %d; want %d, %d", neg, pos, tc.neg, tc.pos)
			}
			if lo, hi := valueRange(ds.X); lo != tc.lo || hi != tc.hi {
				t.Errorf("values in [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

func TestMNIST(t *testing.T) {
	for _, tc := range []struct {
		images string
		n      int
		counts []int
		long   bool
	}{
		{"t10k-images-idx3-ubyte.gz", 10000, []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}, false},
		{"train-images-idx3-ubyte.gz", 60000, []int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}, true},
	} {
		t.Run(tc.images, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("short mode: MNIST train is 47M values")
			}
			ds, err := Load(sharedFile(t, tc.images), Options{}) // labels: the MNIST sibling
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, ds, tc.n, 784, nil, nil)
			if ds.ImageW != 28 || ds.ImageH != 28 {
				t.Errorf("image %dx%d, want 28x28", ds.ImageW, ds.ImageH)
			}
			if ds.Y == nil {
				t.Fatal("no labels: the sibling label file was not found")
			}
			if got := labelCounts(t, ds.Y, 10); !slices.Equal(got, tc.counts) {
				t.Errorf("label counts %v, want %v", got, tc.counts)
			}
			if lo, hi := valueRange(ds.X); lo != 0 || hi != 1 {
				t.Errorf("pixels in [%v, %v], want [0, 1]", lo, hi)
			}
		})
	}
}
