package data

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"dpsim/core/data/usertest"
)

// rowsXY is a small data set: 6 rows of 3 features, labels 0/1.
var (
	rowsX = [][]float64{{0, 0.5, 1}, {1, 0, 0.25}, {0.75, 0.5, 0}, {0, 0, 0.125}, {1, 1, 1}, {0.5, 0.25, 0.75}}
	rowsY = []float64{0, 1, 1, 0, 1, 0}
)

// provide hands b over under name and returns the source of a file.
func provide(t *testing.T, name string, b []byte) string {
	t.Helper()
	sha, err := ProvideUser(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

// TestFormatsAgree reads the same rows from every format and inline and
// requires the same Set.
func TestFormatsAgree(t *testing.T) {
	shape, vals := usertest.Matrix(rowsX)
	provide(t, "agree.svm", usertest.LIBSVM(rowsX, rowsY))
	provide(t, "agree.csv", usertest.CSV(rowsX, rowsY))
	provide(t, "agree-x.npy", usertest.NPY("<f8", shape, vals))
	provide(t, "agree-y.npy", usertest.NPY("<i8", []int{len(rowsY)}, rowsY))
	provide(t, "agree.npz", usertest.NPZ(true, []string{"x", "y"}, usertest.NPY("<f4", shape, vals), usertest.NPY("|u1", []int{len(rowsY)}, rowsY)))
	sources := map[string]*Source{
		"inline": {Features: rowsX, Labels: rowsY},
		"libsvm": {File: "agree.svm"},
		"csv":    {File: "agree.csv"},
		"npy":    {File: "agree-x.npy", LabelsFile: "agree-y.npy"},
		"npz":    {File: "agree.npz"},
	}
	var want *Set
	for _, name := range []string{"inline", "libsvm", "csv", "npy", "npz"} {
		u := &UserData{Train: sources[name]}
		got, err := u.Load("problem.params.data", 2, Task{Binary: true, MaxClasses: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Train.Rows != 6 || got.Train.Cols != 3 || !got.Train.User {
			t.Fatalf("%s: %d×%d", name, got.Train.Rows, got.Train.Cols)
		}
		if want == nil {
			want = got.Train
			continue
		}
		if !equalF32(got.Train.Features, want.Features) || !bytes.Equal(got.Train.Y, want.Y) {
			t.Errorf("%s: features %v labels %v, inline %v %v", name, got.Train.Features, got.Train.Y, want.Features, want.Y)
		}
		if name != "inline" && got.Pinned.Train.SHA256 == "" {
			t.Errorf("%s: the pinned source has no sha256", name)
		}
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBadInput feeds broken files and inline rows: each is refused in
// one line naming the file, the row or line and the column where they
// apply, within milliseconds.
func TestBadInput(t *testing.T) {
	shape, vals := usertest.Matrix(rowsX)
	good := usertest.NPY("<f8", shape, vals)
	goodY := usertest.NPY("<f8", []int{6}, rowsY)
	hdr := func(dict string) []byte {
		b := []byte("\x93NUMPY\x01\x00")
		b = append(b, byte(len(dict)), 0)
		return append(b, dict...)
	}
	cases := []struct {
		name  string
		files map[string][]byte
		data  UserData
		task  Task
		want  string
	}{
		{"libsvm ragged index", map[string][]byte{"a.svm": []byte("1 1:0.5 3:1\n0 2:1 2:0.5\n")}, UserData{Train: &Source{File: "a.svm"}}, Task{Binary: true}, "a.svm: line 2, feature 2: after feature 2: indices must increase"},
		{"libsvm NaN", map[string][]byte{"a.svm": []byte("1 1:0.5\n0 1:nan\n")}, UserData{Train: &Source{File: "a.svm"}}, Task{Binary: true}, "a.svm: line 2, feature 1: NaN"},
		{"libsvm Inf", map[string][]byte{"a.svm": []byte("1 1:1e400\n0 1:1\n")}, UserData{Train: &Source{File: "a.svm"}}, Task{Binary: true}, "a.svm: line 1, feature 1: +Inf"},
		{"libsvm index 0", map[string][]byte{"a.svm": []byte("1 0:1\n")}, UserData{Train: &Source{File: "a.svm"}}, Task{Binary: true}, "line 1, item 2: index \"0\""},
		{"libsvm label", map[string][]byte{"a.svm": []byte("1 1:1\n2 1:1\n")}, UserData{Train: &Source{File: "a.svm"}}, Task{Binary: true}, "a.svm: row 2: label 2: this problem is binary"},
		{"libsvm too wide", map[string][]byte{"a.svm": []byte("1 1:1\n0 99999:1\n")}, UserData{Train: &Source{File: "a.svm", Columns: 10}}, Task{Binary: true}, "line 2, feature 99999: beyond the 10 columns"},
		{"csv ragged", map[string][]byte{"a.csv": []byte("a,b,label\n1,2,0\n1,2\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "a.csv: row 2 (line 3): 2 fields, but the header names 3 columns"},
		{"csv NaN", map[string][]byte{"a.csv": []byte("a,b,label\n1,2,0\n1,NaN,1\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "a.csv: row 2 (line 3), column \"b\": NaN"},
		{"csv not a number", map[string][]byte{"a.csv": []byte("a,b,label\n1,x,0\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "row 1 (line 2), column \"b\": \"x\" is not a number"},
		{"csv no label column", map[string][]byte{"a.csv": []byte("a,b,y\n1,2,0\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "line 1: no column \"label\" in the header (a, b, y)"},
		{"csv header mismatch", map[string][]byte{"a.csv": []byte("a,b,label\n1,2,0\n1,2,1\n"), "t.csv": []byte("a,c,label\n1,2,0\n")},
			UserData{Train: &Source{File: "a.csv"}, Test: &Source{File: "t.csv"}}, Task{Binary: true}, "t.csv: its header's features (a, c) differ from a.csv's (a, b)"},
		{"csv label outside", map[string][]byte{"a.csv": []byte("a,label\n1,0\n1,3\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{MaxClasses: 3}, "a.csv: row 2: label 3: must be a whole number from 0 to 2"},
		{"test label not a class", map[string][]byte{"a.csv": []byte("a,label\n1,0\n1,1\n"), "t.csv": []byte("a,label\n1,2\n")},
			UserData{Train: &Source{File: "a.csv"}, Test: &Source{File: "t.csv"}}, Task{MaxClasses: 10}, "t.csv: row 1: label 2 is not a class of the training labels (0, 1)"},
		{"more agents than rows", map[string][]byte{"a.csv": []byte("a,label\n1,0\n1,1\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "2 training rows cannot give each of 5 agents a sample"},
		{"npy truncated", map[string][]byte{"x.npy": good[:len(good)-5], "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "x.npy: truncated: its header says (6, 3) of <f8, 144 bytes of values, and it holds 139"},
		{"npy huge shape", map[string][]byte{"x.npy": hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 784), }\n"), "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "shape (1000000000, 784): more than 67108864 values"},
		{"npy wrong dtype", map[string][]byte{"x.npy": hdr("{'descr': '<c16', 'fortran_order': False, 'shape': (6, 3), }\n"), "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "dtype \"<c16\": dpsim reads real numbers"},
		{"npy object dtype", map[string][]byte{"x.npy": hdr("{'descr': '|O', 'fortran_order': False, 'shape': (6, 3), }\n"), "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "dtype \"|O\""},
		{"npy no newline", map[string][]byte{"x.npy": hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (6, 3), }"), "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "x.npy: truncated: its header says (6, 3) of <f8, 144 bytes of values, and it holds 0"},
		{"npy NaN", map[string][]byte{"x.npy": usertest.NPY("<f8", []int{2, 2}, []float64{1, 2, 3, nan()}), "y.npy": usertest.NPY("<f8", []int{2}, []float64{0, 1})}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "x.npy: row 1, column 1: NaN"},
		{"npy labels shape", map[string][]byte{"x.npy": good, "y.npy": usertest.NPY("<f8", []int{3, 2}, rowsY)}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "labels file y.npy: a labels array of shape (3, 2)"},
		{"npy 1-D features", map[string][]byte{"x.npy": goodY, "y.npy": goodY}, UserData{Train: &Source{File: "x.npy", LabelsFile: "y.npy"}}, Task{Binary: true}, "a features array of shape (6,)"},
		{"npy no labels file", map[string][]byte{"x.npy": good}, UserData{Train: &Source{File: "x.npy"}}, Task{Binary: true}, "labels_file: is required"},
		{"npz missing array", map[string][]byte{"a.npz": usertest.NPZ(false, []string{"x_train", "y_train"}, good, goodY)}, UserData{Train: &Source{File: "a.npz"}}, Task{Binary: true}, "a.npz: no array \"x\" (it holds x_train, y_train): name the arrays with \"x\" and \"y\""},
		{"npz not a zip", map[string][]byte{"a.npz": good}, UserData{Train: &Source{File: "a.npz"}}, Task{Binary: true}, "a.npz: not an .npz (zip) file"},
		{"npz rows differ", map[string][]byte{"a.npz": usertest.NPZ(true, []string{"x", "y"}, good, usertest.NPY("<f8", []int{5}, rowsY[:5]))}, UserData{Train: &Source{File: "a.npz"}}, Task{Binary: true}, "array \"x\" has 6 rows, array \"y\" 5 labels"},
		{"inline ragged", nil, UserData{Train: &Source{Features: [][]float64{{1, 2}, {1}}, Labels: []float64{0, 1}}}, Task{Binary: true}, "problem.params.data.train.features[1]: has 1 features, row 0 has 2"},
		{"inline labels", nil, UserData{Train: &Source{Features: [][]float64{{1, 2}, {1, 3}}, Labels: []float64{0}}}, Task{Binary: true}, "problem.params.data.train.labels: 1 labels for 2 rows"},
		{"inline too large", nil, UserData{Train: &Source{Features: ones(50001), Labels: make([]float64, 50001)}}, Task{Binary: true}, "more than 100000 numbers inline"},
		{"mixed zero labels", map[string][]byte{"a.csv": []byte("a,label\n1,0\n1,-1\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{Binary: true}, "row 2: label -1, but earlier rows have 0"},
		{"one class", map[string][]byte{"a.csv": []byte("a,label\n1,0\n1,0\n")}, UserData{Train: &Source{File: "a.csv"}}, Task{MaxClasses: 10}, "every training label is 0"},
		{"pixels", map[string][]byte{"a.csv": []byte("a,label\n1,0\n256,1\n")}, UserData{Train: &Source{File: "a.csv"}, Scale: "pixels"}, Task{Binary: true}, "a.csv: row 2, column 0: 256: \"scale\": \"pixels\""},
		{"columns differ", map[string][]byte{"a.csv": []byte("a,label\n1,0\n2,1\n"), "b.svm": []byte("1 1:1 2:2\n")},
			UserData{Train: &Source{File: "a.csv"}, Test: &Source{File: "b.svm"}}, Task{Binary: true}, "b.svm has 2 features per row, a.csv (problem.params.data.train.file) 1"},
		{"not provided", nil, UserData{Train: &Source{File: "nowhere.csv"}}, Task{Binary: true}, "problem.params.data.train.file: nowhere.csv has not been provided"},
		{"unknown extension", nil, UserData{Train: &Source{File: "a.dat"}}, Task{Binary: true}, "problem.params.data.train.format: a.dat: the extension does not say the format"},
		{"key of another format", map[string][]byte{"a.csv": []byte("a,label\n1,0\n")}, UserData{Train: &Source{File: "a.csv", X: "x"}}, Task{Binary: true}, "problem.params.data.train.x: is read for npz files only (this one is csv)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for name, b := range c.files {
				provide(t, name, b)
			}
			if c.task.MaxClasses == 0 {
				c.task.MaxClasses = 2
			}
			agents := 2
			if c.name == "more agents than rows" {
				agents = 5
			}
			start := time.Now()
			_, err := c.data.Load("problem.params.data", agents, c.task)
			if d := time.Since(start); d > 200*time.Millisecond {
				t.Errorf("took %v", d)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v\nwant one line containing %q", err, c.want)
			}
		})
	}
}

func nan() float64 { var z float64; return z / z }

// ones returns n rows of one feature.
func ones(n int) [][]float64 {
	x := make([][]float64, n)
	for i := range x {
		x[i] = []float64{1}
	}
	return x
}

// TestReplayNeedsTheSameFile pins a sha256 and offers another file under
// the name: refused naming both hashes, although the pinned content was
// seen before; with no file under the name, the pinned content is found
// by its hash.
func TestReplayNeedsTheSameFile(t *testing.T) {
	a := provide(t, "replay.csv", []byte("a,label\n1,0\n2,1\n"))
	b := provide(t, "replay.csv", []byte("a,label\n1,0\n3,1\n"))
	u := &UserData{Train: &Source{File: "replay.csv", SHA256: a}}
	_, err := u.Load("problem.params.data", 2, Task{Binary: true, MaxClasses: 2})
	want := "problem.params.data.train.file: replay.csv has sha256 " + b + ", but the scenario pins " + a + ": a replay needs the same file"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	// The pinned content under another name is found by its hash.
	u.Train.File = "elsewhere/replay.csv"
	if _, err := u.Load("problem.params.data", 2, Task{Binary: true, MaxClasses: 2}); err != nil {
		t.Errorf("the pinned content, provided earlier under another name: %v", err)
	}
}

// TestImagesChannelsLast reads (N, H, W, C) images as C planes.
func TestImagesChannelsLast(t *testing.T) {
	// 1 image, 2×2, 3 channels: value = 100·c + 10·y + x.
	var v []float64
	for y := range 2 {
		for x := range 2 {
			for c := range 3 {
				v = append(v, float64(100*c+10*y+x))
			}
		}
	}
	tb, err := npyFrom(usertest.NPY("|u1", []int{1, 2, 2, 3}, v), roleFeatures)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint8{0, 1, 10, 11, 100, 101, 110, 111, 200, 201, 210, 211}
	if !bytes.Equal(tb.px, want) {
		t.Errorf("got %v, want the planes %v", tb.px, want)
	}
}

// TestHeaderAnyOrder reads a header whose keys are in another order and
// without padding, which NumPy's own reader accepts.
func TestHeaderAnyOrder(t *testing.T) {
	dict := "{'shape': (2, 1), 'fortran_order': False, 'descr': '<f8'}\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), 0)
	b = append(append(b, dict...), make([]byte, 16)...)
	tb, err := npyFrom(b, roleFeatures)
	if err != nil || tb.rows != 2 || tb.cols != 1 {
		t.Fatalf("%v %+v", err, tb)
	}
}

// TestOverLimit refuses a file over MaxUserFileBytes.
func TestOverLimit(t *testing.T) {
	_, err := ProvideUser("big.csv", make([]byte, MaxUserFileBytes+1))
	if err == nil || !strings.Contains(err.Error(), "big.csv: 268435457 bytes: a data file may have at most 268435456 (256.0 MiB)") {
		t.Errorf("got %v", err)
	}
}

// TestClassesScaleAgents: "classes" maps raw labels in its order,
// "min-max" maps each column to [0, 1] by the training rows (test rows
// clipped), "pixels" keeps bytes, and per-agent sources give each agent
// its rows (their count must be the agents').
func TestClassesScaleAgents(t *testing.T) {
	train := &Source{Features: [][]float64{{-2, 10}, {2, 20}, {0, 15}}, Labels: []float64{2, 1, 2}}
	test := &Source{Features: [][]float64{{4, 15}}, Labels: []float64{1}}
	u := &UserData{Train: train, Test: test, Classes: []float64{2, 1}, Scale: ScaleMinMax}
	s, err := u.Load("problem.params.data", 3, Task{Binary: true, MaxClasses: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.Train.Y, []uint8{0, 1, 0}) || !bytes.Equal(s.Test.Y, []uint8{1}) {
		t.Errorf("labels %v, test %v: want class 0 for label 2", s.Train.Y, s.Test.Y)
	}
	if want := []float32{0, 0, 1, 1, 0.5, 0.5}; !equalF32(s.Train.Features, want) {
		t.Errorf("min-max: %v, want %v", s.Train.Features, want)
	}
	if want := []float32{1, 0.5}; !equalF32(s.Test.Features, want) {
		t.Errorf("min-max test (clipped): %v, want %v", s.Test.Features, want)
	}
	if s.Train.OutsideUnit {
		t.Error("min-max features lie in [0, 1]")
	}

	px := &UserData{Train: &Source{Features: [][]float64{{0, 255}, {17, 3}}, Labels: []float64{0, 1}}, Scale: ScalePixels}
	if s, err := px.Load("problem.params.data", 2, Task{MaxClasses: 10}); err != nil || !bytes.Equal(s.Train.Pixels, []uint8{0, 255, 17, 3}) || s.Train.At(0, 1) != 1 {
		t.Errorf("pixels: %v %+v", err, s)
	}

	agents := &UserData{Agents: []Source{
		{Features: [][]float64{{1}, {2}, {3}}, Labels: []float64{0, 1, 0}},
		{Features: [][]float64{{4}}, Labels: []float64{1}},
	}}
	s, err = agents.Load("problem.params.data", 2, Task{Binary: true, MaxClasses: 2})
	if err != nil || len(s.Counts) != 2 || s.Counts[0] != 3 || s.Counts[1] != 1 || s.Train.Rows != 4 {
		t.Errorf("agents: %v %+v", err, s)
	}
	if _, err := agents.Load("problem.params.data", 3, Task{Binary: true, MaxClasses: 2}); err == nil || err.Error() != "problem.params.data.agents: lists 2 sources for 3 agents: give one per agent" {
		t.Errorf("agents for 3: %v", err)
	}
	both := &UserData{Train: train, Agents: agents.Agents}
	if _, err := both.Load("problem.params.data", 2, Task{Binary: true, MaxClasses: 2}); err == nil || !strings.Contains(err.Error(), `give either "train"`) {
		t.Errorf("train and agents: %v", err)
	}
}
