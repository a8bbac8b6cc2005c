// run-worker.js — the Web Worker in which the page's simulator has a
// heavy scenario built and run (a dataset or the user's files, a long
// calibration, much data: ui/remote.go). It runs the page's own
// dpsim.wasm in worker mode (self.dpsimWorker: ui.Serve), so the run is
// the page's to the bit, and answers the simulator's requests. Every
// request is {id, cmd, ...}; every answer is {id, ok, value | error}.
// The page stops it by terminating it (Cancel, Escape, or a run
// replaced).
//
// The simulator hands over the WebAssembly.Module the page compiled
// (window.dpsimSimModule) in "init", so a Worker costs no download and no
// compilation; without it the Worker fetches and compiles dpsim.wasm.
//
// Every core for a heavy run (ui/farm.go; docs/bridge.md, "Helper
// Workers"): when the simulator asks (self.dpsimFarm.start), this Worker
// starts helper Workers (farm-worker.js: this same file, the same
// dpsim.wasm) and hands each the module, the dataset files and the
// scenario it was given, so that each builds its own instance of the
// problem ("farmOpen"); then each iteration it posts every helper its
// agents' points ("grads") and hands the gradients back to the simulator
// (api.farmReply). Terminating this Worker terminates its helpers.
'use strict';
importScripts('wasm_exec.js');
importScripts('simd.js'); // dpsimSIMD: dpsim.wasm imports the SIMD gradient kernels

let api = null;
// What the helpers are handed: the module, the files and the scenario
// this Worker was given.
let given = { module: null, files: [], user: [], text: '' };
let helpers = [];

function waitForAPI() {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    (function poll() {
      if (self.dpsimRemote) return resolve(self.dpsimRemote);
      if (Date.now() - t0 > 60000) return reject(new Error('dpsim.wasm did not start in the background thread within 60 s'));
      setTimeout(poll, 5);
    })();
  });
}

function check(v) {
  if (v && typeof v === 'object' && !(v instanceof Uint8Array) && typeof v.error === 'string' && v.error) throw new Error(v.error);
  return v;
}

async function start(module) {
  const go = new Go();
  await dpsimSIMD.prepare(go).ready;
  self.dpsimWorker = true; // dpsim.wasm serves the page (ui.Serve) instead of being it
  let inst;
  if (module) {
    inst = await WebAssembly.instantiate(module, go.importObject);
  } else {
    const r = await fetch('dpsim.wasm');
    if (!r.ok) throw new Error(`dpsim.wasm: HTTP ${r.status} (run ./build.sh)`);
    inst = (await WebAssembly.instantiateStreaming(r, go.importObject)).instance;
  }
  go.run(inst); // runs until the worker is terminated
  api = await waitForAPI();
}

async function handle(msg) {
  switch (msg.cmd) {
    case 'init':
      given.module = msg.module || null;
      await start(msg.module);
      return [true];
    case 'provide': {
      // A dataset file the page fetched: checked against the manifest
      // and decoded here.
      const r = api.provideData(msg.file, msg.bytes);
      if (!r.ok) throw new Error(r.error);
      given.files.push({ file: msg.file, bytes: msg.bytes });
      return [r.ms];
    }
    case 'provideUser': {
      // A file of the user's the page holds (picked or dropped), with
      // the sha256 the page read: kept here as there.
      const r = api.provideUserFile(msg.name, msg.bytes, msg.pin);
      if (!r.ok) throw new Error(r.error);
      given.user.push({ name: msg.name, bytes: msg.bytes, pin: msg.pin });
      return [r.ms];
    }
    case 'open': // builds the scenario: the long part, off the page's thread
      given.text = msg.text;
      return [api.open(msg.text, msg.workers === undefined ? 1 : msg.workers, navigator.hardwareConcurrency || 1)];
    case 'advance': {
      // A Promise: the run may wait for its helpers' gradients.
      const r = check(await api.advance(msg.n, msg.budget, msg.fast));
      return [{ batch: r.batch, summary: r.summary, iter: r.iter }, [r.batch.buffer]];
    }
    case 'farmOpen': { // as a helper: the run's problem, for its gradients
      const err = api.farmOpen(msg.text);
      if (err) throw new Error(err);
      return [true];
    }
    case 'grads': { // as a helper: one request of the run Worker's
      const r = check(api.farmGrads(msg.bytes));
      return [r, [r.buffer]];
    }
    case 'candidates': // the comparison card's, built here where the data is (ui.WorkerCandidates)
      return [api.candidates()];
    case 'export': {
      const r = check(api.exportBytes(msg.kind));
      return [{ name: r.name, mime: r.mime, bytes: r.bytes }, [r.bytes.buffer]];
    }
  }
  throw new Error('unknown request ' + msg.cmd);
}

