package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpsim/core/data/usertest"
	"dpsim/core/experiment"
	"dpsim/core/objective"
	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// userProblem is one learning problem on a user's data: the preset it
// starts from and the shape of its rows.
type userProblem struct {
	name, preset string
	rows, cols   int
	classes      int  // labels 0 … classes−1
	test         bool // the problem reads test rows
	dataset      bool // the problem has a dataset parameter
	pixels       bool // whole numbers 0…255, "scale": "pixels"
}

// userProblems are the five learning problems of issue 30.
var userProblems = []userProblem{
	{name: "logistic", preset: "ldp-online-mushrooms", rows: 60, cols: 5, classes: 2, test: true, dataset: true},
	{name: "least-squares-elastic-net", preset: "recal-synthetic", rows: 48, cols: 4, classes: 2, test: true, dataset: true},
	{name: "softmax", preset: "gtdp-softmax-synthetic", rows: 36, cols: 4, classes: 3, test: true, dataset: true},
	{name: "nonconvex-classifier", preset: "dpp2-classifier", rows: 120, cols: 3, classes: 2},
	{name: "cnn", preset: "gtdp-cnn-mnist", rows: 12, cols: 784, classes: 3, test: true, dataset: true, pixels: true},
}

// userRows draws a problem's rows and labels (every class present).
func userRows(p userProblem, seed uint64, rows int) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 30))
	x := make([][]float64, rows)
	y := make([]float64, rows)
	for i := range x {
		x[i] = make([]float64, p.cols)
		for j := range x[i] {
			if p.pixels {
				x[i][j] = float64(r.IntN(256))
			} else {
				x[i][j] = float64(r.IntN(1000)-300) / 250 // outside [0, 1] too
			}
		}
		y[i] = float64(i % p.classes)
	}
	return x, y
}

// writeSource writes rows in a format into dir and returns the source
// naming them (inline: the rows themselves).
func writeSource(t *testing.T, dir, format, stem string, x [][]float64, y []float64) map[string]any {
	t.Helper()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shape, vals := usertest.Matrix(x)
	switch format {
	case "inline":
		return map[string]any{"features": x, "labels": y}
	case "libsvm":
		write(stem+".svm", usertest.LIBSVM(x, y))
		return map[string]any{"file": stem + ".svm", "columns": len(x[0])}
	case "csv":
		write(stem+".csv", usertest.CSV(x, y))
		return map[string]any{"file": stem + ".csv"}
	case "npy":
		write(stem+"-x.npy", usertest.NPY("<f8", shape, vals))
		write(stem+"-y.npy", usertest.NPY("<i8", []int{len(y)}, y))
		return map[string]any{"file": stem + "-x.npy", "labels_file": stem + "-y.npy"}
	case "npz":
		dtype := "<f4"
		if len(x[0]) == 784 {
			// MNIST as Keras ships it: (N, 28, 28) bytes.
			dtype, shape = "|u1", []int{len(x), 28, 28}
		}
		write(stem+".npz", usertest.NPZ(true, []string{"x", "y"}, usertest.NPY(dtype, shape, vals), usertest.NPY("|u1", []int{len(y)}, y)))
		return map[string]any{"file": stem + ".npz"}
	}
	t.Fatalf("format %q", format)
	return nil
}

