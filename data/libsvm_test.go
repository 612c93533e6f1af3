package data

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestReadLIBSVM(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		o        LIBSVMOptions
		n, d     int
		x, y     []float64
	}{
		{name: "basic", in: "1 1:0.5 3:2\n-1 2:-1\n", n: 2, d: 3,
			x: []float64{0.5, 0, 2, 0, -1, 0}, y: []float64{1, -1}},
		{name: "crlf and trailing blanks", in: "1 1:0.5 3:2  \r\n-1\t2:-1 \t\r\n", n: 2, d: 3,
			x: []float64{0.5, 0, 2, 0, -1, 0}, y: []float64{1, -1}},
		{name: "no final newline", in: "2 2:1", n: 1, d: 2, x: []float64{0, 1}, y: []float64{2}},
		{name: "comments blank lines qid", in: "# header\n\n3 qid:7 1:1 # note\n   \n5.5 2:2e-1#x\n", n: 2, d: 2,
			x: []float64{1, 0, 0, 0.2}, y: []float64{3, 5.5}},
		{name: "empty example", in: "0\n1 2:3\n", n: 2, d: 2, x: []float64{0, 0, 0, 3}, y: []float64{0, 1}},
		{name: "bom", in: "\xef\xbb\xbf7 1:1\n", n: 1, d: 1, x: []float64{1}, y: []float64{7}},
		{name: "min dim pads", in: "1 1:1\n", o: LIBSVMOptions{MinDim: 3}, n: 1, d: 3, x: []float64{1, 0, 0}, y: []float64{1}},
		{name: "dim fixes width", in: "1 1:1\n", o: LIBSVMOptions{Dim: 2, MinDim: 5}, n: 1, d: 2, x: []float64{1, 0}, y: []float64{1}},
		{name: "dim allows empty", in: "1\n", o: LIBSVMOptions{Dim: 1}, n: 1, d: 1, x: []float64{0}, y: []float64{1}},
		{name: "multi-class labels as written", in: "-1.0 1:1\n1.0 1:2\n10 1:3\n", n: 3, d: 1,
			x: []float64{1, 2, 3}, y: []float64{-1, 1, 10}},
		{name: "explicit zero and plus sign", in: "+1 1:0.0 2:+3\n", n: 1, d: 2, x: []float64{0, 3}, y: []float64{1}},
		{name: "width grows", in: "1 1:1\n2 2:2\n3 3:3 5:5\n4 2:4\n", n: 4, d: 5,
			x: []float64{1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 5, 0, 4, 0, 0, 0}, y: []float64{1, 2, 3, 4}},
		{name: "width grows past min dim", in: "1 1:1\n2 4:2\n", o: LIBSVMOptions{MinDim: 2}, n: 2, d: 4,
			x: []float64{1, 0, 0, 0, 0, 0, 0, 2}, y: []float64{1, 2}},
		{name: "long line", in: "1 " + longLine(20000) + "\n", n: 1, d: 20000, x: ones(20000), y: []float64{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadLIBSVM(strings.NewReader(tc.in), "f", tc.o)
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, ds, tc.n, tc.d, tc.x, tc.y)
		})
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		o        LIBSVMOptions
		want     string
	}{
		{"empty file", "", LIBSVMOptions{}, "f: empty file"},
		{"only comments", "# a\n\n  \n", LIBSVMOptions{}, "f: no examples"},
		{"index not increasing", "1 1:1\n1 2:1\n1 5:1 3:2\n", LIBSVMOptions{}, "f:3: feature index 3 not greater than previous 5"},
		{"index repeated", "1 2:1 2:1\n", LIBSVMOptions{}, "f:1: feature index 2 not greater than previous 2"},
		{"index zero", "1 0:1\n", LIBSVMOptions{}, "f:1: feature index 0 (indices start at 1)"},
		{"index negative", "1 -3:1\n", LIBSVMOptions{}, "f:1: feature index -3 (indices start at 1)"},
		{"index beyond dim", "1 1:1\n\n-1 4:1\n", LIBSVMOptions{Dim: 3}, "f:3: feature index 4 beyond dimension 3"},
		{"index huge", "1 99999999999:1\n", LIBSVMOptions{}, "f:1: feature index 99999999999 too large"},
		{"index overflow", "1 999999999999999999999:1\n", LIBSVMOptions{}, `f:1: feature index "999999999999999999999" too large`},
		{"malformed label", "abc 1:1\n", LIBSVMOptions{}, `f:1: malformed label "abc"`},
		{"label nan", "1 1:1\nNaN 1:1\n", LIBSVMOptions{}, `f:2: label "NaN" is not finite`},
		{"label inf", "inf 1:1\n", LIBSVMOptions{}, `f:1: label "inf" is not finite`},
		{"label overflow", "1e999 1:1\n", LIBSVMOptions{}, `f:1: label "1e999" out of range`},
		{"value nan", "1 1:nan\n", LIBSVMOptions{}, `f:1: value of feature 1 "nan" is not finite`},
		{"value inf", "1 2:-Inf\n", LIBSVMOptions{}, `f:1: value of feature 2 "-Inf" is not finite`},
		{"value overflow", "1 2:1e400\n", LIBSVMOptions{}, `f:1: value of feature 2 "1e400" out of range`},
		{"value malformed", "1 1:x\n", LIBSVMOptions{}, `f:1: malformed value of feature 1 "x"`},
		{"value empty", "1 1:\n", LIBSVMOptions{}, `f:1: empty value of feature 1`},
		{"value with colon", "1 1:2:3\n", LIBSVMOptions{}, `f:1: malformed value of feature 1 "2:3"`},
		{"token without colon", "1 1:1 7\n", LIBSVMOptions{}, `f:1: malformed feature "7" (want index:value)`},
		{"index empty", "1 :1\n", LIBSVMOptions{}, `f:1: malformed feature index "" in ":1"`},
		{"index not integer", "1 1.5:1\n", LIBSVMOptions{}, `f:1: malformed feature index "1.5"`},
		{"no features", "1\n-1\n", LIBSVMOptions{}, "f: no features"},
		{"crlf line count", "1 1:1\r\n1 1:1\r\n1 1:z\r\n", LIBSVMOptions{}, `f:3: malformed value of feature 1 "z"`},
		{"long token shortened", "1 1:" + strings.Repeat("9", 100) + "x\n", LIBSVMOptions{}, `f:1: malformed value of feature 1 "9999999999999999999999999999999999999999"...`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadLIBSVM(strings.NewReader(tc.in), "f", tc.o)
			checkError(t, ds, err, tc.want)
		})
	}
}

