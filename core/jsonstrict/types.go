package jsonstrict

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// want is what a Go type accepts from JSON.
type want int

const (
	wAny    want = iota // an interface: any value, null too; numbers must fit a float64
	wCustom             // a type with its own UnmarshalJSON, or inside a RawMessage: any value
	wRaw                // json.RawMessage: any value but null (it is decoded later, strictly)
	wStruct             // an object with the struct's keys
	wMap                // an object with any keys
	wSlice              // a list
	wArray              // a list of exactly length entries
	wString             // a string (also a type with UnmarshalText)
	wBytes              // a string (base64, as encoding/json reads []byte)
	wBool
	wInt
	wUint
	wFloat
)

func (w want) numeric() bool { return w == wInt || w == wUint || w == wFloat }

// field is one key of a struct.
type field struct {
	name    string
	typ     reflect.Type
	index   int
	allKeys bool // tagged jsonstrict:"allkeys": its object must give every key
	// maxLen, from a tag jsonstrict:"max=N", bounds the first list met in
	// the field's value (through maps: each value's list), so that a list
	// far beyond any valid size is refused at its (N+1)-th entry, before
	// the rest of the text is read, let alone decoded.
	maxLen int
	lim    *typeInfo // the field's type info with that bound
}

// typeInfo is what the pass needs to know about a Go type; infoOf caches it.
type typeInfo struct {
	want    want
	elem    reflect.Type // slice, array and map elements
	length  int          // array length
	bits    int          // int, uint and float sizes
	key     want         // map key: wString, wInt or wUint
	keyBits int
	fields  []field
	byName  map[string]*field
	allKeys bool // a struct tagged jsonstrict:"allkeys": every key is required
	t       reflect.Type
	// maxLen bounds a list's entries (0: no bound); elemInfo, when set,
	// replaces infoOf(elem) for a map's values (carrying their bound).
	maxLen   int
	elemInfo *typeInfo
}

var (
	infoCache sync.Map // reflect.Type → *typeInfo

	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessage      = reflect.TypeFor[json.RawMessage]()
)

// allKeysType keys the cached info of a struct reached through a field
// tagged jsonstrict:"allkeys", which differs from the plain type's.
type allKeysType struct{ t reflect.Type }

// infoOf returns the cached typeInfo of t (pointers removed: null is never
// accepted for them either).
func infoOf(t reflect.Type) *typeInfo {
	for t.Kind() == reflect.Pointer && t != rawMessage && !t.Implements(jsonUnmarshaler) {
		t = t.Elem()
	}
	if ti, ok := infoCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := newInfo(t)
	infoCache.Store(t, ti)
	return ti
}

func newInfo(t reflect.Type) *typeInfo {
	ti := &typeInfo{t: t}
	switch {
	case t == rawMessage:
		ti.want = wRaw
		return ti
	case t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler):
		ti.want = wCustom
		return ti
	case t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler):
		ti.want = wString
		return ti
	}
	switch t.Kind() {
	case reflect.Interface:
		ti.want = wAny
	case reflect.Struct:
		ti.want = wStruct
		ti.fields = structFields(t)
		ti.byName = make(map[string]*field, len(ti.fields))
		for i := range ti.fields {
			ti.fields[i].index = i
			ti.byName[ti.fields[i].name] = &ti.fields[i]
		}
	case reflect.Map:
		ti.want, ti.elem = wMap, t.Elem()
		switch k := t.Key(); k.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ti.key, ti.keyBits = wInt, k.Bits()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ti.key, ti.keyBits = wUint, k.Bits()
		default:
			ti.key = wString
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(jsonUnmarshaler) && !reflect.PointerTo(t.Elem()).Implements(textUnmarshaler) {
			ti.want = wBytes
			return ti
		}
		ti.want, ti.elem = wSlice, t.Elem()
	case reflect.Array:
		ti.want, ti.elem, ti.length = wArray, t.Elem(), t.Len()
	case reflect.String:
		ti.want = wString
	case reflect.Bool:
		ti.want = wBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		ti.want, ti.bits = wInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		ti.want, ti.bits = wUint, t.Bits()
	case reflect.Float32, reflect.Float64:
		ti.want, ti.bits = wFloat, t.Bits()
	default:
		// Channels, functions, complex numbers: encoding/json refuses them
		// itself; let it say so.
		ti.want = wCustom
	}
	return ti
}

