package data

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
	"testing"
)

// idxFile returns an IDX file with data type typ, the given dimensions and
// body.
func idxFile(typ byte, dims []uint32, body []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, body...)
}

func TestReadIDX(t *testing.T) {
	// Two 2x3 images and their labels.
	img := idxFile(8, []uint32{2, 2, 3}, []byte{0, 255, 51, 1, 2, 3, 10, 20, 30, 40, 50, 60})
	lab := idxFile(8, []uint32{2}, []byte{7, 3})
	want := []float64{0, 1, 51.0 / 255, 1.0 / 255, 2.0 / 255, 3.0 / 255,
		10.0 / 255, 20.0 / 255, 30.0 / 255, 40.0 / 255, 50.0 / 255, 60.0 / 255}

	ds, err := ReadIDX(bytes.NewReader(img), bytes.NewReader(lab), "i", "l")
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, 2, 6, want, []float64{7, 3})
	if ds.ImageH != 2 || ds.ImageW != 3 {
		t.Errorf("image %dx%d (HxW), want 2x3", ds.ImageH, ds.ImageW)
	}

	ds, err = ReadIDX(bytes.NewReader(img), nil, "i", "")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Y != nil {
		t.Errorf("Y = %v without a label file", ds.Y)
	}
	checkDataset(t, ds, 2, 6, want, nil)

	// A 2-dimensional file (count x features) has no geometry.
	ds, err = ReadIDX(bytes.NewReader(idxFile(8, []uint32{2, 2}, []byte{0, 255, 255, 0})), nil, "i", "")
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, 2, 2, []float64{0, 1, 1, 0}, nil)
	if ds.ImageH != 0 || ds.ImageW != 0 {
		t.Errorf("geometry %dx%d for a 2-d file", ds.ImageH, ds.ImageW)
	}

	// Larger than one read buffer, compressed.
	const n, h, w = 70, 28, 28
	body := make([]byte, n*h*w)
	for i := range body {
		body[i] = byte(i * 7)
	}
	labels := make([]byte, n)
	for i := range labels {
		labels[i] = byte(i % 10)
	}
	ds, err = ReadIDX(bytes.NewReader(gz(t, idxFile(8, []uint32{n, h, w}, body))),
		bytes.NewReader(gz(t, idxFile(8, []uint32{n}, labels))), "i", "l")
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, ds, n, h*w, nil, nil)
	for i, b := range body {
		if ds.X[i] != float64(b)/255 {
			t.Fatalf("X[%d] = %v, want %v", i, ds.X[i], float64(b)/255)
		}
	}
	if !slices.Equal(ds.Classes(), []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("classes %v", ds.Classes())
	}
}

func TestReadIDXErrors(t *testing.T) {
	img := idxFile(8, []uint32{2, 2, 2}, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	lab := idxFile(8, []uint32{2}, []byte{0, 1})
	for _, tc := range []struct {
		name     string
		img, lab []byte // lab nil: no label file
		want     string
	}{
		{"empty images", []byte{}, nil, "i: empty file"},
		{"empty labels", img, []byte{}, "l: empty file"},
		{"short magic", []byte{0, 0, 8}, nil, "i: truncated IDX header (3 bytes)"},
		{"short dims", idxFile(8, []uint32{2, 2, 2}, nil)[:9], nil, "i: truncated IDX header (3 dimensions)"},
		{"wrong magic", []byte("P5\n28 28\n255\n"), nil, "i: not an IDX file (magic 50350a32; want 000008xx)"},
		{"wrong type", idxFile(0x0d, []uint32{1, 1, 1}, []byte{0, 0, 0, 0}), nil, "i: IDX data type 0x0d not supported"},
		{"zero dims", []byte{0, 0, 8, 0}, nil, "i: IDX file with 0 dimensions"},
		{"four dims", idxFile(8, []uint32{1, 1, 1, 1}, []byte{0}), nil, "i: IDX file with 4 dimensions"},
		{"label file as images", lab, nil, "i: IDX file has 1 dimension (a label file?)"},
		{"images as labels", img, img, "l: IDX label file has 3 dimensions"},
		{"zero images", idxFile(8, []uint32{0, 2, 2}, nil), idxFile(8, []uint32{0}, nil), "i: no examples (IDX image count 0)"},
		{"zero size images", idxFile(8, []uint32{2, 0, 3}, nil), nil, "i: IDX images of size 0"},
		{"count mismatch", img, idxFile(8, []uint32{3}, []byte{0, 1, 2}), "l: 3 labels for 2 images in i"},
		{"labels truncated", img, lab[:len(lab)-1], "l: truncated: 1 of 2 labels"},
		{"labels trailing", img, append(slices.Clone(lab), 9), "l: data after the last of the labels"},
		{"images truncated in image", img[:len(img)-1], lab, "i: truncated: image 2 of 2 has 3 of 4 bytes"},
		{"images truncated at image", img[:len(img)-4], lab, "i: truncated: 1 of 2 images"},
		{"images no body", idxFile(8, []uint32{2, 2, 2}, nil), nil, "i: truncated: 0 of 2 images"},
		{"images trailing", append(slices.Clone(img), 0), lab, "i: data after the last of the images"},
		{"forged huge header", idxFile(8, []uint32{1 << 31, 1 << 16, 1 << 16}, nil), nil, "i: IDX header claims 2147483648 images"},
		{"forged huge image", idxFile(8, []uint32{1, 0xffffffff, 0xffffffff}, nil), nil, "i: IDX header claims 1 images"},
		{"gzip truncated", gz(t, img)[:20], nil, "i: truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lr io.Reader
			if tc.lab != nil {
				lr = bytes.NewReader(tc.lab)
			}
			ds, err := ReadIDX(bytes.NewReader(tc.img), lr, "i", "l")
			checkError(t, ds, err, tc.want)
		})
	}
}

func TestReadIDXTruncatedLarge(t *testing.T) {
	// A header claiming many images backed by few must fail without
	// allocating for the claim (the growth is bounded by the data).
	body := make([]byte, 100*784+10)
	ds, err := ReadIDX(bytes.NewReader(idxFile(8, []uint32{1 << 20, 28, 28}, body)), nil, "i", "")
	checkError(t, ds, err, "i: truncated: image 101 of 1048576 has 10 of 784 bytes")
}
