package model

import (
	"reflect"
	"testing"

	"github.com/passgp-fast/passgp-fast/calib"
)

// TestNoiseCountsRoundTrip: format version 3 stores the noise counts of
// the history; a version 2 file (the same model without them) loads with
// its calibration and zero counts; a negative count is refused.
func TestNoiseCountsRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	m.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}}
	for i := range m.History {
		m.History[i] = append(m.History[i], Batch{Pass: 1, Active: 22, Included: 4, Deleted: 2, Noise: 1 + i, Skipped: 17 + i, LogZ: -3})
	}
	got := reencode(t, m)
	if got.FormatVersion != Version || !reflect.DeepEqual(got.History, m.History) {
		t.Fatalf("version %d, history %+v; want %+v", got.FormatVersion, got.History, m.History)
	}

	v2 := asVersion(t, m, 2)
	if v2.FormatVersion != 2 || v2.Calibration == nil || v2.Calibration.A != 1.5 {
		t.Fatalf("version 2 file: version %d, calibration %+v", v2.FormatVersion, v2.Calibration)
	}
	for i, h := range v2.History {
		if h[1].Noise != 0 || h[1].Skipped != 0 || h[1].Included != 4 {
			t.Fatalf("version 2 history %d: %+v", i, h)
		}
	}

	m.History[0][1].Noise = -1
	r, _ := m.record()
	if _, err := Decode(frame(KindModel, encodeRecord(r))); err == nil {
		t.Fatal("a negative noise count was accepted")
	}
}

// TestCalibrationEpsRoundTrip: format version 4 stores the calibration's
// label-noise share Eps; a version 3 file (the same model without it)
// loads with Eps 0; Eps outside [0, 1) is refused.
func TestCalibrationEpsRoundTrip(t *testing.T) {
	m := toyModel(t, OneVsRest, kernels[0], 9)
	m.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}, Eps: 0.07}
	got := reencode(t, m)
	if got.FormatVersion != Version || !reflect.DeepEqual(got.Calibration, m.Calibration) {
		t.Fatalf("version %d, calibration %+v; want %+v", got.FormatVersion, got.Calibration, m.Calibration)
	}
	v3 := asVersion(t, m, 3)
	if v3.FormatVersion != 3 || v3.Calibration == nil || v3.Calibration.Eps != 0 || v3.Calibration.A != 1.5 {
		t.Fatalf("version 3 file: version %d, calibration %+v", v3.FormatVersion, v3.Calibration)
	}
	// No calibration: nothing appended, loads as before.
	m.Calibration = nil
	if got = reencode(t, m); got.Calibration != nil {
		t.Fatalf("uncalibrated model: %+v", got)
	}
	for _, bad := range []float64{-0.1, 1, 2} {
		m.Calibration = &calib.Calibration{A: 1.5, B: []float64{0.1, -0.2, 0.05}, Eps: bad}
		r, _ := m.record()
		if _, err := Decode(frame(KindModel, encodeRecord(r))); err == nil {
			t.Errorf("Eps = %v accepted", bad)
		}
	}
}

// reencode encodes m as the current format version and decodes it again.
func reencode(t testing.TB, m *Model) *Model {
	t.Helper()
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// asVersion encodes m in the payload layout of an older format version
// and decodes that file.
func asVersion(t testing.TB, m *Model, version uint32) *Model {
	t.Helper()
	r, err := m.record()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(frameVersion(KindModel, version, encodeRecordVersion(r, version)))
	if err != nil {
		t.Fatal(err)
	}
	return got
}
