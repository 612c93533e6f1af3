package passgpfast

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/ep"
)

// ParsePrior parses a hyperprior (Config.Prior; train's --prior):
// comma-separated components, one per hyperparameter, each empty or "-"
// (flat) or MEAN:SD with MEAN > 0 on the θ scale and SD >= 0 in log
// units.
func ParsePrior(s string) ([]ep.LogNormal, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []ep.LogNormal
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" || p == "-" {
			out = append(out, ep.LogNormal{})
			continue
		}
		ms := strings.Split(p, ":")
		if len(ms) != 2 {
			return nil, fmt.Errorf("%q: want MEAN:SD", p)
		}
		m, err1 := strconv.ParseFloat(ms[0], 64)
		sd, err2 := strconv.ParseFloat(ms[1], 64)
		if err1 != nil || err2 != nil || !(m > 0) || math.IsInf(m, 0) || !(sd >= 0) || math.IsInf(sd, 0) {
			return nil, fmt.Errorf("%q: want MEAN > 0 and SD >= 0, both finite", p)
		}
		out = append(out, ep.LogNormal{Mean: math.Log(m), SD: sd})
	}
	return out, nil
}

// ParseFloats parses a comma-separated list of finite numbers, as train's
// --theta (Config.Theta) takes them; an empty or blank s gives nil.
func ParseFloats(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a finite number", strings.TrimSpace(p))
		}
		v[i] = x
	}
	return v, nil
}
