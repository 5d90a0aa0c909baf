package transcode

import (
	"math/big"
	"strings"

	"go.yaml.in/yaml/v3"
)

// coreTag returns a scalar's tag under the YAML 1.2 core schema. yaml.v3
// resolves plain scalars partly by YAML 1.1 rules (017 is octal 15, 1_000
// is 1000, 0b11 is 3); the core schema reads 017 as the decimal 17 and
// 1_000 and 0b11 as strings. Quoted and explicitly tagged scalars keep the
// tag yaml.v3 gave them.
func coreTag(n *yaml.Node) string {
	tag := n.ShortTag()
	if n.Kind != yaml.ScalarNode || n.Style != 0 {
		return tag
	}
	switch tag {
	case "!!int", "!!float", "!!bool", "!!null", "!!str":
	default:
		return tag // !!merge, !!timestamp, !!binary
	}
	v := n.Value
	switch v {
	case "", "~", "null", "Null", "NULL":
		return "!!null"
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	}
	if coreInt(v) != "" {
		return "!!int"
	}
	if coreFloat(v) != "" {
		return "!!float"
	}
	return "!!str"
}

// coreInt returns the JSON text of a YAML 1.2 core integer ([-+]?[0-9]+,
// 0o[0-7]+ or 0x[0-9a-fA-F]+), or "" when v is not one.
func coreInt(v string) string {
	if len(v) > 2 && v[0] == '0' && (v[1] == 'o' || v[1] == 'x') {
		base := 8
		if v[1] == 'x' {
			base = 16
		}
		var i big.Int
		if _, ok := i.SetString(v[2:], base); !ok || strings.ContainsAny(v[2:], "_+-") {
			return ""
		}
		return i.String()
	}
	sign, digits := splitSign(v)
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return ""
	}
	return sign + trimZeros(digits)
}

// coreFloat returns the JSON text of a finite YAML 1.2 core float
// ([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?), or "" when v is
// not one; .inf and .nan are returned as written (JSON cannot hold them).
func coreFloat(v string) string {
	sign, rest := splitSign(v)
	switch rest {
	case ".inf", ".Inf", ".INF":
		return v
	}
	switch v {
	case ".nan", ".NaN", ".NAN":
		return v
	}
	mant, exp := rest, ""
	if i := strings.IndexAny(rest, "eE"); i >= 0 {
		mant, exp = rest[:i], rest[i+1:]
		es, ed := splitSign(exp)
		if ed == "" || strings.Trim(ed, "0123456789") != "" {
			return ""
		}
		exp = "e" + es + ed
	}
	ip, fp, dot := strings.Cut(mant, ".")
	if strings.Trim(ip, "0123456789") != "" || strings.Trim(fp, "0123456789") != "" {
		return ""
	}
	if ip == "" && fp == "" || ip == "" && !dot {
		return ""
	}
	out := sign + trimZeros(ip)
	if fp != "" {
		out += "." + fp
	}
	return out + exp
}

func splitSign(v string) (sign, rest string) {
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			return "-", v[1:]
		}
		return "", v[1:]
	}
	return "", v
}

// trimZeros drops leading zeros, which JSON does not allow ("" becomes "0").
func trimZeros(d string) string {
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return "0"
	}
	return d
}
