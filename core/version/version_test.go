package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"test binary", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, Devel},
		{"empty", debug.BuildInfo{}, Devel},
		{"tagged release", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"clean tree", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125214410-2b60f21abcde"},
			Settings: set("vcs.revision", "2b60f21abcdef0123456789", "vcs.modified", "false")}, "2b60f21abcde"},
		{"dirty tree", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125214410-2b60f21abcde+dirty"},
			Settings: set("vcs.revision", "2b60f21abcdef0123456789", "vcs.modified", "true")}, "2b60f21abcde+dirty"},
	} {
		if got := FromBuildInfo(&tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if String() == "" {
		t.Error("String is empty")
	}
}
