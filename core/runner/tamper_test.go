package runner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"dpsim/core/jsonout"
	"dpsim/core/metrics"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// gtdpExport is the export of a small GT-DP run: 60 iterations recorded
// every 3 (and at the end), checkpoints at 0, 1, 17, 40, 59 and 60.
func gtdpExport(t testing.TB) []byte {
	t.Helper()
	return runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Every, s.Record.Checkpoints = 60, 3, resumePoints
		s.Record.Replay = new(bool) // the seeds' streams, which the tampering edits
	})))
}

// recalStopped is the export of a DP-RECAL run its stop rule ends (at 7
// activations of one agent) after checkpoints at 0, 5 and 12; it records
// every 3 iterations and evaluates the test accuracy every 6.
func recalStopped(t testing.TB) (data []byte, stop int) {
	t.Helper()
	r := runner.New(runnertest.Preset(t, "recal-synthetic", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Every, s.Record.EvalEvery, s.Record.Checkpoints = 300, 3, 6, []int{0, 5, 12}
		s.Stop = &scenario.Stop{MaxActivations: 7}
		s.Noise["u"].Scale = 0.5
		s.Record.Replay = new(bool)
	}))
	data = runExport(t, r)
	if r.Stopped() == "" || r.Iter() <= 12 || r.Iter()%3 == 0 {
		t.Fatalf("the run should stop after its checkpoints, at an iteration that is not recorded by every: %d, %q", r.Iter(), r.Stopped())
	}
	return data, r.Iter()
}

