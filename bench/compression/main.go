// Command compression measures, for the encoder settings the viewer could
// use, what each costs: the compressed size, the time, and the bytes the
// encoder allocates while compressing (runtime.MemStats.TotalAlloc before
// and after; the encoder's tables are allocated once per compression and
// are all live together, so this bounds what one compression adds to the
// heap), and the peak resident set (VmHWM) of a process that reads the
// input and compresses it once, against one that only reads it. Each
// measurement runs in a process of its own. Inputs: Swagger UI's bundle,
// and the document given with -spec.
//
//	cd bench && go run ./compression
//	cd bench && go run ./compression -spec "$(../scripts/fetch-github-spec.sh)"
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/andybalholm/brotli"
	swaggerfiles "github.com/swaggo/files/v2"
)

// setting is one encoder configuration.
type setting struct {
	name string
	enc  func(dst *bytes.Buffer, src []byte) error
}

func settings() []setting {
	var out []setting
	for _, level := range []int{6, 9} {
		out = append(out, setting{fmt.Sprintf("gzip %d", level), func(dst *bytes.Buffer, src []byte) error {
			w, err := gzip.NewWriterLevel(dst, level)
			if err != nil {
				return err
			}
			if _, err := w.Write(src); err != nil {
				return err
			}
			return w.Close()
		}})
	}
	for _, q := range []int{4, 5, 6, 7, 9} {
		for _, lgwin := range []int{16, 17, 18, 20, 22} {
			out = append(out, setting{fmt.Sprintf("brotli q%d w%d", q, lgwin), func(dst *bytes.Buffer, src []byte) error {
				win := lgwin
				for win > 10 && 1<<(win-1) >= len(src) {
					win-- // as the viewer: no window larger than the body
				}
				w := brotli.NewWriterOptions(dst, brotli.WriterOptions{Quality: q, LGWin: win})
				if _, err := w.Write(src); err != nil {
					return err
				}
				return w.Close()
			}})
		}
	}
	return out
}

func main() {
	spec := flag.String("spec", "", "a document's JSON to measure as well")
	one := flag.String("one", "", "internal: compress -input with this setting and print the peak RSS")
	input := flag.String("input", "", "internal: the input of -one (a path, or \"bundle\")")
	flag.Parse()
	if err := run(*spec, *one, *input); err != nil {
		fmt.Fprintln(os.Stderr, "bench/compression:", err)
		os.Exit(1)
	}
}

func run(spec, one, input string) error {
	if one != "" {
		return measureOne(one, input)
	}
	inputs := []string{"bundle"}
	if spec != "" {
		inputs = append(inputs, spec)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "input\tsetting\tsize\tof input\ttime\tallocated\tpeak RSS\tadded to RSS\t")
	for _, in := range inputs {
		base, err := child("none", in)
		if err != nil {
			return err
		}
		for _, s := range settings() {
			r, err := child(s.name, in)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f kB\t%.1f%%\t%v\t%.1f MB\t%.1f MB\t%.1f MB\t\n", shortName(in), s.name,
				float64(r.Size)/1000, 100*float64(r.Size)/float64(r.InputSize), r.Time.Round(time.Millisecond),
				float64(r.Allocated)/1e6, float64(r.PeakRSS)/1e6, (float64(r.PeakRSS)-float64(base.PeakRSS))/1e6)
		}
	}
	return tw.Flush()
}

// result is what one compression, in a process of its own, cost.
type result struct {
	InputSize, Size int
	Time            time.Duration
	Allocated       uint64 // TotalAlloc during the compression
	PeakRSS         uint64 // VmHWM of the process
}

// child runs this program again to compress one input with one setting
// ("none": only read the input, for the baseline).
func child(setting, input string) (result, error) {
	exe, err := os.Executable()
	if err != nil {
		return result{}, fmt.Errorf("finding this program: %w", err)
	}
	out, err := exec.Command(exe, "-one", setting, "-input", input).Output()
	if err != nil {
		return result{}, fmt.Errorf("%s on %s: %w", setting, input, err)
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		return result{}, fmt.Errorf("%s on %s: %w", setting, input, err)
	}
	return r, nil
}

func measureOne(name, input string) error {
	var body []byte
	var err error
	if input == "bundle" {
		body, err = fs.ReadFile(swaggerfiles.FS, "swagger-ui-bundle.js")
	} else {
		body, err = os.ReadFile(input)
	}
	if err != nil {
		return err
	}
	r := result{InputSize: len(body)}
	if name != "none" {
		i := slices.IndexFunc(settings(), func(s setting) bool { return s.name == name })
		if i < 0 {
			return fmt.Errorf("unknown setting %q", name)
		}
		var dst bytes.Buffer
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		if err := settings()[i].enc(&dst, body); err != nil {
			return err
		}
		r.Time = time.Since(start)
		runtime.ReadMemStats(&after)
		r.Size, r.Allocated = dst.Len(), after.TotalAlloc-before.TotalAlloc
	}
	if r.PeakRSS, err = peakRSS(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// peakRSS reads this process's VmHWM.
func peakRSS() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

func shortName(p string) string {
	if len(p) > 28 {
		return "…" + p[len(p)-27:]
	}
	return p
}
