// Package jsonstrict decodes JSON documents strictly and explains every
// error in the user's words, naming the field path and the line and column,
// so that a scenario or experiment file can be fixed without reading code.
//
// Strict means: keys match the Go struct's JSON names exactly (encoding/json
// alone matches them case-insensitively) and appear at most once in an
// object (encoding/json alone keeps the last); null is refused wherever a
// value of a Go type is expected (encoding/json alone leaves the default in
// place); a fixed-size array must be given exactly its number of entries
// (encoding/json alone drops extra entries and zero-fills missing ones);
// strings must be valid UTF-8 without lone surrogate escapes (encoding/json
// alone replaces them with U+FFFD); unknown keys, wrong types, out-of-range
// numbers and trailing data are errors. A leading UTF-8 byte order mark is
// skipped, as RFC 8259 permits, because editors on some systems add one.
//
// Decoding is one linear pass over the text, checked against the target
// type, followed by encoding/json for the values; nesting is limited to
// MaxDepth levels, so no input can make the pass quadratic or exhaust the
// stack. Sizes are bounded by the caller (see ReadFile and ReadAll).
package jsonstrict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"dpsim/core/check"
)

// MaxDepth is the deepest nesting of objects and lists that Decode accepts.
// dpsim's scenarios nest four levels deep, experiment files a few more; 64
// leaves room for any honest document and keeps the pass shallow.
const MaxDepth = 64

// Pos is a position in a JSON text: 1-based line and column, the column
// counted in characters (not bytes), as editors show it.
type Pos struct {
	Line, Col int
}

// Decode decodes data into v, which must be a non-nil pointer. Every error
// is a *check.Error whose field is the JSON path it is about, prefixed by
// prefix, and whose rule says what was expected, what came, and where.
func Decode(data []byte, v any, prefix string) error {
	return DecodeAt(data, v, prefix, Pos{})
}

