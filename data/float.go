package data

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses the common short decimals of data files ("-0.631",
// "6.0000", "1e-3") without strconv's general machinery. It accepts only
// [+-]digits[.digits][(e|E)[+-]digits] whose significand, without leading
// zeros, has at most 15 digits and whose decimal exponent is within ±22:
// then the significand and the power of ten are exact float64 values and
// one multiplication or division rounds correctly (Clinger's fast path,
// the one strconv.ParseFloat itself takes first), so the result is
// bit-identical to strconv.ParseFloat. ok is false for anything else,
// which the caller hands to strconv.
func fastFloat(b []byte) (v float64, ok bool) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0
	digits, dot := false, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
			if dot {
				exp--
			}
			if mant == 0 && c == '0' {
				continue // leading zero
			}
			if nd == 15 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
			nd++
			continue
		case c == '.' && !dot:
			dot = true
			continue
		}
		break
	}
	if !digits {
		return 0, false
	}
	if i < len(b) {
		if b[i] != 'e' && b[i] != 'E' {
			return 0, false
		}
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		if i == len(b) {
			return 0, false
		}
		e := 0
		for ; i < len(b); i++ {
			c := b[i]
			if c < '0' || c > '9' || e > 1000 {
				return 0, false
			}
			e = e*10 + int(c-'0')
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	v = float64(mant) // exact: mant < 10^15 < 2^53
	switch {
	case mant == 0 || exp == 0:
	case exp > 0 && exp <= 22:
		v *= pow10[exp]
	case exp < 0 && exp >= -22:
		v /= pow10[-exp]
	default:
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}
