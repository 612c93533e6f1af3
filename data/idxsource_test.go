package data

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestIDXSource: streaming an IDX pair gives, in any batch size and every
// pass, what ReadIDX gives; errors are ReadIDX's, at opening for the
// headers and in the pass for the body.
func TestIDXSource(t *testing.T) {
	pix := make([]byte, 5*6)
	for i := range pix {
		pix[i] = byte(37 * i)
	}
	img := idxFile(8, []uint32{5, 2, 3}, pix)
	lab := idxFile(8, []uint32{5}, []byte{7, 3, 0, 9, 3})
	for _, tc := range []struct {
		name                  string
		img, lab              []byte
		sibling, noLabels     bool
		open, next            string
		wantImgW, wantImgH, n int
	}{
		{name: "pair", img: img, lab: lab, wantImgW: 3, wantImgH: 2, n: 5},
		{name: "gzip sibling", img: gz(t, img), lab: gz(t, lab), sibling: true, wantImgW: 3, wantImgH: 2, n: 5},
		{name: "no labels", img: idxFile(8, []uint32{5, 6}, pix), noLabels: true, n: 5},
		{name: "label count", img: img, lab: idxFile(8, []uint32{4}, []byte{1, 2, 3, 4}), open: "l: 4 labels for 5 images"},
		{name: "label file as images", img: lab, noLabels: true, open: "i: IDX file has 1 dimension"},
		{name: "huge image", img: idxFile(8, []uint32{1, 1 << 16, 1 << 16}, nil), noLabels: true, open: "i: IDX header claims 1 images of [65536 65536]: too large"},
		{name: "image truncated", img: img[:len(img)-4], lab: lab, next: "i: truncated: image 5 of 5 has 2 of 6 bytes"},
		{name: "labels truncated", img: img, lab: lab[:len(lab)-1], next: "l: truncated: 4 of 5 labels"},
		{name: "data after images", img: append(img[:len(img):len(img)], 1), lab: lab, next: "i: data after the last of the images the header announces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
			if tc.sibling {
				ip, lp = filepath.Join(dir, "x-images-idx3-ubyte.gz"), filepath.Join(dir, "x-labels-idx1-ubyte.gz")
			}
			ip = writeAt(t, ip, tc.img)
			labels := ""
			if !tc.noLabels {
				writeAt(t, lp, tc.lab)
				if !tc.sibling {
					labels = lp
				}
			}
			s, err := OpenIDX(ip, labels)
			if tc.open != "" {
				checkError(t, nil, err, filepath.Join(dir, tc.open))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if tc.next != "" {
				b := NewBatch(2, s.Dim())
				for err = nil; err == nil; err = s.Next(context.Background(), b) {
				}
				if err == io.EOF {
					t.Fatal("no error")
				}
				checkError(t, nil, err, filepath.Join(dir, tc.next))
				return
			}
			var want *Dataset
			if tc.noLabels {
				want, err = ReadIDX(bytes.NewReader(tc.img), nil, "i", "")
			} else {
				want, err = ReadIDX(bytes.NewReader(tc.img), bytes.NewReader(tc.lab), "i", "l")
			}
			if err != nil {
				t.Fatal(err)
			}
			if w, h := s.ImageShape(); s.Len() != tc.n || s.Dim() != 6 || s.Labelled() == tc.noLabels || w != tc.wantImgW || h != tc.wantImgH {
				t.Fatalf("Len %d Dim %d Labelled %v image %dx%d", s.Len(), s.Dim(), s.Labelled(), w, h)
			}
			for _, rows := range []int{1, 2, 5, 9} {
				for range 2 {
					p := readPass(t, s, rows)
					if !sameBits(p.x, want.X) || !sameBits(p.y, want.Y) {
						t.Fatalf("batches of %d: got %v %v, want %v %v", rows, p.x, p.y, want.X, want.Y)
					}
				}
			}
		})
	}
}

// writeAt writes content to path and returns path.
func writeAt(t testing.TB, path string, content []byte) string {
	t.Helper()
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConvertMNIST converts the MNIST test images to binary in one
// streaming pass and reads them back as Load reads the IDX pair.
func TestConvertMNIST(t *testing.T) {
	path := sharedFile(t, "t10k-images-idx3-ubyte.gz")
	want, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenIDX(path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := ReadBinary(context.Background(), writeTemp(t, s, WriteOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if got.N != 10000 || got.D != 784 || got.ImageW != 28 || got.ImageH != 28 || !sameBits(got.X, want.X) || !sameBits(got.Y, want.Y) {
		t.Errorf("%dx%d image %dx%d, differs from the IDX files", got.N, got.D, got.ImageW, got.ImageH)
	}
}
