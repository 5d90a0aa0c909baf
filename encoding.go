package viewer

import "strings"

// contentEncoding is a representation of a resource's bytes.
type contentEncoding int

const (
	encIdentity contentEncoding = iota
	encGzip
	encBrotli
	numEncodings
)

// encodingNames are the Content-Encoding tokens, by contentEncoding.
func (e contentEncoding) String() string {
	switch e {
	case encGzip:
		return "gzip"
	case encBrotli:
		return "br"
	}
	return "identity"
}

// negotiateEncoding picks the encoding to send for the Accept-Encoding
// header values accept (RFC 9110, section 12.5.3), among those available:
// the highest q-value wins, ties go to the smaller encoding (br, then gzip,
// then identity). With no header, or when nothing acceptable is available,
// it is identity.
func negotiateEncoding(accept []string, available [numEncodings]bool) contentEncoding {
	if len(accept) == 0 {
		return encIdentity
	}
	// q-values in thousandths; -1: not mentioned.
	q := [numEncodings]int{-1, -1, -1}
	star := -1
	for _, header := range accept {
		for header != "" {
			var item string
			item, header, _ = strings.Cut(header, ",")
			name, params, _ := strings.Cut(item, ";")
			name = strings.TrimSpace(name)
			qv := parseQ(params)
			switch {
			case strings.EqualFold(name, "br"):
				q[encBrotli] = max(q[encBrotli], qv)
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				q[encGzip] = max(q[encGzip], qv)
			case strings.EqualFold(name, "identity"):
				q[encIdentity] = max(q[encIdentity], qv)
			case name == "*":
				star = max(star, qv)
			}
		}
	}
	for e := range q {
		if q[e] < 0 {
			q[e] = star
		}
	}
	if q[encIdentity] < 0 {
		q[encIdentity] = 1 // identity is acceptable unless excluded (RFC 9110, 12.5.3)
	}
	best, bestQ := encIdentity, 0
	for _, e := range []contentEncoding{encBrotli, encGzip, encIdentity} {
		if available[e] && q[e] > bestQ {
			best, bestQ = e, q[e]
		}
	}
	return best
}

// parseQ reads the q parameter of an Accept-Encoding item, in thousandths;
// 1000 when absent, 0 when malformed.
func parseQ(params string) int {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" || (v[0] != '0' && v[0] != '1') {
			return 0
		}
		whole := int(v[0]-'0') * 1000
		frac := 0
		if len(v) > 1 {
			if v[1] != '.' || len(v) > 5 {
				return 0
			}
			scale := 100
			for _, c := range v[2:] {
				if c < '0' || c > '9' {
					return 0
				}
				frac += int(c-'0') * scale
				scale /= 10
			}
		}
		if whole+frac > 1000 {
			return 0
		}
		return whole + frac
	}
	return 1000
}