// helper starts helper Worker k and resolves once it holds the problem.
function helper(k) {
  const w = new Worker('farm-worker.js');
  const calls = new Map();
  let seq = 0;
  const h = {
    w,
    call(cmd, fields, transfer) {
      return new Promise((resolve, reject) => {
        const id = ++seq;
        calls.set(id, { resolve, reject });
        w.postMessage(Object.assign({ id, cmd }, fields), transfer || []);
      });
    },
  };
  w.onmessage = (e) => {
    const d = e.data;
    const c = calls.get(d.id);
    calls.delete(d.id);
    if (!c) return;
    if (d.ok) c.resolve(d.value);
    else c.reject(new Error(d.error));
  };
  w.onerror = (e) => {
    e.preventDefault();
    const err = new Error(`helper ${k + 1}: ${e.message || 'stopped'}`);
    for (const c of calls.values()) c.reject(err);
    calls.clear();
    if (api) api.farmReply(k, -1, null, err.message);
  };
  const boot = (async () => {
    try {
      await h.call('init', { module: given.module });
    } catch (err) {
      if (!given.module) throw err;
      await h.call('init', {}); // a browser that cannot pass the module on: the helper compiles its own
    }
    for (const f of given.files) await h.call('provide', f);
    for (const f of given.user) await h.call('provideUser', f);
    await h.call('farmOpen', { text: given.text });
  })();
  return [h, boot];
}

// spoil is a test hook (e2e/farm.test.js): with self.dpsimFarmFault
// set in this Worker, helper 1's replies arrive as a broken or hostile
// helper's would — core/farm's reply format is a count, then per agent
// its index, its length and its float64s — and the run must find it out,
// compute the gradients itself and keep its bits (core/farm.Helpers;
// TestFarmHostileHelper does the same natively).
function spoil(mode, out) {
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  switch (mode) {
    case 'nan': v.setFloat64(12, NaN, true); return out;
    case 'agent': v.setUint32(4, v.getUint32(4, true) + 1, true); return out;
    case 'truncated': return out.slice(0, out.length - 5);
    case 'throw': throw new Error('RangeError: out of memory (dpsimFarmFault)');
    case 'silent': return null;
  }
  throw new Error('unknown dpsimFarmFault ' + mode);
}

// self.dpsimFarm is what the simulator (ui/farm.go) calls: start n
// helpers, post helper k a request, stop them all.
self.dpsimFarm = {
  start(n) {
    const started = [];
    for (let k = 0; k < n; k++) {
      const [h, boot] = helper(k);
      helpers.push(h);
      started.push(boot);
    }
    Promise.all(started).then(() => api.farmReady(''), (err) => api.farmReady(String(err && err.message || err)));
  },
  post(k, seq, bytes) {
    const h = helpers[k];
    if (!h) { api.farmReply(k, -1, null, `helper ${k + 1} is gone`); return; }
    h.call('grads', { bytes }, [bytes.buffer]).then((out) => {
      if (k === 0 && self.dpsimFarmFault) out = spoil(self.dpsimFarmFault, out);
      if (out) api.farmReply(k, seq, out, '');
    }).catch((err) => api.farmReply(k, -1, null, String(err && err.message || err)));
  },
  stop() {
    for (const h of helpers) h.w.terminate();
    helpers = [];
  },
};

// Requests are answered one at a time, in order: a build or a long
// iteration holds the later ones, as the simulator expects.
let queue = Promise.resolve();
self.onmessage = (e) => {
  const msg = e.data;
  queue = queue.then(async () => {
    try {
      const [value, transfer] = await handle(msg);
      self.postMessage({ id: msg.id, ok: true, value }, transfer || []);
    } catch (err) {
      self.postMessage({ id: msg.id, ok: false, error: String(err && err.message || err) });
    }
  });
};
