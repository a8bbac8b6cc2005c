package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// mostNoise sets every noise channel of a decoded scenario to the largest
// scale allowed (MaxMagnitude, over the decay's c when that is above 1),
// drops calibration and runs 30 iterations: the setting in which a tiny
// sensitivity's privacy loss underflowed.
func mostNoise(m map[string]any) {
	for _, ch := range m["noise"].(map[string]any) {
		c := ch.(map[string]any)
		delete(c, "variance")
		delete(c, "variance_of")
		delete(c, "scales")
		c["scale"] = MaxMagnitude
		if d, ok := c["decay"].(map[string]any); ok {
			if v, ok := d["c"].(float64); ok && v > 1 {
				c["scale"] = MaxMagnitude / v
			}
		}
	}
	delete(m, "calibrate")
	delete(m, "stop")
	m["iterations"] = 30
	m["record"] = map[string]any{"every": 1}
}

// setPath sets the dotted path of a decoded scenario ("algorithm.params.gamma.c").
func setPath(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = v
}

// TestNoPrivacyFigureReadsZero: the combinations in which a ledger read
// ε = 0 (or ρ = 0), and the tight accountant "no release depends on the
// agent's data", although every release did — a sensitivity made of a
// parameter near float64's smallest number, divided by the most noise
// allowed (1e12). Each one was accepted, ran, and reported 0; each is
// now refused in a millisecond with a one-line error naming the field,
// the rule and the value. A parameter below 1e-100 is refused as such
// (param.MinMagnitude); a loss that still underflows, from several small
// factors, by the release check (privacy.BelowFloor).
func TestNoPrivacyFigureReadsZero(t *testing.T) {
	type set struct {
		path string
		v    any
	}
	const tiny = 5e-324
	for _, c := range []struct {
		preset string
		sets   []set
		want   string
	}{
		// The case: C = 2(R + max‖a‖) from a rendezvous domain
		// of radius 5e-324 (box as small), ε = C·…/1e12 = 0.
		{"gtdp-rendezvous", []set{{"problem.params.domain_radius", tiny}, {"problem.params.box", tiny}, {"algorithm.params.gradient_bound", 0}, {"algorithm.params.clip_gradients", true}},
			"problem.params.box: must be 0 or at least 1e-100 in magnitude (got 5e-324)"},
		{"gtdp-rendezvous", []set{{"problem.params.domain_radius", tiny}}, "problem.params.domain_radius: must be 0 or at least 1e-100"},
		{"gtdp-rendezvous", []set{{"algorithm.params.gradient_bound", tiny}}, "algorithm.params.gradient_bound: must be 0 or at least 1e-100"},
		{"gtdp-rendezvous", []set{{"algorithm.params.gamma.c", tiny}}, "algorithm.params.gamma.c: must be 0 or at least 1e-100"},
		{"gtdp-logistic-mushrooms", []set{{"algorithm.params.gradient_bound", tiny}}, "algorithm.params.gradient_bound: must be 0 or at least 1e-100"},
		{"dpop-fig1", []set{{"algorithm.params.c", tiny}}, "algorithm.params.c: must be 0 or at least 1e-100"},
		{"dpdgt-ieee14", []set{{"algorithm.params.alpha.c", tiny}}, "algorithm.params.alpha.c: must be 0 or at least 1e-100"},
		{"dpdgt-ieee14", []set{{"algorithm.params.delta", tiny}}, "algorithm.params.delta: must be 0 or at least 1e-100"},
		{"dpp2-fig3", []set{{"algorithm.params.delta", tiny}}, "algorithm.params.delta: must be 0 or at least 1e-100"},
		{"ppdc-dpp2-fig3", []set{{"algorithm.params.eta", tiny}}, "algorithm.params.eta: must be 0 or at least 1e-100"},
		{"dmod-mushrooms", []set{{"algorithm.params.alpha0", tiny}}, "algorithm.params.alpha0: must be 0 or at least 1e-100"},
		{"dola-mushrooms", []set{{"algorithm.params.gradient_bound", tiny}}, "algorithm.params.gradient_bound: must be 0 or at least 1e-100"},
		{"ldol-mushrooms", []set{{"algorithm.params.lambda0", tiny}}, "algorithm.params.lambda0: must be 0 or at least 1e-100"},
		{"ldp-online-mushrooms", []set{{"algorithm.params.gradient_bound", tiny}}, "algorithm.params.gradient_bound: must be 0 or at least 1e-100"},
		{"pdop-online-mushrooms", []set{{"algorithm.params.c", tiny}}, "algorithm.params.c: must be 0 or at least 1e-100"},
		{"tour-recal", []set{{"algorithm.params.gradient_bound", tiny}}, "algorithm.params.gradient_bound: must be 0 or at least 1e-100"},
		// Two factors at 1e-100 pass the parameters' floor, but DP-EXTRA's
		// μ = Δ/σ = 4e-200/1e12 squares to ρ = 0: the ledger read ρ = 0
		// and ε = 0.
		{"dp-extra-ring8", []set{{"algorithm.params.alpha", 1e-100}, {"algorithm.params.gradient_bound", 1e-100}, {"algorithm.params.target_epsilon", 0}},
			"noise.x.scale: agent 0's privacy loss per release, μ = Δ/σ = 4e-200/"},
	} {
		name := c.preset
		text := presetJSONEdited(t, c.preset, func(m map[string]any) {
			mostNoise(m)
			for _, s := range c.sets {
				setPath(m, s.path, s.v)
				name += " " + s.path
			}
		})
		s, err := Parse(text)
		if err == nil {
			_, err = Build(s)
		}
		switch {
		case err == nil:
			t.Errorf("%s: accepted (its ledger reads ε = 0 while every release depends on the data)", name)
		case !strings.HasPrefix(err.Error(), c.want):
			t.Errorf("%s:\n got  %v\n want %s…", name, err, c.want)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: a message on several lines: %q", name, err)
		}
		// The form shows the same error beside its field.
		field, _, _ := strings.Cut(c.want, ":")
		r := CheckAll(text, Page, nil)
		if len(r.Errors) == 0 || r.Errors[0].Path != field {
			t.Errorf("%s: the form's errors %+v, want one on %s", name, r.Errors, field)
		}
	}
}

// TestMostNoiseIsNoUnderflow: the floors refuse no preset at the most
// noise allowed — their losses are small but far above them.
func TestMostNoiseIsNoUnderflow(t *testing.T) {
	for _, p := range Presets() {
		text := presetJSONEdited(t, p.Name, mostNoise)
		s, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		// DSGD refuses noise without a gradient bound: another rule.
		if _, err := Build(s); err != nil && (strings.Contains(err.Error(), "underflows float64") || strings.Contains(err.Error(), "at least 1e-100")) {
			t.Errorf("%s at the most noise: %v", p.Name, err)
		}
	}
	var m map[string]any
	json.Unmarshal(presetJSONEdited(t, "gtdp-rendezvous", mostNoise), &m)
	if sub(m, "noise", "eta")["scale"] != MaxMagnitude {
		t.Errorf("mostNoise left eta at %v", sub(m, "noise", "eta")["scale"])
	}
}
