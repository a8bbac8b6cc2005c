package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlink that points to no file yet is an output's destination: two
// outputs through it are one file (attack --out lnk.json --pgm x, with
// lnk.json → x-true.pgm, wrote both), and writing it creates the file it
// points to and keeps the link (the link was replaced by the file).
func TestDanglingSymlinkIsItsDestination(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := os.Symlink("x-true.pgm", p("lnk.json")); err != nil {
		t.Skip(err)
	}
	err := Check(nil, []Output{{"--out", p("lnk.json")}, {"--pgm", p("x-true.pgm")}})
	if err == nil || !strings.Contains(err.Error(), "--pgm "+p("x-true.pgm")+": is the same file as --out "+p("lnk.json")) {
		t.Errorf("two outputs through a dangling link: %v", err)
	}
	os.Mkdir(p("sub"), 0o755)
	os.Symlink(filepath.Join("sub", "new.json"), p("chain1"))
	os.Symlink("chain1", p("out.json"))
	if err := Check(nil, []Output{{"--out", p("out.json")}}); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes("--out", p("out.json"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p("sub/new.json")); err != nil || string(b) != "new" {
		t.Errorf("the link's destination holds %q, %v", b, err)
	}
	if fi, err := os.Lstat(p("out.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
}
