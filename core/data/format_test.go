package data

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"
)

// tiny is a 3×2 float set with two classes.
func tiny() *Set {
	return &Set{Rows: 3, Cols: 2, Features: []float32{0, 1, 0.5, 0.25, 1, 0}, Y: []uint8{0, 1, 1}, Classes: []string{"a", "b"}}
}

// entry describes gz as a committed file of a 3×2 float32 set would be
// described, so that Decode's own checks (not the sha256) are tested.
func tinyEntry(gz []byte, rows int, counts []int) (Dataset, *SplitFile) {
	sum := sha256.Sum256(gz)
	return Dataset{Name: "tiny", Kind: "float32", Cols: 2, Classes: []string{"a", "b"}},
		&SplitFile{Split: "train", File: "tiny-train.gz", Rows: rows, Counts: counts, Bytes: len(gz), SHA256: hex.EncodeToString(sum[:])}
}

func gz(raw []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(raw)
	w.Close()
	return b.Bytes()
}

// rawTiny is tiny's uncompressed encoding, for tampering with.
func rawTiny(t *testing.T) []byte {
	b, err := Encode(tiny())
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	raw.ReadFrom(zr)
	return raw.Bytes()
}

func TestEncodeDecode(t *testing.T) {
	b, err := Encode(tiny())
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := Encode(tiny())
	if !bytes.Equal(b, b2) {
		t.Error("Encode is not deterministic")
	}
	d, f := tinyEntry(b, 3, []int{1, 2})
	s, err := Decode(d, f, b)
	if err != nil {
		t.Fatal(err)
	}
	want := tiny()
	if s.Rows != 3 || s.Cols != 2 || s.Name != "tiny" || s.Split != "train" || !bytes.Equal(s.Y, want.Y) {
		t.Fatalf("decoded %+v", s)
	}
	for k, v := range want.Features {
		if s.Features[k] != v {
			t.Errorf("feature %d: %g, want %g", k, s.Features[k], v)
		}
	}
	p := &Set{Rows: 2, Cols: 3, Pixels: []uint8{0, 255, 7, 9, 0, 1}, Y: []uint8{2, 0}, Classes: []string{"x", "y", "z"}}
	b, err = Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	s, err = Decode(Dataset{Name: "img", Kind: "uint8", Cols: 3, Classes: p.Classes},
		&SplitFile{Split: "test", Rows: 2, Counts: []int{1, 0, 1}, Bytes: len(b), SHA256: hex.EncodeToString(sum[:])}, b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.Pixels, p.Pixels) || s.At(0, 1) != 1 || s.At(1, 0) != 9.0/255 {
		t.Errorf("pixels %v, At(0,1) %g", s.Pixels, s.At(0, 1))
	}
}

func TestEncodeRefuses(t *testing.T) {
	for _, c := range []struct {
		what string
		edit func(*Set)
		want string
	}{
		{"NaN", func(s *Set) { s.Features[3] = float32(math.NaN()) }, "feature 1 of row 1 is NaN: must be in [0, 1]"},
		{"above 1", func(s *Set) { s.Features[0] = 1.5 }, "feature 0 of row 0 is 1.5"},
		{"label", func(s *Set) { s.Y[2] = 2 }, "label 2 of row 2: must be below 2 classes"},
		{"short", func(s *Set) { s.Features = s.Features[:5] }, "5 features for 3×2"},
		{"one class", func(s *Set) { s.Classes = s.Classes[:1] }, "1 classes: must be 2 … 255"},
	} {
		s := tiny()
		c.edit(s)
		if _, err := Encode(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v: want %q", c.what, err, c.want)
		}
	}
}

