package logistic

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/data"
)

// The factory names exactly the splits Build loads, so the page fetches
// them first; every named split is one the manifest holds.
func TestFactoryNamesItsDatasets(t *testing.T) {
	if got := Factory.Datasets(&Params{Dataset: "synthetic", TestSplit: true}); got != nil {
		t.Errorf("synthetic data: %v, want none", got)
	}
	for _, name := range data.Names() {
		p := Factory.NewParams().(*Params)
		p.Dataset = name
		p.TestSplit = true
		got := Factory.Datasets(p)
		want := []string{name + "/train", name + "/test"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
		for _, s := range got {
			ds, split, _ := strings.Cut(s, "/")
			info, err := data.Info(ds)
			if err != nil {
				t.Errorf("%s: %v", s, err)
				continue
			}
			found := false
			for _, f := range info.Splits {
				found = found || f.Split == split
			}
			if !found {
				t.Errorf("%s: the manifest has no split %q", s, split)
			}
		}
	}
}