// tamper decodes an export, edits it and encodes it again.
func tamper(t testing.TB, data []byte, edit func(e *runner.Saved)) []byte {
	t.Helper()
	var e runner.Saved
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	edit(&e)
	out, err := jsonout.MarshalIndent(&e, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// col returns the metrics column name of e.
func col(e *runner.Saved, name string) metrics.Floats {
	s := &e.Metrics.Series
	switch name {
	case "optimality":
		return s.Optimality
	case "consensus":
		return s.Consensus
	}
	return s.ExtraColumn(name)
}

// Issue 28, class 2: every record a run could not have written is
// refused before anything runs, in one line naming its JSON path, the
// rule and the value — where a tampered export used to crash (a metrics
// column removed or shortened), restart its counters at 0, carry a
// negative count, start its metrics at the checkpoint, or blame a NaN
// state on the step size. The untampered exports resume to themselves.
func TestResumeRefusesTamperedExports(t *testing.T) {
	g := gtdpExport(t)
	rc, stop := recalStopped(t)
	for name, data := range map[string][]byte{"gtdp": g, "recal": rc} {
		for _, k := range []int{-1, 0, 5, 12, 17} {
			r, err := runner.ResumeExport(data, k, scenario.CLI)
			if err != nil {
				if strings.Contains(err.Error(), "no checkpoint at iteration") {
					continue
				}
				t.Fatalf("%s from %d: %v", name, k, err)
			}
			if got := runExport(t, r); !bytes.Equal(got, data) {
				t.Fatalf("%s resumed at %d: the export differs:\n%s", name, k, firstDiff(string(got), string(data)))
			}
		}
	}
	raw := func(data []byte, old, new string) []byte {
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("no %q in the export", old)
		}
		return bytes.Replace(data, []byte(old), []byte(new), 1)
	}
	edit := func(data []byte, f func(e *runner.Saved)) []byte { return tamper(t, data, f) }
	for _, c := range []struct {
		name string
		data []byte
		from int
		want string
	}{
		// The export's head.
		{"key twice", raw(g, `"status": "completed",`, `"status": "completed", "status": "paused",`), -1, `the key "status" is given twice (first at line 4, column 2)`},
		{"unknown key", raw(g, `"status": "completed",`, `"status": "completed", "bogus": 1,`), -1, `unknown key "bogus"; the keys here are "format", "noise_stream"`},
		{"status", edit(g, func(e *runner.Saved) { *e.Status = "done" }), -1, `status: is "done"; a run ends [completed stopped diverged failed paused]`},
		{"no status", edit(g, func(e *runner.Saved) { e.Status = nil }), -1, `status: is missing`},
		{"no iterations", edit(g, func(e *runner.Saved) { e.Iter = nil }), -1, `iterations_run: is missing`},
		{"iterations a string", raw(g, `"iterations_run": 60`, `"iterations_run": "60"`), -1, `iterations_run: must be a whole number, not the string "60" (line 5, column 20)`},
		{"completed early", edit(g, func(e *runner.Saved) { *e.Iter = 59 }), -1, `iterations_run: is 59; a completed run ran the scenario's 60`},
		{"stopped without a rule", edit(g, func(e *runner.Saved) { *e.Status = "stopped" }), -1, `status: is "stopped", but the scenario has no stop rule`},
		{"scenario not pinned", edit(g, func(e *runner.Saved) {
			s, err := scenario.Parse(e.Scenario)
			if err != nil {
				t.Fatal(err)
			}
			s.Graph = scenario.Graph{Kind: "ring", N: 8}
			e.Scenario = s.JSON()
		}), -1, "scenario: is not the pinned scenario a run export writes: at character 480 it reads `ring\",\"n\":8}"},
		// Metrics.
		{"no metrics", edit(g, func(e *runner.Saved) { e.Metrics = nil }), 17, `metrics: is missing`},
		{"metrics null", raw(g, `"metrics": {`, `"metrics": null, "m": {`), 17, `metrics`},
		{"column removed", cutColumn(t, g, "consensus", -1), 17, `metrics.objective: comes where "consensus" belongs`},
		{"column shortened", cutColumn(t, g, "optimality", 10), 17, `metrics.optimality: has 10 values; the iteration column has 21`},
		{"extra column shortened", cutColumn(t, g, "messages", 10), 17, `metrics.messages: has 10 values; the iteration column has 21`},
		{"extra column removed", cutColumn(t, g, "activations", -1), 17, `metrics: has the columns [messages releases] after objective; a run of this scenario records [messages releases activations]`},
		{"column missing", raw(g, `"consensus": [`, `"consensus2": [`), 17, `metrics.consensus2: comes where "consensus" belongs`},
		{"extra column renamed", raw(g, `"releases": [`, `"sent": [`), 17, `metrics: has the columns [messages sent activations] after objective; a run of this scenario records [messages releases activations]`},
		{"iteration edited", edit(g, func(e *runner.Saved) { e.Metrics.Iter[3] = 10 }), 17, `metrics.iteration[3]: is 10; a run recording every 3 iterations records iteration 9 there`},
		{"point removed", edit(g, func(e *runner.Saved) { dropPoint(&e.Metrics.Series) }), 17, `metrics.iteration: has 20 entries; a run completed after 60 iterations, recording every 3, records more (the next at iteration 60)`},
		{"point added", edit(g, func(e *runner.Saved) { addPoint(&e.Metrics.Series, 63) }), 17, `metrics.iteration[21]: is 63; a run completed after 60 iterations records its last point at iteration 60`},
		{"negative optimality", edit(g, func(e *runner.Saved) { e.Metrics.Optimality[2] = -1 }), 17, `metrics.optimality[2]: is -1; a squared distance is ≥ 0`},
		{"string NaN", raw(g, `"optimality": [`+"\n   ", `"optimality": ["NaN", `), 17, `metrics.optimality[0]: is "NaN"; must be a number, null (NaN), "Inf" or "-Inf"`},
		{"count not whole", edit(g, func(e *runner.Saved) { col(e, "messages")[2] = 1.5 }), 17, `metrics.messages[2]: is 1.5; a count is a whole number ≥ 0`},
		{"count negative", edit(g, func(e *runner.Saved) { col(e, "releases")[2] = -8 }), 17, `metrics.releases[2]: is -8; a count is a whole number ≥ 0`},
		{"count falls", edit(g, func(e *runner.Saved) { col(e, "activations")[5] = 1 }), 17, `metrics.activations[5]: is 1, below 12 at the point before; a count never falls`},
		{"count at 0", edit(g, func(e *runner.Saved) { col(e, "messages")[0] = 2 }), 17, `metrics.messages[0]: is 2 at iteration 0`},
		{"count against checkpoint", edit(g, func(e *runner.Saved) { col(e, "messages")[20]++ }), 17, `metrics.messages[20]: is 1921 at iteration 60, but the checkpoint there counts 1920`},
		// Checkpoints.
		{"no checkpoints", edit(g, func(e *runner.Saved) { e.States = nil }), -1, `holds no checkpoints`},
		{"checkpoint not asked for", edit(g, func(e *runner.Saved) { e.States[2].Iter = 18 }), 18, `checkpoints[2].iteration: is 18; the run saves checkpoints only where record.checkpoints asks ([0 1 17 40 59 60])`},
		{"checkpoints out of order", edit(g, func(e *runner.Saved) { e.States[2], e.States[3] = e.States[3], e.States[2] }), 17, `checkpoints[3].iteration: is 17, not after the checkpoint before it (40)`},
		{"checkpoint removed", edit(g, func(e *runner.Saved) { e.States = append(e.States[:2], e.States[3:]...) }), 40, `checkpoints: has none at iteration 17, which record.checkpoints asks for`},
		{"state renamed", edit(g, func(e *runner.Saved) { e.States[2].States[1].Name = "q" }), 17, `checkpoints[2].states[1].name: is "q"; GT-DP's state variable 1 is "s"`},
		{"state rows", edit(g, func(e *runner.Saved) { e.States[2].States[0].Values = e.States[2].States[0].Values[1:] }), 17, `checkpoints[2].states[0].values: "x" has 7 rows; the run has 8`},
		{"state row", edit(g, func(e *runner.Saved) { e.States[2].States[0].Values[3] = metrics.Floats{1} }), 17, `checkpoints[2].states[0].values[3]: "x" has 1 entries; the dimension is 2`},
		{"state NaN", edit(g, func(e *runner.Saved) { e.States[2].States[0].Values[0][0] = math.NaN() }), 17, `checkpoints[2].states[0].values[0][0]: "x" is NaN; a checkpoint holds finite values`},
		{"state Inf", edit(g, func(e *runner.Saved) { e.States[2].States[1].Values[4][1] = math.Inf(-1) }), 17, `checkpoints[2].states[1].values[4][1]: "s" is -Inf`},
		{"state 1e308", edit(g, func(e *runner.Saved) { e.States[2].States[0].Values[0][0] = 1e308 }), 17, `checkpoints[2].states[0].values[0][0]: the estimate "x" is 1e+308, beyond 1e+150 (runner.Limit)`},
		{"state null", raw(g, `"values": [`+"\n      [\n       ", `"values": [`+"\n      [\n       null, "), 0, `checkpoints[0].states[0].values[0]: "x" has 3 entries`},
		{"last state nudged", edit(g, func(e *runner.Saved) { e.States[5].States[0].Values[2][0] += 1e-9 }), -1, `checkpoints[5] and metrics.optimality[20] disagree: the checkpoint's state gives`},
		{"earlier state nudged", edit(g, func(e *runner.Saved) { e.States[0].States[0].Values[0][1] = 3 }), -1, `checkpoints[0] and metrics.optimality[0] disagree: the checkpoint's state gives`},
		{"growth window's end", edit(g, func(e *runner.Saved) { e.States[2].Peaks[17] *= 2 }), 17, `checkpoints[2].peaks[17] and checkpoints[2].states disagree: the window's last peak is`},
		{"metric at a checkpoint", edit(g, func(e *runner.Saved) { e.Metrics.Consensus[20] *= 2 }), 17, `checkpoints[5] and metrics.consensus[20] disagree: the checkpoint's state gives`},
		{"no sources", edit(g, func(e *runner.Saved) { e.States[2].Sources = nil }), 17, `checkpoints[2].sources: is missing`},
		{"stream twice", edit(g, func(e *runner.Saved) { e.States[2].Sources.Streams[1] = e.States[2].Sources.Streams[0] }), 17, `checkpoints[2].sources.streams[1].label: "noise/gt-dp/eta" is given twice`},
		{"stream unknown", edit(g, func(e *runner.Saved) { e.States[3].Sources.Streams[1].Label = "noise/other" }), 17, `checkpoints[3].sources: the checkpoint's random stream "noise/other" is not one of this run's`},
		{"carried missing", edit(g, func(e *runner.Saved) { e.States[2].Carried = nil }), 17, `checkpoints[2].carried.max_gradient_norm_sq: is missing: GT-DP carries it`},
		{"carried extra", edit(g, func(e *runner.Saved) { e.States[2].Carried["more"] = metrics.Floats{1} }), 17, `checkpoints[2].carried.more: is not carried by GT-DP`},
		{"carried NaN", edit(g, func(e *runner.Saved) { e.States[2].Carried["max_gradient_norm_sq"][0] = math.NaN() }), 17, `checkpoints[2].carried.max_gradient_norm_sq[0]: is NaN`},
		{"growth window shortened", edit(g, func(e *runner.Saved) { e.States[2].Peaks = e.States[2].Peaks[1:] }), 17, `checkpoints[2].peaks: has 17 values; a checkpoint at iteration 17 holds the largest estimate magnitude of its last 18 iterations (runner.Window)`},
		{"growth window negative", edit(g, func(e *runner.Saved) { e.States[3].Peaks[5] = -1 }), 17, `checkpoints[3].peaks[5]: is -1; an estimate's magnitude is from 0 to 1e+150 (runner.Limit)`},
		{"no counters", edit(g, func(e *runner.Saved) { e.States[2].Communication = nil }), 17, `checkpoints[2].communication: is missing`},
		{"counters of another network", edit(g, func(e *runner.Saved) { e.States[2].Communication.Activations = []int64{1, 2} }), 17, `checkpoints[2].communication.activations: has 2 entries; the run has 8 agents`},
		{"negative messages", edit(g, func(e *runner.Saved) { e.States[2].Communication.Messages = -5 }), 17, `checkpoints[2].communication.messages: is -5; a count is ≥ 0`},
		{"too many activations", edit(g, func(e *runner.Saved) { e.States[2].Communication.Activations[3] = 18 }), 17, `checkpoints[2].communication.activations[3]: is 18; after 17 iterations an agent was active 0 to 17 times`},
		{"counts at 0", edit(g, func(e *runner.Saved) { e.States[0].Communication.Releases = 1 }), 17, `checkpoints[0].communication: counts 0 messages and 1 releases at iteration 0`},
		{"counts fall", edit(g, func(e *runner.Saved) { e.States[3].Communication.Releases = 10 }), 17, `checkpoints[3].communication.releases: is 10, below 272 at the checkpoint before`},
		{"counter left out", raw(g, `"messages": 0,`, ``), 17, `checkpoints[0].communication: missing key "messages": give all of "messages", "releases", "activations"`},
		{"counts outside the metrics", edit(g, func(e *runner.Saved) { e.States[3].Communication.Messages = 1000 }), 17, `checkpoints[3].communication.messages and metrics.messages[13] disagree: the checkpoint counts 1000 at iteration 40, fewer than the 1248 recorded at iteration 39`},
		{"calibration", edit(g, func(e *runner.Saved) {
			e.Calibration = &privacy.Calibration{Target: 5, Iterations: 60, Factor: -1, Method: "bisection",
				Channels: []privacy.ChannelScale{{Channel: "eta", Before: []float64{1}, After: []float64{1}}}}
		}), 17, `calibration.factor: is -1; a noise factor is finite and > 0`},
		// A run its stop rule ended.
		{"stop checkpoint removed", edit(rc, func(e *runner.Saved) { e.States = e.States[:3] }), 12, `checkpoints: has none at iteration ` + itoa(stop) + `, where the stop rule ended the run`},
		{"stop not met", edit(rc, func(e *runner.Saved) { e.States[3].Communication.Activations = make([]int64, 8) }), 12, `checkpoints[3].communication: does not meet the stop rule`},
		{"stop met earlier", edit(rc, func(e *runner.Saved) {
			e.States[2].Communication.Activations[0] = 7
			c := col(e, "activations")
			for i := 4; i < len(c); i++ { // iteration 12 on
				c[i] = max(c[i], 7)
			}
		}), 12, `checkpoints[2].communication: meets the stop rule at iteration 12 (stop.max_activations: agent 0 was active 7 times`},
		{"stopped called completed", edit(rc, func(e *runner.Saved) { *e.Status = "completed" }), 12, `iterations_run: is ` + itoa(stop) + `; a completed run ran the scenario's 300`},
		{"evaluated between", edit(rc, func(e *runner.Saved) { col(e, "test_accuracy")[1] = 0.5 }), 12, `metrics.test_accuracy[1]: is 0.5 at iteration 3; a run evaluates it every 6 iterations and at its end, null between`},
		{"baton holder", edit(rc, func(e *runner.Saved) { e.States[2].Carried["holder"][0] = 9 }), 12, `checkpoints[2].carried: the checkpoint's baton holder 9 is not an agent of 0..7`},
		{"paused without an end", edit(rc, func(e *runner.Saved) { *e.Status = "paused" }), 12, `metrics.iteration[`},
	} {
		_, err := runner.ResumeExport(c.data, c.from, scenario.CLI)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v\nwant one line containing %q", c.name, err, c.want)
		}
	}
}