// DecodeAt is Decode for a fragment of a larger document — typically a
// json.RawMessage decoded later, such as a scenario's algorithm parameters —
// that starts at position at of that document (see Locate), so that errors
// give lines and columns in the user's file. A zero at means the fragment
// is the whole document.
func DecodeAt(data []byte, v any, prefix string, at Pos) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		// A programming error, not the user's.
		return fmt.Errorf("jsonstrict: Decode needs a non-nil pointer, got %T", v)
	}
	data = bytes.TrimPrefix(data, bom)
	d := &decoder{data: data, prefix: prefix, base: at}
	if err := d.document(rv.Type().Elem()); err != nil {
		return err
	}
	// The pass above proved that data is valid JSON whose shape fits v,
	// so encoding/json only fills in the values.
	if err := json.Unmarshal(data, v); err != nil {
		// Reached only through a type's own UnmarshalJSON or UnmarshalText.
		return check.Errorf(prefix, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// Valid reports whether data is one strictly valid JSON value (as Decode
// would accept it into an `any`): valid UTF-8, no duplicate keys, nesting
// within MaxDepth. The error says where it is not.
func Valid(data []byte) error {
	d := &decoder{data: bytes.TrimPrefix(data, bom)}
	return d.document(anyType)
}

// Locate returns the position of the value reached from the top-level
// object through the object keys path, for DecodeAt. It reports false when
// data is not valid JSON or holds no such value.
func Locate(data []byte, path ...string) (Pos, bool) {
	data = bytes.TrimPrefix(data, bom)
	d := &decoder{data: data, locate: path, found: -1}
	if d.documentInfo(customInfo) != nil || d.found < 0 {
		return Pos{}, false
	}
	return position(data, d.found), true
}

var bom = []byte("\xef\xbb\xbf")

var (
	anyType = reflect.TypeFor[any]()
	anyInfo = infoOf(anyType)
	// customInfo accepts any value: the contents of a RawMessage or of a
	// type with its own UnmarshalJSON, which decide for themselves.
	customInfo = &typeInfo{want: wCustom}
)

// segment is one step of the path to the value being read: an object key
// or (key == nil) a list index.
type segment struct {
	key   []byte
	index int
}

// seenKey is a key already read in an open object, for duplicate detection.
type seenKey struct {
	key []byte
	at  int // offset, for "first given at"
}

type decoder struct {
	data   []byte
	pos    int
	prefix string
	base   Pos
	path   []segment
	opens  []int     // offsets of the open { and [, for "never closed"
	keys   []seenKey // keys of every open object, innermost last

	locate []string // Locate's target path
	found  int      // offset of the located value, or −1
}

// document reads the one top-level value into type t and checks that
// nothing but whitespace follows.
func (d *decoder) document(t reflect.Type) error {
	return d.documentInfo(infoOf(t))
}

func (d *decoder) documentInfo(ti *typeInfo) error {
	if bytes.HasPrefix(d.data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(d.data, []byte{0xFE, 0xFF}) {
		return d.failAt(-1, "the text is UTF-16; save it as UTF-8")
	}
	d.skipSpace()
	if d.pos == len(d.data) {
		return d.failAt(-1, "the text is empty: expected %s", describe(ti))
	}
	if err := d.value(ti, false); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.fail("unexpected data after the end of the JSON value: found %s (one document holds exactly one value)", d.found1(d.pos))
	}
	return nil
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value reads one value at d.pos (after whitespace) into type t. member says
// whether the value belongs to an object key (for the hint on null).
func (d *decoder) value(ti *typeInfo, member bool) error {
	start := d.pos
	if d.pos >= len(d.data) {
		return d.eof("a value")
	}
	c := d.data[d.pos]
	switch c {
	case '{':
		switch ti.want {
		case wStruct, wMap, wAny, wCustom, wRaw:
			return d.object(ti, start)
		}
		return d.mismatch(ti, start, member)
	case '[':
		switch ti.want {
		case wSlice, wArray, wAny, wCustom, wRaw:
			return d.array(ti, start)
		}
		return d.mismatch(ti, start, member)
	case '"':
		switch ti.want {
		case wString, wBytes, wAny, wCustom, wRaw:
			_, err := d.str()
			return err
		}
		return d.mismatch(ti, start, member)
	case 't', 'f', 'n':
		lit, ok := d.literal()
		if !ok {
			return d.badValue(start)
		}
		if lit == "null" {
			if ti.want == wAny || ti.want == wCustom {
				return nil
			}
			d.pos = start
			return d.mismatch(ti, start, member)
		}
		switch ti.want {
		case wBool, wAny, wCustom, wRaw:
			return nil
		}
		d.pos = start
		return d.mismatch(ti, start, member)
	}
	if c == '-' || c >= '0' && c <= '9' {
		if ti.want == wAny || ti.want == wCustom || ti.want == wRaw || ti.want.numeric() {
			return d.number(ti, start)
		}
		return d.mismatch(ti, start, member)
	}
	return d.badValue(start)
}

// object reads an object; ti is a struct, a map or an opaque value.
func (d *decoder) object(ti *typeInfo, start int) error {
	if len(d.opens) >= MaxDepth {
		return d.fail("the JSON is nested more than %d levels deep (objects and lists inside one another)", MaxDepth)
	}
	d.opens = append(d.opens, start)
	d.pos++ // {
	firstKey := len(d.keys)
	var given []int // offset of each struct field's key, or −1
	if ti.want == wStruct {
		given = make([]int, len(ti.fields))
		for i := range given {
			given[i] = -1
		}
	}
	var big map[string]int // keys → offset once the object is large
	d.path = append(d.path, segment{})
	seg := len(d.path) - 1
	for n := 0; ; n++ {
		d.path[seg] = segment{index: -1} // between keys: errors are the object's
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof("a key or '}'")
		}
		c := d.data[d.pos]
		if c == '}' {
			if n > 0 {
				return d.fail("a trailing comma before '}' is not allowed in JSON")
			}
			break
		}
		if c != '"' {
			if c == '\'' {
				return d.fail("keys need double quotes (\"), not single quotes")
			}
			if d.comment() {
				return d.fail("comments are not allowed in JSON")
			}
			return d.fail("expected a key in double quotes, found %s", d.found1(d.pos))
		}
		keyAt := d.pos
		key, err := d.str()
		if err != nil {
			return err
		}
		d.path[seg] = segment{key: key}

		// The value's type, and duplicates: a struct's keys by field, other
		// objects' keys by a linear scan while small and a map after.
		var vt *typeInfo
		if ti.want == wStruct {
			f, ok := ti.byName[string(key)]
			if !ok {
				return d.unknownKey(ti, key, keyAt)
			}
			if given[f.index] >= 0 {
				return d.duplicate(key, keyAt, given[f.index])
			}
			given[f.index] = keyAt
			vt = infoOf(f.typ)
			if f.allKeys {
				vt = allKeysInfo(vt)
			}
			if f.lim != nil {
				vt = f.lim
			}
		} else {
			if big == nil && len(d.keys)-firstKey >= 16 {
				big = make(map[string]int, 32)
				for _, k := range d.keys[firstKey:] {
					big[string(k.key)] = k.at
				}
			}
			if big != nil {
				if at, dup := big[string(key)]; dup {
					return d.duplicate(key, keyAt, at)
				}
				big[string(key)] = keyAt
			} else {
				for _, k := range d.keys[firstKey:] {
					if bytes.Equal(k.key, key) {
						return d.duplicate(key, keyAt, k.at)
					}
				}
				d.keys = append(d.keys, seenKey{key: key, at: keyAt})
			}
			vt = childInfo(ti)
			if ti.want == wMap {
				if err := d.mapKey(ti, key, keyAt); err != nil {
					return err
				}
				vt = infoOf(ti.elem)
				if ti.elemInfo != nil {
					vt = ti.elemInfo
				}
			}
		}

		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof("':'")
		}
		if d.data[d.pos] != ':' {
			return d.fail("expected ':' after the key %s, found %s", quote(key), d.found1(d.pos))
		}
		d.pos++
		d.skipSpace()
		if d.locate != nil && d.found < 0 && d.atLocated() {
			d.found = d.pos
		}
		if err := d.value(vt, true); err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof("',' or '}'")
		}
		if d.data[d.pos] == '}' {
			break
		}
		if d.data[d.pos] != ',' {
			if d.comment() {
				return d.fail("comments are not allowed in JSON")
			}
			hint := ""
			if d.data[d.pos] == '"' {
				hint = " (a comma missing?)"
			}
			return d.fail("expected ',' or '}' after the value of %s, found %s%s", quote(key), d.found1(d.pos), hint)
		}
		d.pos++
	}
	d.pos++ // }
	d.path = d.path[:seg]
	if ti.want == wStruct && ti.allKeys {
		for i, f := range ti.fields {
			if given[i] < 0 {
				return d.failAt(start, "missing key %q: give all of %s", f.name, ti.keyList())
			}
		}
	}
	d.keys = d.keys[:firstKey]
	d.opens = d.opens[:len(d.opens)-1]
	return nil
}

