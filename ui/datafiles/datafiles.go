// Package datafiles is what a page needs to fetch the committed dataset
// files a scenario (or every scenario of an experiment) trains on, and
// its session cache of files handed over: shared by the main page
// (ui, wasm/app) and the Experiments panel's workers (wasm/solver), so
// that both check, name and cache the files the same way.
package datafiles

import (
	"slices"
	"strings"
	"sync"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/jsonstrict"
	"dpsim/core/objective"
	"dpsim/core/scenario"
)

// DataFile is one committed dataset file the page must fetch from
// public/data/ before it can build a scenario: what the progress bar
// shows (title, size, the dataset's note) and what Provide checks.
type DataFile struct {
	// File is the file's name under public/data (and core/data/files).
	File string `json:"file"`
	// Dataset and Split name the split, e.g. "mushrooms" and "train".
	Dataset string `json:"dataset"`
	Split   string `json:"split"`
	// Title is the dataset's title; Note what must be shown beside
	// results on it (e.g. the CIFAR-10 gap), or "".
	Title string `json:"title"`
	Note  string `json:"note,omitempty"`
	// Bytes and SHA256 are the compressed file's, from the manifest.
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Provided is the page's session cache of dataset files: a file handed
// over once (checked and decoded by data.Provide, which keeps the Set for
// the process) is never fetched again. Safe for concurrent use.
type Provided struct {
	mu    sync.Mutex
	files map[string]bool
	// raw holds the files kept but not decoded (Keep): a page whose heavy
	// runs build in a Worker hands the bytes on and decodes them here only
	// when a run of its own needs them (Ready).
	raw map[string][]byte
	// done marks the kept files Ready decoded here.
	done map[string]bool
}

// Has reports whether file was provided (decoded, or kept to be).
func (p *Provided) Has(file string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.files[file]
}

// Provide checks and decodes file's bytes (data.Provide) and records it.
func (p *Provided) Provide(file string, b []byte) error {
	if err := data.Provide(file, b); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil {
		p.files = map[string]bool{}
	}
	p.files[file] = true
	return nil
}

// Keep records file's bytes without decoding them, after checking their
// size against the manifest (the page has checked their sha256 off its
// thread, public/datafetch.js; the content and the sha256 are checked
// where the bytes are decoded: Ready here, or a Worker's Provide).
// Decoding a large file takes the thread for a while, and so does hashing
// it in Go; a page whose runs on datasets build in a Worker
// (ui/remote.go) keeps the bytes to hand them on.
func (p *Provided) Keep(file string, b []byte) error {
	d, f, err := manifestFile(file)
	if err != nil {
		return err
	}
	if len(b) != f.Bytes {
		return check.Errorf("dataset "+d.Name+"/"+f.Split, "file %s has %d bytes: the manifest says %d (truncated or replaced)", f.File, len(b), f.Bytes)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil {
		p.files = map[string]bool{}
	}
	if p.raw == nil {
		p.raw = map[string][]byte{}
	}
	if !p.files[file] {
		p.files[file], p.raw[file] = true, b
	}
	return nil
}

// Raw returns the bytes of a file provided with Keep or Provide: nil
// when it was decoded without being kept (Provide) or not provided.
func (p *Provided) Raw(file string) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.raw[file]
}

// Forget drops file (a Worker found its bytes bad): it is fetched again
// next time.
func (p *Provided) Forget(file string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.files, file)
	delete(p.raw, file)
	delete(p.done, file)
}

// Ready decodes the kept files s uses that are not decoded yet, so that
// s builds here.
func (p *Provided) Ready(s *scenario.Scenario) error {
	uses, err := Needs(s, nil)
	if err != nil {
		return err
	}
	for _, f := range uses {
		p.mu.Lock()
		b, kept := p.raw[f.File]
		done := p.done[f.File]
		p.mu.Unlock()
		if !kept || done {
			continue
		}
		if err := data.Provide(f.File, b); err != nil {
			p.Forget(f.File)
			return err
		}
		p.decoded(f.File)
	}
	return nil
}

// Decoded lists the kept files decoded here (Ready), in name order: what
// the page holds twice, its bytes and their decoded set.
func (p *Provided) Decoded() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []string{}
	for f := range p.done {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// decoded marks a kept file as decoded here.
func (p *Provided) decoded(file string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		p.done = map[string]bool{}
	}
	p.done[file] = true
}

