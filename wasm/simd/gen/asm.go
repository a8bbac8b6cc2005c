package main

import (
	"encoding/binary"
	"math"
)

// Value types of the WebAssembly binary format.
const (
	i32  = 0x7f
	f64  = 0x7c
	v128 = 0x7b
)

// fn is one function body under construction: its parameters, its
// locals by type, and its instructions as bytes. The methods are named
// after the instructions they append (WebAssembly core spec §5.4 and the
// fixed-width SIMD proposal's opcode table), so a kernel reads as its
// instruction list.
type fn struct {
	name    string
	params  []byte
	results []byte
	locals  []byte // the type of each local after the parameters
	code    []byte
}

// local declares a local of type t and returns its index.
func (f *fn) local(t byte) uint32 {
	f.locals = append(f.locals, t)
	return uint32(len(f.params) + len(f.locals) - 1)
}

func (f *fn) op(b ...byte)             { f.code = append(f.code, b...) }
func (f *fn) u(v uint32)               { f.code = binary.AppendUvarint(f.code, uint64(v)) }
func (f *fn) memarg(align, off uint32) { f.u(align); f.u(off) }

// sleb appends v in signed LEB128 (the format's integer immediates).
func (f *fn) sleb(v int64) {
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			f.code = append(f.code, b)
			return
		}
		f.code = append(f.code, b|0x80)
	}
}

// Control.
func (f *fn) Block()          { f.op(0x02, 0x40) }
func (f *fn) Loop()           { f.op(0x03, 0x40) }
func (f *fn) If()             { f.op(0x04, 0x40) }
func (f *fn) Else()           { f.op(0x05) }
func (f *fn) End()            { f.op(0x0b) }
func (f *fn) Br(depth uint32) { f.op(0x0c); f.u(depth) }
func (f *fn) BrIf(depth uint32) {
	f.op(0x0d)
	f.u(depth)
}
func (f *fn) Return() { f.op(0x0f) }

// Call calls the module's function of index i (its place in kernels).
func (f *fn) Call(i uint32) { f.op(0x10); f.u(i) }

// Drop discards the value on top of the stack.
func (f *fn) Drop() { f.op(0x1a) }

// LoopUntil opens a loop that leaves as soon as cond (which pushes an
// i32) is true, tested before each pass; EndLoop closes it.
func (f *fn) LoopUntil(cond func()) { f.Block(); f.Loop(); cond(); f.BrIf(1) }

// EndLoop branches back to LoopUntil's test and closes its loop.
func (f *fn) EndLoop() { f.Br(0); f.End(); f.End() }

// Inc adds by to the i32 local l.
func (f *fn) Inc(l uint32, by int32) { f.Get(l); f.I32Const(by); f.I32Add(); f.Set(l) }

// Span sets p to base and e to base + n<<shift: the start and end of n
// elements of 1<<shift bytes, for a LoopUntil over them.
func (f *fn) Span(p, e, base, n uint32, shift int32) {
	f.Get(base)
	f.Set(p)
	f.Get(base)
	f.Get(n)
	f.I32Const(shift)
	f.I32Shl()
	f.I32Add()
	f.Set(e)
}

// Addr pushes the i32 sum of the locals base and off (an address).
func (f *fn) Addr(base, off uint32) { f.Get(base); f.Get(off); f.I32Add() }

// Locals.
func (f *fn) Get(i uint32) { f.op(0x20); f.u(i) }
func (f *fn) Set(i uint32) { f.op(0x21); f.u(i) }
func (f *fn) Tee(i uint32) { f.op(0x22); f.u(i) }

