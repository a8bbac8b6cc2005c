// Package version says which dpsim wrote a file: the CLI and the page
// read it from the same place, the build information Go stamps into every
// binary (runtime/debug.ReadBuildInfo), so that both name the same
// version when built from the same tree.
package version

import (
	"runtime/debug"
	"sync"
)

// Devel is the version of a binary built without version control
// information (go test, go run, -buildvcs=false, a tree outside git).
const Devel = "devel"

var (
	once   sync.Once
	cached string
)

// String returns dpsim's version: the commit it was built from (the first
// 12 hex digits of vcs.revision, "+dirty" when the tree had uncommitted
// changes), otherwise the module's version (a build of a downloaded
// module), otherwise Devel.
func String() string {
	once.Do(func() {
		bi, ok := debug.ReadBuildInfo()
		if !ok {
			cached = Devel
			return
		}
		cached = FromBuildInfo(bi)
	})
	return cached
}

// FromBuildInfo is String's rule applied to bi.
func FromBuildInfo(bi *debug.BuildInfo) string {
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		return Devel
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}
