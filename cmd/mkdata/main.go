// Command mkdata rebuilds dpsim's committed dataset files
// (core/data/files/*.gz) and their manifest (core/data/manifest.json)
// byte for byte from the original datasets (../shared/data by default,
// relative to the module root). docs/data.md describes each dataset and
// its preprocessing, which lives in recipes.go.
//
//	go run ./cmd/mkdata [-src DIR] [-out DIR] [-only name,name]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("mkdata", flag.ContinueOnError)
	src := fl.String("src", "", "directory of the original datasets (default ../shared/data relative to the module root)")
	out := fl.String("out", "", "directory to write manifest.json and files/ into (default core/data in the module)")
	only := fl.String("only", "", "comma-separated dataset names to build (default all; the manifest then lists only these)")
	if err := fl.Parse(args); err != nil {
		return err
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
	var sel map[string]bool
	if *only != "" {
		sel = map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			sel[n] = true
		}
	}
	files, manifest, err := Build(*src, sel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(*out, "files"), 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(*out, "files", n), files[n], 0o644); err != nil {
			return err
		}
		total += len(files[n])
		fmt.Printf("%-32s %10d bytes\n", n, len(files[n]))
	}
	fmt.Printf("%-32s %10d bytes\n", "total", total)
	return os.WriteFile(filepath.Join(*out, "manifest.json"), manifest, 0o644)
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
