package data

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// The tests read the committed files from the directory itself, the way
// package files embeds them.
func init() { Use(os.DirFS("files")) }

// The budget the repository and the page allow.
const (
	maxTotal      = 30 << 20 // every committed file together
	maxPerDataset = 12 << 20 // one dataset's files, as the page downloads them
)

// TestCommittedFiles checks every committed file against the manifest
// (size and sha256), decodes it, and checks the budget; every file in
// files/ must be in the manifest.
func TestCommittedFiles(t *testing.T) {
	if manifestErr != nil {
		t.Fatal(manifestErr)
	}
	listed := map[string]bool{}
	total := 0
	for _, d := range manifest.Datasets {
		per := 0
		for _, f := range d.Splits {
			listed[f.File] = true
			b, err := os.ReadFile(filepath.Join("files", f.File))
			if err != nil {
				t.Errorf("%s: %v", f.File, err)
				continue
			}
			sum := sha256.Sum256(b)
			if len(b) != f.Bytes || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: %d bytes sha256 %x: manifest says %d bytes %s", f.File, len(b), sum, f.Bytes, f.SHA256)
			}
			per += len(b)
			s, err := Load(d.Name, f.Split)
			if err != nil {
				t.Error(err)
				continue
			}
			if s.Rows != f.Rows || s.Cols != d.Cols || s.Name != d.Name || s.Split != f.Split {
				t.Errorf("%s/%s: decoded %s/%s %d×%d: manifest says %d×%d", d.Name, f.Split, s.Name, s.Split, s.Rows, s.Cols, f.Rows, d.Cols)
			}
			if (d.Kind == "uint8") != (s.Pixels != nil) || (s.Pixels == nil) == (s.Features == nil) {
				t.Errorf("%s/%s: kind %s but Pixels %v, Features %v", d.Name, f.Split, d.Kind, s.Pixels != nil, s.Features != nil)
			}
		}
		if per > maxPerDataset {
			t.Errorf("%s: %d bytes compressed: the page's limit per dataset is %d", d.Name, per, maxPerDataset)
		}
		if d.Splits[0].Split != "train" || d.Licence == "" || d.Source == "" || d.Scaling == "" || d.Subset == "" {
			t.Errorf("%s: the manifest must give train first, a licence, a source, the scaling and the subset", d.Name)
		}
		t.Logf("%-22s %9d bytes", d.Name, per)
		total += per
	}
	t.Logf("%-22s %9d bytes", "total", total)
	if total > maxTotal {
		t.Errorf("committed data is %d bytes: the budget is %d", total, maxTotal)
	}
	ents, err := os.ReadDir("files")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".gz") && !listed[e.Name()] {
			t.Errorf("files/%s is not in the manifest", e.Name())
		}
	}
}

// TestDatasets pins what the papers' experiments need of each set.
func TestDatasets(t *testing.T) {
	for _, c := range []struct {
		name        string
		train, test int
		cols        int
		classes     int
		note        bool // must carry a Note (differs from the paper)
	}{
		{"mushrooms", 6500, 1624, 112, 2, true},
		{"ijcnn1", 49990, 91701, 22, 2, false},
		{"mnist", 30000, 10000, 784, 10, true},
		{"mnist-01", 12665, 2115, 784, 2, false},
		{"fmnist-tshirt-trouser", 12000, 2000, 784, 2, false},
		{"cifar10-catdog", 777, 189, 3072, 2, true},
	} {
		d, err := Info(c.name)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(d.Splits) != 2 || d.Splits[0].Rows != c.train || d.Splits[1].Rows != c.test || d.Cols != c.cols || len(d.Classes) != c.classes {
			t.Errorf("%s: %d splits, %d×%d classes %v", c.name, len(d.Splits), d.Splits[0].Rows, d.Cols, d.Classes)
		}
		if (d.Note != "") != c.note {
			t.Errorf("%s: Note %q: want a note %v", c.name, d.Note, c.note)
		}
	}
	d, _ := Info("cifar10-catdog")
	for _, w := range []string{"777", "189", "10000"} {
		if !strings.Contains(d.Note, w) {
			t.Errorf("cifar10-catdog's note %q must say %s", d.Note, w)
		}
	}
}