// Scalar memory and numbers.
func (f *fn) F64Load(off uint32)    { f.op(0x2b); f.memarg(3, off) }
func (f *fn) F64Store(off uint32)   { f.op(0x39); f.memarg(3, off) }
func (f *fn) I64Load(off uint32)    { f.op(0x29); f.memarg(3, off) }
func (f *fn) I32Load(off uint32)    { f.op(0x28); f.memarg(2, off) }
func (f *fn) I32Load16U(off uint32) { f.op(0x2f); f.memarg(1, off) }
func (f *fn) I32Load8U(off uint32)  { f.op(0x2d); f.memarg(0, off) }
func (f *fn) I32Load8S(off uint32)  { f.op(0x2c); f.memarg(0, off) }
func (f *fn) I32WrapI64()           { f.op(0xa7) }
func (f *fn) I32Eq()                { f.op(0x46) }
func (f *fn) I32ShrU()              { f.op(0x76) }
func (f *fn) I32Const(v int32)      { f.op(0x41); f.sleb(int64(v)) }
func (f *fn) F64Const(v float64) {
	f.op(0x44)
	f.code = binary.LittleEndian.AppendUint64(f.code, math.Float64bits(v))
}
func (f *fn) I32Eqz() { f.op(0x45) }
func (f *fn) I32LtU() { f.op(0x49) }
func (f *fn) I32GtU() { f.op(0x4b) }
func (f *fn) I32GeU() { f.op(0x4f) }
func (f *fn) I32LtS() { f.op(0x48) }
func (f *fn) F64Ge()  { f.op(0x66) }
func (f *fn) F64Le()  { f.op(0x65) }
func (f *fn) I32Add() { f.op(0x6a) }
func (f *fn) I32Sub() { f.op(0x6b) }
func (f *fn) I32Mul() { f.op(0x6c) }
func (f *fn) I32And() { f.op(0x71) }
func (f *fn) I32Shl() { f.op(0x74) }
func (f *fn) F64Abs() { f.op(0x99) }
func (f *fn) F64Neg() { f.op(0x9a) }
func (f *fn) F64Add() { f.op(0xa0) }
func (f *fn) F64Sub() { f.op(0xa1) }
func (f *fn) F64Mul() { f.op(0xa2) }
func (f *fn) F64Div() { f.op(0xa3) }

// F64ConvertI32S converts a signed i32 to f64 (exactly).
func (f *fn) F64ConvertI32S() { f.op(0xb7) }

// F64PromoteF32 widens an f32 to f64 (exactly).
func (f *fn) F64PromoteF32() { f.op(0xbb) }

// F64ConvertI32U converts an unsigned i32 to f64 (exactly).
func (f *fn) F64ConvertI32U() { f.op(0xb8) }
func (f *fn) F64Ne()          { f.op(0x62) }
func (f *fn) Select()         { f.op(0x1b) }

// SIMD (prefix 0xfd, then the opcode in unsigned LEB128).
func (f *fn) simd(op uint32) { f.op(0xfd); f.u(op) }

func (f *fn) V128Load(off uint32)        { f.simd(0x00); f.memarg(4, off) }
func (f *fn) V128Load64Splat(off uint32) { f.simd(0x0a); f.memarg(3, off) }
func (f *fn) V128Store(off uint32)       { f.simd(0x0b); f.memarg(4, off) }
func (f *fn) V128Load64Zero(off uint32)  { f.simd(0x5d); f.memarg(3, off) }
func (f *fn) V128Load32Zero(off uint32)  { f.simd(0x5c); f.memarg(2, off) }

// V128Load8x8U loads eight bytes and widens them to i16x8, unsigned.
func (f *fn) V128Load8x8U(off uint32) { f.simd(0x02); f.memarg(3, off) }
func (f *fn) V128Load64Lane(off uint32, lane byte) {
	f.simd(0x57)
	f.memarg(3, off)
	f.op(lane)
}
func (f *fn) V128Store64Lane(off uint32, lane byte) {
	f.simd(0x5b)
	f.memarg(3, off)
	f.op(lane)
}

// V128Const pushes two f64 lanes given by their bits.
func (f *fn) V128Const(lo, hi uint64) {
	f.simd(0x0c)
	f.code = binary.LittleEndian.AppendUint64(f.code, lo)
	f.code = binary.LittleEndian.AppendUint64(f.code, hi)
}

// Shuffle64 pushes the f64x2 [a.lane(p), b.lane(q)] for lanes numbered
// 0–1 in a and 2–3 in b (i8x16.shuffle with 64-bit lanes).
func (f *fn) Shuffle64(p, q byte) {
	f.simd(0x0d)
	for _, l := range []byte{p, q} {
		for b := byte(0); b < 8; b++ {
			f.op(8*l + b)
		}
	}
}

func (f *fn) F64x2Splat() { f.simd(0x14) }