// childInfo is what the entries of an object or list of type ti accept
// when the type does not say.
func childInfo(ti *typeInfo) *typeInfo {
	if ti.want == wAny {
		return anyInfo
	}
	return customInfo
}

// atLocated reports whether the path is Locate's target.
func (d *decoder) atLocated() bool {
	if len(d.path) != len(d.locate) {
		return false
	}
	for i, s := range d.path {
		if s.key == nil || string(s.key) != d.locate[i] {
			return false
		}
	}
	return true
}

// array reads a list; ti is a slice, a fixed-size array or an opaque value.
func (d *decoder) array(ti *typeInfo, start int) error {
	if len(d.opens) >= MaxDepth {
		return d.fail("the JSON is nested more than %d levels deep (objects and lists inside one another)", MaxDepth)
	}
	d.opens = append(d.opens, start)
	d.pos++ // [
	et := childInfo(ti)
	if ti.want == wSlice || ti.want == wArray {
		et = infoOf(ti.elem)
	}
	d.path = append(d.path, segment{index: -1})
	seg := len(d.path) - 1
	n := 0
	for ; ; n++ {
		d.path[seg] = segment{index: -1} // between entries: errors are the list's
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof("a value or ']'")
		}
		if d.data[d.pos] == ']' {
			if n > 0 {
				return d.fail("a trailing comma before ']' is not allowed in JSON")
			}
			break
		}
		d.path[seg] = segment{index: n}
		if ti.want == wArray && n == ti.length {
			d.path = d.path[:seg]
			return d.failAt(start, "must be %s, but it has more entries", describe(ti))
		}
		if ti.maxLen > 0 && n == ti.maxLen {
			d.path = d.path[:seg]
			return d.failAt(start, "must have at most %d entries, but it has more", ti.maxLen)
		}
		if err := d.value(et, false); err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof("',' or ']'")
		}
		if d.data[d.pos] == ']' {
			n++
			break
		}
		if d.data[d.pos] != ',' {
			if d.comment() {
				return d.fail("comments are not allowed in JSON")
			}
			return d.fail("expected ',' or ']' after a list entry, found %s", d.found1(d.pos))
		}
		d.pos++
	}
	d.pos++ // ]
	d.path = d.path[:seg]
	if ti.want == wArray && n != ti.length {
		return d.failAt(start, "must be %s, but it has %d", describe(ti), n)
	}
	d.opens = d.opens[:len(d.opens)-1]
	return nil
}

