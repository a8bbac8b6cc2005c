package datafiles

import (
	"os"
	"slices"
	"strings"
	"testing"

	"dpsim/core/data"
	"dpsim/core/experiment"
	"dpsim/core/scenario"
	"dpsim/ui/internal/datatoy"
)

// TestNeeds checks what the page fetches before building: the files a
// problem declares, with the manifest's size, sha256, title and note, not
// those already provided; nothing for a problem that declares none (every
// built-in preset but gtdp-logistic-mushrooms, GT-DP's and DP-DGT's among
// them) or a scenario that will not build anyway.
func TestNeeds(t *testing.T) {
	datatoy.Use(t)

	for _, c := range []struct {
		dataset, file string
		note          bool
	}{
		{"mushrooms", "mushrooms-train.gz", false},
		{"cifar10-catdog", "cifar10-catdog-train.gz", true},
	} {
		s, err := scenario.Parse([]byte(datatoy.Scenario(c.dataset)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Needs(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := data.Info(c.dataset)
		want := d.Splits[0]
		if len(got) != 1 || got[0].File != c.file || got[0].Split != "train" || got[0].Bytes != want.Bytes ||
			got[0].SHA256 != want.SHA256 || got[0].Title != d.Title || got[0].Dataset != c.dataset {
			t.Errorf("%s: needs %+v, want %s (%d bytes, %s)", c.dataset, got, c.file, want.Bytes, want.SHA256)
		}
		if c.note && (len(got) != 1 || !strings.Contains(got[0].Note, "not the 10000")) {
			t.Errorf("%s: note %q, want the CIFAR-10 gap", c.dataset, got[0].Note)
		}
		if got, _ := Needs(s, func(f string) bool { return f == c.file }); len(got) != 0 {
			t.Errorf("%s: provided, still needs %+v", c.dataset, got)
		}
	}

	// A dataset the manifest lacks is an error naming it, not a fetch.
	s, _ := scenario.Parse([]byte(datatoy.Scenario("nope")))
	if got, err := Needs(s, nil); err == nil || !strings.Contains(err.Error(), `"nope" is not a dataset`) {
		t.Errorf("unknown dataset: needs %+v, error %v", got, err)
	}
	// Bad params: nothing to fetch; building reports the error.
	bad := strings.Replace(datatoy.Scenario("mushrooms"), `"dataset"`, `"datset"`, 1)
	if s, err := scenario.Parse([]byte(bad)); err == nil {
		if got, err := Needs(s, nil); len(got) != 0 || err != nil {
			t.Errorf("bad params: needs %+v, error %v", got, err)
		}
	}

	// Every built-in preset loads nothing extra except those that
	// train on real data, which need their two splits — train first.
	dataPresets := map[string][]string{
		"gtdp-logistic-mushrooms": {"mushrooms-train.gz", "mushrooms-test.gz"},
		"gtdp-cnn-mnist":          {"mnist-train.gz", "mnist-test.gz"},
		"ldp-online-mushrooms":    {"mushrooms-train.gz", "mushrooms-test.gz"},
		"ldol-mushrooms":          {"mushrooms-train.gz", "mushrooms-test.gz"},
		"dola-mushrooms":          {"mushrooms-train.gz", "mushrooms-test.gz"},
		"dmod-mushrooms":          {"mushrooms-train.gz", "mushrooms-test.gz"},
		"dsgd-mushrooms":          {"mushrooms-train.gz", "mushrooms-test.gz"},
		"pdop-online-mushrooms":   {"mushrooms-train.gz", "mushrooms-test.gz"},
		"dp-recal-ijcnn1":         {"ijcnn1-train.gz", "ijcnn1-test.gz"},
		"tour-ldp":                {"mushrooms-train.gz", "mushrooms-test.gz"},
	}
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Needs(s, nil)
		var files []string
		for _, n := range got {
			files = append(files, n.File)
		}
		if want := dataPresets[p.Name]; !slices.Equal(files, want) || err != nil {
			t.Errorf("preset %s needs %v (error %v), want %v", p.Name, files, err, want)
		}
		delete(dataPresets, p.Name)
	}
	for name := range dataPresets {
		t.Errorf("preset %s is gone: update this test", name)
	}
}

// TestProvided checks the session cache: bytes that fail data.Provide's
// checks are refused with its error and not remembered; the committed
// bytes are, once.
func TestProvided(t *testing.T) {
	b, err := os.ReadFile("../../core/data/files/mushrooms-test.gz")
	if err != nil {
		t.Fatal(err)
	}
	var p Provided
	bad := append([]byte(nil), b...)
	bad[len(bad)/2] ^= 0x40
	if err := p.Provide("mushrooms-test.gz", bad); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("corrupted copy: error %v, want the checksum mismatch", err)
	}
	if p.Has("mushrooms-test.gz") {
		t.Error("a refused file is cached")
	}
	if err := p.Provide("mushrooms-test.gz", b); err != nil {
		t.Fatal(err)
	}
	if !p.Has("mushrooms-test.gz") || p.Has("mushrooms-train.gz") {
		t.Error("the cache does not hold exactly the provided file")
	}
	if err := p.Provide("nope.gz", b); err == nil {
		t.Error("a file not in the manifest is accepted")
	}
}

// TestExperimentNeeds checks what the Experiments panel fetches before it
// plans an experiment: every point's scenario (overrides applied, none
// built) through NeedsAll. Every experiment preset needs nothing but the
// one on mushrooms, which needs both splits, train first, each once
// although its three points all name them; a provided file is not
// needed again, and Report lists it among the uses still.
func TestExperimentNeeds(t *testing.T) {
	dataPresets := map[string][]string{
		"gtdp-logistic-mushrooms-noise": {"mushrooms-train.gz", "mushrooms-test.gz"},
		// ldp-fig1 turns the test accuracy off: the train split alone.
		"ldp-fig1":                   {"mushrooms-train.gz"},
		"ldp-fig2":                   {"mnist-train.gz", "mnist-test.gz"},
		"ldp-fig3":                   {"cifar10-catdog-train.gz", "cifar10-catdog-test.gz"},
		"ldp-mnist-200":              {"mnist-train.gz", "mnist-test.gz"},
		"recal-fig2-cifar":           {"cifar10-catdog-train.gz", "cifar10-catdog-test.gz"},
		"recal-fig2-fmnist":          {"fmnist-tshirt-trouser-train.gz", "fmnist-tshirt-trouser-test.gz"},
		"recal-fig2-ijcnn1":          {"ijcnn1-train.gz", "ijcnn1-test.gz"},
		"recal-fig2-ijcnn1-logistic": {"ijcnn1-train.gz", "ijcnn1-test.gz"},
		"recal-fig2-mnist":           {"mnist-01-train.gz", "mnist-01-test.gz"},
		"recal-fig3-cifar":           {"cifar10-catdog-train.gz", "cifar10-catdog-test.gz"},
		"recal-fig3-fmnist":          {"fmnist-tshirt-trouser-train.gz", "fmnist-tshirt-trouser-test.gz"},
		"recal-fig3-ijcnn1":          {"ijcnn1-train.gz", "ijcnn1-test.gz"},
		"recal-fig3-mnist":           {"mnist-01-train.gz", "mnist-01-test.gz"},
		"recal-table4":               {"ijcnn1-train.gz", "ijcnn1-test.gz", "mnist-01-train.gz", "mnist-01-test.gz", "fmnist-tshirt-trouser-train.gz", "fmnist-tshirt-trouser-test.gz", "cifar10-catdog-train.gz", "cifar10-catdog-test.gz"},
		// The tour's LDP frontier turns the test accuracy off.
		"tour-ldp-frontier": {"mushrooms-train.gz"},
	}
	for _, p := range experiment.Presets() {
		e, err := experiment.PresetExperiment(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		scs, err := experiment.Scenarios(e)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		got, err := NeedsAll(scs, nil)
		var files []string
		for _, n := range got {
			files = append(files, n.File)
		}
		if want := dataPresets[p.Name]; !slices.Equal(files, want) || err != nil {
			t.Errorf("experiment %s needs %v (error %v), want %v", p.Name, files, err, want)
		}
		if want := dataPresets[p.Name]; len(want) == 2 {
			if p.Name == "gtdp-logistic-mushrooms-noise" && len(scs) != 3 {
				t.Errorf("experiment %s: %d scenarios, want its 3 points", p.Name, len(scs))
			}
			var pr Provided
			pr.files = map[string]bool{want[0]: true}
			r := pr.Report(scs...)
			if len(r.Need) != 1 || r.Need[0].File != want[1] || len(r.Uses) != 2 || r.Error != "" {
				t.Errorf("experiment %s with %s provided: report %+v", p.Name, want[0], r)
			}
		}
		delete(dataPresets, p.Name)
	}
	for name := range dataPresets {
		t.Errorf("experiment preset %s is gone: update this test", name)
	}
}

// TestKeep checks the page's kept files (the train split: TestProvided
// decodes the test split into core/data for the whole process): Keep
// checks the size as Provide does, without decoding (a short copy or an
// unknown file is refused at once with Provide's message), the file
// counts as provided, Raw hands the bytes on, and Ready decodes them only
// when a run of the page's own needs them, refusing a corrupted copy
// then, with the checksum's error.
func TestKeep(t *testing.T) {
	b, err := os.ReadFile("../../core/data/files/mushrooms-train.gz")
	if err != nil {
		t.Fatal(err)
	}
	var p Provided
	if err := p.Keep("mushrooms-train.gz", b[:len(b)-1]); err == nil || !strings.Contains(err.Error(), "the manifest says") {
		t.Errorf("a short copy: %v", err)
	}
	if err := p.Keep("nope.gz", b); err == nil {
		t.Error("a file not in the manifest is kept")
	}
	if p.Has("mushrooms-train.gz") {
		t.Fatal("a refused copy is provided")
	}
	// A corrupted copy of the right size is kept (the page checked its
	// hash already), and refused, and forgotten, when decoded.
	bad := append([]byte(nil), b...)
	bad[len(bad)/2] ^= 0x40
	if err := p.Keep("mushrooms-train.gz", bad); err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse([]byte(datatoy.Scenario("mushrooms"))) // reads the train split
	if err != nil {
		t.Fatal(err)
	}
	datatoy.Use(t)
	if err := p.Ready(s); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a corrupted kept copy decoded: %v", err)
	}
	if p.Has("mushrooms-train.gz") {
		t.Error("a corrupted kept copy is remembered")
	}
	if err := p.Keep("mushrooms-train.gz", b); err != nil {
		t.Fatal(err)
	}
	if !p.Has("mushrooms-train.gz") || len(p.Raw("mushrooms-train.gz")) != len(b) {
		t.Fatal("a kept file is not provided with its bytes")
	}
	if d := p.Decoded(); len(d) != 0 {
		t.Errorf("kept, not decoded: Decoded() = %v", d)
	}
	if err := p.Ready(s); err != nil {
		t.Fatal(err)
	}
	if d := p.Decoded(); !slices.Equal(d, []string{"mushrooms-train.gz"}) {
		t.Errorf("decoded by Ready: Decoded() = %v", d)
	}
	if _, err := data.Load("mushrooms", "train"); err != nil {
		t.Errorf("Ready did not decode the kept file: %v", err)
	}
	if !p.Has("mushrooms-train.gz") || p.Raw("mushrooms-train.gz") == nil {
		t.Error("a decoded kept file lost its bytes (a Worker may need them)")
	}
}
