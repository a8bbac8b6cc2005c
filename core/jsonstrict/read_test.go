package jsonstrict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: if it were read before the size check, the test would
	// read 1 GiB.
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := []struct {
		name, want string
	}{
		{small, ""},
		{big, "big.json: is 1024 MiB (1073741824 bytes); the limit is 16 bytes"},
		{dir, "is a folder, not a JSON file"},
		{filepath.Join(dir, "missing.json"), "missing.json: no such file"},
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases = append(cases, struct{ name, want string }{"/dev/zero", "/dev/zero: is a device, not a regular file"})
	}
	for _, c := range cases {
		data, err := ReadFile(c.name, 16)
		switch {
		case c.want == "" && (err != nil || string(data) != `{"a": 1}`):
			t.Errorf("%s: %q, %v", c.name, data, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestReadAll(t *testing.T) {
	if data, err := ReadAll(strings.NewReader("12345"), "standard input", 5); err != nil || string(data) != "12345" {
		t.Errorf("at the limit: %q %v", data, err)
	}
	_, err := ReadAll(strings.NewReader("123456"), "standard input", 5)
	if err == nil || err.Error() != "standard input: holds more than 5 bytes; that is the limit" {
		t.Errorf("over the limit: %v", err)
	}
	// Standard input redirected from a big file is refused before reading.
	name := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(name, []byte("1234567890"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ReadAll(f, "standard input", 5); err == nil || !strings.Contains(err.Error(), "is 10 bytes; the limit is 5 bytes") {
		t.Errorf("a redirected file: %v", err)
	}
}
