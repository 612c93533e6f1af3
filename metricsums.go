package passgpfast

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/passgp-fast/passgp-fast/model"
	"github.com/passgp-fast/passgp-fast/passgp"
)

// metricSums accumulates the figures of Metrics over batches of rows, in
// row order, so that data streamed in batches (EvaluateSource) are scored
// without holding every prediction: each figure is a count or a sum over
// the rows, and every sum adds the same terms in the same order as the
// whole-data functions it stands for (latentNLP, latentNLPMulti,
// latentBrier, passgp.LatentErrorRate, ECE and Calibration.MeanNLL), so the
// figures do not depend on how the rows are split.
//
// A row's term is the library function on that row alone: latentNLP of
// one row is 0 − log Φ(yz), and s + (0 − t) is s − t exactly in IEEE
// arithmetic for the sums here, which never hold −0.
type metricSums struct {
	m          *model.Model
	k          int // outputs
	n, nerr    int
	wrong      []int // per true class
	brier, nlp float64
	ece        eceSums
	r          Metrics // counts: PerClassN, Confusion
	// One-vs-rest models: each binary classifier's misses and sums.
	binMiss          []float64
	binBrier, binNLP []float64
	// Scratch reused from batch to batch.
	pred []int
	nll  []float64
	one  mat.Dense
}

func newMetricSums(m *model.Model) *metricSums {
	k := len(m.Outputs())
	s := &metricSums{m: m, k: k, wrong: make([]int, k), ece: newECESums(eceBins)}
	s.r = Metrics{Classes: m.Outputs(), PerClassError: make([]float64, k), PerClassN: make([]int, k), Confusion: make([][]int, k)}
	for i := range s.r.Confusion {
		s.r.Confusion[i] = make([]int, k)
	}
	if m.Mode == model.OneVsRest {
		nb := len(m.Binaries)
		s.binMiss, s.binBrier, s.binNLP = make([]float64, nb), make([]float64, nb), make([]float64, nb)
	}
	return s
}

// add scores the next rows: class probabilities prob (n×K), the model's
// latents lat at the same rows and the true output indices truth.
func (s *metricSums) add(prob *mat.Dense, lat *Predictions, truth []int) {
	n, _ := prob.Dims()
	if cap(s.pred) < n {
		s.pred = make([]int, n)
	}
	pred := s.pred[:n]
	s.m.DecideFromLatent(pred, lat.CZ, lat.CRho)
	for i := range n {
		row := prob.RawRowView(i)
		t := truth[i]
		s.ece.add(row[pred[i]], pred[i] == t)
		s.r.Confusion[t][pred[i]]++
		s.r.PerClassN[t]++
		if pred[i] != t {
			s.nerr++
			s.wrong[t]++
		}
		for c, p := range row {
			d := p
			if c == t {
				d = p - 1
			}
			s.brier += d * d
		}
	}
	s.n += n
	s.addNLP(lat, truth)
	for c := range s.binMiss {
		zc, y := mat.Col(nil, c, lat.Z), binaryTargets(s.m, truth, c)
		for i := range zc {
			zi, yi := zc[i:i+1], y[i:i+1]
			s.binMiss[c] += passgp.LatentErrorRate(zi, yi)
			s.binBrier[c] += latentBrier(zi, yi)
			s.binNLP[c] += latentNLP(zi, yi)
		}
	}
}

// addNLP adds the rows' negative log predictive probabilities: the
// calibration's (Calibration.MeanNLL's terms) or, for the raw q's, those
// of latentNLPMulti or latentNLP.
func (s *metricSums) addNLP(lat *Predictions, truth []int) {
	n := len(truth)
	m := s.m
	switch {
	case m.Calibration != nil:
		if cap(s.nll) < n {
			s.nll = make([]float64, n)
		}
		nll := s.nll[:n]
		m.Calibration.NLLTo(nll, lat.CZ, lat.CRho, calibrationTruth(m, truth))
		for _, v := range nll {
			s.nlp += v
		}
	case m.Mode == model.OneVsRest:
		_, k := lat.Z.Dims()
		for i := range n {
			s.one.SetRawMatrix(blas64.General{Rows: 1, Cols: k, Stride: k, Data: lat.Z.RawRowView(i)})
			s.nlp += latentNLPMulti(&s.one, truth[i:i+1])
		}
	default:
		z, y := mat.Col(nil, 0, lat.Z), binaryTargets(m, truth, 0)
		for i := range z {
			s.nlp += latentNLP(z[i:i+1], y[i:i+1])
		}
	}
}

// metrics returns the figures of the rows added so far.
func (s *metricSums) metrics() Metrics {
	r := s.r
	r.N = s.n
	m := s.m
	if n := float64(s.n); s.n > 0 {
		r.Error = float64(s.nerr) / n
		r.Brier = s.brier / n
		r.Calibrated = m.Calibration != nil
		r.NLP = s.nlp / n
		r.ECE = s.ece.value(s.n)
	}
	for c := range s.wrong {
		if r.PerClassN[c] > 0 {
			r.PerClassError[c] = float64(s.wrong[c]) / float64(r.PerClassN[c])
		}
	}
	if m.Mode == model.OneVsRest {
		nb := len(m.Binaries)
		r.BinaryError, r.BinaryBrier, r.BinaryNLP = make([]float64, nb), make([]float64, nb), make([]float64, nb)
		for c := range nb {
			if s.n == 0 {
				continue
			}
			n := float64(s.n)
			r.BinaryError[c], r.BinaryBrier[c], r.BinaryNLP[c] = s.binMiss[c]/n, s.binBrier[c]/n, s.binNLP[c]/n
		}
	}
	for _, b := range m.Binaries {
		r.ActiveSize = append(r.ActiveSize, len(b.Y))
	}
	if rel, ok := NewClassifier(m).Relevances(); ok {
		r.Relevance = &rel
	}
	return r
}

// eceSums are calib.ECE's per-bin sums (count, confidence, correct
// count), accumulated over batches of points in order.
type eceSums struct{ cnt, sc, sa []float64 }

func newECESums(bins int) eceSums {
	return eceSums{cnt: make([]float64, bins), sc: make([]float64, bins), sa: make([]float64, bins)}
}

// add bins one point of confidence c, as calib.ECE bins it.
func (e *eceSums) add(c float64, correct bool) {
	bins := len(e.cnt)
	b := min(max(int(c*float64(bins)), 0), bins-1)
	e.cnt[b]++
	e.sc[b] += c
	if correct {
		e.sa[b]++
	}
}

// value is calib.ECE of the n points added.
func (e *eceSums) value(n int) float64 {
	if n == 0 {
		return 0
	}
	var v float64
	for b := range e.cnt {
		v += math.Abs(e.sc[b] - e.sa[b])
	}
	return v / float64(n)
}
