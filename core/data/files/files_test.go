package files_test

import (
	"os/exec"
	"strings"
	"testing"

	"dpsim/core/data"
	"dpsim/core/data/files"
)

// TestEmbedded: importing this package registers the embedded files, and
// every manifest file is in them.
func TestEmbedded(t *testing.T) {
	for _, f := range data.Files() {
		if _, err := files.FS.Open(f.File); err != nil {
			t.Errorf("%s is not embedded: %v", f.File, err)
		}
	}
	s, err := data.Load("mnist-01", "train")
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != 12665 || s.Cols != 784 {
		t.Errorf("mnist-01 train is %d×%d: want 12665×784", s.Rows, s.Cols)
	}
}

// TestNotInPage: the page's WebAssembly must not carry the data, so no
// package it builds from may import this one.
func TestNotInPage(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "../../../wasm/...", "../../../ui/...", "../../../render/...")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "dpsim/core/data/files" {
			t.Fatal("the page's WebAssembly imports dpsim/core/data/files, which embeds every dataset: it must fetch them from public/data instead")
		}
	}
}
