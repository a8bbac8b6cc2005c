// Package outfile is how dpsim's commands treat the files they write:
// every output is checked before any work starts (Check) and written
// whole or not at all, through a temporary file renamed onto its name
// (Write). docs/guarantees.md, "Outputs and atomic writes", states what
// this promises.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Output is a file a command writes, and the flag (or what else) names
// it in errors.
type Output struct{ Flag, Path string }

// Check checks, before any work, that every output (empty paths are
// skipped) can be written: it is a name, not "-" (standard output is
// never an output file: a command that writes to it does so without a
// flag), its folder exists and is writable, it is not a folder itself, it
// is not one of the inputs, and no two outputs are the same file. Files
// are compared as the system sees them — the same device and inode — so a
// symlink or a hard link to an input is caught as well as the same name.
// Writability is probed by creating and removing a temporary file beside
// the output, as Write will.
func Check(inputs []string, outs []Output) error {
	type seenFile struct {
		what string
		fi   fs.FileInfo
	}
	var files []seenFile
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && fi.Mode().IsRegular() {
			files = append(files, seenFile{"the input " + in, fi})
		}
	}
	names := map[string]string{} // resolved path → flag and path
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		what := o.Flag + " " + o.Path
		if o.Path == "-" {
			return fmt.Errorf("%s: give a file name: \"-\" is not standard output here (./- names a file called -)", what)
		}
		res := resolve(o.Path)
		if other, dup := names[res]; dup {
			return fmt.Errorf("%s: is the same file as %s; give each output its own file", what, other)
		}
		names[res] = what
		if fi, err := os.Stat(o.Path); err == nil {
			switch {
			case fi.IsDir():
				return fmt.Errorf("%s: is a folder; give a file name", what)
			case fi.Mode()&fs.ModeCharDevice != 0:
				continue // /dev/null, /dev/stdout: written directly
			case !fi.Mode().IsRegular():
				return fmt.Errorf("%s: is not a regular file", what)
			}
			for _, f := range files {
				if os.SameFile(fi, f.fi) {
					return fmt.Errorf("%s: is the same file as %s; writing it would destroy it, so give another output file", what, f.what)
				}
			}
			files = append(files, seenFile{what, fi})
		}
		tmp, err := createTemp(o.Flag, target(o.Path))
		if err != nil {
			return err
		}
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return nil
}

// resolve returns path made absolute with every symlink followed; for a
// file that does not exist yet, its folder is resolved (and a dangling
// symlink's destination taken: two outputs through it are one file).
func resolve(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		if abs, err := filepath.Abs(real); err == nil {
			return abs
		}
	}
	path = dangling(path)
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if abs, err := filepath.Abs(filepath.Join(dir, base)); err == nil {
		return abs
	}
	return path
}

// target is where writing path lands: a symlink's destination, so that the
// rename replaces the file it points to, not the link — or creates it,
// when the link dangles.
func target(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return dangling(path)
}

// dangling returns where a symlink that points to no file yet leads (its
// chain followed, relative links from their own folder), or path itself
// when it is not a symlink.
func dangling(path string) string {
	for range 40 { // the system's own bound on a chain of links
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(path)
		if err != nil {
			break
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path
}

// createTemp creates a temporary file in path's folder, so that renaming it
// onto path is atomic. Its name carries this process's id,
// .NAME.pidPID.RANDOM.tmp, so that a later write of the same output can
// tell the temporaries of dead processes (a SIGKILL between create and
// rename leaves one) from those of a live one, and remove them first
// (removeStale).
func createTemp(flag, path string) (*os.File, error) {
	dir := filepath.Dir(path)
	removeStale(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+strconv.Itoa(os.Getpid())+".*.tmp")
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

// tempPrefix is the start of every temporary file name for path, up to
// the process id.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".pid" }

// removeStale removes the temporary files that writes of path by
// processes that no longer run left beside it (.NAME.pidPID.*.tmp with
// PID dead: killed between create and rename). A temporary of a live
// process (another dpsim writing the same output), one whose process
// cannot be told (not Unix), or any other file is left alone; so is
// anything that cannot be removed: this is tidying, not a condition of
// the write.
func removeStale(path string) {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !strings.HasSuffix(name, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		digits, _, ok := strings.Cut(rest, ".")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// Write writes path with write (buffered) through a temporary file in
// the same folder and a rename, so that path is either its old self or
// complete, never half written: a full disk, a crash or a kill leaves the
// old file. A character device (/dev/null) is written directly. Errors
// name flag and path.
func Write(flag, path string, write func(io.Writer) error) error {
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
	if err == nil {
		// On disk before the rename: after a power cut the name holds the
		// old file or the new one, not an empty one.
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file private (0600); an export is not.
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil && BeforeRename != nil {
		BeforeRename(path)
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

// BeforeRename, when set (by tests only), is called with the output's
// name once its temporary file is complete, just before the rename: the
// moment at which a kill must leave the old file intact.
var BeforeRename func(path string)

// WriteBytes is Write for data already in memory.
func WriteBytes(flag, path string, data []byte) error {
	return Write(flag, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func writeBuffered(w io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriter(w)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}
