package datafiles

import (
	"strings"
	"testing"

	"dpsim/core/data"
	"dpsim/core/experiment"
	"dpsim/core/scenario"
)

// TestUserReport checks what a page asks for before it builds a scenario
// or plans an experiment on the user's files: every file once, however
// many of an experiment's points name it; those the program does not
// hold; and the one-line request naming the field, the file and its pin.
func TestUserReport(t *testing.T) {
	const csv = "a,b,label\n0.1,0.2,0\n0.3,0.4,1\n0.5,0.1,0\n0.2,0.9,1\n"
	pin := strings.Repeat("ab", 32)
	s, err := scenario.PresetScenario("gtdp-logistic-synthetic")
	if err != nil {
		t.Fatal(err)
	}
	s.Problem.Params = []byte(`{"dataset": "user", "l2": 0.01, "data": {"train": {"file": "userreport-train.csv"}, "test": {"file": "userreport-test.csv", "sha256": "` + pin + `"}}}`)
	s.Iterations = 10
	e, err := experiment.FromScenario(s, "noise.eta.scale", []float64{0.1, 1, 10}, 2)
	if err != nil {
		t.Fatal(err)
	}
	scs, err := experiment.Scenarios(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 3 {
		t.Fatalf("%d scenarios, want 3", len(scs))
	}

	r := UserReportOf(scs...)
	if len(r.Files) != 2 || len(r.Need) != 2 || r.Files[0].Name != "userreport-train.csv" || r.Files[1].SHA256 != pin {
		t.Fatalf("files %+v, need %+v: want the two files once each", r.Files, r.Need)
	}
	want := "problem.params.data.train.file: the experiment trains on your file userreport-train.csv and 1 more: pick it or drop it on the page (it is read in this tab, never uploaded)"
	if err := r.Missing("experiment"); err == nil || err.Error() != want {
		t.Errorf("missing: %v\nwant %s", err, want)
	}

	if _, err := data.ProvideUser("userreport-train.csv", []byte(csv)); err != nil {
		t.Fatal(err)
	}
	r = UserReportOf(scs...)
	if len(r.Need) != 1 || !r.Files[0].Have || r.Need[0].Name != "userreport-test.csv" {
		t.Fatalf("after the train file: need %+v", r.Need)
	}
	want = "problem.params.data.test.file: the scenario trains on your file userreport-test.csv (sha256 " + pin + "): pick it or drop it on the page (it is read in this tab, never uploaded)"
	if err := r.Missing("scenario"); err == nil || err.Error() != want {
		t.Errorf("missing: %v\nwant %s", err, want)
	}
	// The pinned content under another name is the file.
	b := []byte(csv + "0.7,0.7,1\n")
	sha, err := data.ProvideUser("elsewhere.csv", b)
	if err != nil {
		t.Fatal(err)
	}
	s.Problem.Params = []byte(strings.Replace(string(s.Problem.Params), pin, sha, 1))
	if r := UserReportOf(s); len(r.Need) != 0 || r.Missing("scenario") != nil {
		t.Errorf("every file held: need %+v", r.Need)
	}
	if r := UserReportOf(); r.Need == nil || r.Files == nil || r.Missing("scenario") != nil {
		t.Errorf("no scenario: %+v (lists must be empty, not null)", r)
	}
}
