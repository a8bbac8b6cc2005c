// Command mkdata rebuilds dpsim's committed dataset files
// (core/data/files/*.gz) and their manifest (core/data/manifest.json)
// byte for byte from the original datasets (../shared/data by default,
// relative to the module root). docs/data.md describes each dataset and
// its preprocessing, which lives in recipes.go.
//
//	go run ./cmd/mkdata [-src DIR] [-out DIR] [-only name,name]
//
// -only rebuilds the named datasets and keeps the other entries of the
// manifest already in -out; an unknown name is an error, and nothing is
// written before every output is checked.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"dpsim/cmd/internal/outfile"
	"dpsim/core/data"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("mkdata", flag.ContinueOnError)
	src := fl.String("src", "", "directory of the original datasets (default ../shared/data relative to the module root)")
	out := fl.String("out", "", "directory to write manifest.json and files/ into (default core/data in the module)")
	only := fl.String("only", "", "comma-separated dataset names to rebuild (default all); the manifest keeps the other datasets' entries")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 0 {
		return fmt.Errorf("takes no arguments (got %q); give -src, -out and -only", fl.Arg(0))
	}
	// The names first: an unknown one is a mistake, never an empty
	// selection (which would write a manifest listing no dataset).
	var sel map[string]bool
	given := false
	fl.Visit(func(f *flag.Flag) { given = given || f.Name == "only" })
	if given {
		sel = map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			n = strings.TrimSpace(n)
			if !slices.Contains(recipeNames(), n) {
				return fmt.Errorf("-only: unknown dataset %q; the datasets are %s", n, strings.Join(recipeNames(), ", "))
			}
			sel[n] = true
		}
	}
	root, err := moduleRoot()
	if err != nil && (*src == "" || *out == "") {
		return err
	}
	if *src == "" {
		*src = filepath.Join(root, "..", "shared", "data")
	}
	if *out == "" {
		*out = filepath.Join(root, "core", "data")
	}
	if fi, err := os.Stat(*src); err != nil || !fi.IsDir() {
		return fmt.Errorf("-src %s: must be a folder holding the original datasets", *src)
	}
	if fi, err := os.Stat(*out); err == nil && !fi.IsDir() {
		return fmt.Errorf("-out %s: is not a folder; give the folder to write manifest.json and files/ into", *out)
	}
	manifestPath := filepath.Join(*out, "manifest.json")
	// A partial rebuild replaces the entries of the datasets it built in
	// the manifest already there and keeps the others, so that rebuilding
	// one dataset never drops the rest (every preset on them would break).
	var kept []data.Dataset
	if sel != nil {
		if kept, err = readManifest(manifestPath); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(*out, "files"), 0o755); err != nil {
		return fmt.Errorf("-out %s: %v", *out, err)
	}
	// Every output is checked before the originals are read (≈ 30 s).
	outs := []outfile.Output{{Flag: "-out", Path: manifestPath}}
	for _, r := range recipes {
		if sel == nil || sel[r.meta.Name] {
			for _, split := range []string{"train", "test"} {
				outs = append(outs, outfile.Output{Flag: "-out", Path: filepath.Join(*out, "files", r.meta.Name+"-"+split+".gz")})
			}
		}
	}
	if err := outfile.Check(nil, outs); err != nil {
		return err
	}
	files, built, err := Build(*src, sel)
	if err != nil {
		return err
	}
	datasets := merge(kept, built)
	if len(datasets) == 0 {
		return errors.New("no dataset was built: nothing written") // not reached: -only names at least one
	}
	manifest, err := encodeManifest(datasets)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	// The files before the manifest that lists them, each written whole
	// or not at all.
	for _, n := range names {
		if err := outfile.WriteBytes("-out", filepath.Join(*out, "files", n), files[n]); err != nil {
			return err
		}
		total += len(files[n])
		fmt.Fprintf(stdout, "%-32s %10d bytes\n", n, len(files[n]))
	}
	fmt.Fprintf(stdout, "%-32s %10d bytes\n", "total", total)
	return outfile.WriteBytes("-out", manifestPath, manifest)
}

// recipeNames lists the datasets mkdata builds, in manifest order.
func recipeNames() []string {
	var ns []string
	for _, r := range recipes {
		ns = append(ns, r.meta.Name)
	}
	return ns
}

// readManifest returns the datasets of the manifest at path, none when
// there is no file; a file that cannot be read or decoded is an error,
// so that a partial rebuild never replaces it by a manifest of its own
// datasets alone.
func readManifest(path string) ([]data.Dataset, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m data.Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Format != data.FormatName {
		return nil, fmt.Errorf("%s: not a dataset manifest (%v), so -only cannot keep its other datasets: rebuild them all (no -only) or give another -out", path, err)
	}
	return m.Datasets, nil
}

// merge returns the datasets of kept with those of built replacing the
// ones of the same name, in recipe order; entries of kept that no recipe
// makes any more are dropped.
func merge(kept, built []data.Dataset) []data.Dataset {
	byName := map[string]data.Dataset{}
	for _, d := range kept {
		byName[d.Name] = d
	}
	for _, d := range built {
		byName[d.Name] = d
	}
	var out []data.Dataset
	for _, n := range recipeNames() {
		if d, ok := byName[n]; ok {
			out = append(out, d)
		}
	}
	return out
}

// moduleRoot is the nearest directory at or above the working directory
// that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: give -src and -out")
		}
		dir = parent
	}
}
