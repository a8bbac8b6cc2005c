package data

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// NumPy's .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the
// magic "\x93NUMPY", a major and a minor version byte, the header's
// length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the header —
// a Python dict literal {'descr': '<f8', 'fortran_order': False,
// 'shape': (60000, 784), } padded with spaces and ended by '\n' — and the
// values, in C order unless fortran_order. It is read here rather than
// with a library: the one Go package for it (codeberg.org/sbinet/npyio
// v0.14.0) panics on a header without its final newline or with its keys
// in another order (both valid Python), stops the process out of memory
// on a header that claims a huge shape, and brings gonum/mat,
// golang.org/x/text and a pickle reader into the page's WebAssembly
// (docs/data.md, "Your own data").

// maxNPYHeader bounds an .npy header (NumPy writes under 100 bytes for
// any array dpsim reads).
const maxNPYHeader = 1 << 16

// maxNPZEntry bounds an .npz array uncompressed: MaxUserValues float64s
// and the largest header. Its values are read as a stream, never held
// whole.
const maxNPZEntry = 8*MaxUserValues + 12 + maxNPYHeader

// npyHeader is what an .npy header says.
type npyHeader struct {
	descr   string
	kind    byte // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
	size    int  // bytes per value
	big     bool // big-endian
	fortran bool
	shape   []int
	// count is the number of values, the product of shape.
	count int
}

// shapeText writes a shape as NumPy prints it: (60000, 784).
func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	if len(shape) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// readNPYHeader reads an .npy header from r and returns it with its
// length in bytes (magic included), checking that its values fit the
// limits before any is read.
func readNPYHeader(r io.Reader) (npyHeader, int, error) {
	var h npyHeader
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return h, 0, fmt.Errorf("not an .npy file: shorter than its magic and version")
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return h, 0, fmt.Errorf("not an .npy file: it does not start with \\x93NUMPY")
	}
	n := 0
	at := 10
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return h, 0, fmt.Errorf("truncated in its header")
		}
		n = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return h, 0, fmt.Errorf("truncated in its header")
		}
		n = int(binary.LittleEndian.Uint32(l[:]))
		at = 12
	default:
		return h, 0, fmt.Errorf("format version %d.%d: dpsim reads versions 1.0, 2.0 and 3.0", pre[6], pre[7])
	}
	if n > maxNPYHeader {
		return h, 0, fmt.Errorf("a header of %d bytes: at most %d", n, maxNPYHeader)
	}
	text := make([]byte, n)
	if _, err := io.ReadFull(r, text); err != nil {
		return h, 0, fmt.Errorf("truncated in its header (%d bytes announced)", n)
	}
	if err := h.parse(string(text)); err != nil {
		return h, 0, fmt.Errorf("header %q: %v", strings.TrimSpace(string(text)), err)
	}
	return h, at + n, nil
}

