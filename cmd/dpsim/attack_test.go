package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/attack"
)

// dpsim attack writes both reconstructions: RECAL's is the image, DP-RECAL's
// no better than a random guess; a bad flag is one line.
func TestAttackCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "a.json")
	var so, se bytes.Buffer
	if code := run([]string{"attack", "--steps", "200", "--out", out}, nil, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep attack.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Clean.Truth) != 784 || !(rep.Clean.Error < 1e-4) || !(rep.Private.Error > 0.5*rep.Private.RandomGuess) {
		t.Errorf("report: %d pixels, RECAL MSE %v, DP-RECAL MSE %v (random %v)", len(rep.Clean.Truth), rep.Clean.Error, rep.Private.Error, rep.Private.RandomGuess)
	}
	if !strings.Contains(so.String(), "DP-RECAL ε=12") {
		t.Errorf("stdout: %s", so.String())
	}
	se.Reset()
	if code := run([]string{"attack", "--target", "9"}, nil, &so, &se); code != 1 || !strings.Contains(se.String(), "--target: must be an agent of 0..7 (got 9)") {
		t.Errorf("exit %d: %s", code, se.String())
	}
}
