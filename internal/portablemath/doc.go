// Package portablemath holds the test that keeps the standard library's
// platform-dependent math out of the code that computes what dpsim writes.
//
// Go's math.Exp is assembly on amd64 (with a fused multiply–add path on
// CPUs that have one), arm64, loong64 and s390x; math.Log, and so Log10,
// Log2 and Pow's fractional part, on amd64 and s390x; and the pure-Go
// functions (Expm1, Log1p, Sin, Cos, Pow, Hypot, Erf, Lgamma…) are
// compiled with fused multiply–adds on arm64 and with GOAMD64=v3. Each of
// these can differ from the browser's result (pure Go, never fused) in the
// last bit, and one such bit in a noise scale, a loss or a draw changes a
// run's trajectory and its export. core/num holds portable versions
// (core/rng's NormFloat64 is math/rand's normal on them), and the code
// that feeds a trace or an export calls them.
//
// TestNoPlatformMath parses every non-test Go file of the module and fails
// naming file:line for each use of such a function — math's, math/cmplx's,
// and math/rand's NormFloat64 and ExpFloat64, which call math.Exp and
// math.Log, as functions or methods — outside the folders listed as
// exceptions, each with its reason (code that only draws pixels or runs
// only in the browser). It also fails on a third-party import there that
// is not listed with its reason, since a library's own calls to math are
// not in dpsim's sources (gonum's stat and mathext call math.Exp and
// math.Log). TestUses shows what it finds on a file of each kind of use.
package portablemath
