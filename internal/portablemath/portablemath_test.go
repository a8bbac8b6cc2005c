package portablemath

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// banned lists, per standard-library package, the functions whose result
// can differ between platforms: assembly on some (math.Exp, math.Log,
// math.Hypot…), or polynomial arithmetic that gc fuses into multiply–adds
// on arm64 and amd64 v3. The rest of math is exact or correctly rounded
// everywhere (Sqrt, FMA, Floor, Mod, Frexp, Ldexp, Pow10's table…).
var banned = map[string]map[string]bool{
	"math": set("Exp", "Exp2", "Expm1", "Log", "Log10", "Log2", "Log1p", "Pow",
		"Sin", "Cos", "Tan", "Sincos", "Sinh", "Cosh", "Tanh",
		"Asin", "Acos", "Atan", "Atan2", "Asinh", "Acosh", "Atanh",
		"Erf", "Erfc", "Erfinv", "Erfcinv", "Gamma", "Lgamma", "Cbrt", "Hypot",
		"J0", "J1", "Jn", "Y0", "Y1", "Yn"),
	// Abs is Hypot, Sqrt and Pow go through Hypot, Log and Exp, the rest
	// through Exp, Log, Sincos or Atan2: all but these five.
	"math/cmplx": nil,
	// The ziggurats' rare paths call math.Exp and math.Log.
	"math/rand":    set("NormFloat64", "ExpFloat64"),
	"math/rand/v2": set("NormFloat64", "ExpFloat64"),
}

// cmplxAllowed are math/cmplx's exact functions.
var cmplxAllowed = set("Conj", "Inf", "NaN", "IsInf", "IsNaN")

// randMethods are math/rand's methods that call math.Exp or math.Log. A
// call x.NormFloat64() is reported whatever x is: no dpsim type declares a
// method of these names (TestNoPlatformMath checks), so it is a *rand.Rand.
var randMethods = set("NormFloat64", "ExpFloat64")

// exceptions are the folders (and those under them) where platform math
// is allowed, each with why no export depends on it.
var exceptions = map[string]string{
	"render/scene": "places and draws the network picture: pixels on the page and in the posters cmd/mkposter makes at build time, never in an export",
	"ui":           "runs only in the browser (js/wasm, one arithmetic): hit tests, a slider's range, a toy's waves; what the page exports is computed by core",
}

// imports are the third-party packages allowed where the check applies:
// a library's own calls to math are not in the sources parsed here.
var imports = map[string]string{
	"gonum.org/v1/plot":                "render/figure: its scales and ticks are replaced by core/num's (axes.go); the rest lays out text and draws with +, −, ×, ÷",
	"gonum.org/v1/plot/font":           "render/figure: fonts",
	"gonum.org/v1/plot/plotter":        "render/figure: lines and bands at the points given",
	"gonum.org/v1/plot/text":           "render/figure: text layout",
	"gonum.org/v1/plot/vg":             "render/figure: lengths and paths",
	"gonum.org/v1/plot/vg/draw":        "render/figure: canvases",
	"gonum.org/v1/plot/vg/vgimg":       "render/figure: PNG rasterization",
	"gonum.org/v1/plot/vg/vgsvg":       "render/figure: SVG",
	"gonum.org/v1/plot/vg/vgpdf":       "render/figure: PDF (natively only)",
	"codeberg.org/go-pdf/fpdf":         "render/figure: PDF (natively only)",
	"github.com/hajimehoshi/ebiten/v2": "the page's view (render, wasm/view): pixels",
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func TestNoPlatformMath(t *testing.T) {
	root := filepath.Join("..", "..")
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(b), "module dpsim\n") {
		t.Fatalf("the module root is not at %s: %v", root, err)
	}
	sites, methods, used := check(t, root)
	for _, s := range sites {
		t.Errorf("%s", s)
	}
	for _, m := range methods {
		t.Errorf("%s: declares a method named like math/rand's, which this test matches by name", m)
	}
	for dir := range exceptions {
		if !used[dir] {
			t.Errorf("exception %q is not needed any more: remove it", dir)
		}
	}
}

