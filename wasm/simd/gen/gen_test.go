package main

import (
	"bytes"
	"os/exec"
	"testing"
)

// TestEncoding holds a few instructions to their bytes in the binary
// format: opcodes past 0x7f in LEB128 after the SIMD prefix, signed
// immediates, and the shuffle's sixteen lane bytes.
func TestEncoding(t *testing.T) {
	for _, c := range []struct {
		name string
		emit func(f *fn)
		want []byte
	}{
		{"i64x2.add", (*fn).I64x2Add, []byte{0xfd, 0xce, 0x01}},
		{"f64x2.div", (*fn).F64x2Div, []byte{0xfd, 0xf3, 0x01}},
		{"f64x2.promote_low_f32x4", (*fn).F64x2PromoteLow, []byte{0xfd, 0x5f}},
		{"call 2", func(f *fn) { f.Call(2) }, []byte{0x10, 0x02}},
		{"i32.load8_s", func(f *fn) { f.I32Load8S(0) }, []byte{0x2c, 0x00, 0x00}},
		{"f64.convert_i32_s", (*fn).F64ConvertI32S, []byte{0xb7}},
		{"f64.promote_f32", (*fn).F64PromoteF32, []byte{0xbb}},
		{"v128.bitselect", (*fn).V128Bitselect, []byte{0xfd, 0x52}},
		{"i32.const -16", func(f *fn) { f.I32Const(-16) }, []byte{0x41, 0x70}},
		{"i32.const 64", func(f *fn) { f.I32Const(64) }, []byte{0x41, 0xc0, 0x00}},
		{"v128.load offset 16", func(f *fn) { f.V128Load(16) }, []byte{0xfd, 0x00, 0x04, 0x10}},
		{"shuffle [a1, b1]", func(f *fn) { f.Shuffle64(1, 3) }, []byte{0xfd, 0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31}},
	} {
		f := &fn{}
		c.emit(f)
		if !bytes.Equal(f.code, c.want) {
			t.Errorf("%s: % x, want % x", c.name, f.code, c.want)
		}
	}
}

// TestModule checks the module's frame (magic, version, its one import
// and its exports) and that the same source gives the same bytes; where node
// is installed, that WebAssembly compiles it.
func TestModule(t *testing.T) {
	a, b := module(kernels()), module(kernels())
	if !bytes.Equal(a, b) {
		t.Fatal("two generations differ")
	}
	// psqgrad calls pdots, paxpys and paxpysd by their indices, ssqgrad
	// sdots and saxpys.
	k := kernels()
	for i, name := range map[uint32]string{pdotsIndex: "pdots", paxpysIndex: "paxpys", paxpysdIndex: "paxpysd", sdotsIndex: "sdots", saxpysIndex: "saxpys"} {
		if k[i].name != name {
			t.Errorf("kernel %d is %s, not %s", i, k[i].name, name)
		}
	}
	if !bytes.HasPrefix(a, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatalf("header % x", a[:8])
	}
	for _, s := range []string{"\x02go\x03mem\x02\x00\x00", "\x04grad\x00\x00", "\x05pdots\x00\x01", "\x06paxpys\x00\x02", "\x07pslopes\x00\x03", "\x03pnn\x00\x04", "\x03pnt\x00\x05", "\x07pim2col\x00\x06", "\x07pcol2im\x00\x07", "\x07psqgrad\x00\x08", "\x05sdots\x00\x09", "\x06saxpys\x00\x0a", "\x07ssqgrad\x00\x0b", "\x07paxpysd\x00\x0c"} {
		if !bytes.Contains(a, []byte(s)) {
			t.Errorf("no %q in the module", s)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: the module's validation skipped")
	}
	cmd := exec.Command("node", "-e", `const m = new WebAssembly.Module(require("fs").readFileSync(0));
const e = WebAssembly.Module.exports(m), i = WebAssembly.Module.imports(m);
if (JSON.stringify(e) !== '[{"name":"grad","kind":"function"},{"name":"pdots","kind":"function"},{"name":"paxpys","kind":"function"},{"name":"pslopes","kind":"function"},{"name":"pnn","kind":"function"},{"name":"pnt","kind":"function"},{"name":"pim2col","kind":"function"},{"name":"pcol2im","kind":"function"},{"name":"psqgrad","kind":"function"},{"name":"sdots","kind":"function"},{"name":"saxpys","kind":"function"},{"name":"ssqgrad","kind":"function"},{"name":"paxpysd","kind":"function"}]' || JSON.stringify(i) !== '[{"module":"go","name":"mem","kind":"memory"}]') throw new Error(JSON.stringify([e, i]));`)
	cmd.Stdin = bytes.NewReader(a)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node rejects the module: %v\n%s", err, out)
	}
}
