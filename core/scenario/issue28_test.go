package scenario

import (
	"strings"
	"testing"
)

// presetEdited returns preset name's JSON text edited by edit.
func presetEdited(t *testing.T, name string, edit func(s map[string]any)) string {
	t.Helper()
	return string(presetJSONEdited(t, name, edit))
}

// params returns s's problem or algorithm parameters (section "problem"
// or "algorithm").
func params(s map[string]any, section string) map[string]any {
	sec := s[section].(map[string]any)
	p, ok := sec["params"].(map[string]any)
	if !ok {
		p = map[string]any{}
		sec["params"] = p
	}
	return p
}

// Issue 28, class 9: a message names the field at fault and the rule it
// breaks — not the dimension or the memory that an out-of-range parameter
// would give, not "give max_activations, max_messages or both" for a
// limit given as 0.
func TestMessagesBlameTheRightField(t *testing.T) {
	for _, c := range []struct {
		name, preset string
		edit         func(s map[string]any)
		want         string
	}{
		{"logistic with 10⁶ rows (was problem.params.dim)", "gtdp-logistic-synthetic", func(s map[string]any) { params(s, "problem")["rows"] = 1_000_000 },
			"problem.params.rows: must be in [1, 200000] (got 1000000)"},
		{"CNN on a dataset that is not an image set (was \"dimension 0\")", "gtdp-cnn-mnist", func(s map[string]any) { params(s, "problem")["dataset"] = "mushrooms" },
			`problem.params.dataset: must be one of "mnist", "cifar10-catdog", "mnist-01", "fmnist-tshirt-trouser", "user" (got "mushrooms")`},
		{"a lone stop limit of 0", "gtdp-rendezvous", func(s map[string]any) { s["stop"] = map[string]any{"max_messages": 0} },
			"stop.max_messages: must be from 1 to 2^53 = 9007199254740992 when no other limit is given: 0 sets no limit"},
		{"two stop limits of 0", "gtdp-rendezvous", func(s map[string]any) { s["stop"] = map[string]any{"max_activations": 0, "max_messages": 0} },
			"stop.max_messages: must be from 1"},
		{"an empty stop", "gtdp-rendezvous", func(s map[string]any) { s["stop"] = map[string]any{} },
			"stop: give max_activations, max_messages or both"},
		{"a composite problem without an ℓ2 weight (was blamed on l2, which it left at 0)", "dp-recal-ijcnn1", func(s map[string]any) { params(s, "problem")["r_l2"] = 0 },
			"problem.params.r_l2: or l2 must be > 0 so that the objective is strongly convex and has one minimiser x* (got r_l2 = 0 and l2 = 0)"},
		{"both alpha and alphas (alphas silently won)", "recal-synthetic", func(s map[string]any) {
			params(s, "algorithm")["alpha"] = 0.1
			params(s, "algorithm")["alphas"] = []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
		}, "algorithm.params.alphas: and alpha exclude each other"},
	} {
		_, err := load(presetEdited(t, c.preset, c.edit))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got  %v\n want …%s…", c.name, err, c.want)
		}
	}
	// A stop limit of 0 beside another is "no limit" there, as the form says.
	if _, err := load(presetEdited(t, "gtdp-rendezvous", func(s map[string]any) {
		s["stop"] = map[string]any{"max_activations": 0, "max_messages": 5000}
	})); err != nil {
		t.Errorf("max_activations 0 beside max_messages: %v", err)
	}
}

// Issue 28, class 8: what a run would silently ignore is said:
// record.eval_every on a problem with no expensive metric, CNN row
// counts beyond the dataset (they were cut without a word). eval_every 0
// is the default, as when left out (experiments set it to undo their
// base's interval), and builds the same.
func TestSilentSettingsAreSaid(t *testing.T) {
	for _, c := range []struct {
		name, preset string
		edit         func(s map[string]any)
		field, want  string
	}{
		{"eval_every without expensive metrics", "gtdp-rendezvous", func(s map[string]any) { s["record"] = map[string]any{"every": 1, "eval_every": 5} },
			"record.eval_every", "has no effect: rendezvous has no expensive metric to evaluate every 5 iterations"},
		{"CNN train_rows beyond the data", "gtdp-cnn-mnist", func(s map[string]any) {
			params(s, "problem")["dataset"] = "cifar10-catdog"
			params(s, "problem")["train_rows"] = 1000
		}, "problem.params.train_rows", "1000 is more than the 777 training images of cifar10-catdog: all 777 are used"},
		{"CNN eval_rows beyond the test split", "gtdp-cnn-mnist", func(s map[string]any) {
			params(s, "problem")["dataset"] = "cifar10-catdog"
			params(s, "problem")["train_rows"] = 0
			params(s, "problem")["eval_rows"] = 500
		}, "problem.params.eval_rows", "500 is more than the 189 test images of cifar10-catdog: the evaluations read 500 training and 189 test images"},
	} {
		b, err := load(presetEdited(t, c.preset, c.edit))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		found := false
		for _, w := range b.Warnings {
			found = found || w.Field == c.field && strings.Contains(w.Message, c.want)
		}
		if !found {
			t.Errorf("%s: warnings %v, want %s: …%s…", c.name, b.Warnings, c.field, c.want)
		}
	}
	plain, err := load(presetEdited(t, "gtdp-logistic-mushrooms", func(s map[string]any) { s["record"] = map[string]any{"every": 10} }))
	if err != nil {
		t.Fatal(err)
	}
	zero, err := load(presetEdited(t, "gtdp-logistic-mushrooms", func(s map[string]any) { s["record"] = map[string]any{"every": 10, "eval_every": 0} }))
	if err != nil {
		t.Fatal(err)
	}
	if zero.Scenario.Record.EvalEvery != plain.Scenario.Record.EvalEvery || len(zero.Warnings) != len(plain.Warnings) {
		t.Errorf("eval_every 0 differs from leaving it out: %+v, %v", zero.Scenario.Record, zero.Warnings)
	}
}

// Issue 28, class 7: the export pins a dataset's name, never its data:
// mushrooms on 3000 agents (about 7 MB written) was refused as 84 MiB to
// pin. Problems that do write their data (rendezvous targets) are still
// counted, so that every export can be replayed.
func TestPinnedEstimateCountsWhatIsWritten(t *testing.T) {
	b, err := load(presetEdited(t, "gtdp-logistic-mushrooms", func(s map[string]any) {
		s["graph"] = map[string]any{"kind": "ring", "n": 3000}
	}))
	if err != nil {
		t.Fatalf("mushrooms on 3000 agents: %v", err)
	}
	// Two states of 3000 × 112 numbers at 24 bytes, and the ring.
	if p := b.Estimate(CLI).Pinned; p > 20<<20 {
		t.Errorf("pinned estimate %s for a dataset-backed problem", Bytes(p))
	}
	r, err := load(presetEdited(t, "gtdp-rendezvous", func(s map[string]any) { params(s, "problem")["dim"] = 1000 }))
	if err != nil {
		t.Fatal(err)
	}
	// 8 agents × 1000: the targets and two states, 24 bytes a number.
	if p := r.Estimate(CLI).Pinned; p < 3*24*8*1000 {
		t.Errorf("rendezvous pinned estimate %d misses the targets", p)
	}
}
