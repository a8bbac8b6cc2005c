package experiment

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// F is a float64 whose JSON form is strconv's shortest 'g' form (so it
// reads back to the same bits, and is the same natively and in the
// browser); a non-finite value is written as null and null reads back as
// NaN. Results treat every non-finite value as missing, so nothing is lost
// in the round trip through a shard file.
type F float64

// MarshalJSON implements json.Marshaler.
func (f F) MarshalJSON() ([]byte, error) {
	return appendF(nil, float64(f)), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *F) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*f = F(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = F(v)
	return nil
}

func appendF(buf []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(buf, "null"...)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}

// Fs is a []float64 written like F, element by element.
type Fs []float64

// MarshalJSON implements json.Marshaler.
func (fs Fs) MarshalJSON() ([]byte, error) {
	buf := make([]byte, 0, 2+len(fs)*12)
	buf = append(buf, '[')
	for i, v := range fs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendF(buf, v)
	}
	return append(buf, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (fs *Fs) UnmarshalJSON(b []byte) error {
	var raw []F
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*fs = make(Fs, len(raw))
	for i, v := range raw {
		(*fs)[i] = float64(v)
	}
	return nil
}

// canon turns every non-finite value into NaN: results keep no ±Inf, so
// that a result read back from JSON (where both are null) is the same.
func canon(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}
