package ui

import (
	"strings"
	"testing"

	"dpsim/core/data"
	"dpsim/core/scenario"
)

// TestHeavy checks which scenarios the page builds and runs in a Worker:
// exactly the presets that train on a dataset, a calibration over
// HeavyCalibration iterations, and a problem holding HeavyData bytes —
// never a small scenario, whatever its kind.
func TestHeavy(t *testing.T) {
	onData := map[string]bool{"gtdp-logistic-mushrooms": true, "gtdp-cnn-mnist": true, "ldp-online-mushrooms": true,
		"ldol-mushrooms": true, "dola-mushrooms": true, "dmod-mushrooms": true, "dsgd-mushrooms": true,
		"pdop-online-mushrooms": true, "dp-recal-ijcnn1": true, "tour-ldp": true}
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		why := heavy(s)
		if (why != "") != onData[p.Name] {
			t.Errorf("preset %s: heavy %q, want %v", p.Name, why, onData[p.Name])
		}
	}
	base, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(s *scenario.Scenario)
		want string
	}{
		{"calibrated, short", func(s *scenario.Scenario) { s.Calibrate = &scenario.Calibrate{Epsilon: 5} }, ""},
		{"calibrated over 10⁷ iterations", func(s *scenario.Scenario) {
			s.Calibrate, s.Iterations = &scenario.Calibrate{Epsilon: 5}, 10_000_000
		}, "calibration accounts for 10000000 iterations"},
		{"10⁷ iterations, no calibration", func(s *scenario.Scenario) { s.Iterations = 10_000_000 }, ""},
	} {
		s := base.Clone()
		c.edit(s)
		if got := heavy(s); (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: heavy %q, want %q", c.name, got, c.want)
		}
	}
	// What the scenario builder does not build on the page's thread: the
	// long builds only (a small set on a dataset builds there, for its
	// checks).
	small := "a,b,label\n" + strings.Repeat("0.5,-1,1\n1,0.25,0\n", 20)
	if _, err := data.ProvideUser("heavy-small.csv", []byte(small)); err != nil {
		t.Fatal(err)
	}
	// 16 MiB of rows, each as parseable as the small file's.
	row := "0.5,-1,1\n"
	large := "a,b,label\n" + strings.Repeat(row, (HeavyData-10)/len(row)+1)
	if _, err := data.ProvideUser("heavy-large.csv", []byte(large)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		preset, kind, params string
		heavy, build         string
	}{
		{"gtdp-logistic-synthetic", "logistic", `{"dataset":"synthetic","rows":300,"features":6}`, "", ""},
		{"gtdp-logistic-synthetic", "logistic", `{"dataset":"synthetic","rows":1000000,"features":100}`, "of data", "of data"},
		{"gtdp-logistic-mushrooms", "logistic", `{"dataset":"mushrooms"}`, "trains on", ""},
		{"gtdp-softmax-synthetic", "softmax", `{"dataset":"mnist","l2":0.01}`, "trains on MNIST", "dataset holds"},
		{"gtdp-cnn-mnist", "cnn", `{"dataset":"mnist","train_rows":0,"eval_rows":0}`, "trains on MNIST", "dataset holds"},
		{"dp-recal-ijcnn1", "logistic", `{"dataset":"ijcnn1"}`, "trains on", ""},
		// The user's files: in a Worker, which they are handed to; a
		// long build by their bytes, before anything parses them.
		{"gtdp-logistic-synthetic", "logistic", `{"dataset":"user","data":{"train":{"file":"heavy-small.csv"}}}`, "trains on your file heavy-small.csv", ""},
		{"gtdp-cnn-mnist", "cnn", `{"dataset":"user","data":{"train":{"file":"heavy-small.csv"}},"train_rows":0,"eval_rows":0}`, "trains on your file heavy-small.csv", ""},
		{"gtdp-logistic-synthetic", "logistic", `{"dataset":"user","data":{"train":{"file":"heavy-large.csv"}}}`, "trains on your file heavy-large.csv", "your files hold 16.0 MiB"},
	} {
		s, err := scenario.PresetScenario(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		s.Problem.Kind, s.Problem.Params = c.kind, []byte(c.params)
		if got := heavy(s); (got == "") != (c.heavy == "") || !strings.Contains(got, c.heavy) {
			t.Errorf("%s %s: heavy %q, want %q", c.kind, c.params, got, c.heavy)
		}
		if got := heavyBuild(s); (got == "") != (c.build == "") || !strings.Contains(got, c.build) {
			t.Errorf("%s %s: heavyBuild %q, want %q", c.kind, c.params, got, c.build)
		}
	}
}