// parse reads the header dict: the three keys in any order, each once.
func (h *npyHeader) parse(s string) error {
	p := &pyScanner{s: s}
	if !p.take('{') {
		return fmt.Errorf("must be a dict {…}")
	}
	seen := map[string]bool{}
	for {
		if p.take('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		if seen[key] {
			return fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		if !p.take(':') {
			return fmt.Errorf("':' must follow %q", key)
		}
		switch key {
		case "descr":
			if h.descr, err = p.str(); err != nil {
				return err
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
			default:
				return fmt.Errorf("fortran_order must be True or False")
			}
		case "shape":
			if h.shape, err = p.tuple(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown key %q: an .npy header has descr, fortran_order and shape", key)
		}
		if !p.take(',') {
			if !p.take('}') {
				return fmt.Errorf("',' or '}' must follow the value of %q", key)
			}
			break
		}
	}
	if strings.TrimSpace(s[p.i:]) != "" {
		return fmt.Errorf("text after the dict")
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return fmt.Errorf("no %q", k)
		}
	}
	if err := h.dtype(); err != nil {
		return err
	}
	h.count = 1
	for _, d := range h.shape {
		if d > 0 && h.count > MaxUserValues/d {
			return fmt.Errorf("shape %s: more than %d values", shapeText(h.shape), MaxUserValues)
		}
		h.count *= d
	}
	return nil
}

// dtype reads descr: a byte order ('<', '>', '|' or '=') and one of f4,
// f8, i1…i8, u1…u8, b1.
func (h *npyHeader) dtype() error {
	d := h.descr
	if d != "" && strings.ContainsRune("<>|=", rune(d[0])) {
		h.big = d[0] == '>'
		d = d[1:]
	}
	ok := false
	if len(d) >= 2 {
		h.kind = d[0]
		h.size, _ = strconv.Atoi(d[1:])
		switch h.kind {
		case 'f':
			ok = h.size == 4 || h.size == 8
		case 'i', 'u':
			ok = h.size == 1 || h.size == 2 || h.size == 4 || h.size == 8
		case 'b':
			ok = h.size == 1
		}
	}
	if !ok {
		return fmt.Errorf("dtype %q: dpsim reads real numbers: float32, float64, int8…int64, uint8…uint64 or bool", h.descr)
	}
	return nil
}

// value decodes the value at b (h.size bytes).
func (h *npyHeader) value(b []byte) float64 {
	var o binary.ByteOrder = binary.LittleEndian
	if h.big {
		o = binary.BigEndian
	}
	switch h.kind {
	case 'f':
		if h.size == 4 {
			return float64(math.Float32frombits(o.Uint32(b)))
		}
		return math.Float64frombits(o.Uint64(b))
	case 'u', 'b':
		switch h.size {
		case 1:
			return float64(b[0])
		case 2:
			return float64(o.Uint16(b))
		case 4:
			return float64(o.Uint32(b))
		}
		return float64(o.Uint64(b))
	}
	switch h.size {
	case 1:
		return float64(int8(b[0]))
	case 2:
		return float64(int16(o.Uint16(b)))
	case 4:
		return float64(int32(o.Uint32(b)))
	}
	return float64(int64(o.Uint64(b)))
}

// pyScanner reads the Python literals of an .npy header.
type pyScanner struct {
	s string
	i int
}

func (p *pyScanner) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// take consumes c after spaces, if it is there.
func (p *pyScanner) take(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word consumes w after spaces, if it is there.
func (p *pyScanner) word(w string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// str reads a quoted string without escapes ('…' or "…").
func (p *pyScanner) str() (string, error) {
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("a quoted string is expected at byte %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string at byte %d", p.i)
	}
	v := p.s[p.i+1 : p.i+1+end]
	if strings.ContainsRune(v, '\\') {
		return "", fmt.Errorf("escapes in a string: not an .npy header")
	}
	p.i += end + 2
	return v, nil
}

// tuple reads a tuple of whole numbers: (), (5,), (5, 3).
func (p *pyScanner) tuple() ([]int, error) {
	if !p.take('(') {
		return nil, fmt.Errorf("shape must be a tuple (…)")
	}
	out := []int{}
	for {
		if p.take(')') {
			return out, nil
		}
		p.space()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i || j-p.i > 10 {
			return nil, fmt.Errorf("shape: a whole number from 0 to 9999999999 is expected at byte %d", p.i)
		}
		v, _ := strconv.Atoi(p.s[p.i:j])
		p.i = j
		p.take('L') // Python 2 longs
		out = append(out, v)
		if len(out) > 32 {
			return nil, fmt.Errorf("shape: more than 32 dimensions")
		}
		if !p.take(',') {
			if !p.take(')') {
				return nil, fmt.Errorf("shape: ',' or ')' expected at byte %d", p.i)
			}
			return out, nil
		}
	}
}

// npyRole says what an array holds, which decides the shapes it may have.
type npyRole int

const (
	roleFeatures npyRole = iota
	roleLabels
)

// readNPY reads one .npy array from r, whose size after the header is
// known to be dataLen bytes, as features (2 or more dimensions: rows ×
// the rest; (N, H, W, C) images with C ≤ 4 channels last become C planes
// of H×W, the layout of cifar10-catdog) or as labels ((N,) or (N, 1)).
// r holds the values that follow the header h.
func readNPY(r io.Reader, h npyHeader, dataLen int64, role npyRole) (*table, error) {
	t := &table{}
	shape := h.shape
	var dst func(k int) int // destination of the k-th value in the file's order
	switch role {
	case roleFeatures:
		if len(shape) < 2 {
			return nil, fmt.Errorf("a features array of shape %s: it must have rows and columns (2 or more dimensions)", shapeText(shape))
		}
		t.rows, t.cols = shape[0], 1
		for _, d := range shape[1:] {
			t.cols *= d
		}
		if h.fortran && len(shape) > 2 {
			return nil, fmt.Errorf("fortran_order with %d dimensions: save it in C order (numpy.ascontiguousarray)", len(shape))
		}
		rows, cols := t.rows, t.cols
		switch {
		case h.fortran:
			dst = func(k int) int { return (k%rows)*cols + k/rows }
		case len(shape) == 4 && shape[3] <= 4:
			hh, ww, cc := shape[1], shape[2], shape[3]
			dst = func(k int) int {
				c, rest := k%cc, k/cc
				w, rest := rest%ww, rest/ww
				y, n := rest%hh, rest/hh
				return n*cols + (c*hh+y)*ww + w
			}
		}
	case roleLabels:
		if len(shape) != 1 && !(len(shape) == 2 && shape[1] == 1) {
			return nil, fmt.Errorf("a labels array of shape %s: it must be (rows,) or (rows, 1)", shapeText(shape))
		}
		t.rows, t.cols = shape[0], 1
	}
	if want := int64(h.count) * int64(h.size); dataLen != want {
		what := "truncated"
		if dataLen > want {
			what = "longer than its header says"
		}
		return nil, fmt.Errorf("%s: its header says %s of %s, %d bytes of values, and it holds %d", what, shapeText(shape), h.descr, want, dataLen)
	}
	if role == roleFeatures {
		if err := checkShape(t.rows, t.cols); err != nil {
			return nil, err
		}
	} else if t.rows < 1 {
		return nil, fmt.Errorf("holds no labels")
	}
	bytesOut := h.kind == 'u' && h.size == 1 && role == roleFeatures
	switch {
	case bytesOut:
		t.px = make([]uint8, h.count)
	case role == roleFeatures:
		t.f = make([]float32, h.count)
	default:
		t.y = make([]float64, h.count)
	}
	buf := make([]byte, 64<<10-(64<<10)%h.size)
	k := 0
	for k < h.count {
		m := min(len(buf)/h.size, h.count-k)
		if _, err := io.ReadFull(r, buf[:m*h.size]); err != nil {
			return nil, fmt.Errorf("truncated after %d of %d values", k, h.count)
		}
		for q := range m {
			b := buf[q*h.size : (q+1)*h.size]
			d := k + q
			if dst != nil {
				d = dst(d)
			}
			if bytesOut {
				t.px[d] = b[0]
				continue
			}
			v := h.value(b)
			if role == roleLabels {
				if err := checkLabel(v); err != nil {
					return nil, fmt.Errorf("row %d: %v", d, err)
				}
				t.y[d] = v
				continue
			}
			if err := checkValue(v); err != nil {
				return nil, fmt.Errorf("row %d, column %d: %v", d/t.cols, d%t.cols, err)
			}
			t.f[d] = float32(v)
		}
		k += m
	}
	return t, nil
}

// parseNPY reads features from an .npy file's bytes, and labels from
// another's (labels nil: refused, an .npy holds one array).
func parseNPY(features, labels []byte, labelsName string) (*table, error) {
	t, err := npyFrom(features, roleFeatures)
	if err != nil {
		return nil, err
	}
	y, err := npyFrom(labels, roleLabels)
	if err != nil {
		return nil, fmt.Errorf("labels file %s: %v", labelsName, err)
	}
	if y.rows != t.rows {
		return nil, fmt.Errorf("%d rows of features, but %s holds %d labels", t.rows, labelsName, y.rows)
	}
	t.y = y.y
	return t, nil
}

// npyFrom reads one array from an .npy file's bytes.
func npyFrom(b []byte, role npyRole) (*table, error) {
	r := bytes.NewReader(b)
	h, n, err := readNPYHeader(r)
	if err != nil {
		return nil, err
	}
	return readNPY(r, h, int64(len(b)-n), role)
}

// parseNPZ reads the features array x and the labels array y of an .npz
// (a zip of .npy files, compressed or not), each checked against its
// zip entry's size before it is read.
func parseNPZ(b []byte, x, y string) (*table, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("not an .npz (zip) file: %v", err)
	}
	var names []string
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		name := strings.TrimSuffix(f.Name, ".npy")
		names = append(names, name)
		entries[name] = f
	}
	slices.Sort(names)
	read := func(name, key string, role npyRole) (*table, error) {
		f := entries[name]
		if f == nil {
			return nil, fmt.Errorf("no array %q (it holds %s): name the arrays with \"x\" and \"y\"", name, strings.Join(names, ", "))
		}
		if f.UncompressedSize64 > maxNPZEntry {
			return nil, fmt.Errorf("array %q is %s uncompressed: at most %s (%d values of 8 bytes)", name, sizeText(int64(min(f.UncompressedSize64, math.MaxInt64))), sizeText(maxNPZEntry), MaxUserValues)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("array %q: %v", name, err)
		}
		defer rc.Close()
		// The header first, to learn its length; then the values, from a
		// stream bounded by the entry's stated size.
		lr := &countReader{r: io.LimitReader(rc, int64(f.UncompressedSize64)+1)}
		h, n, err := readNPYHeader(lr)
		if err != nil {
			return nil, fmt.Errorf("array %q (%s): %v", name, key, err)
		}
		rest := int64(f.UncompressedSize64) - int64(n)
		t, err := readNPY(lr, h, rest, role)
		if err != nil {
			return nil, fmt.Errorf("array %q (%s): %v", name, key, err)
		}
		// Reading to the end makes the zip reader check the entry's
		// CRC-32 and size.
		if _, err := io.Copy(io.Discard, lr); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("array %q: %v", name, err)
		}
		if lr.n > int64(f.UncompressedSize64) {
			return nil, fmt.Errorf("array %q is longer than its zip entry says", name)
		}
		return t, nil
	}
	if x == "" {
		x = "x"
	}
	if y == "" {
		y = "y"
	}
	t, err := read(x, "features", roleFeatures)
	if err != nil {
		return nil, err
	}
	lab, err := read(y, "labels", roleLabels)
	if err != nil {
		return nil, err
	}
	if lab.rows != t.rows {
		return nil, fmt.Errorf("array %q has %d rows, array %q %d labels", x, t.rows, y, lab.rows)
	}
	t.y = lab.y
	return t, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
