package jsonstrict

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadFile reads the named file for Decode. Before reading a byte it
// refuses anything but a regular file — a directory, a named pipe, a device
// such as /dev/zero, a socket — and a file larger than limit bytes, so that
// no argument can block the program or exhaust its memory; the read itself
// goes through a limit too, in case the file grows meanwhile. Errors start
// with the file's name.
func ReadFile(name string, limit int64) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, fileError(name, err)
	}
	if err := regular(name, fi, limit); err != nil {
		return nil, err
	}
	if testHookAfterStat != nil {
		testHookAfterStat()
	}
	// Non-blocking where the system has it: should the name have been
	// replaced by a named pipe since Stat, the open returns at once and
	// the check below refuses it (a blocking open would wait for a writer).
	f, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fileError(name, err)
	}
	defer f.Close()
	// The name may have been replaced between Stat and Open.
	if fi, err = f.Stat(); err != nil {
		return nil, fileError(name, err)
	}
	if err := regular(name, fi, limit); err != nil {
		return nil, err
	}
	return readLimited(f, name, limit)
}

// testHookAfterStat, when set (by tests), runs between the Stat and the
// Open of ReadFile.
var testHookAfterStat func()

// ReadAll reads r — typically standard input, named what in errors — for
// Decode, refusing more than limit bytes after reading at most limit+1. When
// r is a file whose size is known (standard input redirected from a file),
// a directory or a file over the limit is refused before reading.
func ReadAll(r io.Reader, what string, limit int64) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil {
			switch {
			case fi.IsDir():
				return nil, fmt.Errorf("%s: is a folder, not a JSON text", what)
			case fi.Mode().IsRegular() && fi.Size() > limit:
				return nil, tooBig(what, fi.Size(), limit)
			}
		}
	}
	return readLimited(r, what, limit)
}

func readLimited(r io.Reader, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fileError(what, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: holds more than %s; that is the limit", what, size(limit))
	}
	return data, nil
}

// regular refuses what is not a regular file of at most limit bytes.
func regular(name string, fi fs.FileInfo, limit int64) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		if fi.Size() > limit {
			return tooBig(name, fi.Size(), limit)
		}
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a folder, not a JSON file", name)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s: is a named pipe, not a regular file; to read a stream, give - and redirect it to standard input", name)
	case m&fs.ModeDevice != 0:
		return fmt.Errorf("%s: is a device, not a regular file", name)
	case m&fs.ModeSocket != 0:
		return fmt.Errorf("%s: is a socket, not a regular file", name)
	}
	return fmt.Errorf("%s: is not a regular file", name)
}

func tooBig(name string, n, limit int64) error {
	return fmt.Errorf("%s: is %s; the limit is %s", name, size(n), size(limit))
}

// size writes a byte count for people: "16 MiB (16777216 bytes)".
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// fileError says what went wrong with a file without Go's "open"/"stat"
// prefixes: "x.json: no such file".
func fileError(name string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", name)
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %v", name, pe.Err)
	}
	return fmt.Errorf("%s: %v", name, err)
}