// userScenario is p's preset on the user's data, shortened.
func userScenario(t *testing.T, p userProblem, data map[string]any) []byte {
	t.Helper()
	text, err := scenario.PresetJSON(p.preset)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(text, &s); err != nil {
		t.Fatal(err)
	}
	params := s["problem"].(map[string]any)["params"].(map[string]any)
	if p.dataset {
		params["dataset"] = "user"
	}
	params["data"] = data
	s["name"] = "user-" + p.name
	s["iterations"] = 8
	s["record"] = map[string]any{"every": 2, "checkpoints": []int{0, 4, 8}}
	delete(s, "stop")
	out, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUserDataEveryProblemAndFormat runs each of the five learning
// problems on a user's data given inline and in each file format, then
// runs the export's pinned scenario with the same files and requires the
// same bytes; the pinned scenario names every file by its sha256.
func TestUserDataEveryProblemAndFormat(t *testing.T) {
	for _, p := range userProblems {
		for _, format := range []string{"inline", "libsvm", "csv", "npy", "npz"} {
			t.Run(p.name+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				x, y := userRows(p, 1, p.rows)
				data := map[string]any{"train": writeSource(t, dir, format, "train", x, y)}
				if p.test {
					tx, ty := userRows(p, 2, p.rows/3)
					data["test"] = writeSource(t, dir, format, "test", tx, ty)
				}
				if p.pixels {
					data["scale"] = "pixels"
				}
				sc := filepath.Join(dir, "scenario.json")
				if err := os.WriteFile(sc, userScenario(t, p, data), 0o644); err != nil {
					t.Fatal(err)
				}
				out1, out2 := filepath.Join(dir, "run.json"), filepath.Join(dir, "replay.json")
				if code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", out1, sc); code != 0 {
					t.Fatalf("run: %s", stderr)
				}
				export, err := os.ReadFile(out1)
				if err != nil {
					t.Fatal(err)
				}
				var e struct {
					Status   string          `json:"status"`
					Scenario json.RawMessage `json:"scenario"`
				}
				if err := json.Unmarshal(export, &e); err != nil {
					t.Fatal(err)
				}
				if e.Status != "completed" {
					t.Fatalf("status %q", e.Status)
				}
				if format != "inline" && strings.Count(string(e.Scenario), `"sha256"`) != strings.Count(string(e.Scenario), `"file"`) {
					t.Errorf("the pinned scenario does not name every file by its sha256: %s", e.Scenario)
				}
				pinned := filepath.Join(dir, "pinned.json")
				if err := os.WriteFile(pinned, e.Scenario, 0o644); err != nil {
					t.Fatal(err)
				}
				if code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", out2, pinned); code != 0 {
					t.Fatalf("replay: %s", stderr)
				}
				replay, err := os.ReadFile(out2)
				if err != nil {
					t.Fatal(err)
				}
				if string(replay) != string(export) {
					t.Errorf("the replay of the pinned scenario differs: %s", firstDiff(string(export), string(replay)))
				}
				// Resuming from the checkpoint at 4 reads the files beside
				// the export and gives the same bytes.
				out3 := filepath.Join(dir, "resumed.json")
				if code, _, stderr := dpsim(t, "", "run", "--quiet", "--resume", out1, "--from", "4", "--out", out3); code != 0 {
					t.Fatalf("resume: %s", stderr)
				} else if resumed, _ := os.ReadFile(out3); string(resumed) != string(export) {
					t.Errorf("the resumed run differs: %s", firstDiff(string(export), string(resumed)))
				}
			})
		}
	}
}

// TestUserDataReplayRefusesAnotherFile replays an export with a changed
// file: refused in one line naming both hashes, nothing written.
func TestUserDataReplayRefusesAnotherFile(t *testing.T) {
	p := userProblems[0]
	dir := t.TempDir()
	x, y := userRows(p, 1, p.rows)
	data := map[string]any{"train": writeSource(t, dir, "csv", "train", x, y)}
	sc := filepath.Join(dir, "scenario.json")
	os.WriteFile(sc, userScenario(t, p, data), 0o644)
	out := filepath.Join(dir, "run.json")
	if code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", out, sc); code != 0 {
		t.Fatal(stderr)
	}
	export, _ := os.ReadFile(out)
	var e struct{ Scenario json.RawMessage }
	json.Unmarshal(export, &e)
	pinned := filepath.Join(dir, "pinned.json")
	os.WriteFile(pinned, e.Scenario, 0o644)
	x[3][1] += 1
	writeSource(t, dir, "csv", "train", x, y)
	code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", filepath.Join(dir, "again.json"), pinned)
	if code != 1 || !strings.Contains(stderr, "problem.params.data.train.file: train.csv has sha256 ") ||
		!strings.Contains(stderr, ", but the scenario pins ") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "again.json")); err == nil {
		t.Error("an export was written")
	}
	// A missing file names the field, the path and the folder.
	os.Remove(filepath.Join(dir, "train.csv"))
	code, _, stderr = dpsim(t, "", "validate", sc)
	if code != 1 || !strings.Contains(stderr, "problem.params.data.train.file: ") || !strings.Contains(stderr, "train.csv") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestUserDataPerAgent gives each agent its own rows — inline for the
