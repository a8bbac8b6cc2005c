package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// The committed file format, before compression (all integers
// little-endian):
//
//	magic   8 bytes  "DPSIMDS1"
//	kind    1 byte   1 = float32 features, 2 = uint8 pixels
//	classes 1 byte   number of classes (labels are 0 … classes−1)
//	pad     2 bytes  zero
//	rows    uint32
//	cols    uint32
//	values  rows·cols float32 (kind 1) or bytes (kind 2), row-major
//	labels  rows bytes
//
// The whole is compressed with compress/gzip at BestCompression with a
// zero header (no name, no modification time), so the same Set always
// gives the same bytes.
const (
	magic      = "DPSIMDS1"
	headerSize = 20

	// KindFloat32 marks real-valued features stored as float32.
	KindFloat32 = 1
	// KindPixels marks image features stored as bytes (value/255).
	KindPixels = 2
)

// kindName is the manifest's word for a kind.
func kindName(k int) string {
	switch k {
	case KindFloat32:
		return "float32"
	case KindPixels:
		return "uint8"
	}
	return fmt.Sprintf("kind %d", k)
}

// rawSize is the uncompressed size of a file holding rows×cols values of
// the kind.
func rawSize(kind, rows, cols int) int {
	w := 1
	if kind == KindFloat32 {
		w = 4
	}
	return headerSize + rows*cols*w + rows
}

// Encode writes s in the committed format, gzip-compressed and
// deterministic; cmd/mkdata is its only user besides the tests. It
// refuses a Set that Load would refuse.
func Encode(s *Set) ([]byte, error) {
	kind := KindFloat32
	if s.Pixels != nil {
		kind = KindPixels
	}
	if err := validate(s, kind); err != nil {
		return nil, err
	}
	raw := make([]byte, 0, rawSize(kind, s.Rows, s.Cols))
	raw = append(raw, magic...)
	raw = append(raw, byte(kind), byte(len(s.Classes)), 0, 0)
	raw = binary.LittleEndian.AppendUint32(raw, uint32(s.Rows))
	raw = binary.LittleEndian.AppendUint32(raw, uint32(s.Cols))
	if kind == KindPixels {
		raw = append(raw, s.Pixels...)
	} else {
		for _, v := range s.Features {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
		}
	}
	raw = append(raw, s.Y...)
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	// The zero Header: no name, no comment, ModTime 0, OS "unknown".
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// validate checks the invariants every Set holds: sizes agree, labels are
// below the number of classes, features are finite and in [0, 1].
func validate(s *Set, kind int) error {
	switch {
	case s.Rows <= 0 || s.Cols <= 0:
		return fmt.Errorf("shape %d×%d: rows and columns must be positive", s.Rows, s.Cols)
	case len(s.Classes) < 2 || len(s.Classes) > 255:
		return fmt.Errorf("%d classes: must be 2 … 255", len(s.Classes))
	case len(s.Y) != s.Rows:
		return fmt.Errorf("%d labels for %d rows", len(s.Y), s.Rows)
	case kind == KindPixels && len(s.Pixels) != s.Rows*s.Cols:
		return fmt.Errorf("%d pixels for %d×%d", len(s.Pixels), s.Rows, s.Cols)
	case kind == KindPixels && s.Features != nil:
		return fmt.Errorf("both pixels and features set")
	case kind == KindFloat32 && len(s.Features) != s.Rows*s.Cols:
		return fmt.Errorf("%d features for %d×%d", len(s.Features), s.Rows, s.Cols)
	}
	for i, y := range s.Y {
		if int(y) >= len(s.Classes) {
			return fmt.Errorf("label %d of row %d: must be below %d classes", y, i, len(s.Classes))
		}
	}
	for k, v := range s.Features {
		if !(v >= 0 && v <= 1) { // also refuses NaN
			return fmt.Errorf("feature %d of row %d is %g: must be in [0, 1]", k%s.Cols, k/s.Cols, v)
		}
	}
	return nil
}

// decode decompresses and parses one committed file whose manifest entry
// says it holds rows×cols values of the kind with the given classes. The
// caller has checked the file's sha256 already; decode checks again what
// it reads, so that a file that passes a wrong manifest still cannot
// decode into garbage.
func decode(gz []byte, kind, rows, cols int, classes []string) (*Set, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("not gzip: %v", err)
	}
	want := rawSize(kind, rows, cols)
	raw := make([]byte, want)
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, fmt.Errorf("decompressed size: need %d bytes: %v", want, err)
	}
	// Reading on to the end makes gzip check its CRC-32 and length
	// trailer, which a cut or damaged stream fails.
	var one [1]byte
	extra, err := io.ReadFull(zr, one[:])
	if extra != 0 {
		return nil, fmt.Errorf("decompressed size: more than the %d bytes the manifest states", want)
	}
	if err != io.EOF {
		return nil, fmt.Errorf("gzip trailer: %v", err)
	}
	if string(raw[:8]) != magic {
		return nil, fmt.Errorf("magic %q: must be %q", raw[:8], magic)
	}
	gotKind, gotClasses := int(raw[8]), int(raw[9])
	gotRows := int(binary.LittleEndian.Uint32(raw[12:]))
	gotCols := int(binary.LittleEndian.Uint32(raw[16:]))
	switch {
	case gotKind != kind:
		return nil, fmt.Errorf("header kind %s: manifest says %s", kindName(gotKind), kindName(kind))
	case gotClasses != len(classes):
		return nil, fmt.Errorf("header has %d classes: manifest says %d", gotClasses, len(classes))
	case gotRows != rows || gotCols != cols:
		return nil, fmt.Errorf("header shape %d×%d: manifest says %d×%d", gotRows, gotCols, rows, cols)
	case raw[10] != 0 || raw[11] != 0:
		return nil, fmt.Errorf("header padding must be zero")
	}
	s := &Set{Rows: rows, Cols: cols, Classes: classes}
	body := raw[headerSize:]
	n := rows * cols
	if kind == KindPixels {
		s.Pixels = body[:n:n]
		s.Y = body[n : n+rows : n+rows]
	} else {
		s.Features = make([]float32, n)
		for k := range s.Features {
			s.Features[k] = math.Float32frombits(binary.LittleEndian.Uint32(body[4*k:]))
		}
		s.Y = body[4*n : 4*n+rows : 4*n+rows]
	}
	if err := validate(s, kind); err != nil {
		return nil, err
	}
	return s, nil
}
