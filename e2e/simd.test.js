'use strict';
// End-to-end test of the WebAssembly SIMD module (public/simd.js,
// simd.wasm from wasm/simd/gen): the page's dpsim.wasm, built with the
// dpsimsimd tag, starts with the module linked on its memory, and a Web
// Worker (as sweep-worker.js, which links it for solver.wasm) can
// compile it. The results' bits are held by the Go tests and step e2 of
// ./test.sh; this checks the browser's wiring.
//
//   node --test e2e/simd.test.js      (after ./build.sh)
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const { SITE, CHROMIUM, CHROMIUM_ARGS, startServer } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 120000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpsim-simd-e2e-'));
let server = null;
let baseURL = '';
let ctx = null;

before(async () => {
  const missing = ['index.html', 'simd.js', 'simd.wasm', 'wasm_exec.js', 'dpsim.wasm'].filter((f) => !fs.existsSync(path.join(SITE, f)));
  if (missing.length) throw new Error(`e2e prerequisites missing in ${SITE}: ${missing.join(', ')} (run ./build.sh)`);
  ({ proc: server, url: baseURL } = await startServer(tmp));
  ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(tmp, 'profile-')), {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 720 }, args: CHROMIUM_ARGS,
  });
});

after(async () => {
  if (ctx) await ctx.close();
  if (server) server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the page links the SIMD module, and a worker compiles it', async () => {
  const page = ctx.pages()[0] || await ctx.newPage();
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  assert.equal((await page.goto(baseURL)).status(), 200);
  try {
    await page.waitForFunction(() => window.dpsimReady === true && window.dpsimSIMD && window.dpsimSIMD.status !== 'pending', null, { timeout: TIMEOUT });
  } catch (e) {
    throw new Error(`waiting for the page: ${e.message.split('\n')[0]}\n  console:\n    ${log.slice(-15).join('\n    ')}`);
  }
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
