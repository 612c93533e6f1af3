package data

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkFloat compares parseFloat with strconv.ParseFloat bit for bit.
func checkFloat(t *testing.T, s string) {
	t.Helper()
	got, bad := parseFloat([]byte(s))
	want, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(want) || math.IsInf(want, 0) {
		if bad == 0 {
			t.Fatalf("parseFloat(%q) = %v, want a problem (strconv: %v, %v)", s, got, want, err)
		}
		return
	}
	if bad != 0 || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseFloat(%q) = %v (%b), problem %d; want %v (%b)", s, got, got, bad, want, want)
	}
}

func TestFastFloat(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "+0", "0.0", "-0.0", "1", "-1", "1.", ".5", "-.5", ".", "-", "+", "", "e5", "1e", "1e+", "1e-",
		"6.0000", "-0.6310", "0.862", "1e-3", "1E3", "2.5e+10", "123456789012345", "1234567890123456",
		"0.000000000000000000000000001", "1e22", "1e23", "9e22", "1e-22", "1e-23", "123456789012345e22",
		"123456789012345e-22", "0e9999", "1e99999", "1.5e308", "4.9e-324", "0x1p-2", "1_000", "inf", "NaN",
		"1..2", "1.2.3", "--1", "1e1.5", " 1", "1 ", "00000000000000000000001.5", "0.1000000000000000055511151231257827",
		"9007199254740993", "900719925474099.3", "-999999999999999", "1e308", "1e309",
	} {
		checkFloat(t, s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var s string
		switch rng.IntN(3) {
		case 0:
			s = strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)), 'g', -1, 64)
		case 1:
			s = strconv.FormatFloat(rng.Float64()*2-1, 'f', rng.IntN(18), 64)
		default:
			s = strconv.FormatFloat(rng.ExpFloat64(), 'e', rng.IntN(17), 64)
		}
		checkFloat(t, s)
	}
}

func FuzzFloat(f *testing.F) {
	for _, s := range []string{"-0.631", "6.0000", "1e-3", "123456789012345e22", ".5", "1e", "0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFloat(t, s) })
}
