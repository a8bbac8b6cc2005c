package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/data"
)

// sharedData is ../shared/data relative to the module root (two levels
// up from this package), where the originals are on the project's
// machines and in CI.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")

// TestRebuild rebuilds every committed file from the originals and
// requires the same bytes as committed, and the same manifest. Skipped
// when the originals are not there (a user's clone); the committed files
// are then still checked against the manifest by core/data's tests.
func TestRebuild(t *testing.T) {
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("originals not present at %s: %v", sharedData, err)
	}
	if testing.Short() {
		t.Skip("rebuilding every dataset takes ≈ 30 s")
	}
	out := t.TempDir()
	if err := run([]string{"-src", sharedData, "-out", out}, io.Discard); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "..", "core", "data")
	compare(t, committed, out, "manifest.json")
	var m data.Manifest
	b, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range m.Datasets {
		for _, f := range d.Splits {
			compare(t, committed, out, filepath.Join("files", f.File))
			n++
		}
	}
	if n != len(data.Files()) {
		t.Errorf("rebuilt %d files: the committed manifest lists %d", n, len(data.Files()))
	}
}

// compare requires rel to have the same bytes under both directories.
func compare(t *testing.T, committed, rebuilt, rel string) {
	t.Helper()
	a, err := os.ReadFile(filepath.Join(committed, rel))
	if err != nil {
		t.Error(err)
		return
	}
	b, err := os.ReadFile(filepath.Join(rebuilt, rel))
	if err != nil {
		t.Error(err)
		return
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s: rebuilt sha256 %s, committed %s: run `go run ./cmd/mkdata` and commit (if only the .gz differ and raw_sha256 agrees, Go's compressor changed)", rel, hexsum(b), hexsum(a))
	}
}

// TestParsers: the format readers refuse malformed input with the file
// and the rule.
func TestParsers(t *testing.T) {
	if _, err := parseLIBSVM("f", []byte("1 2:1 1:1\n"), 3); err == nil || !strings.Contains(err.Error(), "f line 1: index \"1\": must ascend") {
		t.Errorf("descending index: %v", err)
	}
	if _, err := parseLIBSVM("f", []byte("1 4:1\n"), 3); err == nil || !strings.Contains(err.Error(), "must ascend within 1 … 3") {
		t.Errorf("index too large: %v", err)
	}
	if _, err := parseLIBSVM("f", []byte("1 1:x\n"), 3); err == nil || !strings.Contains(err.Error(), `value "x"`) {
		t.Errorf("bad value: %v", err)
	}
	p, err := parseLIBSVM("f", []byte("-1 1:0.5 3:-2 \n1 2:1"), 3)
	if err != nil || p.rows != 2 || p.labels[1] != "1" || p.x[2] != -2 || p.x[4] != 1 || p.x[3] != 0 {
		t.Errorf("parse: %+v, %v", p, err)
	}
	if _, _, _, err := parseIDX("i", []byte{0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3}, 0x803); err == nil || !strings.Contains(err.Error(), "3 data bytes: header says 1×4") {
		t.Errorf("short IDX: %v", err)
	}
	if _, _, _, err := parseIDX("i", []byte{0, 0, 8, 1, 0, 0, 0, 1, 7}, 0x803); err == nil || !strings.Contains(err.Error(), "magic 0x803") {
		t.Errorf("wrong magic: %v", err)
	}
	if _, _, err := parseCIFAR("c", make([]byte, cifarRecord+1)); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("cut CIFAR: %v", err)
	}
	rec := make([]byte, cifarRecord)
	rec[0] = 10
	if _, _, err := parseCIFAR("c", rec); err == nil || !strings.Contains(err.Error(), "label 10") {
		t.Errorf("CIFAR label: %v", err)
	}
}

// TestMinMax: train columns span [0, 1]; test uses train's map, clipped.
func TestMinMax(t *testing.T) {
	tr := &libsvm{rows: 3, cols: 2, x: []float64{-1, 5, 0, 5, 1, 5}}
	te := &libsvm{rows: 2, cols: 2, x: []float64{-3, 6, 0.5, 4}}
	a, b := minMax(tr, te)
	want := []float32{0, 0, 0.5, 0, 1, 0}
	for k := range want {
		if a[k] != want[k] {
			t.Errorf("train %d: %g, want %g", k, a[k], want[k])
		}
	}
	wantTe := []float32{0, 1, 0.75, 0}
	for k := range wantTe {
		if b[k] != wantTe[k] {
			t.Errorf("test %d: %g, want %g", k, b[k], wantTe[k])
		}
	}
}

// Issue 28, class 5: an unknown -only name is an error and nothing is
// written (it exited 0 and wrote a manifest listing no dataset over the
// repository's, breaking every dataset preset); a partial rebuild keeps
// the manifest's other datasets; a manifest it cannot read is never
// replaced by one of the rebuilt datasets alone.
func TestOnlyNeverDropsDatasets(t *testing.T) {
	committed := read(t, filepath.Join("..", "..", "core", "data", "manifest.json"))
	out := t.TempDir()
	manifest := filepath.Join(out, "manifest.json")
	os.WriteFile(manifest, committed, 0o644)
	src := t.TempDir()
	for _, c := range []struct {
		only, want string
	}{
		{"nosuch", `-only: unknown dataset "nosuch"; the datasets are mushrooms, ijcnn1, mnist, mnist-01, fmnist-tshirt-trouser, cifar10-catdog`},
		{"mushrooms,", `-only: unknown dataset ""`},
		{"", `-only: unknown dataset ""`},
	} {
		err := run([]string{"-src", src, "-out", out, "-only", c.only}, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("-only %q: %v, want %q", c.only, err, c.want)
		}
	}
	if !bytes.Equal(read(t, manifest), committed) {
		t.Error("a refused rebuild changed the manifest")
	}
	os.WriteFile(manifest, []byte("{not a manifest"), 0o644)
	err := run([]string{"-src", src, "-out", out, "-only", "mushrooms"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "manifest.json: not a dataset manifest") {
		t.Errorf("unreadable manifest: %v", err)
	}
	if string(read(t, manifest)) != "{not a manifest" {
		t.Error("the unreadable manifest was replaced")
	}
	file := filepath.Join(out, "plain")
	os.WriteFile(file, nil, 0o644)
	if err := run([]string{"-src", src, "-out", file, "-only", "mushrooms"}, io.Discard); err == nil || err.Error() != "-out "+file+": is not a folder; give the folder to write manifest.json and files/ into" {
		t.Errorf("-out a file: %v", err)
	}
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("originals not present at %s: %v", sharedData, err)
	}
	os.WriteFile(manifest, committed, 0o644)
	if err := run([]string{"-src", sharedData, "-out", out, "-only", "mushrooms"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, manifest), committed) {
		t.Error("rebuilding mushrooms alone changed the manifest: the other datasets' entries must stay")
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
