package data

import (
	"bytes"
	"fmt"
	"strconv"
)

// The LIBSVM (svmlight) text format: one row a line, its label first,
// then index:value pairs with indices from 1 in increasing order (a
// feature not listed is 0), an optional qid:N after the label (ignored),
// and '#' starting a comment. Blank lines are skipped. It is read here:
// Go has no maintained parser for it (the format is a line of
// strconv.ParseFloat calls), and the errors must name the line and the
// feature.

// parseLIBSVM reads a LIBSVM file into dense rows of columns features
// (0: the largest index the file uses). It reads the text twice: once to
// count rows and columns and check every token, so that the dense rows
// are allocated only when their size is within the limits, once to fill
// them.
func parseLIBSVM(b []byte, columns int) (*table, error) {
	rows, top := 0, 0
	err := libsvmLines(b, func(line, row int, label float64, idx int, v float64) error {
		if idx == 0 {
			rows++
			if rows > MaxUserValues {
				return fmt.Errorf("line %d: more than %d rows", line, MaxUserValues)
			}
			return nil
		}
		if columns > 0 && idx > columns {
			return fmt.Errorf("line %d, feature %d: beyond the %d columns given (\"columns\")", line, idx, columns)
		}
		top = max(top, idx)
		// Refuse a dense size beyond the limits as soon as it is seen,
		// before the rest of a large file is read.
		if err := checkShape(rows, max(top, columns)); err != nil {
			return fmt.Errorf("line %d: %v", line, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cols := max(columns, top)
	if err := checkShape(rows, cols); err != nil {
		return nil, err
	}
	t := &table{rows: rows, cols: cols, f: make([]float32, rows*cols), y: make([]float64, rows)}
	err = libsvmLines(b, func(_, row int, label float64, idx int, v float64) error {
		if idx == 0 {
			t.y[row] = label
		} else {
			t.f[row*cols+idx-1] = float32(v)
		}
		return nil
	})
	return t, err
}

// libsvmLines calls each with every row's label (idx 0) and then each of
// its features (idx from 1), with the line (from 1) and the row (from 0),
// checking the syntax, the order of the indices and every value.
func libsvmLines(b []byte, each func(line, row int, label float64, idx int, v float64) error) error {
	row := 0
	for line := 1; len(b) > 0; line++ {
		var text []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			text, b = b[:i], b[i+1:]
		} else {
			text, b = b, nil
		}
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := bytes.Fields(text)
		if len(fields) == 0 {
			continue
		}
		label, err := strconv.ParseFloat(string(fields[0]), 64)
		if err != nil {
			return fmt.Errorf("line %d: the label %q is not a number", line, clip(fields[0]))
		}
		if err := checkLabel(label); err != nil {
			return fmt.Errorf("line %d: %v", line, err)
		}
		if err := each(line, row, label, 0, 0); err != nil {
			return err
		}
		prev := 0
		for k, f := range fields[1:] {
			is, vs, ok := bytes.Cut(f, []byte{':'})
			if !ok {
				return fmt.Errorf("line %d, item %d: %q is not index:value", line, k+2, clip(f))
			}
			if k == 0 && string(is) == "qid" {
				continue
			}
			idx, err := strconv.Atoi(string(is))
			if err != nil || idx < 1 || idx > MaxUserColumns {
				return fmt.Errorf("line %d, item %d: index %q must be a whole number from 1 to %d (LIBSVM counts features from 1)", line, k+2, clip(is), MaxUserColumns)
			}
			if idx <= prev {
				return fmt.Errorf("line %d, feature %d: after feature %d: indices must increase along a line", line, idx, prev)
			}
			prev = idx
			v, err := strconv.ParseFloat(string(vs), 64)
			if err != nil && !isRangeErr(err) {
				return fmt.Errorf("line %d, feature %d: %q is not a number", line, idx, clip(vs))
			}
			if err := checkValue(v); err != nil {
				return fmt.Errorf("line %d, feature %d: %v", line, idx, err)
			}
			if err := each(line, row, label, idx, v); err != nil {
				return err
			}
		}
		row++
	}
	return nil
}

// isRangeErr reports a ParseFloat overflow (its value is ±Inf, which
// checkValue names).
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// clip shortens a token quoted in an error to 40 bytes.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
