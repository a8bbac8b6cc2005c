// exec_node.js — Go's wasm_exec_node.js (GOROOT/lib/wasm) for programs
// built with the dpsimsimd tag: it links the SIMD module through
// public/simd.js before go.run, so they run with SIMD from the first
// call. Run by wasm/simd/go_js_wasm_exec, which sets DPSIM_GOROOT and
// DPSIM_SIMD_WASM (the module's path).
"use strict";

if (process.argv.length < 3) {
	console.error("usage: go_js_wasm_exec [wasm binary] [arguments]");
	process.exit(1);
}

globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("performance");
globalThis.crypto ??= require("crypto");

require(path.join(process.env.DPSIM_GOROOT, "lib", "wasm", "wasm_exec.js"));
require(path.join(__dirname, "..", "..", "public", "simd.js"));

const go = new Go();
go.argv = process.argv.slice(2);
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
const linked = dpsimSIMD.prepare(go, process.env.DPSIM_SIMD_WASM);
linked.ready.then((ok) => {
	if (!ok) throw new Error(`exec_node.js: could not compile ${process.env.DPSIM_SIMD_WASM}`);
	return WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject);
}).then((result) => {
	process.on("exit", (code) => { // Node.js exits if no event handler is pending
		if (code === 0 && !go.exited) {
			// deadlock, make Go print error and stack traces
			go._pendingEvent = { id: 0 };
			go._resume();
		}
	});
	return go.run(result.instance);
}).catch((err) => {
	console.error(err);
	process.exit(1);
});
