package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// readFile reads src/rel, gunzipping it when the name ends in .gz.
func readFile(src, rel string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(src, rel))
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(rel, ".gz") {
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	return out, nil
}

// libsvm is a parsed LIBSVM/svmlight text file: dense rows (absent
// entries are 0) and the label of each row as written.
type libsvm struct {
	rows   int
	cols   int
	x      []float64 // row-major, rows×cols
	labels []string
}

// parseLIBSVM parses "<label> <idx>:<value> ..." lines with 1-based
// ascending indices at most cols; a trailing space and a missing final
// newline are allowed (mushrooms has both).
func parseLIBSVM(name string, b []byte, cols int) (*libsvm, error) {
	p := &libsvm{cols: cols}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			return nil, fmt.Errorf("%s line %d: empty line", name, line)
		}
		row := make([]float64, cols)
		last := 0
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, ":")
			if !ok {
				return nil, fmt.Errorf("%s line %d: %q is not idx:value", name, line, kv)
			}
			idx, err := strconv.Atoi(k)
			if err != nil || idx <= last || idx > cols {
				return nil, fmt.Errorf("%s line %d: index %q: must ascend within 1 … %d", name, line, k, cols)
			}
			last = idx
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: value %q: %v", name, line, v, err)
			}
			row[idx-1] = x
		}
		p.labels = append(p.labels, f[0])
		p.x = append(p.x, row...)
		p.rows++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return p, nil
}

// parseIDX parses an IDX file with the given magic (0x803 images, 0x801
// labels) and returns its item count, the item size (product of the
// other dimensions) and the data.
func parseIDX(name string, b []byte, wantMagic uint32) (n, size int, body []byte, err error) {
	if len(b) < 8 || binary.BigEndian.Uint32(b) != wantMagic {
		return 0, 0, nil, fmt.Errorf("%s: not an IDX file with magic %#x", name, wantMagic)
	}
	dims := int(wantMagic & 0xff)
	if len(b) < 4+4*dims {
		return 0, 0, nil, fmt.Errorf("%s: truncated header", name)
	}
	n = int(binary.BigEndian.Uint32(b[4:]))
	size = 1
	for d := 1; d < dims; d++ {
		size *= int(binary.BigEndian.Uint32(b[4+4*d:]))
	}
	body = b[4+4*dims:]
	if len(body) != n*size {
		return 0, 0, nil, fmt.Errorf("%s: %d data bytes: header says %d×%d", name, len(body), n, size)
	}
	return n, size, body, nil
}

// cifarRecord is the size of one record of the CIFAR-10 binary version:
// a label byte, then 1024 red, 1024 green, 1024 blue bytes.
const cifarRecord = 1 + 3072

// parseCIFAR splits a CIFAR-10 binary file into labels and pixels.
func parseCIFAR(name string, b []byte) (labels []byte, pixels []byte, err error) {
	if len(b)%cifarRecord != 0 {
		return nil, nil, fmt.Errorf("%s: %d bytes is not a whole number of %d-byte records", name, len(b), cifarRecord)
	}
	n := len(b) / cifarRecord
	for i := 0; i < n; i++ {
		r := b[i*cifarRecord : (i+1)*cifarRecord]
		if r[0] > 9 {
			return nil, nil, fmt.Errorf("%s: record %d: label %d: must be 0 … 9", name, i, r[0])
		}
		labels = append(labels, r[0])
		pixels = append(pixels, r[1:]...)
	}
	return labels, pixels, nil
}
