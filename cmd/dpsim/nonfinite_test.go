package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/attack"
	"dpsim/core/eavesdrop"
	"dpsim/core/jsonout"
	"dpsim/core/scenario"
)

// Issue 28, class 3 (and issue 30): no export fails on a number. A run
// whose ledger overflows — DP-RECAL at noise scale 1e-20 or 1e-200 before
// its conversion was made finite, DP-DGT at 1e-320 still — ran to its end
// and then failed with "json: unsupported value: +Inf" (or NaN), writing
// nothing. Every export kind now writes NaN as null and ±Inf as
// "Inf"/"-Inf" (the CSVs: NaN, +Inf, -Inf) and reads them back: the run
// export and its CSV (through --resume, byte for byte), the
// eavesdropper's view, compare's exports, a sweep and its merge, the
// attack's report.
func TestNoExportFailsOnANumber(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	base, err := scenario.PresetJSON("dpdgt-ieee14")
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	json.Unmarshal(base, &s)
	for _, ch := range s["noise"].(map[string]any) {
		ch.(map[string]any)["scale"] = json.Number("1e-320")
	}
	s["iterations"] = 200
	s["record"] = map[string]any{"every": 10, "checkpoints": []int{0, 100, 200}}
	js, _ := json.Marshal(s)
	scen := p("dpdgt-tiny.json")
	os.WriteFile(scen, js, 0o644)
	out, csv, spy := p("run.json"), p("run.csv"), p("spy.json")
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", out, "--csv", csv, "--eavesdrop", spy, "--eavesdrop-every", "50", scen); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, text := mustRead(t, out), mustRead(t, csv)
	if !json.Valid(data) || !bytes.Contains(data, []byte(`"value": "Inf"`)) {
		t.Fatal(`the export holds no ledger input written "Inf"`)
	}
	if !bytes.Contains(text, []byte(",+Inf")) {
		t.Error("the CSV's ε reads no +Inf")
	}
	if !json.Valid(mustRead(t, spy)) {
		t.Error("the eavesdropper's view is not JSON")
	}
	again, againCSV := p("again.json"), p("again.csv")
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--resume", out, "--from", "100", "--out", again, "--csv", againCSV); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	got, gotCSV := mustRead(t, again), mustRead(t, againCSV)
	if !bytes.Equal(got, data) || resumedCSV(t, text, 100) != resumedCSV(t, gotCSV, -1) {
		t.Errorf("resumed, the export (equal: %v) or the CSV differs", bytes.Equal(got, data))
	}

	// compare writes each entry's run export.
	cmp := p("cmp.json")
	os.WriteFile(cmp, []byte(`{"format": "dpsim-compare/1", "base": `+string(js)+`,
	 "compare": [{"kind": "dp-dgt", "label": "φ = 0.7", "params": {"phi": 0.7}}, {"kind": "dp-dgt", "label": "φ = 0.5", "params": {"phi": 0.5}}]}`), 0o644)
	if code, _, errs := dpsim(t, "", "compare", "--quiet", "--dir", dir, cmp); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	if ents, _ := filepath.Glob(p("dpdgt-ieee14-*-dp-dgt.json")); len(ents) != 2 {
		t.Errorf("compare wrote %v", ents)
	}

	// A sweep (ε = ∞ as "Inf") and its merge, which reads it back.
	exp := p("sweep.json")
	os.WriteFile(exp, []byte(`{"format": "dpsim-experiment/1", "name": "tiny-noise", "title": "t", "description": "d",
	 "base": {"preset": "dpdgt-ieee14"}, "set": {"iterations": 100, "record.every": 10},
	 "series": [{"name": "a", "label": "1e-320", "set": {"noise.xi.scale": 1e-320, "noise.zeta.scale": 1e-320}}, {"name": "b", "label": "0", "set": {"noise.xi.scale": 0, "noise.zeta.scale": 0}}],
	 "x": {"kind": "iteration", "label": "k", "unit": ""}, "runs": 2, "seed": 2, "metrics": [{"name": "optimality"}], "quantities": ["epsilon"],
	 "statistic": "median", "figure": {"title": "t", "y": {"metric": "optimality", "label": "e", "unit": "", "scale": "log"}}}`), 0o644)
	res, merged := p("res.json"), p("merged.json")
	if code, _, errs := dpsim(t, "", "sweep", "--quiet", "--out", res, exp); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errs)
	}
	if code, _, errs := dpsim(t, "", "merge", "--out", merged, res); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if a, b := mustRead(t, res), mustRead(t, merged); !bytes.Equal(a, b) || !bytes.Contains(a, []byte(`"Inf"`)) {
		t.Errorf("the sweep's JSON and its merge differ (%v), or hold no \"Inf\"", !bytes.Equal(a, b))
	}

	// The attack's report and the eavesdropper's view, as the CLI writes
	// them (jsonout.Marshal, jsonout.Encode), with every kind of number.
	nf := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0.5}
	rep := attack.Report{Epsilon: math.Inf(1), Delta: 1e-3, Clean: &attack.Result{Truth: nf, Error: math.NaN(), Sigma: math.Inf(1)}}
	b, err := jsonout.Marshal(rep)
	want := `"epsilon":"Inf"`
	if err != nil || !strings.Contains(string(b), want) || !strings.Contains(string(b), `"Truth":[null,"Inf","-Inf",0.5]`) {
		t.Errorf("attack: %v, %s", err, b)
	}
	var buf bytes.Buffer
	view := eavesdrop.Report{Format: eavesdrop.Format, Frames: []eavesdrop.Frame{{X: nf, ShieldX: math.Inf(1), ResidualX: math.NaN()}}}
	if err := jsonout.Encode(&buf, view, "", " "); err != nil || !json.Valid(buf.Bytes()) || !strings.Contains(buf.String(), `"shield_x": "Inf"`) {
		t.Errorf("eavesdrop: %v, %s", err, buf.String())
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
