// simd.js — links the WebAssembly SIMD module (simd.wasm, written by
// build.sh from wasm/simd/gen) to a Go program built with the dpsimsimd
// tag (dpsim.wasm, solver.wasm), whose nonconvex classifier calls it
// through //go:wasmimport dpsimsimd grad (core/problems/nonconvex,
// kernels_simd.go) and whose logistic and DP-RECAL models' full
// gradients call pdots and paxpys, and the squared loss's psqgrad
// (core/problems/internal/learn, packed_simd.go), the sparse pixel rows'
// sdots, saxpys and ssqgrad (learn, sparse_simd.go), and pslopes
// (core/problems/logistic, slopes_simd.go),
// and whose CNN calls pnn, pnt, pim2col and pcol2im (core/nn,
// kern_simd.go).
//
// The SIMD module works in Go's own memory, which exists only once Go's
// module is instantiated, while Go's module needs its imports before
// that. So Go imports a JavaScript trampoline, and the SIMD instance is
// made on Go's memory when go.run starts. Until then, or if simd.wasm
// cannot be had (no WebAssembly SIMD, a failed fetch), the trampoline
// answers 0, "nothing done", and Go does the work itself: the same bits,
// more slowly (TestBlockedGrad and TestPacked hold both paths to them).
//
//   dpsimSIMD.prepare(go[, url])  after new Go(), before instantiating
//
// Runs in a page, a Worker and node (wasm/simd/exec_node.js).
'use strict';
(function (root) {
  // The module's exports, as Go imports them (dpsimsimd.<name>).
  const KERNELS = ['grad', 'pdots', 'paxpys', 'pslopes', 'pnn', 'pnt', 'pim2col', 'pcol2im', 'psqgrad', 'sdots', 'saxpys', 'ssqgrad'];
  const compiled = new Map(); // url -> Promise<WebAssembly.Module | null>
  const done = new Map(); // url -> WebAssembly.Module | null, once compiled

  function compile(url) {
    if (!compiled.has(url)) {
      const p = (async () => {
        if (typeof process !== 'undefined' && process.versions && process.versions.node && !/^[a-z]+:/.test(url)) {
          return new WebAssembly.Module(require('fs').readFileSync(url));
        }
        const res = await fetch(url);
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        return WebAssembly.compile(await res.arrayBuffer());
      })().catch((err) => {
        console.warn(`simd.js: ${err.message || err}; the gradients run without SIMD (same results, slower)`);
        return null;
      });
      p.then((m) => done.set(url, m));
      compiled.set(url, p);
    }
    return compiled.get(url);
  }

  // prepare gives go the imports dpsimsimd.grad, .pdots, .paxpys,
  // .psqgrad, .sdots, .saxpys, .ssqgrad, .pslopes and the CNN's .pnn, .pnt, .pim2col, .pcol2im and wraps go.run so that the SIMD instance is made on the
  // Go instance's memory as it starts: at once if simd.wasm is compiled
  // by then (synchronously: a Go program may run for long before it
  // yields to the event loop), else as soon as it is. It returns a
  // promise that settles once linked (true) or given up (false); its
  // .ready settles once compiled, so a caller that awaits it before
  // go.run has SIMD from the first call.
  function prepare(go, url = 'simd.wasm') {
    // The module's exports once linked; until then (or without it) every
    // kernel answers 0. The trampolines name their parameters: a rest
    // parameter would cost each call an array.
    const k = Object.fromEntries(KERNELS.map((n) => [n, () => 0]));
    go.importObject.dpsimsimd = {
      grad: (z, y, x, out, m, d) => k.grad(z, y, x, out, m, d),
      pdots: (rm, x, out, stride, n, d) => k.pdots(rm, x, out, stride, n, d),
      paxpys: (rm, c, acc, stride, n, w) => k.paxpys(rm, c, acc, stride, n, w),
      pslopes: (z, e, nb, y, idx, first, n) => k.pslopes(z, e, nb, y, idx, first, n),
      pnn: (a, sai, sap, b, ldb, c, ldc, m, n, kk) => k.pnn(a, sai, sap, b, ldb, c, ldc, m, n, kk),
      pnt: (a, b, c, m, n, kk) => k.pnt(a, b, c, m, n, kk),
      pim2col: (x, c, h, w, cols) => k.pim2col(x, c, h, w, cols),
      pcol2im: (x, c, h, w, cols) => k.pcol2im(x, c, h, w, cols),
      psqgrad: (rm, x, s, z, acc, stride, n, w, zn, sp, pk, ps) => k.psqgrad(rm, x, s, z, acc, stride, n, w, zn, sp, pk, ps),
      sdots: (st, col, pix, idx, first, n, x, out) => k.sdots(st, col, pix, idx, first, n, x, out),
      saxpys: (st, col, pix, idx, first, n, c, out) => k.saxpys(st, col, pix, idx, first, n, c, out),
      ssqgrad: (st, col, pix, idx, first, n, x, s, z, out, zn) => k.ssqgrad(st, col, pix, idx, first, n, x, s, z, out, zn),
    };
    const mod = compile(url);
    let linked;
    const result = new Promise((resolve) => { linked = resolve; });
    api.status = 'pending';
    const run = go.run.bind(go);
    go.run = (instance) => {
      const attach = (m) => {
        if (!m) {
          api.status = 'unavailable';
          return linked(false);
        }
        let simd;
        try {
          simd = new WebAssembly.Instance(m, { go: { mem: instance.exports.mem } });
        } catch (err) {
          console.warn(`simd.js: ${err.message || err}; the gradients run without SIMD (same results, slower)`);
          api.status = 'unavailable';
          return linked(false);
        }
        for (const n of KERNELS) k[n] = simd.exports[n];
        api.status = 'linked';
        linked(true);
      };
      if (done.has(url)) attach(done.get(url));
      else mod.then(attach);
      return run(instance);
    };
    result.ready = mod.then((m) => m !== null);
    return result;
  }

  // status: the last prepared program's link, for tests and the curious:
  // 'none' (nothing prepared), 'pending', 'linked' or 'unavailable'.
  const api = { prepare, status: 'none' };
  root.dpsimSIMD = api;
})(globalThis);
