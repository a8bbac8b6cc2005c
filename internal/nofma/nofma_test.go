package nofma

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// targets are the builds whose compiler fuses: each is cross-compiled,
// which needs no machine of that kind.
// The first two are what users build on (Apple Silicon and ARM Linux,
// x86-64 at v3) and run always; the other three add about a minute of
// compilation each on a cold cache for sites arm64 already shows (on
// 2026-11-29, 659 sites on arm64, 658 on riscv64, 526 on ppc64le and
// s390x, before the fixes), so they run when DPSIM_NOFMA_ALL=1.
var targets = []struct {
	name   string
	env    []string
	always bool
}{
	{"arm64", []string{"GOARCH=arm64"}, true},
	{"amd64 v3", []string{"GOARCH=amd64", "GOAMD64=v3"}, true},
	{"ppc64le", []string{"GOARCH=ppc64le"}, false},
	{"s390x", []string{"GOARCH=s390x"}, false},
	{"riscv64", []string{"GOARCH=riscv64"}, false},
}

// fused matches the fused multiply–add mnemonics of the compiler's
// listings: arm64 and riscv64 FMADDD, FMSUBS, FNMADDD, FNMSUBD…; amd64
// VFMADD231SD, VFNMSUB213SS…; ppc64 FMADD, FNMSUBS, FMADDCC…; s390x FMADD,
// FMSUBS, WFMADB, WFMSDB…. No other instruction of the five has these
// names (FMUL, FMOVD, FMAXD do not match).
var fused = regexp.MustCompile(`^(V?FN?M(ADD|SUB)[A-Z0-9]*|WFN?M[AS][DS]B)$`)

// line is one instruction of a -S listing:
//
//	0x0040 00064 (/path/to/file.go:70)	FMADDD	F1, F2, F3, F4
var line = regexp.MustCompile(`^\s+0x[0-9a-f]+ \d+ \(([^)]+):(\d+)\)\s+(\S+)`)

// header opens a function's listing: "dpsim/core/num.Log STEXT size=…".
var header = regexp.MustCompile(`^(\S+) STEXT\b`)

func TestFusedPattern(t *testing.T) {
	for _, c := range []struct {
		op   string
		want bool
	}{
		{"FMADDD", true}, {"FMSUBS", true}, {"FNMADDD", true}, {"FNMSUBD", true},
		{"VFMADD231SD", true}, {"VFMSUB132SS", true}, {"VFNMADD213SD", true}, {"VFNMSUB231SS", true},
		{"FMADD", true}, {"FMADDS", true}, {"FNMSUBCC", true}, {"WFMADB", true}, {"WFMSDB", true},
		{"FMULD", false}, {"FNMULD", false}, {"FMOVD", false}, {"FMAXD", false}, {"FADDD", false},
		{"VMULSD", false}, {"ADDSD", false}, {"MADD", false}, {"MSUBW", false},
	} {
		if got := fused.MatchString(c.op); got != c.want {
			t.Errorf("%s: fused %v, want %v", c.op, got, c.want)
		}
	}
}

// TestNoFusedMultiplyAdd fails for every fused multiply–add the compiler
// emits in dpsim's packages (tests excluded: they run no user's bits) on
// any target, naming file:line, the function and the instruction. A
// product that meets a sum is written float64(x*y) + z (float32 alike).
func TestNoFusedMultiplyAdd(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no go command under js/wasm")
	}
	// go test puts its own GOROOT's bin first on the test's PATH (Go
	// 1.19), so "go" is the go command running this test; runtime.GOROOT
	// is empty in a test built with -trimpath, as ./test.sh builds it.
	goCmd := "go"
	root, err := exec.Command(goCmd, "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	dir := strings.TrimSpace(string(root))
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			if !tg.always && os.Getenv("DPSIM_NOFMA_ALL") != "1" {
				t.Skipf("%s runs with DPSIM_NOFMA_ALL=1 (arm64 covers its sites)", tg.name)
			}
			// go list -export compiles every package as go build does,
			// with the same build-cache keys, but links no command: the
			// links are no part of this check (12 CPU-s a run, measured).
			cmd := exec.Command(goCmd, "list", "-export", "-gcflags=dpsim/...=-S", "-f", "{{.ImportPath}}", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOOS=linux", "CGO_ENABLED=0", "GOFLAGS=")
			cmd.Env = append(cmd.Env, tg.env...)
			var out, stderr bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("go list -export for %s: %v\n%s", tg.name, err, tail(notListing(stderr.Bytes())))
			}
			// The listing is on stderr, replayed from the build cache when
			// nothing changed.
			sites, listed := scan(stderr.Bytes(), dir)
			if listed == 0 {
				t.Fatalf("go list -export for %s printed no listing of a dpsim function: -S did not reach the compiler", tg.name)
			}
			for _, s := range sites {
				t.Errorf("%s: fused multiply–add %s", tg.name, s)
			}
			if len(sites) > 0 {
				t.Logf("%s: %d fused sites; write each product that meets a sum as float64(x*y) (float32 alike)", tg.name, len(sites))
			}
		})
	}
}

// scan returns "file:line (function): INSTR" for each fused instruction in
// a -S listing, sorted, and the number of functions listed.
func scan(listing []byte, dir string) (sites []string, listed int) {
	seen := map[string]bool{}
	fn := ""
	sc := bufio.NewScanner(bytes.NewReader(listing))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		b := sc.Bytes()
		if m := header.FindSubmatch(b); m != nil {
			fn = string(m[1])
			listed++
			continue
		}
		m := line.FindSubmatch(b)
		if m == nil || !fused.Match(m[3]) {
			continue
		}
		file := string(m[1])
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
		s := fmt.Sprintf("%s:%s (%s): %s", file, m[2], fn, m[3])
		if !seen[s] {
			seen[s] = true
			sites = append(sites, s)
		}
	}
	sort.Strings(sites)
	return sites, listed
}

// symbol opens any symbol's listing, code or data: "name SRODATA dupok
// size=8".
var symbol = regexp.MustCompile(`^.* S[A-Z]+( [a-z]+)* size=\d+`)

// notListing returns what a build printed besides the -S listing: the
// compiler's errors, with the "# package" lines that head them.
func notListing(out []byte) string {
	var b strings.Builder
	pkg := "" // a "# package" line, written before its first error only
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "" || l[0] == ' ' || l[0] == '\t' || symbol.MatchString(l):
		case strings.HasPrefix(l, "# "):
			pkg = l
		default:
			if pkg != "" {
				b.WriteString(pkg + "\n")
				pkg = ""
			}
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

func TestNotListing(t *testing.T) {
	out := "# dpsim/core/rng\n" +
		"dpsim/core/rng.init STEXT size=16 args=0x0 locals=0x0 funcid=0x0 align=0x0 leaf\n" +
		"\t0x0000 00000 (<autogenerated>:1)\tTEXT\tdpsim/core/rng.init(SB), LEAF|NOFRAME|PKGINIT|ABIInternal, $0-0\n" +
		"go.shape.struct { X float64 } SRODATA dupok size=8\n" +
		"\t0x0000 08 08 ff                                         ...\n" +
		"# dpsim/core/num\n" +
		"type:.eq.[5]string.arginfo1 SRODATA static dupok size=3\n" +
		"core/num/x.go:3:13: cannot use \"x\" (untyped string constant) as int value\n"
	want := "# dpsim/core/num\ncore/num/x.go:3:13: cannot use \"x\" (untyped string constant) as int value\n"
	if got := notListing([]byte(out)); got != want {
		t.Errorf("notListing:\n%s\nwant:\n%s", got, want)
	}
}
