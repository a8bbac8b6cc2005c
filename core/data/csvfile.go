package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// parseCSV reads a CSV file (encoding/csv: RFC 4180, commas, quoted
// fields) whose first line is a header naming every column: the column
// named label holds the labels ("label" when empty), every other column
// is a feature, in the file's order.
func parseCSV(b []byte, label string) (*table, error) {
	if label == "" {
		label = "label"
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
	r.FieldsPerRecord = -1 // checked here, to name the row and the header
	r.ReuseRecord = true
	r.TrimLeadingSpace = true
	head, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("is empty: a CSV file needs a header line naming its columns")
	}
	if err != nil {
		return nil, csvError(err)
	}
	head = slices.Clone(head)
	lab := -1
	for j, name := range head {
		name = strings.TrimSpace(name)
		head[j] = name
		if k := slices.Index(head[:j], name); k >= 0 {
			return nil, fmt.Errorf("line 1: column %q is named twice (columns %d and %d)", name, k+1, j+1)
		}
		if name == label {
			lab = j
		}
	}
	if lab < 0 {
		return nil, fmt.Errorf("line 1: no column %q in the header (%s): name the label column with \"label\"", label, strings.Join(head, ", "))
	}
	t := &table{cols: len(head) - 1, header: slices.Delete(slices.Clone(head), lab, lab+1)}
	if t.cols < 1 {
		return nil, fmt.Errorf("line 1: the header names the label column only: no features")
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := r.FieldPos(0)
		row := t.rows + 1
		if len(rec) != len(head) {
			return nil, fmt.Errorf("row %d (line %d): %d fields, but the header names %d columns", row, line, len(rec), len(head))
		}
		if err := checkShape(row, t.cols); err != nil {
			return nil, fmt.Errorf("row %d (line %d): %v", row, line, err)
		}
		for j, s := range rec {
			s = strings.TrimSpace(s)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil && !isRangeErr(err) {
				return nil, fmt.Errorf("row %d (line %d), column %q: %q is not a number", row, line, head[j], clip([]byte(s)))
			}
			if j == lab {
				if err := checkLabel(v); err != nil {
					return nil, fmt.Errorf("row %d (line %d), column %q: %v", row, line, head[j], err)
				}
				t.y = append(t.y, v)
				continue
			}
			if err := checkValue(v); err != nil {
				return nil, fmt.Errorf("row %d (line %d), column %q: %v", row, line, head[j], err)
			}
			t.f = append(t.f, float32(v))
		}
		t.rows++
	}
	if t.rows == 0 {
		return nil, fmt.Errorf("has a header but no rows")
	}
	return t, nil
}

// csvError words encoding/csv's parse errors in one line with the line
// and column.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d, character %d: %v", pe.Line, pe.Column, pe.Err)
	}
	return err
}
