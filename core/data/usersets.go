package data

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dpsim/core/check"
)

// Source is one source of a user's rows: written inline (Features and
// Labels) or read from a file (File and the keys of its format).
type Source struct {
	// Features are the rows, inline: one list of numbers per row, all
	// of one length. Labels holds one label per row.
	Features [][]float64 `json:"features,omitempty" jsonstrict:"max=100000"`
	Labels   []float64   `json:"labels,omitempty" jsonstrict:"max=100000"`
	// File is the data file's path as the scenario gives it (the CLI
	// reads it relative to the scenario file's folder; the page asks for
	// it by name). SHA256 identifies its content: given, a file with
	// other content is refused; left out, the file's is written into the
	// export's pinned scenario.
	File   string `json:"file,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Format is libsvm, csv, npy or npz; left out, it follows from the
	// file's extension (.svm/.libsvm/.svmlight, .csv, .npy, .npz).
	Format string `json:"format,omitempty"`
	// Label names a CSV file's label column (default "label").
	Label string `json:"label,omitempty"`
	// X and Y name an .npz file's features and labels arrays (default
	// "x" and "y").
	X string `json:"x,omitempty"`
	Y string `json:"y,omitempty"`
	// LabelsFile is the .npy file of an .npy source's labels, with its
	// own SHA256.
	LabelsFile   string `json:"labels_file,omitempty"`
	LabelsSHA256 string `json:"labels_sha256,omitempty"`
	// Columns is a LIBSVM file's feature count (0: its largest index).
	Columns int `json:"columns,omitempty"`
}

// UserData is a learning problem's data given by the user: the training
// rows, either one source dealt to the agents by the problem's shard rule
// (Train) or one source per agent (Agents), optionally held-out test
// rows, how raw labels map to classes, and how features are scaled.
type UserData struct {
	Train  *Source  `json:"train,omitempty"`
	Agents []Source `json:"agents,omitempty" jsonstrict:"max=5000"`
	Test   *Source  `json:"test,omitempty"`
	// Classes lists the raw label values in class order (class 0 first).
	// Left out: a binary problem takes 0/1 or −1/+1, a multi-class one
	// whole numbers 0 … K−1.
	Classes []float64 `json:"classes,omitempty" jsonstrict:"max=255"`
	// Scale is none (the default: features as given), pixels (whole
	// numbers 0…255, divided by 255 and kept as bytes) or min-max (each
	// column mapped to [0, 1] by the training rows' minimum and maximum;
	// test rows by the same map, clipped).
	Scale string `json:"scale,omitempty"`
}

// Scale rules.
const (
	ScaleNone   = "none"
	ScalePixels = "pixels"
	ScaleMinMax = "min-max"
)

// Task is what labels a problem takes.
type Task struct {
	// Binary: two classes, 0/1 or −1/+1 unless UserData.Classes maps
	// other values. Otherwise up to MaxClasses classes 0 … K−1.
	Binary     bool
	MaxClasses int
}

// UserSets is a user's data, parsed, checked and ready to shard.
type UserSets struct {
	// Train holds every training row; Counts, when the data is given per
	// agent, how many of them each agent holds, in order (nil: the
	// problem deals them by its shard rule). Test is nil without test
	// rows.
	Train  *Set
	Counts []int
	Test   *Set
	// Pinned is the data with every file's sha256 and format written
	// in: what a pinned scenario holds.
	Pinned *UserData
	// Key identifies the data's content and its reading, for the
	// problems' caches of built instances.
	Key string
}

// Files returns the files u names, each with the sha256 it pins ("" for
// none) and the field that names it: what the CLI must read and the page
// ask for before building.
func (u *UserData) Files(field string) []FileNeed {
	if u == nil {
		return nil
	}
	var out []FileNeed
	u.each(field, func(f string, s *Source) {
		if s.File != "" {
			out = append(out, FileNeed{Field: check.Join(f, "file"), Name: s.File, SHA256: s.SHA256})
		}
		if s.LabelsFile != "" {
			out = append(out, FileNeed{Field: check.Join(f, "labels_file"), Name: s.LabelsFile, SHA256: s.LabelsSHA256})
		}
	})
	return out
}

// FileNeed is one file a scenario's data names.
type FileNeed struct {
	// Field names it in the scenario, e.g. problem.params.data.train.file.
	Field string `json:"field"`
	// Name is the path as written; SHA256 the content it pins, or "".
	Name   string `json:"file"`
	SHA256 string `json:"sha256,omitempty"`
}

// each calls f with every source of u and its field.
func (u *UserData) each(field string, f func(string, *Source)) {
	if u.Train != nil {
		f(check.Join(field, "train"), u.Train)
	}
	for i := range u.Agents {
		f(check.Index(check.Join(field, "agents"), i), &u.Agents[i])
	}
	if u.Test != nil {
		f(check.Join(field, "test"), u.Test)
	}
}

// loaded caches the last few loads: a problem's Size and Build load the
// same data in turn, and an experiment's runs many times.
var loaded = newRecent[*UserSets](4)

// Load reads u for agents agents and a problem's task: every source
// parsed (files from what ProvideUser was handed, checked against a
// pinned sha256) and checked, labels mapped to classes, features scaled.
// Errors name field (e.g. problem.params.data) and, inside a file, the
// line or row and the column. The Sets are shared read-only.
func (u *UserData) Load(field string, agents int, task Task) (*UserSets, error) {
	pinned, tables, err := u.read(field)
	if err != nil {
		return nil, err
	}
	js, _ := json.Marshal(pinned)
	sum := sha256.Sum256(fmt.Appendf(js, "|%d|%v|%d", agents, task.Binary, task.MaxClasses))
	key := hex.EncodeToString(sum[:])
	if s, ok := loaded.get(key); ok {
		return s, nil
	}
	s, err := u.assemble(field, agents, task, tables)
	if err != nil {
		return nil, err
	}
	s.Pinned, s.Key = pinned, key
	loaded.put(key, s)
	return s, nil
}

// part is one parsed source and the field that names it.
type part struct {
	field string
	name  string // the file's name, or "inline"
	t     *table
	base  int // the number of the first row in messages: 1 for text files, 0 else
}

// read checks u's structure and parses every source; it returns u with
// each file's sha256 and format written in.
func (u *UserData) read(field string) (*UserData, []part, error) {
	if (u.Train == nil) == (len(u.Agents) == 0) {
		return nil, nil, check.Errorf(field, "give either \"train\" (one source, dealt to the agents) or \"agents\" (one source per agent)")
	}
	switch u.Scale {
	case "", ScaleNone, ScalePixels, ScaleMinMax:
	default:
		return nil, nil, check.Errorf(check.Join(field, "scale"), "must be one of %q, %q, %q (got %q)", ScaleNone, ScalePixels, ScaleMinMax, u.Scale)
	}
	if len(u.Classes) == 1 {
		return nil, nil, check.Errorf(check.Join(field, "classes"), "lists 1 value: a classifier needs 2 classes at least")
	}
	for i, c := range u.Classes {
		if k := slices.Index(u.Classes[:i], c); k >= 0 {
			return nil, nil, check.Errorf(check.Index(check.Join(field, "classes"), i), "%g is listed twice (also at %d)", c, k)
		}
	}
	pinned := *u
	pinned.Agents = slices.Clone(u.Agents)
	var parts []part
	inline := 0
	var err error
	pinned.each(field, func(f string, s *Source) {
		if err != nil {
			return
		}
		var p part
		p, err = readSource(f, s, &inline)
		if err == nil {
			parts = append(parts, p)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	if u.Train != nil {
		v := *pinned.Train
		pinned.Train = &v
	}
	if u.Test != nil {
		v := *pinned.Test
		pinned.Test = &v
	}
	return &pinned, parts, nil
}

// parsed caches parsed files by content and reading.
var parsed = newRecent[*table](8)

// readSource parses one source; for a file it writes the sha256 and the
// format into s (a copy of the scenario's). inline counts the inline
// numbers so far.
func readSource(field string, s *Source, inline *int) (part, error) {
	if s.File == "" {
		if s.Features == nil {
			return part{}, check.Errorf(field, "give \"features\" and \"labels\" inline, or a \"file\"")
		}
		for _, k := range []struct {
			set  bool
			name string
		}{{s.Format != "", "format"}, {s.SHA256 != "", "sha256"}, {s.Label != "", "label"}, {s.X != "", "x"}, {s.Y != "", "y"},
			{s.LabelsFile != "", "labels_file"}, {s.Columns != 0, "columns"}} {
			if k.set {
				return part{}, check.Errorf(check.Join(field, k.name), "is read with a \"file\" only: the rows here are inline")
			}
		}
		t, err := inlineTable(field, s, inline)
		return part{field: field, name: "inline", t: t}, err
	}
	if s.Features != nil || s.Labels != nil {
		return part{}, check.Errorf(field, "give the rows inline (\"features\", \"labels\") or in a \"file\", not both")
	}
	ff := check.Join(field, "file")
	if s.Format == "" {
		s.Format = formatOf(s.File)
		if s.Format == "" {
			return part{}, check.Errorf(check.Join(field, "format"), "%s: the extension does not say the format: give one of %s", s.File, strings.Join(Formats(), ", "))
		}
	}
	if !slices.Contains(Formats(), s.Format) {
		return part{}, check.Errorf(check.Join(field, "format"), "must be one of %s (got %q)", strings.Join(Formats(), ", "), s.Format)
	}
	// Every key the format does not read is refused.
	for _, k := range []struct {
		set    bool
		name   string
		format string
	}{{s.Label != "", "label", FormatCSV}, {s.X != "", "x", FormatNPZ}, {s.Y != "", "y", FormatNPZ},
		{s.LabelsFile != "" || s.LabelsSHA256 != "", "labels_file", FormatNPY}, {s.Columns != 0, "columns", FormatLIBSVM}} {
		if k.set && s.Format != k.format {
			return part{}, check.Errorf(check.Join(field, k.name), "is read for %s files only (this one is %s)", k.format, s.Format)
		}
	}
	if s.Columns < 0 || s.Columns > MaxUserColumns {
		return part{}, check.Errorf(check.Join(field, "columns"), "must be a whole number from 0 to %d (got %d)", MaxUserColumns, s.Columns)
	}
	if s.Format == FormatNPY && s.LabelsFile == "" {
		return part{}, check.Errorf(check.Join(field, "labels_file"), "is required: an .npy file holds one array, the features; give the labels' .npy (or use an .npz holding both)")
	}
	b, sha, err := UserBytes(s.File, s.SHA256)
	if err != nil {
		return part{}, check.Errorf(ff, "%v", err)
	}
	s.SHA256 = sha
	var lb []byte
	if s.Format == FormatNPY {
		lf := check.Join(field, "labels_file")
		if lb, sha, err = UserBytes(s.LabelsFile, s.LabelsSHA256); err != nil {
			return part{}, check.Errorf(lf, "%v", err)
		}
		s.LabelsSHA256 = sha
	}
	key := strings.Join([]string{s.SHA256, s.Format, s.Label, s.X, s.Y, s.LabelsSHA256, strconv.Itoa(s.Columns)}, "|")
	t, ok := parsed.get(key)
	if !ok {
		switch s.Format {
		case FormatLIBSVM:
			t, err = parseLIBSVM(b, s.Columns)
		case FormatCSV:
			t, err = parseCSV(b, s.Label)
		case FormatNPY:
			t, err = parseNPY(b, lb, s.LabelsFile)
		case FormatNPZ:
			t, err = parseNPZ(b, s.X, s.Y)
		}
		if err != nil {
			return part{}, check.Errorf(ff, "%s: %v", s.File, err)
		}
		parsed.put(key, t)
	}
	base := 0
	if s.Format == FormatCSV || s.Format == FormatLIBSVM {
		base = 1
	}
	return part{field: ff, name: s.File, t: t, base: base}, nil
}

// inlineTable checks and copies inline rows.
func inlineTable(field string, s *Source, inline *int) (*table, error) {
	ff, lf := check.Join(field, "features"), check.Join(field, "labels")
	rows := len(s.Features)
	if rows == 0 {
		return nil, check.Errorf(ff, "holds no rows")
	}
	cols := len(s.Features[0])
	if len(s.Labels) != rows {
		return nil, check.Errorf(lf, "%d labels for %d rows of features: give one label per row", len(s.Labels), rows)
	}
	*inline += rows * (cols + 1)
	if *inline > MaxInlineValues {
		return nil, check.Errorf(field, "more than %d numbers inline (features and labels together): put larger data in a file", MaxInlineValues)
	}
	if err := checkShape(rows, cols); err != nil {
		return nil, check.Errorf(ff, "%v", err)
	}
	t := &table{rows: rows, cols: cols, f: make([]float32, 0, rows*cols), y: slices.Clone(s.Labels)}
	for i, r := range s.Features {
		if len(r) != cols {
			return nil, check.Errorf(check.Index(ff, i), "has %d features, row 0 has %d: every row must have as many", len(r), cols)
		}
		for j, v := range r {
			if err := checkValue(v); err != nil {
				return nil, check.Errorf(check.Index(check.Index(ff, i), j), "%v", err)
			}
			t.f = append(t.f, float32(v))
		}
	}
	return t, nil
}

// assemble checks that the parts agree (columns, CSV headers), maps the
// labels to classes, scales the features and builds the sets.
func (u *UserData) assemble(field string, agents int, task Task, parts []part) (*UserSets, error) {
	train := parts
	var test *part
	if u.Test != nil {
		test, train = &parts[len(parts)-1], parts[:len(parts)-1]
	}
	if len(u.Agents) > 0 && len(u.Agents) != agents {
		return nil, check.Errorf(check.Join(field, "agents"), "lists %d sources for %d agents: give one per agent", len(u.Agents), agents)
	}
	first := parts[0]
	for _, p := range parts[1:] {
		if p.t.cols != first.t.cols {
			return nil, check.Errorf(p.field, "%s has %d features per row, %s (%s) %d: every source must have as many", p.name, p.t.cols, first.name, first.field, first.t.cols)
		}
		if first.t.header != nil && p.t.header != nil && !slices.Equal(p.t.header, first.t.header) {
			return nil, check.Errorf(p.field, "%s: its header's features (%s) differ from %s's (%s)", p.name, strings.Join(p.t.header, ", "), first.name, strings.Join(first.t.header, ", "))
		}
	}
	classes, names, err := u.classes(field, task, train)
	if err != nil {
		return nil, err
	}
	out := &UserSets{}
	rows := 0
	for _, p := range train {
		rows += p.t.rows
		if len(u.Agents) > 0 {
			out.Counts = append(out.Counts, p.t.rows)
		}
	}
	if rows < agents {
		return nil, check.Errorf(train[0].field, "%d training rows cannot give each of %d agents a sample", rows, agents)
	}
	name := first.name
	if len(train) > 1 {
		name = fmt.Sprintf("%d sources", len(train))
	}
	var mm *minMax
	if u.Scale == ScaleMinMax {
		mm = newMinMax(train)
	}
	if out.Train, err = u.set(name, "train", train, classes, names, mm); err != nil {
		return nil, err
	}
	if test != nil {
		if out.Test, err = u.set(test.name, "test", []part{*test}, classes, names, mm); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// classes maps raw label values to class indices: by u.Classes, or by
// the task's rule on the training labels. It returns the map and the
// class names.
func (u *UserData) classes(field string, task Task, train []part) (map[float64]int, []string, error) {
	m := map[float64]int{}
	var names []string
	if len(u.Classes) > 0 {
		if task.Binary && len(u.Classes) != 2 {
			return nil, nil, check.Errorf(check.Join(field, "classes"), "lists %d values: this problem is binary, give 2", len(u.Classes))
		}
		if len(u.Classes) > task.MaxClasses {
			return nil, nil, check.Errorf(check.Join(field, "classes"), "lists %d values: this problem takes at most %d classes", len(u.Classes), task.MaxClasses)
		}
		for i, c := range u.Classes {
			m[c] = i
			names = append(names, strconv.FormatFloat(c, 'g', -1, 64))
		}
		return m, names, nil
	}
	if task.Binary {
		// 0/1 or −1/+1, decided by the first label that is not 1.
		zero := math.NaN()
		for _, p := range train {
			for i, y := range p.t.y {
				switch {
				case y == 1:
				case (y == 0 || y == -1) && (math.IsNaN(zero) || zero == y):
					zero = y
				case y == 0 || y == -1:
					return nil, nil, check.Errorf(p.field, "%s: %s: label %g, but earlier rows have %g: use 0/1 or −1/+1 throughout", p.name, rowName(p, i), y, zero)
				default:
					return nil, nil, check.Errorf(p.field, "%s: %s: label %g: this problem is binary and takes 0/1 or −1/+1 labels (\"classes\" maps others, e.g. [1, 2])", p.name, rowName(p, i), y)
				}
			}
		}
		if math.IsNaN(zero) {
			zero = 0
		}
		return map[float64]int{zero: 0, 1: 1}, []string{strconv.FormatFloat(zero, 'g', -1, 64), "1"}, nil
	}
	top := 0
	for _, p := range train {
		for i, y := range p.t.y {
			if y != math.Trunc(y) || y < 0 || y >= float64(task.MaxClasses) {
				return nil, nil, check.Errorf(p.field, "%s: %s: label %g: must be a whole number from 0 to %d (\"classes\" maps others)", p.name, rowName(p, i), y, task.MaxClasses-1)
			}
			top = max(top, int(y))
		}
	}
	if top == 0 {
		return nil, nil, check.Errorf(train[0].field, "%s: every training label is 0: a classifier needs 2 classes at least", train[0].name)
	}
	for c := 0; c <= top; c++ {
		m[float64(c)] = c
		names = append(names, strconv.Itoa(c))
	}
	return m, names, nil
}

// rowName names row i of a part as its format counts rows: the rows of
// a text file (CSV, LIBSVM) from 1, inline rows and arrays from 0.
func rowName(p part, i int) string { return fmt.Sprintf("row %d", i+p.base) }

// minMax is the per-column map of "scale": "min-max".
type minMax struct{ lo, span []float64 }

func newMinMax(train []part) *minMax {
	cols := train[0].t.cols
	m := &minMax{lo: make([]float64, cols), span: make([]float64, cols)}
	hi := make([]float64, cols)
	for j := range cols {
		m.lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for _, p := range train {
		for i := range p.t.rows {
			for j := range cols {
				v := p.t.at(i, j)
				m.lo[j], hi[j] = math.Min(m.lo[j], v), math.Max(hi[j], v)
			}
		}
	}
	for j := range cols {
		m.span[j] = hi[j] - m.lo[j]
	}
	return m
}

// apply maps v of column j to [0, 1] (a constant column to 0).
func (m *minMax) apply(j int, v float64) float32 {
	if m.span[j] == 0 {
		return 0
	}
	return float32(min(max((v-m.lo[j])/m.span[j], 0), 1))
}

// set builds one Set from parts: labels as classes, features scaled.
func (u *UserData) set(name, split string, parts []part, classes map[float64]int, names []string, mm *minMax) (*Set, error) {
	rows, cols := 0, parts[0].t.cols
	for _, p := range parts {
		rows += p.t.rows
	}
	s := &Set{Name: name, Split: split, Rows: rows, Cols: cols, Classes: names, Y: make([]uint8, 0, rows), User: true}
	for _, p := range parts {
		for i, y := range p.t.y {
			c, ok := classes[y]
			if !ok {
				return nil, check.Errorf(p.field, "%s: %s: label %g is not a class of the training labels (%s)", p.name, rowName(p, i), y, strings.Join(names, ", "))
			}
			s.Y = append(s.Y, uint8(c))
		}
	}
	switch {
	case u.Scale == ScalePixels:
		s.Pixels = make([]uint8, 0, rows*cols)
		for _, p := range parts {
			if p.t.px != nil {
				s.Pixels = append(s.Pixels, p.t.px...)
				continue
			}
			for k, v := range p.t.f {
				if v != float32(math.Trunc(float64(v))) || v < 0 || v > 255 {
					return nil, check.Errorf(p.field, "%s: %s, column %d: %g: \"scale\": \"pixels\" takes whole numbers from 0 to 255", p.name, rowName(p, k/cols), k%cols, v)
				}
				s.Pixels = append(s.Pixels, uint8(v))
			}
		}
	case mm == nil && len(parts) == 1 && parts[0].t.f != nil:
		s.Features = parts[0].t.f // shared read-only with the parse cache
	default:
		s.Features = make([]float32, 0, rows*cols)
		for _, p := range parts {
			for i := range p.t.rows {
				for j := range cols {
					v := p.t.at(i, j)
					if mm != nil {
						s.Features = append(s.Features, mm.apply(j, v))
					} else {
						s.Features = append(s.Features, float32(v))
					}
				}
			}
		}
	}
	if s.Pixels == nil {
		for _, v := range s.Features {
			if v < 0 || v > 1 {
				s.OutsideUnit = true
				break
			}
		}
	}
	return s, nil
}

// recent keeps the last few values by key, for concurrent use.
type recent[T any] struct {
	mu   sync.Mutex
	size int
	keys []string
	m    map[string]T
}

func newRecent[T any](size int) *recent[T] { return &recent[T]{size: size, m: map[string]T{}} }

func (c *recent[T]) get(key string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// put keeps v under key, dropping the oldest key when full; a key kept
// already keeps its first value.
func (c *recent[T]) put(key string, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	if len(c.keys) == c.size {
		delete(c.m, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.m[key] = v
}

// Bytes returns the memory the sets' features and labels hold.
func (s *UserSets) Bytes() int64 {
	n := int64(0)
	for _, set := range []*Set{s.Train, s.Test} {
		if set != nil {
			n += 4*int64(len(set.Features)) + int64(len(set.Pixels)) + int64(len(set.Y))
		}
	}
	return n
}
