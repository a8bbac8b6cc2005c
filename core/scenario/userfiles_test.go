package scenario

import (
	"strings"
	"testing"

	"dpsim/core/data"
)

// TestPinFilesAndTrainOn: TrainOn puts a learning problem on a user's
// file (and refuses a problem that reads none); PinFiles then writes the
// provided file's sha256 into the data, changing nothing else of the
// parameters' text; UserFiles names the file.
func TestPinFilesAndTrainOn(t *testing.T) {
	sha, err := data.ProvideUser("pin-me.csv", []byte("a,b,label\n1,2,0\n3,4,1\n0,1,1\n2,2,0\n5,1,1\n1,1,0\n7,1,1\n3,3,0\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := PresetScenario("gtdp-logistic-synthetic")
	if err != nil {
		t.Fatal(err)
	}
	on, err := TrainOn(s, "pin-me.csv")
	if err != nil {
		t.Fatal(err)
	}
	if on.Name != "gtdp-logistic-synthetic-user" || !strings.HasSuffix(on.Title, ", on pin-me.csv") {
		t.Errorf("name %q, title %q", on.Name, on.Title)
	}
	files := UserFiles(on)
	if len(files) != 1 || files[0].Name != "pin-me.csv" || files[0].SHA256 != "" || files[0].Field != "problem.params.data.train.file" {
		t.Fatalf("UserFiles: %+v", files)
	}
	before := string(on.Problem.Params)
	PinFiles(on)
	after := string(on.Problem.Params)
	want := strings.Replace(before, `{"train":{"file":"pin-me.csv"}}`, `{"train":{"file":"pin-me.csv","sha256":"`+sha+`"}}`, 1)
	if after != want || after == before {
		t.Errorf("PinFiles:\n got  %s\n want %s", after, want)
	}
	if _, err := Build(on); err != nil {
		t.Errorf("the pinned scenario builds: %v", err)
	}
	r, _ := PresetScenario("gtdp-rendezvous")
	if _, err := TrainOn(r, "pin-me.csv"); err == nil || !strings.Contains(err.Error(), "problem.kind: ") || !strings.Contains(err.Error(), "cnn, logistic, nonconvex-classifier, softmax") {
		t.Errorf("rendezvous: %v", err)
	}
}