// str reads a string and returns its unescaped content.
func (d *decoder) str() ([]byte, error) {
	start := d.pos
	d.pos++        // "
	var out []byte // set once an escape is met
	from := d.pos
	for {
		if d.pos >= len(d.data) {
			return nil, d.failAt(start, "a string is never closed: the text ends before its closing \"")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := d.data[from:d.pos]
			if out != nil {
				s = append(out, s...)
			}
			d.pos++
			return s, nil
		case c == '\\':
			out = append(out, d.data[from:d.pos]...)
			r, err := d.escape()
			if err != nil {
				return nil, err
			}
			out = utf8.AppendRune(out, r)
			from = d.pos
		case c < 0x20:
			return nil, d.fail("a raw control character (U+%04X) inside a string: write it as an escape such as \\n, \\t or \\u%04x", c, c)
		case c < utf8.RuneSelf:
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return nil, d.fail("invalid UTF-8 (byte 0x%02X): save the file as UTF-8", c)
			}
			d.pos += size
		}
	}
}

// escape reads one escape sequence at d.pos (the backslash).
func (d *decoder) escape() (rune, error) {
	if d.pos+1 >= len(d.data) {
		return 0, d.eof("an escape sequence")
	}
	c := d.data[d.pos+1]
	if r, ok := simpleEscape(c); ok {
		d.pos += 2
		return r, nil
	}
	if c != 'u' {
		return 0, d.fail("invalid escape %s in a string; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", d.snippet(d.pos, 2))
	}
	r, ok := d.hex4(d.pos + 2)
	if !ok {
		return 0, d.fail("invalid escape %s: \\u needs four hexadecimal digits", d.snippet(d.pos, 6))
	}
	at := d.pos
	d.pos += 6
	if r >= 0xD800 && r < 0xDC00 {
		// A high surrogate must be followed by a low one.
		if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
			if lo, ok := d.hex4(d.pos + 2); ok && lo >= 0xDC00 && lo < 0xE000 {
				d.pos += 6
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), nil
			}
		}
		return 0, d.failAt(at, "%s is half of a UTF-16 surrogate pair without its other half: write the character itself", d.snippet(at, 6))
	}
	if r >= 0xDC00 && r < 0xE000 {
		return 0, d.failAt(at, "%s is half of a UTF-16 surrogate pair without its other half: write the character itself", d.snippet(at, 6))
	}
	return r, nil
}

