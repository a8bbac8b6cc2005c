// Package usertest writes a user's data files in the formats core/data
// reads (LIBSVM, CSV, NumPy .npy and .npz), for tests: the files a
// researcher would bring, made from rows and labels.
package usertest

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LIBSVM writes rows as LIBSVM lines: the label, then index:value for
// every nonzero feature, indices from 1.
func LIBSVM(x [][]float64, y []float64) []byte {
	var b strings.Builder
	for i, row := range x {
		b.WriteString(num(y[i]))
		for j, v := range row {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, num(v))
			}
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// CSV writes a header (f0, f1, …, then label) and the rows.
func CSV(x [][]float64, y []float64) []byte {
	var b strings.Builder
	for j := range x[0] {
		fmt.Fprintf(&b, "f%d,", j)
	}
	b.WriteString("label\n")
	for i, row := range x {
		for _, v := range row {
			b.WriteString(num(v) + ",")
		}
		b.WriteString(num(y[i]) + "\n")
	}
	return []byte(b.String())
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// NPY writes values as an .npy array of the given shape and dtype
// ("<f8", "<f4", "|u1", "<i8", …; C order, version 1.0).
func NPY(descr string, shape []int, values []float64) []byte {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	st := "(" + strings.Join(parts, ", ") + ")"
	if len(shape) == 1 {
		st = "(" + parts[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, st)
	pad := 64 - (10+len(dict)+1)%64
	dict += strings.Repeat(" ", pad%64) + "\n"
	out := []byte("\x93NUMPY\x01\x00")
	out = binary.LittleEndian.AppendUint16(out, uint16(len(dict)))
	out = append(out, dict...)
	var o binary.AppendByteOrder = binary.LittleEndian
	if descr[0] == '>' {
		o = binary.BigEndian
	}
	for _, v := range values {
		switch descr[1:] {
		case "f8":
			out = o.AppendUint64(out, math.Float64bits(v))
		case "f4":
			out = o.AppendUint32(out, math.Float32bits(float32(v)))
		case "u1", "b1":
			out = append(out, uint8(v))
		case "i1":
			out = append(out, uint8(int8(v)))
		case "i4":
			out = o.AppendUint32(out, uint32(int32(v)))
		case "i8":
			out = o.AppendUint64(out, uint64(int64(v)))
		default:
			panic("usertest: dtype " + descr)
		}
	}
	return out
}

// Matrix returns the rows flattened and their shape.
func Matrix(x [][]float64) ([]int, []float64) {
	var v []float64
	for _, r := range x {
		v = append(v, r...)
	}
	return []int{len(x), len(x[0])}, v
}

// NPZ zips .npy arrays by name (numpy.savez, compressed with deflate
// when deflate is set: numpy.savez_compressed), in the order given.
func NPZ(deflate bool, names []string, arrays ...[]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range names {
		method := zip.Store
		if deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: method})
		if err != nil {
			panic(err)
		}
		w.Write(arrays[i])
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
