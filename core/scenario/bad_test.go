package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// badCase is one file of testdata/bad: a scenario that must be rejected
// with a message containing want (which names the field).
type badCase struct {
	name string
	data []byte
	want string
}

var badName = regexp.MustCompile(`^[0-9]{3}-[a-z0-9-]+$`)

func loadBadCorpus(tb testing.TB) []badCase {
	tb.Helper()
	files, err := filepath.Glob("testdata/bad/*.json")
	if err != nil {
		tb.Fatal(err)
	}
	var cases []badCase
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if !badName.MatchString(name) {
			tb.Errorf("%s: name it NNN-short-name.json", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".want")
		if err != nil {
			tb.Fatalf("%s: every bad scenario needs a .want file with part of its message: %v", name, err)
		}
		cases = append(cases, badCase{name, data, strings.TrimSuffix(string(want), "\n")})
	}
	if len(cases) < 100 {
		tb.Fatalf("only %d bad scenarios in testdata/bad", len(cases))
	}
	return cases
}

// TestBadCorpus: every scenario in testdata/bad is rejected, with the
// message its .want file gives (part of it, field path included), on one
// line. Speed and memory are BenchmarkRejectCorpus's business.
func TestBadCorpus(t *testing.T) {
	for _, c := range loadBadCorpus(t) {
		_, err := load(string(c.data))
		switch {
		case err == nil:
			t.Errorf("%s: accepted", c.name)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s:\n got  %s\n want …%s…", c.name, err, c.want)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: a message on several lines: %q", c.name, err)
		}
	}
	// Orphan .want files are mistakes too.
	wants, _ := filepath.Glob("testdata/bad/*.want")
	for _, w := range wants {
		if _, err := os.Stat(strings.TrimSuffix(w, ".want") + ".json"); err != nil {
			t.Errorf("%s has no .json", w)
		}
	}
}

// BenchmarkRejectCorpus parses and builds every bad scenario and reports
// the slowest one's time (worst-ns) and the most bytes allocated by one
// (worst-bytes). The targets are 100 ms and 50 MB per bad input; going over
// 50 MB fails the benchmark (allocation is deterministic, time is not).
func BenchmarkRejectCorpus(b *testing.B) {
	cases := loadBadCorpus(b)
	var worstNs, worstBytes float64
	var slowest, hungriest string
	var ms runtime.MemStats
	for b.Loop() {
		for _, c := range cases {
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			start := time.Now()
			if _, err := load(string(c.data)); err == nil {
				b.Fatalf("%s: accepted", c.name)
			}
			ns := float64(time.Since(start).Nanoseconds())
			runtime.ReadMemStats(&ms)
			bytes := float64(ms.TotalAlloc - before)
			if ns > worstNs {
				worstNs, slowest = ns, c.name
			}
			if bytes > worstBytes {
				worstBytes, hungriest = bytes, c.name
			}
		}
	}
	b.ReportMetric(worstNs, "worst-ns")
	b.ReportMetric(worstBytes, "worst-bytes")
	b.ReportMetric(0, "ns/op") // the per-corpus time says nothing useful
	b.Logf("%d bad scenarios; slowest %s (%.2f ms), most memory %s (%.1f MB)", len(cases), slowest, worstNs/1e6, hungriest, worstBytes/1e6)
	if worstBytes > 50e6 {
		b.Errorf("%s allocates %.0f MB; the target is 50 MB", hungriest, worstBytes/1e6)
	}
}

// Row 10 of the robustness issue: a UTF-8 byte order mark, which some
// editors write, was "invalid character 'ï'"; it is skipped.
func TestByteOrderMarkIsSkipped(t *testing.T) {
	if _, err := load("\xef\xbb\xbf" + base); err != nil {
		t.Errorf("a scenario after a BOM: %v", err)
	}
}

// Row 8: errors about algorithm and problem parameters, decoded after the
// scenario, give lines and columns in the scenario's text.
func TestParameterErrorsGiveFilePositions(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"alpha": 0.1`, `"alpha": "0.1"`, `algorithm.params.alpha: must be a number, not the string "0.1" (line 7, column 53)`},
		{`"dim": 2`, `"dim": 2, "targets": [[0, 0], [1, 1], [2, null], [3, 3]]`, "problem.params.targets[2][1]: must be a number, not null (line 6, column 89)"},
	} {
		text := strings.Replace(base, c.from, c.to, 1)
		if text == base {
			t.Fatalf("%q is not in base", c.from)
		}
		if _, err := load(text); err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}
}