// TestFeatureRange checks the scaling on real files: every feature in
// [0, 1], and ijcnn1's train split spans [0, 1] in every column (min–max
// over train).
func TestFeatureRange(t *testing.T) {
	s, err := Load("ijcnn1", "train")
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < s.Cols; j++ {
		lo, hi := 1.0, 0.0
		for i := 0; i < s.Rows; i++ {
			v := s.At(i, j)
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo != 0 || hi != 1 {
			t.Errorf("ijcnn1 train column %d spans [%g, %g]: min–max over train must give [0, 1]", j, lo, hi)
		}
	}
	m, err := Load("mnist-01", "test")
	if err != nil {
		t.Fatal(err)
	}
	row := m.RowTo(nil, 3)
	if len(row) != 784 || row[0] != 0 || m.At(3, 400) != float64(m.Pixels[3*784+400])/255 {
		t.Errorf("mnist-01 test row 3: RowTo and At disagree")
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ name, split, want string }{
		{"mnist-02", "train", `dataset: "mnist-02" is not a dataset: known are cifar10-catdog, fmnist`},
		{"mnist", "validation", `dataset mnist: split "validation": must be one of train, test`},
		{"mnist", "", `dataset mnist: split "": must be one of train, test`},
	} {
		_, err := Load(c.name, c.split)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Load(%q, %q) = %v: want %q…", c.name, c.split, err, c.want)
		}
	}
}

// TestConcurrentLoad: goroutines loading one file get one shared Set.
func TestConcurrentLoad(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]*Set, 8)
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Load("fmnist-tshirt-trouser", "test")
			if err != nil {
				t.Error(err)
			}
			got[k] = s
		}()
	}
	wg.Wait()
	for k := range got {
		if got[k] == nil || got[k] != got[0] {
			t.Fatalf("Load %d returned a different Set", k)
		}
	}
}

// withSource runs f with fsys as the source and an empty cache, then
// restores both.
func withSource(t *testing.T, fsys fs.FS, f func()) {
	t.Helper()
	sourceMu.Lock()
	old := source
	source = fsys
	sourceMu.Unlock()
	saved := map[any]any{}
	cache.Range(func(k, v any) bool { saved[k] = v; cache.Delete(k); return true })
	defer func() {
		Use(old)
		cache.Range(func(k, _ any) bool { cache.Delete(k); return true })
		for k, v := range saved {
			cache.Store(k, v)
		}
	}()
	f()
}

// TestBrokenFiles: a missing, truncated, corrupted or replaced file is a
// one-line error naming the dataset, the split and the rule, never a Set;
// and a later Load from a good source succeeds (failures are not cached).
func TestBrokenFiles(t *testing.T) {
	good, err := os.ReadFile("files/mushrooms-test.gz")
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x40
	other, err := os.ReadFile("files/mushrooms-train.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		b    []byte
		want string
	}{
		{"missing", nil, "dataset mushrooms/test: file mushrooms-test.gz is missing from the data source"},
		{"truncated", good[:len(good)-100], "dataset mushrooms/test: file mushrooms-test.gz has 12502 bytes: the manifest says 12602 (truncated or replaced)"},
		{"empty", []byte{}, "dataset mushrooms/test: file mushrooms-test.gz has 0 bytes"},
		{"flipped byte", flipped, "dataset mushrooms/test: file mushrooms-test.gz has sha256 "},
		{"other split", other, "dataset mushrooms/test: file mushrooms-test.gz has 48452 bytes"},
	} {
		fsys := fstest.MapFS{}
		if c.b != nil {
			fsys["mushrooms-test.gz"] = &fstest.MapFile{Data: c.b}
		}
		withSource(t, fsys, func() {
			s, err := Load("mushrooms", "test")
			if s != nil || err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: Load = %v, %v: want the one-line error %q…", c.what, s != nil, err, c.want)
			}
			Use(os.DirFS("files"))
			if _, err := Load("mushrooms", "test"); err != nil {
				t.Errorf("%s: after Use(good source): %v", c.what, err)
			}
		})
	}
	withSource(t, nil, func() {
		if _, err := Load("mushrooms", "test"); err == nil || !strings.Contains(err.Error(), "no data source") {
			t.Errorf("no source: %v", err)
		}
	})
}

// TestProvide: bytes handed over (as the page will) are checked, and once
// provided, Load needs no source.
func TestProvide(t *testing.T) {
	good, err := os.ReadFile("files/mnist-01-test.gz")
	if err != nil {
		t.Fatal(err)
	}
	withSource(t, nil, func() {
		if err := Provide("mnist-01-test.gz", good[:1000]); err == nil || !strings.HasPrefix(err.Error(), "dataset mnist-01/test: file mnist-01-test.gz has 1000 bytes") {
			t.Errorf("truncated: %v", err)
		}
		if _, err := Load("mnist-01", "test"); err == nil {
			t.Error("Load after a refused Provide and with no source succeeded")
		}
		if err := Provide("mnist-03-test.gz", good); err == nil || err.Error() != `data file: "mnist-03-test.gz" is not in the manifest` {
			t.Errorf("unknown file: %v", err)
		}
		if err := Provide("mnist-01-test.gz", good); err != nil {
			t.Fatal(err)
		}
		s, err := Load("mnist-01", "test")
		if err != nil || s.Rows != 2115 {
			t.Errorf("Load after Provide: %v", err)
		}
	})
}