func TestReadLIBSVMTooLarge(t *testing.T) {
	defer func(m int64) { maxElements = m }(maxElements)
	maxElements = 100
	_, err := ReadLIBSVM(strings.NewReader("1 1:1\n1 101:1\n"), "f", LIBSVMOptions{})
	checkError(t, nil, err, "f:2: 2 examples x 101 features is too large to hold densely")
	_, err = ReadLIBSVM(strings.NewReader("1 1:1\n1 101:1\n"), "f", LIBSVMOptions{MaxBytes: 8 * 50})
	checkError(t, nil, err, "f:2: 2 examples x 101 features is too large to hold densely")
}

// TestReadLIBSVMHugeIndex: a two-line file whose feature index claims two
// billion features is refused on the line that claims it, with the real
// limits, before any dense matrix exists (it used to end the process with
// "fatal error: out of memory").
func TestReadLIBSVMHugeIndex(t *testing.T) {
	_, err := ReadLIBSVM(strings.NewReader("1 2000000000:1\n-1 1:1\n"), "f", LIBSVMOptions{})
	checkError(t, nil, err, "f:1: 1 examples x 2000000000 features is too large to hold densely")
	// Within the byte limit but far sparser than any dense use.
	_, err = ReadLIBSVM(strings.NewReader("1 1:1\n-1 5000000:1\n"), "f", LIBSVMOptions{})
	checkError(t, nil, err, "f:2: 2 examples x 5000000 features would be")
	// Wide but dense enough: accepted.
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		b.WriteString(" " + strconv.Itoa(i) + ":1")
	}
	ds, err := ReadLIBSVM(strings.NewReader("1"+b.String()+"\n-1 3000:2\n"), "f", LIBSVMOptions{})
	if err != nil || ds.D != 3000 || ds.Row(1)[2999] != 2 {
		t.Fatalf("wide file: %v", err)
	}
}