// manifestFile returns the manifest's entry of a dataset file.
func manifestFile(file string) (data.Dataset, *data.SplitFile, error) {
	for _, name := range data.Names() {
		d, err := data.Info(name)
		if err != nil {
			return data.Dataset{}, nil, err
		}
		for k := range d.Splits {
			if d.Splits[k].File == file {
				return d, &d.Splits[k], nil
			}
		}
	}
	return data.Dataset{}, nil, check.Errorf("data file", "%q is not in the manifest", file)
}

// Needs returns the dataset files the problem of s loads (its factory's
// Datasets, for its decoded params) that have is false for, each once, in
// the order the factory names them. A scenario whose problem kind or
// params are bad needs nothing here: building it reports the error.
func Needs(s *scenario.Scenario, have func(file string) bool) ([]DataFile, error) {
	var f *objective.Factory
	for _, pf := range scenario.Problems() {
		if pf.Name == s.Problem.Kind {
			f = pf
		}
	}
	if f == nil || f.Datasets == nil {
		return nil, nil
	}
	params := f.NewParams()
	if len(s.Problem.Params) > 0 {
		if err := jsonstrict.Decode(s.Problem.Params, params, "problem.params"); err != nil {
			return nil, nil
		}
	}
	var out []DataFile
	seen := map[string]bool{}
	for _, ds := range f.Datasets(params) {
		name, split, ok := strings.Cut(ds, "/")
		if !ok {
			return nil, check.Errorf("problem", "%s names the dataset split %q: must be name/split", f.Title, ds)
		}
		d, err := data.Info(name)
		if err != nil {
			return nil, err
		}
		var sf *data.SplitFile
		for k := range d.Splits {
			if d.Splits[k].Split == split {
				sf = &d.Splits[k]
			}
		}
		if sf == nil {
			return nil, check.Errorf("problem", "%s names the dataset split %q: %s has no split %q", f.Title, ds, name, split)
		}
		if seen[sf.File] || (have != nil && have(sf.File)) {
			continue
		}
		seen[sf.File] = true
		out = append(out, DataFile{File: sf.File, Dataset: d.Name, Split: sf.Split, Title: d.Title,
			Note: d.Note, Bytes: sf.Bytes, SHA256: sf.SHA256})
	}
	return out, nil
}

// NeedsAll is Needs over several scenarios (an experiment's points):
// each file once, in the order the scenarios first name them.
func NeedsAll(scs []*scenario.Scenario, have func(file string) bool) ([]DataFile, error) {
	var out []DataFile
	seen := map[string]bool{}
	for _, s := range scs {
		got, err := Needs(s, have)
		if err != nil {
			return nil, err
		}
		for _, f := range got {
			if !seen[f.File] {
				seen[f.File] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// Report is what the page's dataNeeds calls return (as JSON): the files
// to fetch before building, and every file used (for the notes shown
// beside results, fetched or not). The lists are empty, never null.
type Report struct {
	Need  []DataFile `json:"need"`
	Uses  []DataFile `json:"uses"`
	Error string     `json:"error,omitempty"`
}

// Report returns what the scenarios need that p does not have, and all
// they use.
func (p *Provided) Report(scs ...*scenario.Scenario) Report {
	r := Report{Need: []DataFile{}, Uses: []DataFile{}}
	need, err := NeedsAll(scs, p.Has)
	r.Need = append(r.Need, need...)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	uses, _ := NeedsAll(scs, nil)
	r.Uses = append(r.Uses, uses...)
	return r
}

// Missing is the error for building a scenario whose dataset files
// the page has not fetched yet (a bridge call that skipped the page's
// fetch, e.g. dpsim.loadPreset from the console).
func Missing(files []DataFile) error {
	var names []string
	for _, f := range files {
		names = append(names, f.Dataset+"/"+f.Split+" ("+f.File+")")
	}
	return check.Errorf("problem", "needs the dataset file(s) %s, not fetched yet: the page fetches them from data/ when it loads a scenario (or call dpsim.provideData)", strings.Join(names, ", "))
}
