package passgpfast

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

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
