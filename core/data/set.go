// Package data holds the real datasets dpsim's learning problems train
// on: compact files committed under core/data/files, described by a
// manifest, decoded into memory once per process and shared read-only.
package data

// Set is one split of a dataset, decoded once per process and shared
// read-only by every problem and run that uses it: never modify it.
type Set struct {
	// Name is the dataset's name (e.g. "mnist-01"); Split is "train" or
	// "test".
	Name, Split string
	// Rows is the number of samples, Cols the number of features.
	Rows, Cols int
	// Features holds real-valued features, row-major (sample i is
	// Features[i*Cols : (i+1)*Cols]), scaled to [0, 1] (a user's: any
	// finite numbers, see User); nil for image sets, which use Pixels.
	Features []float32
	// Pixels holds image features as bytes, row-major; feature j of
	// sample i is Pixels[i*Cols+j]/255 in [0, 1]. Nil for other sets.
	Pixels []uint8
	// Y holds each sample's class, 0 … len(Classes)−1.
	Y []uint8
	// Classes names the classes in the order of Y's values.
	Classes []string
	// User marks a set read from a user's data (UserData.Load), whose
	// features are any finite numbers within ±MaxUserMagnitude;
	// OutsideUnit says that some of them lie outside [0, 1], where
	// constants that assume [0, 1] (a gradient bound √d) do not hold.
	User, OutsideUnit bool
}

// At returns feature j of sample i (in [0, 1] unless OutsideUnit).
func (s *Set) At(i, j int) float64 {
	if s.Pixels != nil {
		return float64(s.Pixels[i*s.Cols+j]) / 255
	}
	return float64(s.Features[i*s.Cols+j])
}

// RowTo writes sample i's features into dst (grown to Cols) and returns
// it.
func (s *Set) RowTo(dst []float64, i int) []float64 {
	dst = append(dst[:0], make([]float64, s.Cols)...)
	if s.Pixels != nil {
		for j, p := range s.Pixels[i*s.Cols : (i+1)*s.Cols] {
			dst[j] = float64(p) / 255
		}
		return dst
	}
	for j, v := range s.Features[i*s.Cols : (i+1)*s.Cols] {
		dst[j] = float64(v)
	}
	return dst
}

// Head returns the first rows rows of s (all when rows is 0 or more than
// it has), sharing its memory.
func (s *Set) Head(rows int) *Set {
	if rows <= 0 || rows >= s.Rows {
		return s
	}
	h := *s
	h.Rows = rows
	if s.Pixels != nil {
		h.Pixels = s.Pixels[:rows*s.Cols]
	} else {
		h.Features = s.Features[:rows*s.Cols]
	}
	h.Y = s.Y[:rows]
	return &h
}
