package data

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"io/fs"
	"strings"
	"sync"

	"dpsim/core/check"
)

// The source of the committed files. core/data embeds only the manifest,
// never the data, so the page's WebAssembly stays small: the CLI and the
// tests register the committed files (package dpsim/core/data/files
// embeds them and registers itself when imported), and the page will hand
// each file it fetched from public/data to Provide (or register an fs.FS
// over them with Use).
var (
	sourceMu sync.RWMutex
	source   fs.FS
)

// Use makes fsys the source Load reads committed files from, by their
// manifest names (e.g. "mnist-01-train.gz" at the root of fsys). It may
// be called again, e.g. when the page has fetched one more file: sets
// already decoded stay, since every file is checked against the
// manifest's sha256, and any source gives the same Set.
func Use(fsys fs.FS) {
	sourceMu.Lock()
	source = fsys
	sourceMu.Unlock()
}

// cache holds one entry per committed file: its lock makes concurrent
// Loads of one file decode it once; a decoded Set is kept for the process
// and shared read-only. A failure is not kept, so a Load after Use with a
// better source (or a completed download) can succeed.
var cache sync.Map // file name → *entry

type entry struct {
	mu  sync.Mutex
	set *Set
}

// Load returns the named split ("train" or "test") of the named dataset,
// decoding its committed file on first use and sharing the result
// read-only afterwards; it is safe for concurrent use. The file is
// checked in full (sha256 against the manifest, header, shape, sizes,
// labels, feature range) and any mismatch is a one-line error naming the
// dataset, the split and the rule. Training must use "train"; "test" is
// for held-out evaluation only.
func Load(name, split string) (*Set, error) {
	d, err := Info(name)
	if err != nil {
		return nil, err
	}
	field := "dataset " + name
	var f *SplitFile
	var have []string
	for k := range d.Splits {
		have = append(have, d.Splits[k].Split)
		if d.Splits[k].Split == split {
			f = &d.Splits[k]
		}
	}
	if f == nil {
		return nil, check.Errorf(field, "split %q: must be one of %s", split, strings.Join(have, ", "))
	}
	v, _ := cache.LoadOrStore(f.File, &entry{})
	e := v.(*entry)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.set != nil {
		return e.set, nil
	}
	field += "/" + split
	sourceMu.RLock()
	fsys := source
	sourceMu.RUnlock()
	if fsys == nil {
		return nil, check.Errorf(field, "no data source: import dpsim/core/data/files (CLI, tests) or call data.Use (page)")
	}
	b, err := fs.ReadFile(fsys, f.File)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, check.Errorf(field, "file %s is missing from the data source", f.File)
		}
		return nil, check.Errorf(field, "file %s cannot be read: %v", f.File, err)
	}
	s, err := Decode(d, f, b)
	if err != nil {
		return nil, err
	}
	e.set = s
	return s, nil
}

// Provide checks the bytes of the named committed file (e.g.
// "mnist-01-train.gz") against the manifest, decodes them and keeps the
// Set, so that a later Load of that dataset and split needs no source: for
// the page, which fetches a file itself and hands it over. Bytes that fail
// a check are refused with Load's one-line error and nothing is kept.
func Provide(file string, b []byte) error {
	if manifestErr != nil {
		return manifestErr
	}
	for _, d := range manifest.Datasets {
		for k := range d.Splits {
			f := &d.Splits[k]
			if f.File != file {
				continue
			}
			v, _ := cache.LoadOrStore(f.File, &entry{})
			e := v.(*entry)
			e.mu.Lock()
			defer e.mu.Unlock()
			if e.set != nil {
				return nil
			}
			s, err := Decode(d, f, b)
			if err != nil {
				return err
			}
			e.set = s
			return nil
		}
	}
	return check.Errorf("data file", "%q is not in the manifest", file)
}

// Decode checks the bytes of one committed file against its manifest
// entry (size, sha256) and decodes them: for a page that fetched the file
// itself and wants to check it before registering it. Load uses it.
func Decode(d Dataset, f *SplitFile, b []byte) (*Set, error) {
	field := "dataset " + d.Name + "/" + f.Split
	if len(b) != f.Bytes {
		return nil, check.Errorf(field, "file %s has %d bytes: the manifest says %d (truncated or replaced)", f.File, len(b), f.Bytes)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
		return nil, check.Errorf(field, "file %s has sha256 %s: the manifest says %s (corrupted or replaced)", f.File, got, f.SHA256)
	}
	s, err := decode(b, kindOf(d.Kind), f.Rows, d.Cols, d.Classes)
	if err != nil {
		return nil, check.Errorf(field, "file %s: %v", f.File, err)
	}
	for c, want := range f.Counts {
		if got := count(s.Y, uint8(c)); got != want {
			return nil, check.Errorf(field, "file %s: %d samples of class %q: the manifest says %d", f.File, got, d.Classes[c], want)
		}
	}
	s.Name, s.Split = d.Name, f.Split
	return s, nil
}

func count(y []uint8, c uint8) int {
	n := 0
	for _, v := range y {
		if v == c {
			n++
		}
	}
	return n
}

// unknown is the error for a dataset name not in the manifest.
func unknown(name string) error {
	return check.Errorf("dataset", "%q is not a dataset: known are %s", name, strings.Join(Names(), ", "))
}