// simpleEscape returns the character of the one-letter escape \c.
func simpleEscape(c byte) (rune, bool) {
	switch c {
	case '"', '\\', '/':
		return rune(c), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

func (d *decoder) hex4(i int) (rune, bool) {
	if i+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// literal reads true, false or null.
func (d *decoder) literal() (string, bool) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(d.data[d.pos:], []byte(lit)) && !d.wordAt(d.pos+len(lit)) {
			d.pos += len(lit)
			return lit, true
		}
	}
	return "", false
}

// comment reports whether a // or /* comment starts at d.pos.
func (d *decoder) comment() bool {
	return d.pos+1 < len(d.data) && d.data[d.pos] == '/' && (d.data[d.pos+1] == '/' || d.data[d.pos+1] == '*')
}

// wordAt reports whether a letter, digit or '_' is at i: "truex" is not true.
func (d *decoder) wordAt(i int) bool {
	if i >= len(d.data) {
		return false
	}
	c := d.data[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// number reads a number and checks it against ti.
func (d *decoder) number(ti *typeInfo, start int) error {
	i := d.pos
	if d.data[i] == '-' {
		i++
		if i < len(d.data) && d.data[i] == 'I' {
			return d.badValue(start)
		}
	}
	digits := func() int {
		j := i
		for i < len(d.data) && d.data[i] >= '0' && d.data[i] <= '9' {
			i++
		}
		return i - j
	}
	intStart := i
	intDigits := digits()
	if n := intDigits; n == 0 {
		return d.failAt(start, "invalid number %q: a digit must follow '-'", d.word(start))
	} else if n > 1 && d.data[intStart] == '0' {
		return d.failAt(start, "invalid number %q: a number cannot start with 0 followed by more digits", d.word(start))
	}
	whole := true
	if i < len(d.data) && d.data[i] == '.' {
		i++
		whole = false
		if digits() == 0 {
			return d.failAt(start, "invalid number %q: digits must follow the decimal point", d.word(start))
		}
	}
	hasExp := false
	if i < len(d.data) && (d.data[i] == 'e' || d.data[i] == 'E') {
		i++
		whole, hasExp = false, true
		if i < len(d.data) && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return d.failAt(start, "invalid number %q: digits must follow the exponent's e", d.word(start))
		}
	}
	if d.wordAt(i) || i < len(d.data) && d.data[i] == '.' {
		return d.failAt(start, "invalid number %q", d.word(start))
	}
	lit := string(d.data[start:i])
	d.pos = i
	switch ti.want {
	case wInt, wUint:
		lo, hi := ti.intRange()
		if !whole {
			return d.failAt(start, "must be a whole number, written without a decimal point or exponent (got %s)", clip(lit))
		}
		if ti.bits == 64 && intDigits <= 18 && (ti.want == wInt || d.data[start] != '-') {
			return nil // fits whatever its sign; spares a parse per number
		}
		var err error
		if ti.want == wInt {
			_, err = strconv.ParseInt(lit, 10, ti.bits)
		} else if lit[0] == '-' {
			err = strconv.ErrRange
		} else {
			_, err = strconv.ParseUint(lit, 10, ti.bits)
		}
		if err != nil {
			return d.failAt(start, "must be a whole number from %s to %s (got %s)", lo, hi, clip(lit))
		}
	case wFloat, wAny:
		if !hasExp && intDigits <= 38 {
			return nil // below 1e38 even for a float32; spares a parse per number
		}
		bits := ti.bits
		if ti.want == wAny {
			bits = 64 // encoding/json reads numbers into an interface as float64
		}
		if _, err := strconv.ParseFloat(lit, bits); err != nil {
			return d.failAt(start, "the number %s is out of range: a number must be finite and at most about %s in size", clip(lit), map[int]string{32: "3.4e38", 64: "1.8e308"}[bits])
		}
	}
	return nil
}

// mapKey checks a map key against the map's key type.
func (d *decoder) mapKey(ti *typeInfo, key []byte, at int) error {
	var err error
	switch ti.key {
	case wInt:
		_, err = strconv.ParseInt(string(key), 10, ti.keyBits)
	case wUint:
		_, err = strconv.ParseUint(string(key), 10, ti.keyBits)
	}
	if err != nil {
		d.path = d.path[:len(d.path)-1] // the error is about the object
		return d.failAt(at, "the key %s must be a whole number", quote(key))
	}
	return nil
}

// ---- errors -------------------------------------------------------------

// fail reports a broken rule at the current position.
func (d *decoder) fail(format string, args ...any) error {
	return d.failAt(d.pos, format, args...)
}

// failAt reports a broken rule at offset at (−1: no position), naming the
// current path. It is called once per Decode, so building the path and the
// position here keeps error reporting linear.
func (d *decoder) failAt(at int, format string, args ...any) error {
	field := join(d.prefix, d.pathString())
	rule := fmt.Sprintf(format, args...)
	if field == "" && strings.HasPrefix(rule, "must ") {
		rule = "the document " + rule
	}
	if at >= 0 {
		p := position(d.data, at)
		if d.base.Line > 0 {
			if p.Line == 1 {
				p.Col += d.base.Col - 1
			}
			p.Line += d.base.Line - 1
		}
		rule += fmt.Sprintf(" (line %d, column %d)", p.Line, p.Col)
	}
	return &check.Error{Field: field, Rule: rule}
}

// eof reports a text that ends where more was expected.
func (d *decoder) eof(expected string) error {
	if len(d.opens) == 0 {
		return d.failAt(-1, "the text ends where %s was expected", expected)
	}
	open := d.opens[len(d.opens)-1]
	d.path = d.path[:len(d.opens)-1] // the error is about the unclosed object or list
	p := position(d.data, open)
	return d.failAt(-1, "the text ends too early: the %c at line %d, column %d is never closed", d.data[open], p.Line, p.Col)
}

func (d *decoder) duplicate(key []byte, at, first int) error {
	d.path = d.path[:len(d.path)-1] // the error is about the object
	p := position(d.data, first)
	return d.failAt(at, "the key %s is given twice (first at line %d, column %d); give each key once", quote(key), p.Line, p.Col)
}

func (d *decoder) unknownKey(ti *typeInfo, key []byte, at int) error {
	d.path = d.path[:len(d.path)-1] // the error is about the object
	for _, f := range ti.fields {
		if strings.EqualFold(f.name, string(key)) {
			return d.failAt(at, "unknown key %s: keys are case-sensitive; did you mean %q?", quote(key), f.name)
		}
	}
	return d.failAt(at, "unknown key %s; the keys here are %s", quote(key), ti.keyList())
}

// mismatch reports a value of the wrong kind at start.
func (d *decoder) mismatch(ti *typeInfo, start int, member bool) error {
	got := d.describeValue(start)
	if got == "null" && ti.want == wRaw {
		return d.failAt(start, "must not be null; leave the key out to use the default")
	}
	if got == "null" {
		hint := ""
		if member {
			hint = "; leave the key out to use the default"
		}
		return d.failAt(start, "must be %s, not null%s", describe(ti), hint)
	}
	return d.failAt(start, "must be %s, not %s", describe(ti), got)
}

// badValue reports text at start that begins no JSON value.
func (d *decoder) badValue(start int) error {
	w := d.word(start)
	switch c := d.data[start]; {
	case w == "NaN" || w == "Infinity" || w == "-Infinity" || w == "Inf" || w == "-Inf":
		return d.failAt(start, "NaN and Infinity are not numbers in JSON; every value must be a finite number")
	case c == '\'':
		return d.failAt(start, "strings need double quotes (\"), not single quotes")
	case d.comment():
		return d.failAt(start, "comments are not allowed in JSON")
	case c == '}' || c == ']':
		return d.failAt(start, "expected a value, found %s", d.found1(start))
	case w != "":
		return d.failAt(start, "expected a value (an object, a list, a string in double quotes, a number, true, false or null), found %s", quote([]byte(w)))
	}
	return d.failAt(start, "expected a value (an object, a list, a string in double quotes, a number, true, false or null), found %s", d.found1(start))
}

// describeValue names the value at start for a message: "the number 5",
// "the string \"x\"", "an object", "a list", "true", "null".
func (d *decoder) describeValue(start int) string {
	switch c := d.data[start]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '"':
		end := bytes.IndexByte(d.data[start+1:min(len(d.data), start+42)], '"')
		if end < 0 {
			return "the string " + printable(clip(strings.ToValidUTF8(string(d.data[start:min(len(d.data), start+40)]), "?"))) + "…\""
		}
		return "the string " + printable(strings.ToValidUTF8(string(d.data[start:start+end+2]), "?"))
	case c == '-' || c >= '0' && c <= '9':
		return "the number " + d.word(start)
	}
	return d.word(start)
}

// word returns the run of number or identifier characters at i (at most
// 40), for messages.
func (d *decoder) word(i int) string {
	j := i
	for j < len(d.data) && j-i < 40 {
		c := d.data[j]
		if c == '-' || c == '+' || c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			j++
			continue
		}
		break
	}
	return string(d.data[i:j])
}