// TestDecodeRefuses feeds Decode files whose manifest entry matches their
// bytes but whose content is wrong: each must be refused with its rule.
func TestDecodeRefuses(t *testing.T) {
	put32 := func(raw []byte, at int, v uint32) []byte {
		binary.LittleEndian.PutUint32(raw[at:], v)
		return raw
	}
	for _, c := range []struct {
		what   string
		file   func(raw []byte) []byte
		rows   int
		counts []int
		want   string
	}{
		{"not gzip", func(raw []byte) []byte { return raw }, 3, []int{1, 2}, "not gzip"},
		{"magic", func(raw []byte) []byte { raw[0] = 'X'; return gz(raw) }, 3, []int{1, 2}, `magic "XPSIMDS1": must be "DPSIMDS1"`},
		{"kind", func(raw []byte) []byte { raw[8] = KindPixels; return gz(raw) }, 3, []int{1, 2}, "header kind uint8: manifest says float32"},
		{"classes", func(raw []byte) []byte { raw[9] = 3; return gz(raw) }, 3, []int{1, 2}, "header has 3 classes: manifest says 2"},
		{"padding", func(raw []byte) []byte { raw[11] = 1; return gz(raw) }, 3, []int{1, 2}, "padding must be zero"},
		{"shape", func(raw []byte) []byte { return gz(put32(raw, 16, 3)) }, 3, []int{1, 2}, "header shape 3×3: manifest says 3×2"},
		{"truncated", func(raw []byte) []byte { return gz(raw[:len(raw)-1]) }, 3, []int{1, 2}, "decompressed size: need 47 bytes"},
		{"trailing", func(raw []byte) []byte { return gz(append(raw, 0)) }, 3, []int{1, 2}, "more than the 47 bytes"},
		{"cut stream", func(raw []byte) []byte { g := gz(raw); return g[:len(g)-6] }, 3, []int{1, 2}, "gzip trailer: unexpected EOF"},
		{"bad crc", func(raw []byte) []byte { g := gz(raw); g[len(g)-8] ^= 1; return g }, 3, []int{1, 2}, "gzip trailer: gzip: invalid checksum"},
		{"label", func(raw []byte) []byte { raw[len(raw)-1] = 9; return gz(raw) }, 3, []int{1, 2}, "label 9 of row 2: must be below 2 classes"},
		{"feature", func(raw []byte) []byte { return gz(put32(raw, headerSize, math.Float32bits(-0.5))) }, 3, []int{1, 2}, "feature 0 of row 0 is -0.5"},
		{"NaN", func(raw []byte) []byte { return gz(put32(raw, headerSize+4, 0x7fc00000)) }, 3, []int{1, 2}, "is NaN"},
		{"counts", func(raw []byte) []byte { return gz(raw) }, 3, []int{2, 1}, `1 samples of class "a": the manifest says 2`},
		{"rows", func(raw []byte) []byte { return gz(raw) }, 4, []int{2, 2}, "decompressed size"},
	} {
		b := c.file(rawTiny(t))
		d, f := tinyEntry(b, c.rows, c.counts)
		s, err := Decode(d, f, b)
		if s != nil || err == nil || !strings.HasPrefix(err.Error(), "dataset tiny/train: file tiny-train.gz") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v: want %q", c.what, err, c.want)
		}
	}
}

func TestParseManifestRefuses(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"format":"other"}`, `format "other"`},
		{`{"format":"` + FormatName + `","datasets":[{"name":"a","kind":"float32"},{"name":"a","kind":"float32"}]}`, `dataset "a" given twice`},
		{`{"format":"` + FormatName + `","datasets":[{"name":"a","kind":"int"}]}`, `kind "int"`},
		{`{"format":"` + FormatName + `","datasets":[{"name":"a","kind":"uint8","cols":2,"classes":["x","y"],"splits":[{"split":"dev"}]}]}`, `split "dev"`},
		{`{"format":"` + FormatName + `","datasets":[{"name":"a","kind":"uint8","cols":2,"classes":["x","y"],"splits":[{"split":"train","rows":3,"counts":[1,1]}]}]}`, `do not add up`},
		{`{"format":"` + FormatName + `","datasets":[{"name":"a","kind":"uint8","cols":2,"classes":["x","y"],"splits":[{"split":"train","rows":3,"counts":[1,2],"raw_bytes":9}]}]}`, `raw_bytes 9: must be 29`},
		{`{`, `unexpected end`},
	} {
		if _, err := parseManifest([]byte(c.json)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v: want %q", c.json, err, c.want)
		}
	}
}
