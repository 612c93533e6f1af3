package ep

import (
	"math"
	"testing"
)

// Reference values from mpmath at 50 digits: z, log Φ(z), N(z)/Φ(z).
var phiRef = [][3]float64{
	{-1000.0, -500007.82669481218431, 1000.00099999800001},
	{-300.0, -45006.62273211866336, 300.00333325926337415},
	{-38.0, -726.5572160188201301, 38.026279466575868988},
	{-37.5, -707.66898931750719107, 37.526628874883653599},
	{-25.0, -316.63940800802025894, 25.039873012057562583},
	{-20.5, -214.06672896326380017, 20.548551052435848816},
	{-20.0, -203.91715537109726394, 20.049753068527850542},
	{-19.5, -194.01696577749749941, 19.551015802580620764},
	{-10.0, -53.231285150512470578, 10.098093233962511963},
	{-5.0, -15.064998393988725736, 5.1865039671258421156},
	{-1.0, -1.8410216450092635058, 1.5251352761609812091},
	{-0.001, -0.69394538346696517879, 0.79852128956291137909},
	{0.0, -0.69314718055994530942, 0.79788456080286535588},
	{0.5, -0.36894641528865639307, 0.50916043383703348583},
	{3.0, -0.0013508099647481937988, 0.0044378390421256637933},
	{8.0, -6.2209605742717860585e-16, 5.0522710835368954309e-15},
	{9.0, -1.1285884059538406478e-19, 1.0279773571668914796e-18},
	{30.0, 0, 1.473646134878547519e-196},
	{40.0, 0, 0},
	{1000.0, 0, 0},
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestLogPhiInvMillsReference(t *testing.T) {
	for _, r := range phiRef {
		z := r[0]
		if e := relErr(LogPhi(z), r[1]); e > 1e-13 && math.Abs(LogPhi(z)-r[1]) > 1e-300 {
			t.Errorf("LogPhi(%v) = %.17g, want %.17g (rel err %.2g)", z, LogPhi(z), r[1], e)
		}
		if e := relErr(InvMills(z), r[2]); e > 1e-12 && math.Abs(InvMills(z)-r[2]) > 1e-300 {
			t.Errorf("InvMills(%v) = %.17g, want %.17g (rel err %.2g)", z, InvMills(z), r[2], e)
		}
	}
}

// TestNumericsRange: finite, monotone and continuous across the branch
// switch on [-1e3, 1e3].
func TestNumericsRange(t *testing.T) {
	prevL, prevR := math.Inf(-1), math.Inf(1)
	for i := 0; i <= 200000; i++ {
		z := -1000 + float64(i)*0.01
		l, r, p := LogPhi(z), InvMills(z), Phi(z)
		for _, v := range []float64{l, r, p} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("z = %v: LogPhi %v, InvMills %v, Phi %v", z, l, r, p)
			}
		}
		if l < prevL || r > prevR || l > 0 || r < 0 {
			t.Fatalf("z = %v: LogPhi %v (prev %v), InvMills %v (prev %v): not monotone", z, l, prevL, r, prevR)
		}
		prevL, prevR = l, r
	}
	for _, z := range []float64{millsSwitch, millsSwitch - 1e-9} {
		// Both branches at the switch agree.
		erfcL := math.Log(0.5 * math.Erfc(-z/sqrt2))
		cfL := -0.5*z*z - lnSqrt2Pi + math.Log(millsRatio(-z))
		if relErr(cfL, erfcL) > 1e-13 {
			t.Errorf("branches of LogPhi at %v: %v vs %v", z, cfL, erfcL)
		}
	}
	if !math.IsNaN(LogPhi(math.NaN())) || !math.IsNaN(InvMills(math.NaN())) {
		t.Error("NaN in, NaN out")
	}
	if LogPhi(math.Inf(1)) != 0 || InvMills(math.Inf(1)) != 0 {
		t.Error("z = +Inf")
	}
}

// TestMomentsExtreme: site updates from extreme cavities stay finite with
// non-negative precision.
func TestMomentsExtreme(t *testing.T) {
	for _, y := range []float64{-1, 1} {
		for _, mc := range []float64{-1e4, -100, -3, 0, 3, 100, 1e4} {
			for _, vc := range []float64{1e-8, 1e-2, 1, 100, 1e6} {
				lZ, tt, tn := moments(y, mc, vc)
				if math.IsNaN(lZ+tt+tn) || math.IsInf(lZ+tt+tn, 0) || tt < 0 {
					t.Errorf("moments(%v, %v, %v) = %v, %v, %v", y, mc, vc, lZ, tt, tn)
				}
			}
		}
	}
}