// snippet returns n bytes at i, quoted, for messages.
func (d *decoder) snippet(i, n int) string {
	return strconv.Quote(strings.ToValidUTF8(string(d.data[i:min(len(d.data), i+n)]), "?"))
}

// found1 names the character at i for a message.
func (d *decoder) found1(i int) string {
	if i >= len(d.data) {
		return "the end of the text"
	}
	r, size := utf8.DecodeRune(d.data[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("the byte 0x%02X, which is not UTF-8 (save the file as UTF-8)", d.data[i])
	case r == '\'':
		return `"'"`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("the control character U+%04X", r)
	case r < utf8.RuneSelf:
		return fmt.Sprintf("'%c'", r)
	}
	return fmt.Sprintf("'%c' (U+%04X)", r, r)
}

// pathString renders the path, e.g. graph.edges[2] or noise["a b"].
func (d *decoder) pathString() string {
	var b strings.Builder
	for _, s := range d.path {
		switch {
		case s.key == nil && s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case s.key == nil:
		case plainKey(s.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.Write(s.key)
		default:
			fmt.Fprintf(&b, "[%s]", quote(s.key))
		}
	}
	return b.String()
}

func plainKey(k []byte) bool {
	if len(k) == 0 || len(k) > 40 {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// quote quotes a key for a message, cut to 40 bytes so that a huge key
// cannot make a huge message.
func quote(k []byte) string {
	if len(k) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		return strconv.Quote(strings.ToValidUTF8(string(k[:cut]), "?")) + "…"
	}
	return strconv.Quote(strings.ToValidUTF8(string(k), "?"))
}

// printable replaces control characters (a raw newline in a broken
// string) by '?', so that a message stays on one line.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func join(prefix, path string) string {
	switch {
	case path == "":
		return prefix
	case prefix == "":
		return path
	case strings.HasPrefix(path, "["):
		return prefix + path
	}
	return prefix + "." + path
}

// position returns the line and column of offset at.
func position(data []byte, at int) Pos {
	at = min(max(at, 0), len(data))
	before := data[:at]
	line := 1 + bytes.Count(before, []byte{'\n'})
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return Pos{Line: line, Col: 1 + utf8.RuneCount(before[lineStart:])}
}