// classifier (uneven counts), one CSV file each for logistic — and
// replays the export bit for bit; each agent's shard is its rows.
func TestUserDataPerAgent(t *testing.T) {
	for _, c := range []struct {
		p      userProblem
		agents int
		format string
	}{{userProblems[3], 50, "inline"}, {userProblems[0], 10, "csv"}} {
		t.Run(c.p.name, func(t *testing.T) {
			dir := t.TempDir()
			var sources []map[string]any
			for i := range c.agents {
				x, y := userRows(c.p, uint64(10+i), 2+i%3)
				y[0], y[1] = 0, 1
				sources = append(sources, writeSource(t, dir, c.format, fmt.Sprintf("agent%d", i), x, y))
			}
			sc := filepath.Join(dir, "scenario.json")
			os.WriteFile(sc, userScenario(t, c.p, map[string]any{"agents": sources}), 0o644)
			out, again := filepath.Join(dir, "run.json"), filepath.Join(dir, "again.json")
			if code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", out, sc); code != 0 {
				t.Fatal(stderr)
			}
			b, err := load(sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.agents {
				if got := b.Env.Problem.(objective.Stochastic).Samples(i); got != 2+i%3 {
					t.Fatalf("agent %d holds %d samples, its source %d", i, got, 2+i%3)
				}
			}
			export, _ := os.ReadFile(out)
			var e struct{ Scenario json.RawMessage }
			json.Unmarshal(export, &e)
			pinned := filepath.Join(dir, "pinned.json")
			os.WriteFile(pinned, e.Scenario, 0o644)
			if code, _, stderr := dpsim(t, "", "run", "--quiet", "--out", again, pinned); code != 0 {
				t.Fatal(stderr)
			}
			if b, _ := os.ReadFile(again); string(b) != string(export) {
				t.Errorf("the replay differs: %s", firstDiff(string(export), string(b)))
			}
		})
	}
}

