package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// checkOutputs checks, before a run, that every output file named by a flag
// (flag → path; empty paths are skipped) can be written: its folder exists
// and is writable, it is not a folder itself, and no two flags name the same
// file. It probes by creating and removing a temporary file beside it, as
// writeFile will.
func checkOutputs(paths map[string]string) error {
	flags := make([]string, 0, len(paths))
	for f, p := range paths {
		if p != "" {
			flags = append(flags, f)
		}
	}
	sort.Strings(flags)
	seen := map[string]string{}
	for _, flag := range flags {
		path := paths[flag]
		abs, err := filepath.Abs(path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", flag, path, err)
		}
		if other, dup := seen[abs]; dup {
			return fmt.Errorf("%s and %s name the same file %s", other, flag, path)
		}
		seen[abs] = flag
		if fi, err := os.Stat(path); err == nil {
			switch {
			case fi.IsDir():
				return fmt.Errorf("%s %s: is a folder; give a file name", flag, path)
			case fi.Mode()&fs.ModeCharDevice != 0:
				continue // /dev/null, /dev/stdout: written directly
			case !fi.Mode().IsRegular():
				return fmt.Errorf("%s %s: is not a regular file", flag, path)
			}
		}
		tmp, err := createTemp(flag, target(path))
		if err != nil {
			return err
		}
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return nil
}

// target is where writing path lands: a symlink's destination, so that the
// rename replaces the file it points to, not the link.
func target(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// createTemp creates a temporary file in path's folder, so that renaming it
// onto path is atomic.
func createTemp(flag, path string) (*os.File, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err == nil {
		return tmp, nil
	}
	switch fi, serr := os.Stat(dir); {
	case errors.Is(serr, fs.ErrNotExist):
		return nil, fmt.Errorf("%s %s: the folder %s does not exist", flag, path, dir)
	case serr == nil && !fi.IsDir():
		return nil, fmt.Errorf("%s %s: %s is not a folder", flag, path, dir)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%s %s: cannot write in the folder %s: permission denied", flag, path, dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return nil, fmt.Errorf("%s %s: cannot write in the folder %s: %v", flag, path, dir, err)
}

// writeFile writes path with write (buffered) through a temporary file in
// the same folder and a rename, so that path is either its old self or
// complete, never half written. A character device (/dev/null) is written
// directly.
func writeFile(flag, path string, write func(io.Writer) error) error {
	fail := func(err error) error { return fmt.Errorf("%s %s: %v", flag, path, err) }
	if fi, err := os.Stat(path); err == nil && fi.Mode()&fs.ModeCharDevice != 0 {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fail(err)
		}
		err = writeBuffered(f, write)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(err)
		}
		return nil
	}
	tmp, err := createTemp(flag, target(path))
	if err != nil {
		return err
	}
	err = writeBuffered(tmp, write)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file private (0600); an export is not.
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target(path))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fail(err)
	}
	return nil
}

func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriter(w)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}
