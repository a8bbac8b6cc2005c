package data

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
)

// Manifest describes every committed dataset: written by cmd/mkdata next
// to the files it builds, embedded here, and checked against each file
// before it is decoded.
type Manifest struct {
	// Format names the file format (see format.go) and its version.
	Format string `json:"format"`
	// Datasets lists every dataset, in the order of Names.
	Datasets []Dataset `json:"datasets"`
}

// Dataset is one named dataset: what it is, where it came from, how it
// was made from the original, and its committed splits.
type Dataset struct {
	// Name is what Load takes, e.g. "mnist-01".
	Name string `json:"name"`
	// Title is a short human-readable description.
	Title string `json:"title"`
	// Kind is "float32" (real features) or "uint8" (image pixels).
	Kind string `json:"kind"`
	// Cols is the number of features; Shape describes their layout (e.g.
	// "28×28 grey, row-major").
	Cols  int    `json:"cols"`
	Shape string `json:"shape"`
	// Classes names the classes in the order of the labels 0, 1, …;
	// Labels says how they map from the original labels.
	Classes []string `json:"classes"`
	Labels  string   `json:"labels"`
	// Scaling says how features were brought to [0, 1].
	Scaling string `json:"scaling"`
	// Subset says which samples of the original were kept and how the
	// splits were made.
	Subset string `json:"subset"`
	// Licence is the data's licence and whom to cite; Source is where the
	// original came from.
	Licence string `json:"licence"`
	Source  string `json:"source"`
	// Note is what every consumer must show beside results on this
	// dataset (how it differs from the paper's), or empty.
	Note string `json:"note,omitempty"`
	// Splits lists the committed files, "train" first.
	Splits []SplitFile `json:"splits"`
}

// SplitFile is one committed file: one split of one dataset.
type SplitFile struct {
	// Split is "train" or "test".
	Split string `json:"split"`
	// File is the file's name under core/data/files (and public/data).
	File string `json:"file"`
	// Rows is the number of samples; Counts the number per class.
	Rows   int   `json:"rows"`
	Counts []int `json:"counts"`
	// Bytes and SHA256 describe the compressed file as committed;
	// RawBytes and RawSHA256 its decompressed content.
	Bytes     int    `json:"bytes"`
	SHA256    string `json:"sha256"`
	RawBytes  int    `json:"raw_bytes"`
	RawSHA256 string `json:"raw_sha256"`
}

// FormatName is the Manifest.Format this package reads.
const FormatName = "dpsim dataset DPSIMDS1 (gzip)"

//go:embed manifest.json
var manifestJSON []byte

// manifest is the parsed embedded manifest; manifestErr says why it could
// not be parsed (then every Load fails with it).
var manifest, manifestErr = parseManifest(manifestJSON)

// parseManifest reads and checks a manifest: known format, unique names,
// kinds this package decodes, and each split's sizes consistent.
func parseManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("data: manifest.json: %v", err)
	}
	if m.Format != FormatName {
		return nil, fmt.Errorf("data: manifest.json: format %q: must be %q", m.Format, FormatName)
	}
	seen := map[string]bool{}
	for _, d := range m.Datasets {
		if seen[d.Name] {
			return nil, fmt.Errorf("data: manifest.json: dataset %q given twice", d.Name)
		}
		seen[d.Name] = true
		if kindOf(d.Kind) == 0 {
			return nil, fmt.Errorf("data: manifest.json: dataset %q: kind %q: must be float32 or uint8", d.Name, d.Kind)
		}
		for _, s := range d.Splits {
			if s.Split != "train" && s.Split != "test" {
				return nil, fmt.Errorf("data: manifest.json: dataset %q: split %q: must be train or test", d.Name, s.Split)
			}
			if len(s.Counts) != len(d.Classes) || sum(s.Counts) != s.Rows {
				return nil, fmt.Errorf("data: manifest.json: dataset %q/%s: class counts %v do not add up to %d rows of %d classes", d.Name, s.Split, s.Counts, s.Rows, len(d.Classes))
			}
			if s.RawBytes != rawSize(kindOf(d.Kind), s.Rows, d.Cols) {
				return nil, fmt.Errorf("data: manifest.json: dataset %q/%s: raw_bytes %d: must be %d for %d×%d %s", d.Name, s.Split, s.RawBytes, rawSize(kindOf(d.Kind), s.Rows, d.Cols), s.Rows, d.Cols, d.Kind)
			}
		}
	}
	return &m, nil
}

func kindOf(name string) int {
	switch name {
	case "float32":
		return KindFloat32
	case "uint8":
		return KindPixels
	}
	return 0
}

func sum(a []int) int {
	t := 0
	for _, v := range a {
		t += v
	}
	return t
}

// Names returns the names of every committed dataset, sorted.
func Names() []string {
	if manifest == nil {
		return nil
	}
	names := make([]string, 0, len(manifest.Datasets))
	for _, d := range manifest.Datasets {
		names = append(names, d.Name)
	}
	sort.Strings(names)
	return names
}

// Info returns the manifest entry of the named dataset (a copy: the
// caller may keep it), or an error naming the known datasets.
func Info(name string) (Dataset, error) {
	if manifestErr != nil {
		return Dataset{}, manifestErr
	}
	for _, d := range manifest.Datasets {
		if d.Name == name {
			d.Classes = append([]string(nil), d.Classes...)
			d.Splits = append([]SplitFile(nil), d.Splits...)
			return d, nil
		}
	}
	return Dataset{}, unknown(name)
}

// Files returns the manifest's entry for every committed file, in
// manifest order: what a page must fetch, and what a test checks.
func Files() []SplitFile {
	if manifest == nil {
		return nil
	}
	var out []SplitFile
	for _, d := range manifest.Datasets {
		out = append(out, d.Splits...)
	}
	return out
}
