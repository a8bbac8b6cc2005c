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
'use strict';
importScripts('wasm_exec.js');
importScripts('simd.js'); // dpsimSIMD: dpsim.wasm imports the SIMD gradient kernels

let api = null;

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
      await start(msg.module);
      return [true];
    case 'provide': {
      // A dataset file the page fetched: checked against the manifest
      // and decoded here.
      const r = api.provideData(msg.file, msg.bytes);
      if (!r.ok) throw new Error(r.error);
      return [r.ms];
    }
    case 'provideUser': {
      // A file of the user's the page holds (picked or dropped), with
      // the sha256 the page read: kept here as there.
      const r = api.provideUserFile(msg.name, msg.bytes, msg.pin);
      if (!r.ok) throw new Error(r.error);
      return [r.ms];
    }
    case 'open': // builds the scenario: the long part, off the page's thread
      return [api.open(msg.text)];
    case 'advance': {
      const r = check(api.advance(msg.n, msg.budget, msg.fast));
      return [{ batch: r.batch, summary: r.summary, iter: r.iter }, [r.batch.buffer]];
    }
    case 'export': {
      const r = check(api.exportBytes(msg.kind));
      return [{ name: r.name, mime: r.mime, bytes: r.bytes }, [r.bytes.buffer]];
    }
  }
  throw new Error('unknown request ' + msg.cmd);
}

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
