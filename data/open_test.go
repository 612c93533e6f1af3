package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bz2Fixture is testdata/small.libsvm.bz2 (made with the bzip2 command):
// this content, bzip2-compressed.
const bz2Content = "1 1:0.5 3:-1\n-1 2:2\n# end\n"

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		want Compression
		err  bool
	}{
		{[]byte{0x1f, 0x8b, 8}, Gzip, false},
		{[]byte("BZh91AY"), Bzip2, false},
		{[]byte("BZh0"), None, false},
		{[]byte("BZ"), None, false},
		{[]byte("1 1:2"), None, false},
		{nil, None, false},
		{[]byte{0xfd, '7', 'z', 'X', 'Z', 0}, None, true},
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0}, None, true},
	} {
		c, err := Detect(tc.head)
		if c != tc.want || (err != nil) != tc.err {
			t.Errorf("Detect(%q) = %v, %v; want %v, error %v", tc.head, c, err, tc.want, tc.err)
		}
	}
}

// TestCompressionByContent reads gzip and bzip2 files whose names say
// otherwise.
func TestCompressionByContent(t *testing.T) {
	dir := t.TempDir()
	plain := []byte(bz2Content)
	bz, err := os.ReadFile("testdata/small.libsvm.bz2")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"plain.gz":      plain,        // plain text named .gz
		"gzip.txt":      gz(t, plain), // gzip named .txt
		"bzip2.gz":      bz,           // bzip2 named .gz
		"bzip2.libsvm":  bz,
		"gzip-gzip.bz2": gz(t, plain),
	}
	if p, err := exec.LookPath("bzip2"); err == nil {
		// Also a fresh file from the bzip2 command, to catch a stale fixture.
		cmd := exec.Command(p, "-c")
		cmd.Stdin = strings.NewReader(bz2Content)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		files["fresh-bzip2.csv.gz"] = out
	}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != bz2Content {
			t.Errorf("Open(%s) read %q, %v; want %q", name, got, err, bz2Content)
		}
		// The readers decompress by themselves too.
		ds, err := ReadLIBSVM(bytes.NewReader(b), name, LIBSVMOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkDataset(t, ds, 2, 3, []float64{0.5, 0, -1, 0, 2, 0}, []float64{1, -1})
		if !strings.HasSuffix(name, ".csv.gz") {
			ds, err = Load(path, Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkDataset(t, ds, 2, 3, []float64{0.5, 0, -1, 0, 2, 0}, []float64{1, -1})
		}
	}
}