// cutColumn returns the export data with its metrics column name cut to
// its first keep values, or removed when keep < 0 (by text: a series
// with columns of unequal lengths cannot be written).
func cutColumn(t testing.TB, data []byte, name string, keep int) []byte {
	t.Helper()
	start := bytes.Index(data, []byte("\n  \""+name+"\": ["))
	if start < 0 {
		t.Fatalf("no column %q", name)
	}
	end := start + bytes.IndexByte(data[start:], ']') + 1
	vals := strings.Split(string(data[start:end]), ",")
	var text string
	switch {
	case keep < 0:
		if data[end] == ',' {
			end++
		} else { // the last column: drop the comma before it
			start--
		}
	default:
		text = strings.Join(vals[:keep], ",") + "\n  ]"
	}
	return append(append(append([]byte(nil), data[:start]...), text...), data[end:]...)
}

// dropPoint removes the last recorded point of s, column by column.
func dropPoint(s *metrics.Series) {
	n := len(s.Iter) - 1
	s.Iter, s.Optimality, s.Consensus, s.Objective = s.Iter[:n], s.Optimality[:n], s.Consensus[:n], s.Objective[:n]
	for k := range s.Extra {
		s.Extra[k] = s.Extra[k][:n]
	}
}

// addPoint appends a copy of the last point of s at iteration it.
func addPoint(s *metrics.Series, it int) {
	n := len(s.Iter) - 1
	s.Iter = append(s.Iter, it)
	s.Optimality, s.Consensus, s.Objective = append(s.Optimality, s.Optimality[n]), append(s.Consensus, s.Consensus[n]), append(s.Objective, s.Objective[n])
	for k := range s.Extra {
		s.Extra[k] = append(s.Extra[k], s.Extra[k][n])
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// An edit no single record betrays — a state moved to another plausible
// value, a metric after the checkpoint changed — makes the export
// disagree with itself: resumed from the checkpoint, the run records its
// next point (or saves its next checkpoint) otherwise than the export,
// and stops there with a *runner.Mismatch naming both, instead of writing
// another run as if it were this one.
func TestResumeCatchesEditsAfterTheCheckpoint(t *testing.T) {
	g := gtdpExport(t)
	for _, c := range []struct {
		name string
		data []byte
		from int
		want string
	}{
		{"state nudged", tamper(t, g, func(e *runner.Saved) { e.States[2].States[0].Values[3][1] += 0.5 }), 17,
			"checkpoints[2] and metrics.optimality[6] disagree: resumed from the checkpoint, the run records"},
		{"tracker nudged", tamper(t, g, func(e *runner.Saved) { e.States[2].States[1].Values[0][0] *= 1.000001 }), 17,
			"checkpoints[2] and metrics.optimality[6] disagree"},
		{"stream moved", tamper(t, g, func(e *runner.Saved) { e.States[2].Sources.Streams[0].State++ }), 17,
			"checkpoints[2] and metrics.optimality[6] disagree"},
		{"tracker at 1e308", tamper(t, g, func(e *runner.Saved) { e.States[2].States[1].Values[0][0] = 1e308 }), 17,
			"checkpoints[2] and status disagree: resumed from the checkpoint, the run diverges at iteration 18, but the export says it was completed after 60 iterations; one of them was edited"},
		{"metric after the checkpoint", tamper(t, g, func(e *runner.Saved) { e.Metrics.Objective[10] = 2.5 }), 17,
			"checkpoints[2] and metrics.objective[10] disagree: resumed from the checkpoint, the run records"},
		{"later checkpoint", tamper(t, g, func(e *runner.Saved) { e.States[4].States[1].Values[0][0] += 1 }), 40,
			"checkpoints[3] and checkpoints[4] disagree: resumed from the first, the run saves another state at iteration 59 than the second"},
	} {
		r, err := runner.ResumeExport(c.data, c.from, scenario.CLI)
		if err != nil {
			t.Fatalf("%s: refused before the run: %v", c.name, err)
		}
		err = r.Run()
		var m *runner.Mismatch
		if !errors.As(err, &m) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant a mismatch containing %q", c.name, err, c.want)
		}
	}
}
