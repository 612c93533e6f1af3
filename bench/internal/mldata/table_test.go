package mldata

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ReadCSV takes write.csv's quoting, drops the Id column and rows with a
// missing value, and numbers the classes in sorted order; Split keeps
// each class's share in the test split and every row once; a value that
// is not a number is an error naming the line and column.
func TestReadCSVAndSplit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.csv")
	var b strings.Builder
	b.WriteString(`"Id","a","b","Class"` + "\n")
	for i := range 40 {
		c := "pos"
		if i%4 != 0 {
			c = "neg"
		}
		b.WriteString(`"` + string(rune('0'+i%10)) + `",` + strings.Repeat("1.5,", 1) + `"2",` + `"` + c + `"` + "\n")
	}
	b.WriteString(`"99",NA,3,"neg"` + "\n")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := ReadCSV(p, "X")
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 40 || tab.D != 2 || !slices.Equal(tab.Classes, []string{"neg", "pos"}) || !slices.Equal(tab.Rows[0], []float64{1.5, 2}) {
		t.Fatalf("%d rows, d = %d, classes %v, row 0 %v", len(tab.Rows), tab.D, tab.Classes, tab.Rows[0])
	}
	tr, te := tab.Split(3, 0.3)
	all := slices.Sorted(slices.Values(append(slices.Clone(tr), te...)))
	for i, v := range all {
		if v != i {
			t.Fatalf("rows %v: want each of 0..39 once", all)
		}
	}
	pos := 0
	for _, i := range te {
		pos += tab.Class[i]
	}
	if len(te) != 12 || pos != 3 {
		t.Errorf("test split %d rows, %d positive; want 12 and 3 (30%% of 30 and 10)", len(te), pos)
	}
	if tr2, _ := tab.Split(3, 0.3); !slices.Equal(tr, tr2) {
		t.Error("the split depends on more than its seed")
	}
	if err := os.WriteFile(p, []byte("\"a\",\"Class\"\n1,\"x\"\nfoo,\"y\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCSV(p, "X"); err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("bad value: %v", err)
	}
}
