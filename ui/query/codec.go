package query

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"dpsim/core/check"
)

// MaxText bounds the JSON text a compressed parameter may inflate to, and
// MaxEncoded the parameter's own length: a URL past a few megabytes is
// refused by browsers anyway, and the cap on the inflated text stops a
// decompression bomb (deflate reaches about 1000:1) after MaxText bytes.
const (
	MaxText    = 4 << 20
	MaxEncoded = 2 << 20
)

// Encode compresses a JSON text for a URL parameter: raw deflate (RFC 1951)
// at the best compression, in unpadded base64url (RFC 4648 §5), so that it
// needs no percent-escapes.
func Encode(text []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	_, _ = w.Write(text)                                 // a bytes.Buffer does not fail
	_ = w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// Decode reverses Encode for the URL parameter named key. Every failure —
// too long, not base64url, not deflate, cut short, inflating past MaxText,
// or not text — is one error naming the parameter.
func Decode(key, v string) ([]byte, error) {
	field := "URL parameter " + key
	if len(v) > MaxEncoded {
		return nil, check.Errorf(field, "is %d characters long; the limit is %d", len(v), MaxEncoded)
	}
	if v == "" {
		return nil, check.Errorf(field, "is empty; it holds a compressed %s (docs/url.md)", what(key))
	}
	// Padding is tolerated, as some tools add it.
	v = strings.TrimRight(v, "=")
	if i := strings.IndexFunc(v, func(c rune) bool { return !base64url(c) }); i >= 0 {
		return nil, check.Errorf(field, "is not base64url: character %d is not one of A–Z a–z 0–9 - _ (a link cut or altered on its way?)", i+1)
	}
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		// Only the length is left to be wrong.
		return nil, check.Errorf(field, "is not base64url: its %d characters end mid-byte (was the link copied whole?)", len(v))
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	text, err := io.ReadAll(io.LimitReader(r, MaxText+1))
	switch {
	case len(text) > MaxText:
		return nil, check.Errorf(field, "inflates to more than %d bytes; the limit is %d", MaxText, MaxText)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, check.Errorf(field, "is cut short: the compressed %s ends early (was the link copied whole?)", what(key))
	case err != nil:
		return nil, check.Errorf(field, "is not a compressed %s: %s", what(key), clip(err.Error()))
	}
	if !json(text) {
		return nil, check.Errorf(field, "does not hold a JSON object: it inflates to %q", clip(string(text)))
	}
	return text, nil
}

// json reports whether text plausibly is a JSON object; the caller's
// strict decoder judges the rest.
func json(text []byte) bool {
	t := bytes.TrimSpace(text)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
}

func base64url(c rune) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func what(key string) string {
	if key == "compare" {
		return "comparison"
	}
	return "scenario"
}