func TestReadLIBSVMStrideShrinks(t *testing.T) {
	defer func(m int64) { maxElements = m }(maxElements)
	// Width 3 after width 2 doubles the stride to 4 on line 2; 6 rows of 4
	// exceed the limit of 20 but 6 rows of 3 do not.
	maxElements = 20
	ds, err := ReadLIBSVM(strings.NewReader("1 2:1\n1 3:1\n1 1:2\n1 1:3\n1 1:4\n1 1:5\n"), "f", LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, 6, 3, []float64{0, 1, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0, 0}, nil)
	_, err = ReadLIBSVM(strings.NewReader("1 2:1\n1 3:1\n1 1:2\n1 1:3\n1 1:4\n1 1:5\n1 1:6\n"), "f", LIBSVMOptions{})
	checkError(t, nil, err, "f:7: 7 examples x 3 features is too large")
}

// checkDataset checks the shape, the invariants and, when given, the
// contents of ds.
func checkDataset(t *testing.T, ds *Dataset, n, d int, x, y []float64) {
	t.Helper()
	if ds.N != n || ds.D != d {
		t.Fatalf("shape %dx%d, want %dx%d", ds.N, ds.D, n, d)
	}
	if err := ds.Validate(0); err != nil {
		t.Fatal(err)
	}
	if x != nil && !slices.Equal(ds.X, x) {
		t.Errorf("X = %v, want %v", ds.X, x)
	}
	if y != nil && !slices.Equal(ds.Y, y) {
		t.Errorf("Y = %v, want %v", ds.Y, y)
	}
}

// checkError checks that err is a *ParseError whose message starts with
// want, and that no data set came with it.
func checkError(t *testing.T, ds *Dataset, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T %v is not a *ParseError", err, err)
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want prefix %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q is not one line", err)
	}
	if ds != nil {
		t.Errorf("data set returned with error")
	}
}

func longLine(d int) string {
	var b strings.Builder
	for i := 1; i <= d; i++ {
		if i > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(i) + ":1")
	}
	return b.String()
}

func ones(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}

// TestReadLIBSVMManyRows crosses chunk boundaries while the width grows,
// against a dense reference built alongside the text.
func TestReadLIBSVMManyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 6000
	var b strings.Builder
	var ref [][]float64
	width := 0
	for i := range n {
		d := 1 + rng.IntN(40+i/20) // the width grows slowly
		row := make([]float64, d)
		b.WriteString(strconv.Itoa(i % 3))
		for j := range d {
			if rng.IntN(3) == 0 {
				v := float64(rng.IntN(2001)-1000) / 100
				row[j] = v
				b.WriteString(" " + strconv.Itoa(j+1) + ":" + strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
		ref = append(ref, row)
		for j := d - 1; j >= 0; j-- {
			if row[j] != 0 {
				width = max(width, j+1)
				break
			}
		}
	}
	ds, err := ReadLIBSVM(strings.NewReader(b.String()), "f", LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, n, width, nil, nil)
	for i, row := range ref {
		got := ds.Row(i)
		for j := range width {
			want := 0.0
			if j < len(row) {
				want = row[j]
			}
			if got[j] != want {
				t.Fatalf("X[%d][%d] = %v, want %v", i, j, got[j], want)
			}
		}
		if ds.Y[i] != float64(i%3) {
			t.Fatalf("Y[%d] = %v", i, ds.Y[i])
		}
	}
}