// check parses every non-test Go file under root and returns the
// forbidden uses outside the exceptions, the declarations of methods
// named NormFloat64 or ExpFloat64, and the exceptions that excused a use.
func check(t *testing.T, root string) (sites, methods []string, used map[string]bool) {
	used = map[string]bool{}
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		excused := ""
		for dir := range exceptions {
			if strings.HasPrefix(rel, dir+"/") {
				excused = dir
			}
		}
		for _, s := range uses(fset, f, rel) {
			if excused != "" {
				used[excused] = true
				continue
			}
			sites = append(sites, s)
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && randMethods[fn.Name.Name] {
				methods = append(methods, fmt.Sprintf("%s:%d", rel, fset.Position(fn.Pos()).Line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("parsed only %d files under %s", files, root)
	}
	sort.Strings(sites)
	return sites, methods, used
}

// uses returns "file:line: what" for every forbidden use in f: a banned
// function of a standard package (called or not: a function value is a
// use), a dot import of one, a call of a method named NormFloat64 or
// ExpFloat64, and an import not in imports.
func uses(fset *token.FileSet, f *ast.File, rel string) []string {
	var out []string
	at := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s:%d: %s", rel, fset.Position(n.Pos()).Line, fmt.Sprintf(format, args...)))
	}
	names := map[string]string{}  // local name → path, of the packages in banned
	imported := map[string]bool{} // every package's local name (the last element: dpsim's match their folders)
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil {
			imported[im.Name.Name] = true
		} else {
			imported[path[strings.LastIndex(path, "/")+1:]] = true
		}
		if _, ok := banned[path]; ok {
			name := path[strings.LastIndex(path, "/")+1:]
			if path == "math/rand/v2" {
				name = "rand"
			}
			if im.Name != nil {
				name = im.Name.Name
			}
			if name == "." {
				at(im, "dot import of %s", path)
			}
			names[name] = path
			continue
		}
		if first := strings.Split(path, "/")[0]; strings.Contains(first, ".") {
			if _, ok := imports[path]; !ok {
				at(im, "imports %s, whose own math this test cannot see (list it in imports with a reason, or keep it out)", path)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			id, ok := n.X.(*ast.Ident)
			if !ok || id.Obj != nil { // a local variable, not a package
				return true
			}
			path, ok := names[id.Name]
			if !ok {
				return true
			}
			fn := n.Sel.Name
			if b := banned[path]; b[fn] || path == "math/cmplx" && !cmplxAllowed[fn] && ast.IsExported(fn) {
				at(n, "%s.%s is platform-dependent: use core/num's portable function", path, fn)
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && randMethods[sel.Sel.Name] {
				if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && (imported[id.Name] || names[id.Name] != "") {
					return true // a package's function: math/rand's is reported above
				}
				at(n, "method %s: math/rand's calls math.Exp and math.Log (core/rng's NormFloat64 and core/noise's samplers are portable)", sel.Sel.Name)
			}
		}
		return true
	})
	return out
}

// TestUses runs the check on a file holding each kind of use, and uses
// that are not.
func TestUses(t *testing.T) {
	const src = `package p

import (
	"math"
	m "math"
	"math/cmplx"
	"math/rand/v2"
	. "math/rand"

	"dpsim/core/rng"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
)

func f(r *rand.Rand, z complex128) float64 {
	exp := math.Exp // a function value
	_ = cmplx.Abs(z) + real(cmplx.Conj(z))
	_ = m.Log10(2) + math.Sqrt(2) + math.Pow10(3) + math.FMA(1, 2, 3)
	_ = rand.NormFloat64() + r.ExpFloat64() + rng.NormFloat64(r)
	{
		math := struct{ Exp float64 }{} // a local variable, not the package
		_ = math.Exp
	}
	return exp(1) + distuv.UnitNormal.Mean() + float64(len(plot.DefaultFont.Typeface))
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p.go:8: dot import of math/rand",
		"p.go:11: imports gonum.org/v1/gonum/stat/distuv, whose own math this test cannot see (list it in imports with a reason, or keep it out)",
		"p.go:16: math.Exp is platform-dependent: use core/num's portable function",
		"p.go:17: math/cmplx.Abs is platform-dependent: use core/num's portable function",
		"p.go:18: math.Log10 is platform-dependent: use core/num's portable function",
		"p.go:19: math/rand/v2.NormFloat64 is platform-dependent: use core/num's portable function",
		"p.go:19: method ExpFloat64: math/rand's calls math.Exp and math.Log (core/rng's NormFloat64 and core/noise's samplers are portable)",
	}
	got := uses(fset, f, "p.go")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("uses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