// structFields lists the JSON keys of a struct as encoding/json sees them:
// exported fields by their tag name or Go name, "-" skipped, embedded
// structs without a tag flattened (the shallower field winning a clash).
// A field tagged `jsonstrict:"allkeys"` requires every key of its object
// type to be given.
func structFields(t reflect.Type) []field {
	var out []field
	seen := map[string]int{} // name → depth
	var walk func(t reflect.Type, depth int, visited map[reflect.Type]bool)
	walk = func(t reflect.Type, depth int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited[t] = true
		defer delete(visited, t)
		var embedded []reflect.StructField
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if sf.Anonymous && name == "" {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					embedded = append(embedded, sf)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if d, ok := seen[name]; ok && d <= depth {
				continue
			}
			seen[name] = depth
			ft := sf.Type
			if strings.Contains(","+opts+",", ",string,") {
				ft = anyType // `json:",string"` quotes the value; let encoding/json judge it
			}
			f := field{name: name, typ: ft}
			for _, opt := range strings.Split(sf.Tag.Get("jsonstrict"), ",") {
				switch {
				case opt == "allkeys":
					f.allKeys = true
				case strings.HasPrefix(opt, "max="):
					n, err := strconv.Atoi(strings.TrimPrefix(opt, "max="))
					if err != nil || n < 1 {
						panic("jsonstrict: bad tag " + strconv.Quote(opt) + " on " + t.String() + "." + sf.Name)
					}
					f.maxLen = n
					f.lim = limitInfo(infoOf(ft), n)
				}
			}
			out = append(out, f)
		}
		for _, sf := range embedded {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			walk(et, depth+1, visited)
		}
	}
	walk(t, 0, map[reflect.Type]bool{})
	return out
}

// allKeysInfo returns ti marked so that every key is required; the copy is
// cached apart from the plain type's info.
func allKeysInfo(ti *typeInfo) *typeInfo {
	if ti.want != wStruct {
		return ti
	}
	key := allKeysType{ti.t}
	if c, ok := infoCache.Load(key); ok {
		return c.(*typeInfo)
	}
	cp := *ti
	cp.allKeys = true
	infoCache.Store(key, &cp)
	return &cp
}

// limitInfo returns ti with its first list level bounded to n entries:
// ti itself for a list, each value's list for a map, and ti unchanged for
// anything else. Copies are made per field, once, when the struct's info
// is built.
func limitInfo(ti *typeInfo, n int) *typeInfo {
	switch ti.want {
	case wSlice:
		cp := *ti
		cp.maxLen = n
		return &cp
	case wMap:
		cp := *ti
		cp.elemInfo = limitInfo(infoOf(ti.elem), n)
		return &cp
	}
	return ti
}

// keyList lists a struct's keys for a message.
func (ti *typeInfo) keyList() string {
	names := make([]string, len(ti.fields))
	for i, f := range ti.fields {
		names[i] = strconv.Quote(f.name)
	}
	if len(names) > 24 {
		names = append(names[:24], "…")
	}
	return strings.Join(names, ", ")
}

// intRange returns the bounds of an integer type, for messages.
func (ti *typeInfo) intRange() (lo, hi string) {
	if ti.want == wUint {
		return "0", strconv.FormatUint(1<<ti.bits-1, 10)
	}
	return strconv.FormatInt(-1<<(ti.bits-1), 10), strconv.FormatInt(1<<(ti.bits-1)-1, 10)
}

// describe says in words what a type expects: "a whole number", "an
// object {…}", "a list of exactly 2 numbers".
func describe(ti *typeInfo) string {
	switch ti.want {
	case wAny, wCustom, wRaw:
		return "a JSON value"
	case wStruct, wMap:
		return "an object {…}"
	case wSlice:
		return "a list […]"
	case wArray:
		return fmt.Sprintf("a list of exactly %d %s", ti.length, plural(infoOf(ti.elem), ti.length))
	case wString, wBytes:
		return "a string"
	case wBool:
		return "true or false"
	case wInt, wUint:
		return "a whole number"
	case wFloat:
		return "a number"
	}
	return "a JSON value"
}

func plural(ti *typeInfo, n int) string {
	s := map[want]string{
		wStruct: "object", wMap: "object", wSlice: "list", wArray: "list",
		wString: "string", wBytes: "string", wBool: "true-or-false value",
		wInt: "whole number", wUint: "whole number", wFloat: "number",
	}[ti.want]
	if s == "" {
		s = "value"
	}
	if n != 1 {
		s += "s"
	}
	return s
}
