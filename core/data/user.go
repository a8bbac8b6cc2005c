package data

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"sync"
)

// Limits on a user's data (docs/data.md, "Your own data"). Each is
// checked before the memory it bounds is allocated: a file's size before
// it is read (the CLI; the page before it hands the bytes over), a
// parsed set's values from the file's header or first pass.
const (
	// MaxUserFileBytes bounds one data file (and one array of an .npz,
	// uncompressed).
	MaxUserFileBytes = 256 << 20
	// MaxUserValues bounds the features of one parsed source, rows ×
	// columns (MNIST's 60,000 × 784 training images are 47 million).
	MaxUserValues = 1 << 26
	// MaxUserColumns bounds the features per row (the scenario's largest
	// problem dimension).
	MaxUserColumns = 100_000
	// MaxInlineValues bounds the numbers, features and labels together,
	// of the data written inline in a scenario.
	MaxInlineValues = 100_000
	// MaxUserMagnitude bounds every feature, as the scenario bounds every
	// other number of a problem's data (scenario.MaxMagnitude).
	MaxUserMagnitude = 1e12
	// MaxUserClasses bounds the classes of a user's labels.
	MaxUserClasses = 255
)

// The formats of a user's data file.
const (
	FormatLIBSVM = "libsvm"
	FormatCSV    = "csv"
	FormatNPY    = "npy"
	FormatNPZ    = "npz"
)

// Formats lists the file formats, in the order the docs give them.
func Formats() []string { return []string{FormatLIBSVM, FormatCSV, FormatNPY, FormatNPZ} }

// formatOf returns the format a file name's extension implies, or "".
func formatOf(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".svm", ".libsvm", ".svmlight":
		return FormatLIBSVM
	case ".csv":
		return FormatCSV
	case ".npy":
		return FormatNPY
	case ".npz":
		return FormatNPZ
	}
	return ""
}

// userFile is one file the CLI read or the page was handed.
type userFile struct {
	name string
	sha  string
	b    []byte
}

// The user's files of this process (the CLI's run, the page's session):
// by name, the latest file handed over under it, and by content. Kept
// until the process ends (the page: until it is reloaded); a file is
// never written anywhere.
var users = struct {
	sync.Mutex
	byName map[string]*userFile
	bySHA  map[string]*userFile
}{byName: map[string]*userFile{}, bySHA: map[string]*userFile{}}

// ProvideUser keeps the bytes of a user's data file under name (the path
// a scenario gives, as written) and returns their sha256 in hex. A later
// file under the same name replaces it for that name; its content stays
// reachable by its sha256. Bytes over MaxUserFileBytes are refused.
func ProvideUser(name string, b []byte) (string, error) {
	if name == "" {
		return "", fmt.Errorf("a data file needs a name")
	}
	if len(b) > MaxUserFileBytes {
		return "", fmt.Errorf("%s: %d bytes: a data file may have at most %d (%s)", name, len(b), MaxUserFileBytes, sizeText(MaxUserFileBytes))
	}
	sum := sha256.Sum256(b)
	sha := hex.EncodeToString(sum[:])
	users.Lock()
	defer users.Unlock()
	f := users.bySHA[sha]
	if f == nil {
		f = &userFile{name: name, sha: sha, b: b}
		users.bySHA[sha] = f
	}
	users.byName[name] = f
	return sha, nil
}

// ProvideUserPinned is ProvideUser for a file a scenario pins by its
// sha256 (pin; "" pins none): bytes with another sha256 are refused
// naming both hashes, and not kept.
func ProvideUserPinned(name string, b []byte, pin string) (string, error) {
	if pin != "" {
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != pin {
			return "", pinMismatch(name, got, pin)
		}
	}
	return ProvideUser(name, b)
}

// pinMismatch is the error for a file whose content is not what the
// scenario pins.
func pinMismatch(name, got, pin string) error {
	return fmt.Errorf("%s has sha256 %s, but the scenario pins %s: a replay needs the same file", name, got, pin)
}

// UserSHA256 returns the sha256 of the file last provided under name.
func UserSHA256(name string) (string, bool) {
	users.Lock()
	defer users.Unlock()
	if f := users.byName[name]; f != nil {
		return f.sha, true
	}
	return "", false
}

// HasUserFile reports whether a file is at hand for a source naming
// name with the pinned sha256 pin ("" when none): the file under the
// name, else (when pinned) one with that content.
func HasUserFile(name, pin string) bool {
	users.Lock()
	defer users.Unlock()
	if users.byName[name] != nil {
		return true
	}
	return pin != "" && users.bySHA[pin] != nil
}

// UserBytes returns the file a source names (name, and the sha256 it
// pins or ""), and its sha256. A file provided under the name with other
// content than the pinned is refused naming both hashes (a replay with
// another file); with none under the name, the pinned content is looked
// up by its hash.
func UserBytes(name, pin string) ([]byte, string, error) {
	users.Lock()
	defer users.Unlock()
	if pin != "" {
		// The file last handed over under the name decides: a replay
		// with another file is refused even if the pinned content was
		// seen before.
		if f := users.byName[name]; f != nil && f.sha != pin {
			return nil, "", pinMismatch(name, f.sha, pin)
		}
		if f := users.bySHA[pin]; f != nil {
			return f.b, f.sha, nil
		}
		return nil, "", fmt.Errorf("%s (sha256 %s) has not been provided: the CLI reads it beside the scenario, the page asks for it", name, pin)
	}
	if f := users.byName[name]; f != nil {
		return f.b, f.sha, nil
	}
	return nil, "", fmt.Errorf("%s has not been provided: the CLI reads it beside the scenario, the page asks for it", name)
}

// sizeText writes a byte count for people: "3.2 MiB".
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