// F64x2ExtractLane pushes lane l of a v128 as an f64.
func (f *fn) F64x2ExtractLane(l byte) { f.simd(0x21); f.op(l) }
func (f *fn) F64x2Ge()                { f.simd(0x4c) }
func (f *fn) F64x2Le()                { f.simd(0x4b) }
func (f *fn) V128And()                { f.simd(0x4e) }
func (f *fn) V128Or()                 { f.simd(0x50) }
func (f *fn) V128Xor()                { f.simd(0x51) }
func (f *fn) V128Bitselect()          { f.simd(0x52) }
func (f *fn) I64x2AllTrue()           { f.simd(0xc3) }
func (f *fn) I64x2Shl()               { f.simd(0xcb) }
func (f *fn) I64x2Add()               { f.simd(0xce) }
func (f *fn) F64x2Trunc()             { f.simd(0x7a) }
func (f *fn) F64x2Abs()               { f.simd(0xec) }
func (f *fn) F64x2Neg()               { f.simd(0xed) }
func (f *fn) F64x2Add()               { f.simd(0xf0) }
func (f *fn) F64x2Sub()               { f.simd(0xf1) }
func (f *fn) F64x2Mul()               { f.simd(0xf2) }
func (f *fn) F64x2Div()               { f.simd(0xf3) }
func (f *fn) I64x2Splat()             { f.simd(0x12) }

// I32x4ExtendLowI16x8U widens the low four u16 lanes to i32x4.
func (f *fn) I32x4ExtendLowI16x8U() { f.simd(0xa9) }

// I32x4ExtendHighI16x8U widens the high four u16 lanes to i32x4.
func (f *fn) I32x4ExtendHighI16x8U() { f.simd(0xaa) }

// F64x2ConvertLowI32x4S converts the low two i32 lanes to f64 (exactly).
func (f *fn) F64x2ConvertLowI32x4S() { f.simd(0xfe) }

// F64x2PromoteLow converts the low two f32 lanes to f64 (exactly).
func (f *fn) F64x2PromoteLow() { f.simd(0x5f) }

// module encodes a module of the given functions, every one exported
// under its name, importing its memory as "go" "mem" (Go's own).
func module(fns []*fn) []byte {
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	section := func(id byte, body []byte) {
		out = append(out, id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	vec := func(b []byte, n int) []byte { return binary.AppendUvarint(b, uint64(n)) }
	name := func(b []byte, s string) []byte { return append(vec(b, len(s)), s...) }

	var types []byte
	types = vec(types, len(fns))
	for _, f := range fns {
		types = append(types, 0x60)
		types = append(vec(types, len(f.params)), f.params...)
		types = append(vec(types, len(f.results)), f.results...)
	}
	section(1, types)

	var imports []byte
	imports = vec(imports, 1)
	imports = name(imports, "go")
	imports = name(imports, "mem")
	imports = append(imports, 0x02, 0x00, 0x00) // memory, limits {min 0}
	section(2, imports)

	var funcs []byte
	funcs = vec(funcs, len(fns))
	for i := range fns {
		funcs = binary.AppendUvarint(funcs, uint64(i))
	}
	section(3, funcs)

	var exports []byte
	exports = vec(exports, len(fns))
	for i, f := range fns {
		exports = name(exports, f.name)
		exports = append(exports, 0x00)
		exports = binary.AppendUvarint(exports, uint64(i))
	}
	section(7, exports)

	var code []byte
	code = vec(code, len(fns))
	for _, f := range fns {
		var body []byte
		// Locals as runs of one type.
		var runs [][2]int
		for _, t := range f.locals {
			if len(runs) > 0 && runs[len(runs)-1][1] == int(t) {
				runs[len(runs)-1][0]++
			} else {
				runs = append(runs, [2]int{1, int(t)})
			}
		}
		body = vec(body, len(runs))
		for _, r := range runs {
			body = vec(body, r[0])
			body = append(body, byte(r[1]))
		}
		body = append(body, f.code...)
		body = append(body, 0x0b)
		code = vec(code, len(body))
		code = append(code, body...)
	}
	section(10, code)
	return out
}

// V128Load16Splat loads two bytes into every 16-bit lane.
func (f *fn) V128Load16Splat(off uint32) { f.simd(0x08); f.memarg(1, off) }

// I16x8ExtendLowI8x16S widens the low eight i8 lanes to i16x8, signed.
func (f *fn) I16x8ExtendLowI8x16S() { f.simd(0x87) }

// I32x4ExtendLowI16x8S widens the low four i16 lanes to i32x4, signed.
func (f *fn) I32x4ExtendLowI16x8S() { f.simd(0xa7) }
