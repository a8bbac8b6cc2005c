package experiment

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/param"
)

// TestPageSettingsDeclared: the page's Workers setting is declared as a
// plug-in's parameters are — a default inside its range, a one-line
// doc, a unit — and its range is the one CheckPageWorkers enforces.
func TestPageSettingsDeclared(t *testing.T) {
	fs := param.Describe(PageSettings{})
	if len(fs) != 1 || fs[0].Name != "workers" || fs[0].Kind != "integer" {
		t.Fatalf("fields %+v", fs)
	}
	f := fs[0]
	if f.Doc == "" || strings.Contains(f.Doc, "\n") || f.Unit == "" {
		t.Errorf("doc %q, unit %q", f.Doc, f.Unit)
	}
	if want := "[0, " + strconv.Itoa(MaxPageWorkers) + "]"; f.Range != want {
		t.Errorf("range %q, want %q", f.Range, want)
	}
	if err := param.Validate("", &PageSettings{}); err != nil {
		t.Errorf("default: %v", err)
	}
}

// TestCheckPageWorkers: the field takes auto (empty, 0, "auto") or a
// whole number from 1 to the machine's cores; anything else is one line
// naming the field, the rule and the value as typed.
func TestCheckPageWorkers(t *testing.T) {
	for _, c := range []struct {
		text  string
		cores int
		want  int
		bad   bool
	}{
		{"", 4, 0, false}, {" auto ", 4, 0, false}, {"0", 4, 0, false}, {"1", 4, 1, false}, {"4", 4, 4, false},
		{"5", 4, 0, true}, {"1.5", 4, 0, true}, {"-1", 4, 0, true}, {"abc", 4, 0, true}, {"1e9", 4, 0, true},
		{"NaN", 4, 0, true}, {"Infinity", 4, 0, true}, {"3", 0, 0, true}, {"2", 0, 2, false}, {"64", 200, 64, false}, {"65", 200, 0, true},
	} {
		got, err := CheckPageWorkers(c.text, c.cores)
		if c.bad {
			want := `^Workers: must be a whole number from 1 to [0-9]+ \(this machine's cores\), or empty for auto: one per core, at most 8 \(got ` + regexp.QuoteMeta(strconv.Quote(c.text)) + `\)$`
			if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
				t.Errorf("%q on %d cores: %d, %v; want one line matching %s", c.text, c.cores, got, err, want)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q on %d cores: %d, %v; want %d", c.text, c.cores, got, err, c.want)
		}
	}
}

// TestPageWorkers: auto takes one Worker per core (at most 8, at most
// one per run) and fewer when they would not fit the page's budget,
// saying so; a count given that would not fit is the engine's refusal
// naming the page's field.
func TestPageWorkers(t *testing.T) {
	light := plan(t, small["field"])
	if n, note, err := light.PageWorkers(0, 4); err != nil || n != 4 || note != "" {
		t.Errorf("auto on 4 cores: %d, %q, %v", n, note, err)
	}
	if n, _, err := light.PageWorkers(0, 64); err != nil || n != MaxAutoWorkers {
		t.Errorf("auto on 64 cores: %d, %v; want %d", n, err, MaxAutoWorkers)
	}
	if n, _, err := light.PageWorkers(3, 4); err != nil || n != 3 {
		t.Errorf("3 on 4 cores: %d, %v", n, err)
	}
	heavy := plan(t, strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1))
	most := func() int {
		p := plan(t, strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1))
		p.WorkersApart = true
		return p.MostWorkers(p.Tasks(), 8, PageBudget)
	}()
	if most < 1 || most >= 8 {
		t.Fatalf("%d Workers fit: no case", most)
	}
	n, note, err := heavy.PageWorkers(0, 8)
	if err != nil || n != most || !strings.HasPrefix(note, "auto: "+strconv.Itoa(most)+" Workers, not 8: each holds about ") {
		t.Errorf("auto on 8 cores: %d, %q, %v; want %d with a note", n, note, err, most)
	}
	_, _, err = heavy.PageWorkers(8, 8)
	want := `^Workers: each Web Worker \(its own memory: the datasets, the problem instances and one run\) holds about [0-9.]+ [MG]iB, and 8 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ` + strconv.Itoa(most) + ` fit \(got 8\)$`
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("8 given: %v; want %s", err, want)
	}
	if n, _, err := heavy.PageWorkers(most, 8); err != nil || n != most {
		t.Errorf("%d given: %d, %v", most, n, err)
	}
}

// TestPageWorkersAudit: the audit in the page ("Is this ε honest?")
// takes its Workers by the same rule as a sweep — auto one per core (at
// most 8, at most one per run), a count given as given — and a refusal
// or an auto note calls the work "the audit".
func TestPageWorkersAudit(t *testing.T) {
	p, err := NewPlan(auditOf(t, oneRelease, 20, `{"agent": 0}`, 1))
	if err != nil {
		t.Fatal(err)
	}
	if n, note, err := p.PageWorkers(0, 64); err != nil || n != MaxAutoWorkers || note != "" {
		t.Errorf("auto on 64 cores: %d, %q, %v; want %d", n, note, err, MaxAutoWorkers)
	}
	if n, _, err := p.PageWorkers(3, 8); err != nil || n != 3 {
		t.Errorf("3 on 8 cores: %d, %v; want 3", n, err)
	}
	if p.what() != "the audit" {
		t.Errorf("an audit plan is %q", p.what())
	}
	// The words of a refusal, on a plan too heavy for 8 Workers read as
	// an audit's (no audit is that heavy without a large dataset).
	heavy := plan(t, strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1))
	heavy.Exp.Audit = &Audit{}
	_, note, _ := heavy.PageWorkers(0, 8)
	_, _, err = heavy.PageWorkers(8, 8)
	if !strings.HasSuffix(note, "and 8 would take the audit past the 4.0 GiB it may use") || err == nil || !strings.Contains(err.Error(), "8 at once would take the audit to about") {
		t.Errorf("auto's note %q, 8's refusal %v: want both to name the audit", note, err)
	}
}

// TestPageWorkersSaid: the progress lines' words for the count and
// whose choice it is, and the hint for auto.
func TestPageWorkersSaid(t *testing.T) {
	for _, c := range []struct {
		n    int
		auto bool
		want string
	}{{1, true, "1 Worker (auto)"}, {8, true, "8 Workers (auto)"}, {1, false, "1 Worker (your setting)"}, {3, false, "3 Workers (your setting)"}} {
		if got := PageWorkersSaid(c.n, c.auto); got != c.want {
			t.Errorf("%d, %v: %q, want %q", c.n, c.auto, got, c.want)
		}
	}
	if got, want := PageWorkersAuto(8), "auto: one per core (8 here), at most 8"; got != want {
		t.Errorf("8 cores: %q, want %q", got, want)
	}
	if got, want := PageWorkersAuto(0), "auto: one per core (the browser does not say how many: 2 assumed), at most 8"; got != want {
		t.Errorf("0 cores: %q, want %q", got, want)
	}
}
