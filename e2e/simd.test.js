'use strict';
// End-to-end test of the WebAssembly SIMD module (public/simd.js,
// simd.wasm from wasm/simd/gen): the page's dpsim.wasm, built with the
// dpsimsimd tag, starts with the module linked on its memory, and a Web
// Worker (as sweep-worker.js, which links it for solver.wasm) can
// compile it. The results' bits are held by the Go tests and step e2 of
// ./test.sh; this checks the browser's wiring.
//
//   node --test e2e/simd.test.js      (after ./build.sh)
const { test, before } = require('node:test');
const assert = require('node:assert/strict');

const { built, open, waiter } = require('./harness.js');
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, polling: 'raf', state: () => JSON.stringify(window.dpsimSIMD) });

before(() => built(['index.html', 'simd.js', 'simd.wasm', 'wasm_exec.js', 'dpsim.wasm']));

test('the page links the SIMD module, and a worker compiles it', async () => {
  const p = await open('');
  const { page, log } = p;
  assert.equal(p.response.status(), 200);
  await waitFor(p, 'the page', () => window.dpsimReady === true && window.dpsimSIMD && window.dpsimSIMD.status !== 'pending');
  assert.equal(await page.evaluate(() => window.dpsimSIMD.status), 'linked', `console:\n${log.join('\n')}`);
  assert.deepEqual(log.filter((l) => /simd\.js|LinkError|dpsimsimd/.test(l)), []);

  const inWorker = await page.evaluate(() => new Promise((resolve) => {
    const src = `importScripts(${JSON.stringify(location.origin + '/simd.js')});
      dpsimSIMD.prepare({ importObject: {}, run() {} }, ${JSON.stringify(location.origin + '/simd.wasm')}).ready.then((ok) => postMessage(ok));`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    w.onmessage = (e) => { resolve(e.data); w.terminate(); };
    w.onerror = (e) => resolve(`error: ${e.message}`);
  }));
  assert.equal(inWorker, true, 'a worker compiles simd.wasm');
});
