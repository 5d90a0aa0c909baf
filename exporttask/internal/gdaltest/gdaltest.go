package gdaltest

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// RequireEnv is the environment variable that, set to 1, turns a missing
// GDAL tool from a skipped test into a failed one (CI sets it).
const RequireEnv = "VIEWER_TEST_REQUIRE_GDAL"

// Require returns the path of the named tool (gdalinfo, ogrinfo). When it is
// not installed the test is skipped, or failed when RequireEnv is "1".
func Require(t testing.TB, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err == nil {
		return p
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s not found and %s=1: install gdal-bin", tool, RequireEnv)
	}
	t.Skipf("%s not found (set %s=1 to fail instead): %v", tool, RequireEnv, err)
	return ""
}

// Dataset is the part of `gdalinfo -json` output the tests read.
type Dataset struct {
	DriverShortName  string `json:"driverShortName"`
	Size             []int  `json:"size"`
	CoordinateSystem struct {
		WKT string `json:"wkt"`
	} `json:"coordinateSystem"`
	CornerCoordinates struct {
		UpperLeft  []float64 `json:"upperLeft"`
		LowerLeft  []float64 `json:"lowerLeft"`
		UpperRight []float64 `json:"upperRight"`
		LowerRight []float64 `json:"lowerRight"`
	} `json:"cornerCoordinates"`
	GeoTransform []float64 `json:"geoTransform"`
	Bands        []Band    `json:"bands"`
}

// Band is one band of a [Dataset].
type Band struct {
	Type        string                       `json:"type"`
	NoDataValue *float64                     `json:"noDataValue"`
	Minimum     *float64                     `json:"minimum"`
	Maximum     *float64                     `json:"maximum"`
	Mean        *float64                     `json:"mean"`
	Metadata    map[string]map[string]string `json:"metadata"`
}

// Info runs gdalinfo with -json and the extra arguments on path (skipping or
// failing the test as [Require] says when gdalinfo is missing) and decodes
// its output.
func Info(t testing.TB, path string, args ...string) Dataset {
	t.Helper()
	bin := Require(t, "gdalinfo")
	cmd := exec.Command(bin, append(append([]string{"-json"}, args...), path)...)
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("gdalinfo %s: %v\n%s", path, err, stderr)
	}
	var d Dataset
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("decoding gdalinfo output: %v\n%s", err, out)
	}
	return d
}

// Run runs a GDAL tool found by [Require] and returns its standard output,
// failing the test when it exits with an error.
func Run(t testing.TB, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr)
	}
	return string(out)
}
