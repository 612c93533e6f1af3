package model

import (
	"math/rand/v2"
	"testing"
)

// tinyFile is a small valid model file (small seeds keep the fuzzer's
// input minimisation fast).
func tinyFile(t testing.TB, mode Mode) []byte { return tinyFileFITC(t, mode, false) }

// tinyFileFITC is tinyFile, with a FITC posterior per classifier if fitc
// (the second one's on a subset of its active points, format version 10).
func tinyFileFITC(t testing.TB, mode Mode, fitc bool) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &Model{Mode: mode, Classes: []float64{-1, 1}, Options: []byte(`{}`)}
	nb := 1
	switch mode {
	case OneVsRest:
		m.Classes, nb = []float64{0, 1}, 2
	case PositiveVsRest:
		m.Classes = []float64{2}
	}
	for k := range nb {
		b := toyBinary(t, rng, kernels[nb], 3, 2)
		if fitc {
			var idx []int
			if k == 1 {
				idx = []int{0, 2}
			}
			addFITC(t, rng, b, 6, idx)
		}
		m.Binaries = append(m.Binaries, b)
	}
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzLoad feeds arbitrary bytes to the model decoder, both as a whole
// file and as a payload inside valid framing (so that the checksum does
// not stop the fuzzer before the payload decoder). Nothing may panic, and
// a file that decodes must encode again.
func FuzzLoad(f *testing.F) {
	for _, mode := range []Mode{Binary, OneVsRest, PositiveVsRest} {
		good := tinyFile(f, mode)
		f.Add(good)
		f.Add(good[headerSize : len(good)-sumSize])
	}
	fitc := tinyFileFITC(f, OneVsRest, true)
	f.Add(fitc)
	f.Add(fitc[headerSize : len(fitc)-sumSize])
	good := tinyFile(f, Binary)
	f.Add(good[:len(good)/3])
	f.Add([]byte{})
	f.Add([]byte("PASSGPF\x00\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := Decode(b); err == nil {
			if _, err := Encode(m); err != nil {
				t.Fatalf("decoded model does not encode: %v", err)
			}
		}
		if m, err := Decode(frame(KindModel, b)); err == nil {
			if _, err := Encode(m); err != nil {
				t.Fatalf("decoded model does not encode: %v", err)
			}
		}
	})
}

// FuzzCheckpoint does the same for checkpoint files.
func FuzzCheckpoint(f *testing.F) {
	m := toyModel(f, Binary, kernels[0], 1)
	c := &Checkpoint{Options: []byte(`{}`), Mode: Binary, Classes: m.Classes, N: 30, D: 5, Done: []Classifier{}}
	b, err := EncodeCheckpoint(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[headerSize : len(b)-sumSize])
	// A finished classifier with its held-out latents.
	c.Done, c.Current = []Classifier{FromBinary(m.Binaries[0])}, 1
	c.Held = []HeldOut{{Z: make([]float64, 30), Share: make([]float64, 30), Lost: 1}}
	if b, err = EncodeCheckpoint(c); err != nil {
		f.Fatal(err)
	}
	if _, err := DecodeCheckpoint(b); err != nil {
		f.Fatal(err)
	}
	f.Add(b[headerSize : len(b)-sumSize])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeCheckpoint(b)
		DecodeCheckpoint(frame(KindCheckpoint, b))
	})
}