func TestDecompressErrors(t *testing.T) {
	plain := []byte("1 1:1\n2 1:2\n3 1:3\n")
	z := gz(t, plain)
	bad := bytes.Clone(z)
	bad[len(bad)-6] ^= 0xff // CRC
	badBz, err := os.ReadFile("testdata/small.libsvm.bz2")
	if err != nil {
		t.Fatal(err)
	}
	badBz[len(badBz)/2] ^= 0x55
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"gzip header", []byte{0x1f, 0x8b, 0, 0}, "f: gzip header"},
		{"gzip checksum", bad, "f:4: reading: gzip: invalid checksum"},
		{"gzip truncated", z[:len(z)-4], "f:4: reading: unexpected EOF"},
		{"bzip2 corrupt", badBz, "f:1: reading: bzip2 data invalid"},
		{"bzip2 truncated", []byte("BZh91AY&SYgarbage"), "f:1: reading: unexpected EOF"},
		{"xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 1}, "f: xz compression is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadLIBSVM(bytes.NewReader(tc.in), "f", LIBSVMOptions{})
			checkError(t, ds, err, tc.want)
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	libsvm := []byte("1 1:1 2:2\n0 2:4\n")
	csv := []byte("1,1,2\n0,0,4\n")
	ws := []byte("1 1 2\n0 0 4\n")
	x, y := []float64{1, 2, 0, 4}, []float64{1, 0}
	img := idxFile(8, []uint32{2, 1, 2}, []byte{255, 510 / 2, 0, 255})
	lab := idxFile(8, []uint32{2}, []byte{1, 0})
	ximg := []float64{1, 1, 0, 1}

	for _, tc := range []struct {
		name string
		path string
		o    Options
	}{
		{"libsvm by content", write("a.data", libsvm), Options{}},
		{"libsvm gz by content", write("a.data.gz", gz(t, libsvm)), Options{}},
		{"csv by content", write("b.data", csv), Options{}},
		{"csv by extension", write("b.csv", ws), Options{}},
		{"whitespace by content", write("c.txt", ws), Options{}},
		{"csv forced", write("d.libsvm", csv), Options{Format: CSV}},
		{"comment first", write("e", append([]byte("# x:y\n\n"), libsvm...)), Options{}},
		{"dim", write("f", libsvm), Options{Dim: 2}},
		{"idx with labels", write("x-idx", gz(t, img)), Options{Labels: write("y-idx", lab)}},
		{"idx mnist sibling", write("train-images-idx3-ubyte.gz", gz(t, img)), Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.path, "images-idx3") {
				write("train-labels-idx1-ubyte.gz", gz(t, lab))
			}
			ds, err := Load(tc.path, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tc.name, "idx") {
				checkDataset(t, ds, 2, 2, ximg, y)
				if ds.ImageW != 2 || ds.ImageH != 1 {
					t.Errorf("geometry %dx%d", ds.ImageW, ds.ImageH)
				}
			} else {
				checkDataset(t, ds, 2, 2, x, y)
			}
			if ds.Source != tc.path {
				t.Errorf("Source %q, want %q", ds.Source, tc.path)
			}
		})
	}

	imgOnly := write("imgs.idx", img)
	ds, err := Load(imgOnly, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Y != nil {
		t.Errorf("labels without a label file")
	}

	for _, tc := range []struct {
		name string
		path string
		o    Options
		want string
	}{
		{"dim beyond", write("g", libsvm), Options{Dim: 1}, ":1: feature index 2 beyond dimension 1"},
		{"csv dim", write("h.csv", csv), Options{Dim: 3}, ":1: 2 features, want 3"},
		{"idx dim", imgOnly, Options{Dim: 3}, ": 2 features, want 3"},
		{"label file as data", write("l.idx", lab), Options{}, ": an IDX label file"},
		{"idx forced on text", write("t.txt", libsvm), Options{Format: IDX}, ": not an IDX file"},
		{"float idx", write("f.idx", idxFile(0x0d, []uint32{1, 1}, make([]byte, 4))), Options{}, ": IDX data type 0x0d"},
		{"empty", write("empty.gz", gz(t, nil)), Options{}, ": empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := Load(tc.path, tc.o)
			checkError(t, ds, err, tc.path+tc.want)
		})
	}

	if _, err := Load(filepath.Join(dir, "missing"), Options{}); !os.IsNotExist(err) {
		t.Errorf("missing file: %v, want a not-exist error", err)
	}
	if _, err := Load(write("m.idx", img), Options{Labels: filepath.Join(dir, "nolabels")}); !os.IsNotExist(err) {
		t.Errorf("missing label file: %v, want a not-exist error", err)
	}
}

func TestParseFormat(t *testing.T) {
	for s, want := range map[string]Format{"": Auto, "auto": Auto, "LIBSVM": LIBSVM, "svmlight": LIBSVM, "csv": CSV, "idx": IDX, "binary": Binary, "pgd": Binary} {
		if f, err := ParseFormat(s); f != want || err != nil {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", s, f, err, want)
		}
	}
	if _, err := ParseFormat("arff"); err == nil {
		t.Error("ParseFormat(arff): no error")
	}
}

func TestDecompressAndUnwrap(t *testing.T) {
	r, err := Decompress(bytes.NewReader(gz(t, []byte("abc"))), "f")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "abc" {
		t.Errorf("Decompress read %q, %v", b, err)
	}
	if Gzip.String() != "gzip" || Bzip2.String() != "bzip2" || None.String() != "none" {
		t.Error("Compression.String")
	}
	z := gz(t, []byte("1 1:1\n"))
	_, err = ReadLIBSVM(bytes.NewReader(z[:len(z)-4]), "f", LIBSVMOptions{})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v does not unwrap to io.ErrUnexpectedEOF", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !os.IsNotExist(err) {
		t.Errorf("Open(missing): %v", err)
	}
	p := filepath.Join(t.TempDir(), "x.zst")
	if err := os.WriteFile(p, []byte{0x28, 0xb5, 0x2f, 0xfd, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(p)
	checkError(t, nil, err, p+": zstd compression is not supported")
}