// TestUserDataCompare: dpsim compare reads the base scenario's files
// beside the comparison file.
func TestUserDataCompare(t *testing.T) {
	p := userProblems[0]
	dir := t.TempDir()
	x, y := userRows(p, 1, p.rows)
	base := userScenario(t, p, map[string]any{"train": writeSource(t, dir, "csv", "train", x, y)})
	var s map[string]any
	json.Unmarshal(base, &s)
	alg := s["algorithm"].(map[string]any)
	cmp, _ := json.Marshal(map[string]any{
		"format": "dpsim-compare/1",
		"base":   s,
		"compare": []map[string]any{
			{"label": "as given", "kind": alg["kind"], "params": alg["params"]},
			{"label": "again", "kind": alg["kind"], "params": alg["params"]},
		},
	})
	file := filepath.Join(dir, "compare.json")
	os.WriteFile(file, cmp, 0o644)
	out := t.TempDir()
	if code, _, stderr := dpsim(t, "", "compare", "--quiet", "--dir", out, file); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestUserDataSweep: dpsim sweep reads its base scenario's data files
// beside the experiment file, and every run trains on them.
func TestUserDataSweep(t *testing.T) {
	userSweep(t, "user-sweep", []map[string]any{{"name": "a"}}, 2)
}

// userSweep writes a sweep of the logistic problem trained on a user's
// train.csv (and other.csv, which a series may name) with series, runs
// it with dpsim sweep and returns its text.
func userSweep(t *testing.T, name string, series []map[string]any, runs int) []byte {
	t.Helper()
	p := userProblems[0]
	dir := t.TempDir()
	x, y := userRows(p, 1, p.rows)
	var s map[string]any
	json.Unmarshal(userScenario(t, p, map[string]any{"train": writeSource(t, dir, "csv", "train", x, y)}), &s)
	x2, y2 := userRows(p, 2, p.rows)
	writeSource(t, dir, "csv", "other", x2, y2)
	text, _ := json.Marshal(map[string]any{
		"format": "dpsim-experiment/1", "name": name, "title": "a sweep on a user's data",
		"base":   map[string]any{"scenario": s},
		"series": series,
		"x":      map[string]any{"kind": "field", "fields": []string{"noise.theta.scale"}, "values": []float64{0.1, 1}, "label": "b"},
		"runs":   runs, "seed": 1, "statistic": "mean",
		"metrics": []map[string]any{{"name": "optimality"}},
		"figure":  map[string]any{"title": "t", "y": map[string]any{"metric": "optimality", "label": "y"}},
	})
	file := filepath.Join(dir, "sweep.json")
	os.WriteFile(file, text, 0o644)
	if code, _, stderr := dpsim(t, "", "sweep", "--quiet", "--workers", "1", "--out", filepath.Join(dir, "out.json"), file); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return text
}

// TestUserDataSweepEveryPoint: a sweep whose series trains on another
// file than its base scenario runs from the CLI (which read the base's
// files only: "no such file" for the series' one, where the page's
// workers were handed every point's), and the CLI reads exactly the
// files the page's Experiments panel hands its workers
// (ui/datafiles.UserReportOf over experiment.Scenarios).
func TestUserDataSweepEveryPoint(t *testing.T) {
	text := userSweep(t, "user-sweep-files", []map[string]any{
		{"name": "train.csv"},
		{"name": "other.csv", "set": map[string]any{"problem.params.data.train.file": "other.csv"}},
	}, 1)
	e, err := experiment.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	scs, err := experiment.Scenarios(e)
	if err != nil {
		t.Fatal(err)
	}
	var cli, page []string
	for _, f := range userFiles(scs) {
		if !slices.Contains(cli, f.Name) {
			cli = append(cli, f.Name)
		}
	}
	for _, f := range datafiles.UserReportOf(scs...).Files {
		if !slices.Contains(page, f.Name) {
			page = append(page, f.Name)
		}
	}
	if want := []string{"train.csv", "other.csv"}; !slices.Equal(cli, want) || !slices.Equal(page, want) {
		t.Errorf("the CLI reads %v, the page hands its workers %v; want both %v", cli, page, want)
	}
}

// TestUserDataSweepBadPointSaysSo: a sweep whose second series breaks
// (an override of a field no scenario has) is refused naming that series
// and field, in one line. The CLI read no user file when planning failed
// and went on: the first series then failed to build for want of the
// base's train.csv, an error unrelated to what was wrong.
func TestUserDataSweepBadPointSaysSo(t *testing.T) {
	p := userProblems[0]
	dir := t.TempDir()
	x, y := userRows(p, 1, p.rows)
	var s map[string]any
	json.Unmarshal(userScenario(t, p, map[string]any{"train": writeSource(t, dir, "csv", "train", x, y)}), &s)
	text, _ := json.Marshal(map[string]any{
		"format": "dpsim-experiment/1", "name": "bad-point", "title": "a sweep with a broken series",
		"base": map[string]any{"scenario": s},
		"series": []map[string]any{
			{"name": "good"},
			{"name": "bad", "set": map[string]any{"graph.no_such_field": 3}},
		},
		"x":    map[string]any{"kind": "field", "fields": []string{"noise.theta.scale"}, "values": []float64{0.1, 1}, "label": "b"},
		"runs": 1, "seed": 1, "statistic": "mean",
		"metrics": []map[string]any{{"name": "optimality"}},
		"figure":  map[string]any{"title": "t", "y": map[string]any{"metric": "optimality", "label": "y"}},
	})
	file := filepath.Join(dir, "sweep.json")
	os.WriteFile(file, text, 0o644)
	code, _, stderr := dpsim(t, "", "sweep", "--quiet", "--out", filepath.Join(dir, "out.json"), file)
	line := strings.TrimSpace(stderr)
	if code == 0 || !strings.Contains(line, "series[1] (bad)") || !strings.Contains(line, "no_such_field") || strings.Contains(line, "\n") {
		t.Errorf("dpsim sweep: exit %d, %q; want one line naming series[1] (bad) and graph.no_such_field", code, line)
	}
}
