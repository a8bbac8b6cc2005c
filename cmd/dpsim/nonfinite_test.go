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

// Issue 28, class 3 (and issue 30): no export fails on a number. DP-RECAL
// with a noise scale of 1e-20 or 1e-200 ran to its end and then failed
// with "json: unsupported value: NaN" (or +Inf), writing nothing: its
// ledger's ρ and ε overflow. Every export kind now writes NaN as null and
// ±Inf as "Inf"/"-Inf" (the CSVs: NaN, +Inf, -Inf) and reads them back:
// the run export and its CSV (through --resume, byte for byte), the
// eavesdropper's view, compare's exports, a sweep and its merge, the
// attack's report.
func TestNoExportFailsOnANumber(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	base, err := scenario.PresetJSON("recal-synthetic")
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []string{"1e-20", "1e-200"} {
		var s map[string]any
		json.Unmarshal(base, &s)
		s["noise"] = map[string]any{"u": map[string]any{"dist": "gaussian", "scale": json.Number(scale)}}
		s["iterations"] = 400
		s["record"] = map[string]any{"every": 10, "eval_every": 100, "checkpoints": []int{0, 150, 400}}
		js, _ := json.Marshal(s)
		scen := p("recal-" + scale + ".json")
		os.WriteFile(scen, js, 0o644)
		out, csv, spy := p("run-"+scale+".json"), p("run-"+scale+".csv"), p("spy-"+scale+".json")
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", out, "--csv", csv, "--eavesdrop", spy, "--eavesdrop-every", "50", scen); code != 0 {
			t.Fatalf("scale %s: exit %d: %s", scale, code, errs)
		}
		data, _ := os.ReadFile(out)
		text, _ := os.ReadFile(csv)
		if !json.Valid(data) || !bytes.Contains(data, []byte(`"value": "Inf"`)) && !bytes.Contains(data, []byte(`"value": null`)) {
			t.Fatalf("scale %s: the export holds no non-finite ledger input", scale)
		}
		if !bytes.Contains(text, []byte(",+Inf\n")) {
			t.Errorf("scale %s: the CSV's ε reads no +Inf", scale)
		}
		if b, _ := os.ReadFile(spy); !json.Valid(b) {
			t.Errorf("scale %s: the eavesdropper's view is not JSON", scale)
		}
		again, againCSV := p("again-"+scale+".json"), p("again-"+scale+".csv")
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--resume", out, "--from", "150", "--out", again, "--csv", againCSV); code != 0 {
			t.Fatalf("scale %s: resume: exit %d: %s", scale, code, errs)
		}
		got, _ := os.ReadFile(again)
		gotCSV, _ := os.ReadFile(againCSV)
		if !bytes.Equal(got, data) || resumedCSV(t, text, 150) != resumedCSV(t, gotCSV, -1) {
			t.Errorf("scale %s: resumed, the export (equal: %v) or the CSV differs", scale, bytes.Equal(got, data))
		}
	}

	// compare writes each entry's run export.
	cmp := p("cmp.json")
	os.WriteFile(cmp, []byte(`{"format": "dpsim-compare/1", "base": `+string(mustRead(t, p("recal-1e-200.json")))+`,
	 "compare": [{"kind": "dp-recal", "label": "R = 1.01", "params": {"attenuation": 1.01}}, {"kind": "dp-recal", "label": "R = 1.05", "params": {"attenuation": 1.05}}]}`), 0o644)
	if code, _, errs := dpsim(t, "", "compare", "--quiet", "--dir", dir, cmp); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	if ents, _ := filepath.Glob(p("recal-synthetic-*-dp-recal.json")); len(ents) != 2 {
		t.Errorf("compare wrote %v", ents)
	}

	// A sweep (ε = ∞ as "Inf") and its merge, which reads it back.
	exp := p("sweep.json")
	os.WriteFile(exp, []byte(`{"format": "dpsim-experiment/1", "name": "tiny-noise", "title": "t", "description": "d",
	 "base": {"preset": "recal-synthetic"}, "set": {"iterations": 100, "record.every": 10},
	 "series": [{"name": "a", "label": "1e-20", "set": {"noise.u.scale": 1e-20}}, {"name": "b", "label": "1e-200", "set": {"noise.u.scale": 1e-200}}],
	 "x": {"kind": "iteration", "label": "k", "unit": ""}, "runs": 2, "seed": 2, "metrics": [{"name": "optimality"}], "quantities": ["epsilon"],
	 "statistic": "median", "figure": {"title": "t", "y": {"metric": "optimality", "label": "e", "unit": "", "scale": "log"}}}`), 0o644)
	res, merged := p("res.json"), p("merged.json")
	if code, _, errs := dpsim(t, "", "sweep", "--quiet", "--out", res, exp); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errs)
	}
	if code, _, errs := dpsim(t, "", "merge", "--out", merged, res); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if a, b := mustRead(t, res), mustRead(t, merged); !bytes.Equal(a, b) || !bytes.Contains(a, []byte(`"median":"Inf"`)) {
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
