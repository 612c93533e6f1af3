package data

import (
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		o        CSVOptions
		n, d     int
		x, y     []float64
	}{
		{name: "label first no header", in: "1,2,3\n0,4,5\n", n: 2, d: 2,
			x: []float64{2, 3, 4, 5}, y: []float64{1, 0}},
		{name: "header auto", in: "y,a,b\n1,2,3\n", n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
		{name: "label last", in: "2,3,1\n4,5,0\n", o: CSVOptions{Label: -1}, n: 2, d: 2,
			x: []float64{2, 3, 4, 5}, y: []float64{1, 0}},
		{name: "label middle", in: "2,1,3\n", o: CSVOptions{Label: 1}, n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
		{name: "label by name", in: "a,class,b\n2,7,3\n", o: CSVOptions{LabelName: "class"}, n: 1, d: 2,
			x: []float64{2, 3}, y: []float64{7}},
		{name: "quoted header", in: "\"a,1\",\"the \"\"y\"\"\"\n1,2\n", o: CSVOptions{LabelName: `the "y"`}, n: 1, d: 1,
			x: []float64{1}, y: []float64{2}},
		{name: "quoted numbers", in: "\"1\", \"2\" \n", n: 1, d: 1, x: []float64{2}, y: []float64{1}},
		{name: "no label", in: "1,2\n3,4\n", o: CSVOptions{NoLabel: true}, n: 2, d: 2, x: []float64{1, 2, 3, 4}},
		{name: "crlf trailing blanks comments", in: "# c\r\n1, 2 ,3  \r\n\r\n0,4,5\r\n", n: 2, d: 2,
			x: []float64{2, 3, 4, 5}, y: []float64{1, 0}},
		{name: "whitespace runs (ESL zip)", in: "6.0000 -1.0000  0.5 \n5  1 -0.25\n", n: 2, d: 2,
			x: []float64{-1, 0.5, 1, -0.25}, y: []float64{6, 5}},
		{name: "tab", in: "1\t2\t3\n", n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
		{name: "semicolon", in: "1;2;3\n", n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
		{name: "explicit delimiter", in: "1|2|3\n", o: CSVOptions{Delimiter: '|'}, n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
		{name: "header forced numeric", in: "1,2\n3,4\n", o: CSVOptions{Header: HeaderYes}, n: 1, d: 1, x: []float64{4}, y: []float64{3}},
		{name: "bom header", in: "\xef\xbb\xbfy,x\n1,2\n", o: CSVOptions{LabelName: "y"}, n: 1, d: 1, x: []float64{2}, y: []float64{1}},
		{name: "dim matches", in: "1,2,3\n", o: CSVOptions{Dim: 2}, n: 1, d: 2, x: []float64{2, 3}, y: []float64{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadCSV(strings.NewReader(tc.in), "f", tc.o)
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, ds, tc.n, tc.d, tc.x, tc.y)
			if tc.o.NoLabel != (ds.Y == nil) {
				t.Errorf("Y nil = %v with NoLabel %v", ds.Y == nil, tc.o.NoLabel)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		o        CSVOptions
		want     string
	}{
		{"empty file", "", CSVOptions{}, "f: empty file"},
		{"only comments", "# x\n\n", CSVOptions{}, "f: no examples"},
		{"only header", "y,x\n", CSVOptions{}, "f: no examples (only a header)"},
		{"field count", "1,2,3\n1,2\n", CSVOptions{}, "f:2: 2 fields, want 3 as on line 1"},
		{"malformed value", "1,2\n1,x\n", CSVOptions{}, `f:2: malformed value in column 2 "x"`},
		{"header numeric forced off", "y,x\n", CSVOptions{Header: HeaderNo}, `f:1: malformed label in column 1 "y"`},
		{"empty value", "1,,3\n", CSVOptions{}, "f:1: empty value in column 2"},
		{"trailing delimiter", "1,2,\n", CSVOptions{}, "f:1: empty value in column 3"},
		{"nan value", "1,NaN\n", CSVOptions{}, `f:1: value in column 2 "NaN" is not finite`},
		{"inf label", "-Inf,1\n", CSVOptions{}, `f:1: label in column 1 "-Inf" is not finite`},
		{"overflow", "1,1e309\n", CSVOptions{}, `f:1: value in column 2 "1e309" out of range`},
		{"label column out of range", "1,2\n", CSVOptions{Label: 2}, "f:1: label column 2 out of range: 2 columns"},
		{"label column negative out of range", "1,2\n", CSVOptions{Label: -3}, "f:1: label column -3 out of range"},
		{"label name missing", "a,b\n1,2\n", CSVOptions{LabelName: "y"}, `f:1: no column named "y" in the header`},
		{"single column", "1\n2\n", CSVOptions{}, "f:1: no feature columns"},
		{"unterminated quote", "\"1,2\n", CSVOptions{}, "f:1: field 1: unterminated quoted field"},
		{"text after quote", "\"1\"x,2\n", CSVOptions{}, "f:1: field 1: text after closing quote"},
		{"dim mismatch", "1,2,3\n", CSVOptions{Dim: 3}, "f:1: 2 features, want 3"},
		{"tab empty field", "1\t\t3\n", CSVOptions{}, "f:1: empty value in column 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadCSV(strings.NewReader(tc.in), "f", tc.o)
			checkError(t, ds, err, tc.want)
		})
	}
}

func TestReadCSVTooLarge(t *testing.T) {
	defer func(m int64) { maxElements = m }(maxElements)
	maxElements = 4
	_, err := ReadCSV(strings.NewReader("1,2,3\n1,2,3\n1,2,3\n"), "f", CSVOptions{})
	checkError(t, nil, err, "f:3: 3 examples x 2 features is too large")
}

func TestReadCSVBadDelimiter(t *testing.T) {
	for _, d := range []rune{'"', '\n', '\r', 'é', -1} {
		_, err := ReadCSV(strings.NewReader("1,2\n"), "f", CSVOptions{Delimiter: d})
		if err == nil || !strings.Contains(err.Error(), "f: invalid CSV delimiter") {
			t.Errorf("delimiter %q: err = %v", d, err)
		}
	}
}
