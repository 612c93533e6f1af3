package data

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestBinaryLabels(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name     string
		y        []float64
		positive *float64
		want     []float64
		err      string
	}{
		{"two classes larger is positive", []float64{3, 7, 3, 7}, nil, []float64{-1, 1, -1, 1}, ""},
		{"already ±1", []float64{1, -1, -1}, nil, []float64{1, -1, -1}, ""},
		{"negative labels", []float64{-2, -5}, nil, []float64{1, -1}, ""},
		{"one vs rest", []float64{0, 1, 2, 1}, f(1), []float64{-1, 1, -1, 1}, ""},
		{"positive is the smaller", []float64{3, 7}, f(3), []float64{1, -1}, ""},
		{"one class", []float64{4, 4}, nil, nil, "fewer than two classes: every label is 4"},
		{"one class with positive", []float64{4, 4}, f(4), nil, "fewer than two classes"},
		{"no labels", nil, nil, nil, "no labels"},
		{"three classes", []float64{0, 1, 2}, nil, nil, "3 classes (0, 1, 2); a binary task needs two"},
		{"positive absent", []float64{0, 1, 2}, f(5), nil, "positive label 5 does not occur (labels: 0, 1, 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BinaryLabels(tc.y, tc.positive)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				ds := &Dataset{Y: tc.y, N: len(tc.y), Source: "s"}
				_, err = ds.BinaryLabels(tc.positive)
				checkError(t, nil, err, "s: "+tc.err)
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestDatasetHelpers(t *testing.T) {
	ds := &Dataset{N: 3, D: 2, X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{2, 0, 2}, Source: "s", ImageW: 2, ImageH: 1}
	if got := ds.Row(1); !slices.Equal(got, []float64{3, 4}) || cap(got) != 2 {
		t.Errorf("Row(1) = %v (cap %d)", got, cap(got))
	}
	if got := ds.Classes(); !slices.Equal(got, []float64{0, 2}) {
		t.Errorf("Classes = %v", got)
	}
	s := ds.Subset([]int{2, 0, 2})
	checkDataset(t, s, 3, 2, []float64{5, 6, 1, 2, 5, 6}, []float64{2, 2, 2})
	if s.Source != "s" || s.ImageW != 2 || s.ImageH != 1 {
		t.Errorf("Subset lost metadata: %+v", s)
	}
	s.X[0] = -1
	if ds.X[4] != 5 {
		t.Error("Subset shares storage")
	}
	if m := ds.Dense(); m.At(2, 1) != 6 {
		t.Errorf("Dense().At(2,1) = %v", m.At(2, 1))
	}
	nl := (&Dataset{N: 1, D: 1, X: []float64{1}}).Subset([]int{0})
	if nl.Y != nil {
		t.Error("Subset invented labels")
	}
	if Classes(nil) != nil {
		t.Error("Classes(nil) != nil")
	}

	defer func() {
		if recover() == nil {
			t.Error("Row(3) did not panic")
		}
	}()
	ds.Row(3)
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   Dataset
		min  int
		want string
	}{
		{"ok", Dataset{N: 2, D: 1, X: []float64{1, 2}, Y: []float64{0, 1}}, 2, ""},
		{"shape", Dataset{N: 2, D: 2, X: []float64{1, 2}}, 0, "s: len(X) = 2, want N*D = 2*2"},
		{"labels length", Dataset{N: 2, D: 1, X: []float64{1, 2}, Y: []float64{1}}, 0, "s: len(Y) = 1, want N = 2"},
		{"nan value", Dataset{N: 2, D: 2, X: []float64{1, 2, 3, math.NaN()}}, 0, "s: example 2 feature 2: value NaN is not finite"},
		{"inf label", Dataset{N: 1, D: 1, X: []float64{1}, Y: []float64{math.Inf(1)}}, 0, "s: example 1: label +Inf is not finite"},
		{"one class", Dataset{N: 2, D: 1, X: []float64{1, 2}, Y: []float64{1, 1}}, 2, "s: fewer than 2 classes: 1 distinct label(s)"},
		{"no labels", Dataset{N: 1, D: 1, X: []float64{1}}, 2, "s: no labels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.ds.Source = "s"
			err := tc.ds.Validate(tc.min)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			checkError(t, nil, err, tc.want)
		})
	}
}

func TestParseErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    ParseError
		want string
	}{
		{ParseError{File: "a", Line: 3, Msg: "m"}, "a:3: m"},
		{ParseError{File: "a", Msg: "m"}, "a: m"},
		{ParseError{Msg: "m"}, "<input>: m"},
		{ParseError{File: "a", Line: 1, Msg: "reading", Err: errTest}, "a:1: reading: boom"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

type testError struct{}

func (testError) Error() string { return "boom" }

var errTest = testError{}
