package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"dpsim/core/data"
)

// recipe makes one dataset's splits from the originals in src.
type recipe struct {
	meta  data.Dataset // everything but Splits, which Build fills in
	build func(src string) (train, test *data.Set, err error)
}

// Build makes the committed files of the datasets in only (every
// recipe's when only is nil) from the originals in src: the compressed
// files by name and the manifest entries describing them, in recipe
// order. It is deterministic: the same originals give the same bytes.
func Build(src string, only map[string]bool) (files map[string][]byte, datasets []data.Dataset, err error) {
	files = map[string][]byte{}
	for _, r := range recipes {
		if only != nil && !only[r.meta.Name] {
			continue
		}
		train, test, err := r.build(src)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", r.meta.Name, err)
		}
		d := r.meta
		for _, s := range []*data.Set{train, test} {
			s.Classes = d.Classes
			if s.Cols != d.Cols {
				return nil, nil, fmt.Errorf("%s/%s: %d columns: recipe says %d", d.Name, s.Split, s.Cols, d.Cols)
			}
			gz, err := data.Encode(s)
			if err != nil {
				return nil, nil, fmt.Errorf("%s/%s: %v", d.Name, s.Split, err)
			}
			raw, err := gunzip(gz)
			if err != nil {
				return nil, nil, err
			}
			f := data.SplitFile{
				Split:     s.Split,
				File:      d.Name + "-" + s.Split + ".gz",
				Rows:      s.Rows,
				Counts:    make([]int, len(d.Classes)),
				Bytes:     len(gz),
				SHA256:    hexsum(gz),
				RawBytes:  len(raw),
				RawSHA256: hexsum(raw),
			}
			for _, y := range s.Y {
				f.Counts[y]++
			}
			files[f.File] = gz
			d.Splits = append(d.Splits, f)
		}
		datasets = append(datasets, d)
	}
	return files, datasets, nil
}

// encodeManifest writes the manifest of datasets as committed.
func encodeManifest(datasets []data.Dataset) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "Chang & Lin", not "Chang \u0026 Lin"
	enc.SetIndent("", "  ")
	if err := enc.Encode(data.Manifest{Format: data.FormatName, Datasets: datasets}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func hexsum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// minMax scales every column of train to [0, 1] by its minimum and
// maximum over train, and applies the same map to test, clipping to
// [0, 1] (test values outside train's range would otherwise leave it). A
// column constant over train maps to 0 wherever it equals that constant
// and is clipped elsewhere. The arithmetic is float64, rounded once to
// float32.
func minMax(train, test *libsvm) (tr, te []float32) {
	lo := make([]float64, train.cols)
	hi := make([]float64, train.cols)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < train.rows; i++ {
		for j := 0; j < train.cols; j++ {
			v := train.x[i*train.cols+j]
			lo[j] = math.Min(lo[j], v)
			hi[j] = math.Max(hi[j], v)
		}
	}
	scale := func(p *libsvm) []float32 {
		out := make([]float32, len(p.x))
		for k, v := range p.x {
			j := k % p.cols
			w := v - lo[j]
			if hi[j] > lo[j] {
				w /= hi[j] - lo[j]
			}
			out[k] = float32(math.Min(1, math.Max(0, w)))
		}
		return out
	}
	return scale(train), scale(test)
}

// labelMap turns written labels into classes 0, 1, … by the map.
func labelMap(name string, labels []string, m map[string]uint8) ([]uint8, error) {
	y := make([]uint8, len(labels))
	for i, l := range labels {
		c, ok := m[l]
		if !ok {
			return nil, fmt.Errorf("%s row %d: label %q is not one of the expected labels", name, i+1, l)
		}
		y[i] = c
	}
	return y, nil
}

// filter keeps the items whose label is in keep (in the original order),
// relabelled keep[label]; size is the item size in bytes.
func filter(labels, items []byte, size int, keep map[byte]uint8) (y, x []byte) {
	for i, l := range labels {
		if c, ok := keep[l]; ok {
			y = append(y, c)
			x = append(x, items[i*size:(i+1)*size]...)
		}
	}
	return y, x
}

// idxPair reads an IDX image file and its label file.
func idxPair(src, images, labels string) (y, x []byte, size int, err error) {
	ib, err := readFile(src, images)
	if err != nil {
		return nil, nil, 0, err
	}
	lb, err := readFile(src, labels)
	if err != nil {
		return nil, nil, 0, err
	}
	n, size, x, err := parseIDX(images, ib, 0x803)
	if err != nil {
		return nil, nil, 0, err
	}
	m, _, y, err := parseIDX(labels, lb, 0x801)
	if err != nil {
		return nil, nil, 0, err
	}
	if m != n {
		return nil, nil, 0, fmt.Errorf("%s has %d images, %s %d labels", images, n, labels, m)
	}
	return y, x, size, nil
}

// pixels makes a Set of image bytes.
func pixels(split string, y, x []byte, cols int) *data.Set {
	return &data.Set{Split: split, Rows: len(y), Cols: cols, Pixels: x, Y: y}
}
