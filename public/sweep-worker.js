// sweep-worker.js — one Web Worker of the experiments panel: runs
// solver.wasm (wasm/solver: the experiment engine and the figure code, no
// ebiten) and answers the page's requests. Every request is
// {id, cmd, ...}; every answer is {id, ok, value | error}, and a "run"
// request also streams {id, progress: {task, record}} for each run.
//
// The page compiles solver.wasm once and sends the WebAssembly.Module in
// the "init" request, so N workers cost one download and one compilation.
'use strict';
importScripts('wasm_exec.js');
importScripts('simd.js'); // dpsimSIMD: solver.wasm imports the classifier's SIMD gradient

let solver = null;

function waitForSolver() {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    (function poll() {
      if (self.dpsimSolver) return resolve(self.dpsimSolver);
      if (Date.now() - t0 > 30000) return reject(new Error('solver.wasm did not start within 30 s'));
      setTimeout(poll, 5);
    })();
  });
}

function check(v) {
  if (v && typeof v === 'object' && !(v instanceof Uint8Array) && typeof v.error === 'string') throw new Error(v.error);
  return v;
}

async function handle(msg) {
  switch (msg.cmd) {
    case 'init': {
      const go = new Go();
      await dpsimSIMD.prepare(go).ready; // compiled before go.run, so linked from the first run
      const inst = await WebAssembly.instantiate(msg.module, go.importObject);
      go.run(inst); // runs until the worker is terminated
      solver = await waitForSolver();
      return true;
    }
    case 'define': // an experiment of the page's (a dropped file): wasm/solver/custom.go
      return JSON.parse(check(solver.define(msg.json)));
    case 'presets':
      return JSON.parse(check(solver.presets()));
    case 'plan':
      return JSON.parse(check(solver.plan(msg.name, msg.runs || 0)));
    case 'settings': // the panel's Workers setting as declared (experiment.PageSettings)
      return JSON.parse(check(solver.settings()));
    case 'workers': // how many Workers run the sweep, or the field's one-line error
      return JSON.parse(check(solver.workers(msg.name || '', msg.runs || 0, msg.text || '', msg.cores || 0)));
    case 'run': {
      // A chunk of tasks, one after another; the page hands out the next
      // chunk when this one is done, and cancels by terminating us.
      for (const t of msg.tasks) {
        // How far a long run is, a few times a second: {task, iter, total}.
        const report = (iter, total) => self.postMessage({ id: msg.id, progress: { task: t, iter, total } });
        const rec = check(solver.runTask(msg.name, msg.runs || 0, t, report));
        self.postMessage({ id: msg.id, progress: { task: t, record: rec } });
      }
      return msg.tasks.length;
    }
    case 'assemble': {
      const r = check(solver.assemble(msg.name, msg.runs || 0, msg.records));
      return { json: r.json, csv: r.csv, figure: r.figure };
    }
    case 'dataNeeds':
      return JSON.parse(check(solver.dataNeeds(msg.kind, msg.arg)));
    case 'provide': {
      // A dataset file the page fetched: checked against the manifest and
      // decoded here, kept for this worker's life.
      const r = solver.provideData(msg.file, msg.bytes);
      if (!r.ok) throw new Error(r.error);
      return r.ms;
    }
    case 'userNeeds': // the user's files an experiment names (wasm/solver/userfiles.go)
      return JSON.parse(check(solver.userNeeds(msg.kind, msg.arg)));
    case 'provideUser': {
      // A file of the user's the page holds (picked or dropped), with the
      // sha256 the page read: kept here as in the page's simulator.
      const r = solver.provideUserFile(msg.name, msg.bytes, msg.pin || '');
      if (!r.ok) throw new Error(r.error);
      return r.sha256;
    }
    case 'fromScenario': // the sweep of the page's current scenario, kept as define keeps one
      return JSON.parse(check(solver.fromScenario(msg.scenario, msg.field || '', msg.values || '', msg.runs || 0)));
    case 'attack':
      return JSON.parse(check(solver.attack(msg.dataset, JSON.stringify(msg.options || {}))));
    case 'experimentFromJSON':
      // A generated experiment (or a comparison's privacy–utility one),
      // registered under its name for plan, run and assemble.
      return JSON.parse(check(solver.experimentFromJSON(msg.json)));
    case 'figureData': // a kept sweep's picture, from its figure data (the gallery)
      return check(solver.figureData(msg.figure, msg.format));
    case 'figure': {
      const v = check(solver.figure(msg.result, msg.format));
      return v;
    }
  }
  throw new Error('unknown request ' + msg.cmd);
}

self.onmessage = async (e) => {
  const msg = e.data;
  try {
    const value = await handle(msg);
    self.postMessage({ id: msg.id, ok: true, value });
  } catch (err) {
    self.postMessage({ id: msg.id, ok: false, error: String(err && err.message || err) });
  }
};
