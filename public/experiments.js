// experiments.js — the Experiments panel: Monte Carlo sweeps in Web
// Workers, one per core, each running solver.wasm (wasm/solver). The
// panel lists the experiment presets the solver knows (a new preset file
// appears here without page changes), runs a sweep with a progress bar
// and a Cancel button, draws the figure with uPlot (bands, hover
// readouts), shows the expectations' verdicts, and offers the JSON, CSV,
// SVG and PNG — the bytes "dpsim sweep" writes.
//
// Nothing here runs on the page's thread but bookkeeping: the runs, the
// statistics and the figures are computed in the workers. Tests read
// window.dpsimSweepState (docs/experiments.md, "The page"); window.dpsimExperiments.openJSON
// opens an experiment given as JSON (a dropped file, public/export.js).
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const { fmt, logAxis } = window.dpsimPlot;

  // The panel's markup, one copy for index.html and experiments.html:
  // data-open opens it, data-link adds a link to the other page.
  const section = $('exp-section');
  const link = section.dataset.link
    ? ` · <a href="${section.dataset.link}">experiments on their own page</a>` : '';
  section.innerHTML = `<details id="exp-box"${'open' in section.dataset ? ' open' : ''}>
    <summary><h2>Experiments <span class="muted">— Monte Carlo sweeps and paper figures, on every core (Web Workers)</span></h2></summary>
    <div class="row">
      <label for="exp-preset">Experiment</label>
      <select id="exp-preset" disabled><option>(loading the solver…)</option></select>
      <button type="button" id="exp-run" class="primary" disabled>Run sweep</button>
      <button type="button" id="exp-cancel" disabled>Cancel</button>
    </div>
    <div class="row" id="exp-current-row" hidden>
      <button type="button" id="exp-current" disabled title="A new experiment: the scenario on screen (trained on your files, if it is), many seeded runs; the Runs per point box applies">Sweep the current scenario</button>
      <label for="exp-field">over</label>
      <input type="text" id="exp-field" class="mono exp-field" placeholder="nothing: along the iterations" title="A scenario field, e.g. noise.eta.scale, calibrate.epsilon or algorithm.params.alpha; empty draws the error along the iterations" spellcheck="false">
      <label for="exp-values">at</label>
      <input type="text" id="exp-values" class="mono exp-values" placeholder="e.g. 0.1, 1, 10" spellcheck="false">
    </div>
    <div class="row">
      <label for="exp-runs">Runs per point</label>
      <input type="number" id="exp-runs" min="1" step="1" inputmode="numeric" class="mono exp-runs" placeholder="the preset's" title="More runs give tighter bands; empty keeps the experiment's own count (the papers' 50, say), like dpsim sweep --runs">
      <span id="exp-runs-error" class="field-error" role="alert"></span>
      <label for="exp-workers">Workers</label>
      <input type="text" id="exp-workers" inputmode="numeric" class="mono exp-workers" placeholder="auto" spellcheck="false" aria-describedby="exp-workers-hint">
      <span id="exp-workers-hint" class="muted exp-workers-hint"></span>
      <span id="exp-workers-error" class="field-error" role="alert"></span>
    </div>
    <p id="exp-desc" class="exp-desc muted"></p>
    <div class="exp-progress-row">
      <progress id="exp-progress" value="0" max="1"></progress>
      <span id="exp-progress-text" class="mono" role="status" aria-live="polite"></span>
    </div>
    <p id="exp-msg" class="exp-msg" role="alert"></p>
    <h3 id="exp-fig-title" class="exp-fig-title"></h3>
    <p id="exp-fig-sub" class="exp-fig-sub muted"></p>
    <div id="exp-figure" class="exp-figure" role="img" aria-label="Experiment figure"></div>
    <ul id="exp-legend" class="exp-legend"></ul>
    <p id="exp-readout" class="exp-readout mono"></p>
    <ul id="exp-verdicts" class="exp-verdicts"></ul>
    <div id="exp-table" class="exp-table"></div>
    <div class="row">
      <span class="muted">Download:</span>
      <button type="button" id="exp-dl-json" disabled>JSON</button>
      <button type="button" id="exp-dl-csv" disabled>CSV</button>
      <button type="button" id="exp-dl-svg" disabled>SVG</button>
      <button type="button" id="exp-dl-png" disabled>PNG</button>
      <span class="muted">— the same files as <code>dpsim sweep</code>${link}</span>
    </div>
  </details>`;
  const box = $('exp-box');
  const sel = $('exp-preset');
  const runBtn = $('exp-run');
  const cancelBtn = $('exp-cancel');
  const runsIn = $('exp-runs');
  const runsErr = $('exp-runs-error');
  const workersIn = $('exp-workers');
  const workersHint = $('exp-workers-hint');
  const workersErr = $('exp-workers-error');
  const currentRow = $('exp-current-row');
  const currentBtn = $('exp-current');
  const fieldIn = $('exp-field');
  const valuesIn = $('exp-values');
  const desc = $('exp-desc');
  const bar = $('exp-progress');
  const progText = $('exp-progress-text');
  const fig = $('exp-figure');
  const figTitle = $('exp-fig-title');
  const figSub = $('exp-fig-sub');
  const readout = $('exp-readout');
  const legend = $('exp-legend');
  const verdicts = $('exp-verdicts');
  const msg = $('exp-msg');
  const dl = { json: $('exp-dl-json'), csv: $('exp-dl-csv'), svg: $('exp-dl-svg'), png: $('exp-dl-png') };

  const CHUNK = 2; // runs per request: small, so progress is smooth and Cancel is prompt
  const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];

  const state = {
    status: 'idle', // idle, loading, ready, running, assembling, done, cancelled, error
    experiment: '', done: 0, total: 0, workers: 0, running: 0,
    etaSeconds: null, elapsedSeconds: 0, maxStallMs: 0,
    partial: false, verdicts: [], presets: [], error: '', figureDrawn: false,
    restored: '', // the experiment of a sweep shown from the browser's keeping
  };
  window.dpsimSweepState = state;

  // timed wraps a callback of this panel to keep the longest time it held
  // the page's thread (state.maxHandlerMs): the sweep's own cost to the
  // page, whatever else the page runs (on index.html, ebiten's frames).
  state.maxHandlerMs = 0;
  state.maxHandler = '';
  const timed = (f, name = f.name) => function (...args) {
    const t0 = performance.now();
    try {
      return f.apply(this, args);
    } finally {
      const d = Math.round(performance.now() - t0);
      if (d > state.maxHandlerMs) { state.maxHandlerMs = d; state.maxHandler = name; }
    }
  };

  // ------------------------------------------------------------ workers

  let modulePromise = null;
  function solverModule() {
    if (!modulePromise) {
      modulePromise = (async () => {
        const resp = await fetch('solver.wasm');
        if (!resp.ok) throw new Error(`solver.wasm: HTTP ${resp.status} (run ./build.sh)`);
        try {
          return await WebAssembly.compileStreaming(resp.clone());
        } catch (e) {
          return WebAssembly.compile(await resp.arrayBuffer());
        }
      })();
      modulePromise.catch(() => { modulePromise = null; });
    }
    return modulePromise;
  }

  class SolverWorker {
    constructor() {
      this.w = new Worker('sweep-worker.js');
      this.seq = 0;
      this.pending = new Map();
      this.dead = false;
      this.provided = new Set(); // dataset files handed to this worker
      this.users = new Set(); // the user's files handed to it: name and sha256
      this.w.onmessage = timed(function onWorkerMessage(e) {
        const m = e.data;
        const p = this.pending.get(m.id);
        if (!p) return;
        if (m.progress) { p.onProgress && p.onProgress(m.progress); return; }
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.value); else p.reject(new Error(m.error));
      }.bind(this));
      this.w.onerror = (e) => this.fail(new Error('worker: ' + (e.message || 'failed')));
    }
    request(cmd, data = {}, onProgress = null) {
      if (this.dead) return Promise.reject(new Error('worker terminated'));
      const id = ++this.seq;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject, onProgress });
        this.w.postMessage({ id, cmd, ...data });
      });
    }
    fail(err) {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    }
    terminate() {
      this.dead = true;
      this.w.terminate();
      this.fail(new Error('cancelled'));
    }
  }

  // The Workers setting is one for this panel and the audit's (audit.js):
  // one key in this browser, one declaration (experiment.PageSettings),
  // and a change in either field is the other's too — a window event on
  // this page, the storage event from a page in another tab.
  const WORKERS_KEY = 'dpsim.sweepWorkers';
  const workersSetting = {
    read() { try { return localStorage.getItem(WORKERS_KEY) || ''; } catch (e) { return ''; } },
    write(text, from) {
      try { localStorage.setItem(WORKERS_KEY, text); } catch (e) { /* not kept */ }
      window.dispatchEvent(new CustomEvent('dpsim-workers', { detail: { text, from } }));
    },
    // listen calls f(text) when the other field (not from's) changes it.
    listen(from, f) {
      window.addEventListener('dpsim-workers', (e) => { if (e.detail.from !== from) f(e.detail.text); });
      window.addEventListener('storage', (e) => { if (e.key === WORKERS_KEY) f(e.newValue || ''); });
    },
    // title is a field's tooltip from the declaration (the solver's settings()).
    title: (f) => `${f.doc} (${f.unit}: ${f.range}, up to this machine's cores; default ${f.default || 'auto'})`,
  };

  // The audit panel (audit.js) runs its own jobs on the same workers.
  window.dpsimWorkers = { solverModule, SolverWorker, workersSetting };

  async function spawn() {
    const module = await solverModule();
    const w = new SolverWorker();
    await w.request('init', { module });
    // Every worker knows the page's own experiments (openGenerated,
    // openJSON), registered as they first were.
    for (const { cmd, json } of customs.values()) await w.request(cmd, { json });
    return w;
  }

  // listCustom lists an experiment of the page's in the menu (first, or
  // after the presets), or renames its entry, and selects it.
  function listCustom(name, text, first) {
    let o = Array.from(sel.options).find((x) => x.value === name);
    if (!o) {
      o = document.createElement('option');
      o.value = name;
      if (first) sel.prepend(o); else sel.append(o);
    }
    o.textContent = text;
    sel.value = name;
  }

  // openGenerated shows an experiment given as JSON — or a comparison
  // (dpsim-compare/1), as its privacy–utility experiment — in the panel:
  // opens it, registers the experiment in the workers (the solver's
  // experimentFromJSON), selects it and, unless told not to, runs it.
  // It resolves to the experiment's name. window.dpsimExperiments.
  const customs = new Map(); // name → {cmd, json}: how the workers learnt it
  async function openGenerated(json, opts = {}) {
    if (sweep) throw new Error('a sweep is running: cancel it first');
    box.open = true;
    await loadPanel();
    while (state.status === 'loading') await new Promise((r) => setTimeout(r, 50));
    const h = await getHelper();
    // A comparison is built to be turned into its experiment: the helper
    // needs the datasets and the user's files its base trains on first
    // (a comparison on the user's files failed here, "has not been
    // provided").
    await withData(h, 'experiment', json);
    await userFor(h, 'experiment', json);
    const { name, title, json: own } = await h.request('experimentFromJSON', { json });
    // The other workers are given the experiment itself, not the
    // comparison (each would build it again, before it holds its data).
    customs.set(name, own ? { cmd: 'define', json: own } : { cmd: 'experimentFromJSON', json });
    listCustom(name, `${name} — ${title} (generated)`, true);
    state.generated = name;
    await describe();
    box.scrollIntoView({ block: 'start', behavior: 'smooth' });
    if (opts.run !== false) run();
    return name;
  }

  // openJSON opens an experiment given as JSON (a file dropped on the
  // page, public/export.js) in the panel: the solver checks it as
  // "dpsim sweep FILE" does and keeps it under its name beside the
  // presets. Returns {ok, name} or {ok: false, error}.
  async function openJSON(text, fileName = '') {
    try {
      if (sweep) return { ok: false, error: 'a sweep is running: cancel it or wait for it first' };
      box.open = true;
      await loadPanel();
      while (state.status === 'loading') await new Promise((r) => setTimeout(r, 50));
      if (!loaded) return { ok: false, error: state.error || 'the Experiments panel did not load' };
      const h = await getHelper();
      const e = await h.request('define', { json: text });
      customs.set(e.name, { cmd: 'define', json: text });
      listCustom(e.name, `${e.name} — ${e.title} (${fileName || 'your file'})`, false);
      if (!state.presets.includes(e.name)) state.presets.push(e.name);
      await describe();
      box.scrollIntoView({ block: 'start' });
      return { ok: true, name: e.name };
    } catch (err) {
      return { ok: false, error: String(err && err.message || err) };
    }
  }
  // sweepCurrent makes the sweep of the scenario on screen (with the
  // field and values typed beside the button: none draws the error along
  // the iterations; the solver's fromScenario, experiment.FromScenario),
  // opens it in the panel beside the presets and runs it. A scenario on
  // the user's files is swept on them: the workers are handed them
  // (userFor). Resolves to the experiment's name, or '' with the reason
  // in the panel's message.
  async function sweepCurrent() {
    if (sweep) { setMsg('A sweep is running: cancel it or wait for it first.', 'error'); return ''; }
    const d = window.dpsim;
    const text = d && typeof d.scenario === 'function' ? d.scenario() : '';
    if (!text) { setMsg('No scenario is on screen yet: wait for the page to build one.', 'error'); return ''; }
    try {
      const h = await getHelper();
      const e = await h.request('fromScenario', { scenario: text, field: fieldIn.value, values: valuesIn.value });
      customs.set(e.name, { cmd: 'define', json: e.json });
      listCustom(e.name, `${e.name} — ${e.title} (the current scenario)`, true);
      if (!state.presets.includes(e.name)) state.presets.push(e.name);
      state.generated = e.name;
      setMsg('');
      await describe();
      run();
      return e.name;
    } catch (err) {
      setMsg(String(err && err.message || err), 'error');
      return '';
    }
  }

  window.dpsimExperiments = { openGenerated, openJSON, sweepCurrent };

  // ------------------------------------------------------------ datasets
  //
  // An experiment whose problem trains on a committed dataset needs its
  // files in every worker before it can be planned. The helper says which
  // (dataNeeds, from the manifest); the panel fetches each file once per
  // session with the main page's code (datafetch.js: streamed, one-line
  // errors), showing the bytes on the progress bar, and hands the bytes
  // to every worker, which checks them (size, sha256, content) and
  // decodes them (provideData). Bytes that fail the check are dropped
  // from the session cache, so a later try fetches them again.

  const { mb, fetchFile } = window.dpsimData;
  const dataCache = new Map(); // file → Promise<Uint8Array>, the session's fetches
  state.dataFetches = 0; // network fetches of dataset files (tests)
  state.dataFiles = []; // the files the last sweep trains on

  // dataNeeds returns the dataset files of an experiment (kind "preset":
  // a name; "experiment": its JSON), as worker w reads them.
  async function dataNeeds(w, kind, arg) {
    const needs = await w.request('dataNeeds', { kind, arg });
    if (needs.error) throw new Error(needs.error);
    return needs.uses;
  }

  // fetchData fetches the files the session has not fetched, showing the
  // download on the progress bar, and returns files.
  async function fetchData(files) {
    const missing = files.filter((f) => !dataCache.has(f.file));
    if (missing.length > 0) {
      const total = missing.reduce((t, f) => t + f.bytes, 0);
      const what = missing.map((f) => `${f.title} (${f.split})`).join(', ');
      let done = 0;
      const show = (n) => {
        bar.max = total;
        bar.value = Math.min(n, total);
        progText.textContent = `Fetching ${what}: ${mb(n)} of ${mb(total)} MB`;
        state.dataLoaded = n;
      };
      show(0);
      for (const f of missing) {
        const p = fetchFile(f, (n) => show(done + n));
        dataCache.set(f.file, p);
        state.dataFetches++;
        try {
          done += (await p).byteLength;
        } catch (e) {
          dataCache.delete(f.file);
          throw e;
        }
      }
      progText.textContent = `Fetched ${what}: ${mb(total)} MB`;
    }
    return files;
  }

  // provide hands the files to worker w (each once per worker).
  async function provide(w, files) {
    for (const f of files) {
      if (w.provided.has(f.file)) continue;
      const bytes = await dataCache.get(f.file);
      try {
        await w.request('provide', { file: f.file, bytes });
      } catch (e) {
        dataCache.delete(f.file); // a bad copy: fetch afresh next time
        throw e;
      }
      w.provided.add(f.file);
    }
  }

  // withData makes worker w ready for an experiment: its dataset files
  // (files, else dataNeeds's) fetched once per session and provided to
  // w; returns them.
  async function withData(w, kind, arg, files = null) {
    files = await fetchData(files || await dataNeeds(w, kind, arg));
    await provide(w, files);
    return files;
  }

  // dataNote is what the panel says about an experiment's datasets: their
  // titles, size, and notes (the CIFAR-10 gap); '' when it uses none.
  function dataNote(files) {
    if (!files.length) return '';
    const total = files.reduce((t, f) => t + f.bytes, 0);
    // The manifest's notes are sentences, some without their full stop.
    const notes = [...new Set(files.map((f) => f.note).filter(Boolean))].map((n) => (/[.!?]$/.test(n) ? n : n + '.'));
    return ` Trains on ${files.map((f) => `${f.title} (${f.split})`).join(', ')}: ${mb(total)} MB, fetched once.` +
      (notes.length ? ' ' + notes.join(' ') : '');
  }

  // ------------------------------------------------------- your files
  //
  // An experiment whose scenarios train on the user's files (the current
  // scenario swept, or a dropped experiment naming them by sha256) needs
  // them in every worker before it is planned. The page's simulator holds
  // the files picked or dropped this session (userdata.js); each worker
  // is handed those the experiment names (userFileBytes there,
  // provideUserFile in the worker: the same Go checks as a run's Worker,
  // the pinned sha256 included). A file the page does not hold is asked
  // for as a scenario load asks (the Your data panel; dropping it anywhere
  // works), with the worker's one-line request in this panel.

  state.userFiles = []; // the user's files the last sweep trains on

  // pageFile returns a file of the user's from the page's simulator:
  // {ok, bytes, sha256} or {ok: false, error}.
  function pageFile(f) {
    const d = window.dpsim;
    if (!d || typeof d.userFileBytes !== 'function') return { ok: false, error: '' };
    try { return d.userFileBytes(f.file, f.sha256 || ''); } catch (e) { return { ok: false, error: String(e.message || e) }; }
  }

  // heldBy reports whether the page holds a file under f's name.
  function heldBy(f) {
    const d = window.dpsim;
    return !!(d && typeof d.userFileSHA === 'function' && d.userFileSHA(f.file));
  }

  // userKey names a file as handed to a worker: its name and the content
  // it pins, else the content the page holds under the name (a file
  // picked again under the same name is handed again).
  function userKey(f) {
    const d = window.dpsim;
    const sha = f.sha256 || (d && typeof d.userFileSHA === 'function' && d.userFileSHA(f.file)) || '';
    return f.file + '\u0000' + sha;
  }

  // handUser hands worker w the files of the user's it has not been
  // handed from the page's simulator, and returns those the page lacks.
  // Another file under a name than the experiment pins is the one-line
  // error naming both hashes, as a replay says it.
  async function handUser(w, files) {
    const lacking = [];
    for (const f of files) {
      const key = userKey(f);
      if (w.users.has(key)) continue;
      const got = pageFile(f);
      if (!got.ok) {
        if (got.error && heldBy(f)) throw new Error(`${f.field}: ${got.error}`);
        lacking.push(f);
        continue;
      }
      await w.request('provideUser', { name: f.file, bytes: got.bytes, pin: got.sha256 });
      w.users.add(key);
    }
    return lacking;
  }

  // userFor makes worker w ready for the user's files the experiment
  // (kind "preset": a name; "experiment": its JSON) names, and returns
  // them. ask: a file the page lacks is asked for (resolving once given);
  // otherwise, or on a page without the simulator (experiments.html),
  // the worker's one-line request is the error. asking(on, line) says
  // when it waits.
  // The error is Go's one line (userNeeds's missing); its count is how
  // many files that line asks for (missing_count), so that what follows
  // says "it" or "them".
  async function userFor(w, kind, arg, ask = false, asking = () => {}) {
    const userNeeds = async () => {
      const r = await w.request('userNeeds', { kind, arg });
      if (r.error) throw new Error(r.error);
      return r;
    };
    const { files } = await userNeeds();
    for (;;) {
      const lacking = await handUser(w, files);
      if (!lacking.length) return files;
      // What the worker still lacks, once handed what the page holds.
      const left = await userNeeds();
      if (!left.missing) return files;
      const err = Object.assign(new Error(left.missing), { count: left.missing_count });
      const ud = window.dpsimUserData;
      const sim = window.dpsim && typeof window.dpsim.userFileBytes === 'function';
      if (!ask || !sim || !ud || typeof ud.ask !== 'function') throw err;
      const n = left.missing_count;
      asking(true, left.missing);
      let got;
      try {
        got = await ud.ask(files.map((f) => ({ ...f, have: !lacking.includes(f) })),
          `The experiment trains on ${n === 1 ? 'a file' : n + ' files'} of yours: pick or drop ${n === 1 ? 'it' : 'them'} to run its sweep. ` +
          'The page reads them in this tab and keeps them in memory until you reload; nothing is uploaded. A pinned sha256 must match.', { scroll: false });
      } finally {
        asking(false);
      }
      if (got !== 'ok') throw err;
    }
  }

  // provideUser hands worker w the files of the user's (each once).
  async function provideUser(w, files) {
    const lacking = await handUser(w, files);
    if (lacking.length) throw new Error(`${lacking[0].field}: ${lacking[0].file} is no longer held by this page`);
  }

  // userNote is what the panel says about an experiment's files of the
  // user's; '' when it names none.
  function userNote(files) {
    if (!files.length) return '';
    return ` Trains on your file${files.length === 1 ? '' : 's'} ${files.map((f) => f.file + (f.sha256 ? ` (sha256 ${f.sha256.slice(0, 12)}…)` : '')).join(', ')}, read in this tab.`;
  }

  let helper = null; // lists presets, assembles results, draws figures
  let helperComing = null; // one spawn at a time: a Cancel and a new sweep both ask
  async function getHelper() {
    if (helper && !helper.dead) return helper;
    if (!helperComing) {
      helperComing = spawn().then((w) => { helper = w; return w; });
      helperComing.then(() => { helperComing = null; }, () => { helperComing = null; });
    }
    return helperComing;
  }

  // ----------------------------------------------------------- the panel

  function setMsg(text, kind = '') {
    msg.textContent = text;
    msg.className = 'exp-msg ' + kind;
  }

  // askLine shows, while the sweep waits for the user's files, the
  // worker's one-line request with a picker for them (the Your data
  // panel's input; dropping them anywhere on the page works too); ''
  // clears it.
  function askLine(line) {
    state.askingFiles = !!line;
    if (!line) { if (msg.dataset.asking) { delete msg.dataset.asking; setMsg(''); } return; }
    setMsg(line + ' ');
    msg.dataset.asking = '1';
    bar.value = 0;
    progText.textContent = 'Waiting for your file: read in this tab, never uploaded…';
    if ($('userdata-input')) {
      const pick = document.createElement('label');
      pick.htmlFor = 'userdata-input';
      pick.className = 'ud-pick';
      pick.id = 'exp-pick-user';
      pick.textContent = 'Choose the file…';
      msg.append(pick);
    }
  }

  function fmtSeconds(s) {
    if (s == null || !isFinite(s)) return '—';
    if (s < 60) return Math.max(0, Math.round(s)) + ' s';
    const m = Math.floor(s / 60);
    return `${m} min ${Math.round(s - 60 * m)} s`;
  }

  // showProgress redraws the bar at most once a frame, however many runs
  // finish in between.
  let progressQueued = false;
  function showProgress() {
    if (progressQueued) return;
    progressQueued = true;
    requestAnimationFrame(() => { progressQueued = false; drawProgress(); });
  }
  function drawProgress() {
    const inRun = state.status === 'running' ? (state.inRun || []) : [];
    const frac = inRun.reduce((a, v) => a + (v.total > 0 ? Math.min(1, v.iter / v.total) : 0), 0);
    bar.max = Math.max(state.total, 1);
    bar.value = state.done + frac;
    const pct = state.total ? (100 * (state.done + frac) / state.total).toFixed(1) : '0.0';
    let t = `${state.done} / ${state.total} runs (${pct} %)`;
    // A sweep of a few long runs (a CNN) names their iterations.
    if (inRun.length && state.total <= 8) t += ` · ${inRun.length === 1 ? 'iteration' : 'iterations'} ${inRun.map((v) => `${v.iter} of ${v.total}`).join(', ')}`;
    if (state.status === 'running') t += ` · ${state.running} of ${state.workers} Workers running (${state.workersAuto ? 'auto' : 'your setting'}) · ${fmtSeconds(state.elapsedSeconds)} elapsed · ETA ${fmtSeconds(state.etaSeconds)}`;
    else if (state.status === 'done') t += ` · done in ${fmtSeconds(state.elapsedSeconds)} on ${state.workersSaid}`;
    else if (state.status === 'cancelled') t += ' · cancelled';
    progText.textContent = t;
  }

  let loaded = false;
  const figures = new Map();
  async function loadPanel() {
    if (loaded) return;
    loaded = true;
    state.status = 'loading';
    setMsg('Loading the solver…');
    try {
      const h = await getHelper();
      await declareWorkers(h);
      const list = await h.request('presets');
      state.presets = list.map((p) => p.name);
      // The figure a preset reproduces ("Fig. 3 (mnist)"), for the verdicts' links.
      for (const p of list) if (p.reproduces) figures.set(p.name, p.reproduces.split(', ').pop());
      sel.replaceChildren();
      for (const p of list) {
        const o = document.createElement('option');
        o.value = p.name;
        o.textContent = `${p.name} — ${p.title}`;
        sel.append(o);
      }
      const want = new URLSearchParams(location.search).get('experiment');
      // A name no preset has opens the first one, and says so: it used
      // to open another experiment without a word.
      const unknown = want !== null && !state.presets.includes(want);
      if (want && !unknown) sel.value = want;
      setMsg('');
      // 'ready' only once the description (and any kept sweep) is shown:
      // a test or a user acting on 'ready' must find the panel complete.
      await describe();
      await restore();
      if (unknown) {
        const shown = want.length > 80 ? want.slice(0, 80) + '…' : want;
        state.unknownExperiment = want;
        setMsg(`?experiment=${shown}: no experiment preset has that name, so the panel shows ${sel.value}; choose one from the list.`, 'error');
      }
      sel.disabled = false;
      runBtn.disabled = false;
      currentBtn.disabled = false;
      state.status = 'ready';
    } catch (e) {
      loaded = false;
      fail(e);
    }
  }

  // ------------------------------------------------------------- keeping

  // The last assembled sweep, complete or partial, is kept in this browser
  // (IndexedDB) and shown again when the panel next loads, so that a
  // reload or a closed tab does not lose its runs; while a sweep runs,
  // leaving the page asks first.
  const keep = {
    open() {
      return new Promise((resolve, reject) => {
        if (!window.indexedDB) { reject(new Error('no IndexedDB')); return; }
        const req = indexedDB.open('dpsim', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('sweeps');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    },
    async use(mode, f) {
      const db = await keep.open();
      try {
        return await new Promise((resolve, reject) => {
          const tx = db.transaction('sweeps', mode);
          const req = f(tx.objectStore('sweeps'));
          tx.oncomplete = () => resolve(req.result);
          tx.onerror = tx.onabort = () => reject(tx.error);
        });
      } finally {
        db.close();
      }
    },
    // The last sweep is kept under 'last' and under 'exp:<name>', one per
    // experiment (the gallery, gallery.js, reads the latter's verdicts).
    put(v) { return keep.use('readwrite', (st) => { st.put(v, 'exp:' + v.name); return st.put(v, 'last'); }); },
    get(key = 'last') { return keep.use('readonly', (st) => st.get(key)); },
  };
  window.addEventListener('beforeunload', (e) => {
    if (sweep) { e.preventDefault(); e.returnValue = ''; }
  });

  // restore shows the kept sweep, unless a sweep is already on show.
  async function restore() {
    let v = null;
    // The chosen experiment's own last sweep (opened from the gallery,
    // say), else the last sweep of any.
    try { v = (sel.value && await keep.get('exp:' + sel.value)) || await keep.get(); } catch (e) { return; } // storage off: nothing kept
    if (!v || !v.figure || !v.json || result || sweep) return;
    result = { name: v.name, json: v.json, csv: v.csv, figure: v.figure };
    state.partial = !!v.partial;
    state.restored = v.name;
    state.verdicts = result.figure.verdicts.map((x) => ({ claim: x.claim, verdict: x.verdict }));
    draw(result.figure);
    showVerdicts(result.figure);
    showTable(result.csv);
    for (const b of Object.values(dl)) b.disabled = false;
    setMsg(`Shown: your last sweep, ${v.name}${v.partial ? ' (partial)' : ''}, of ${new Date(v.at).toLocaleString()}, kept in this browser.`);
  }

  // describe shows what the chosen experiment is and how it will run;
  // state.described counts the descriptions finished (tests wait on it).
  state.described = 0;
  async function describe() {
    try {
      return await describeNow();
    } finally {
      state.described++;
    }
  }
  async function describeNow() {
    const h = await getHelper();
    const runs = runsWanted();
    if (runs === null) return null;
    const name = sel.value;
    // An experiment on a dataset is planned once its files are here: it
    // is described without its run count until the sweep fetches them.
    const uses = await dataNeeds(h, 'preset', name);
    const title = sel.selectedOptions[0] ? sel.selectedOptions[0].textContent : name;
    if (uses.some((f) => !dataCache.has(f.file))) {
      desc.textContent = `${title}.${dataNote(uses)} Run the sweep to fetch the data and plan it.`;
      await workersFor(h, '', 0); // the field is checked all the same
      return null;
    }
    // One on the user's files is planned once the page has handed them
    // over; without them it says which and how to give them.
    await withData(h, 'preset', name, uses);
    let users;
    try {
      users = await userFor(h, 'preset', name);
    } catch (e) {
      desc.textContent = `${title}. ${e.message}. Run the sweep to give ${(e.count || 1) === 1 ? 'it' : 'them'}.`;
      return null;
    }
    const p = await h.request('plan', { name, runs });
    const wk = await workersFor(h, name, runs);
    // The preset's text names its own count ("median over 200 runs"):
    // say the count this sweep really uses.
    const text = p.description.replace(/\b(\d[\d,]*) runs\b/g, (m, k) => (Number(k.replace(/,/g, '')) === p.runs ? m : `${p.runs} runs (the preset's own: ${k})`));
    desc.textContent = `${text || title} — ${p.tasks} runs (${p.runs} per point)${wk ? ' on ' + workersText(wk) : ''}.${dataNote(uses)}${userNote(users)}`;
    return p;
  }

  // runsWanted reads the "runs per point" box: empty for the preset's own
  // count (the papers' 50, say), more for tighter bands, as
  // dpsim sweep --runs N does; null, with the rule shown, if it is not a
  // whole number ≥ 1. The solver checks the upper limit.
  function runsWanted() {
    const text = runsIn.value.trim();
    runsErr.textContent = '';
    if (text === '') return 0;
    const v = Number(text);
    if (!Number.isInteger(v) || v < 1) {
      runsErr.textContent = `runs per point: must be a whole number ≥ 1, or empty for the preset's (got ${text})`;
      return null;
    }
    return v;
  }

  // ------------------------------------------------------ Workers
  //
  // The Workers field: how many Web Workers run a sweep, each with its
  // own memory, one run at a time. It is declared in Go
  // (experiment.PageSettings: default, range, doc) and checked there
  // (the solver's workers(): experiment.CheckPageWorkers, and
  // Plan.PageWorkers, whose memory refusal names this field); empty is
  // auto, one per core, at most 8. Kept in this browser, as the page's
  // other Workers setting is (page.js), not in the URL: it is the
  // machine's, not the experiment's, and never changes a byte. The audit
  // (audit.js) shares it (workersSetting above).
  state.workersSetting = 'auto'; // the field as the last sweep or description read it
  state.workersAuto = true;
  state.workersSaid = '';
  state.workersNote = '';
  state.workersError = '';
  workersIn.value = workersSetting.read();
  const cores = () => navigator.hardwareConcurrency || 0;

  // declareWorkers gives the field its declaration: its one-line doc,
  // its unit, its range (up to this machine's cores), its default.
  async function declareWorkers(h) {
    const [f] = await h.request('settings');
    if (f) workersIn.title = workersSetting.title(f);
  }

  // workersFor asks the solver how many Workers run experiment name
  // with runs per point (name '': the field alone), shows its one-line
  // error beside the field, and returns {workers, auto, note}, or null.
  async function workersFor(h, name, runs) {
    workersErr.textContent = '';
    state.workersError = '';
    try {
      const r = await h.request('workers', { name, runs, text: workersIn.value, cores: cores() });
      workersHint.textContent = r.hint;
      return r;
    } catch (e) {
      state.workersError = workersErr.textContent = String(e && e.message || e);
      workersHint.textContent = '';
      return null;
    }
  }

  // workersText says how many Workers a sweep runs on, and why so many.
  function workersText(wk) {
    return wk.said + (wk.note ? ` — ${wk.note}` : '');
  }

  function fail(e) {
    state.status = 'error';
    state.error = String(e && e.message || e);
    // The Workers field's refusal is said once, beside the field.
    setMsg(state.error === state.workersError ? 'The sweep did not start: the Workers setting is refused (beside it).' : state.error, 'error');
    runBtn.disabled = false;
    runsIn.disabled = false;
    workersIn.disabled = false;
    cancelBtn.disabled = true;
  }

  // ------------------------------------------------------------ sweeping

  let sweep = null; // {name, workers, records, cancelled, t0}
  // generation counts the sweeps started: what an earlier sweep still
  // delivers (a cancelled sweep's partial result, assembled after a new
  // sweep began) is dropped, with its messages.
  let generation = 0;

  async function run() {
    if (sweep) return;
    const name = sel.value;
    const runs = runsWanted();
    if (runs === null) return;
    runBtn.disabled = true;
    runsIn.disabled = true;
    workersIn.disabled = true;
    cancelBtn.disabled = false;
    sel.disabled = true;
    currentBtn.disabled = true;
    for (const b of Object.values(dl)) b.disabled = true;
    result = null;
    Object.assign(state, { status: 'running', experiment: name, done: 0, total: 0, workers: 0, running: 0,
      etaSeconds: null, elapsedSeconds: 0, maxStallMs: 0, maxHandlerMs: 0, maxHandler: '', partial: false, verdicts: [], error: '', figureDrawn: false, restored: '', userFiles: [] });
    setMsg('');
    const s = { name, runs, workers: [], records: [], partial: new Map(), cancelled: false, t0: performance.now(), next: 0, gen: ++generation };
    sweep = s;
    startStallMonitor();
    // A long run (one CNN training, say) finishes no run for a minute: the
    // clock ticks every second so the bar shows the sweep is alive.
    s.clock = setInterval(() => {
      if (sweep !== s || state.status !== 'running' || !state.running) return;
      state.elapsedSeconds = (performance.now() - s.t0) / 1000;
      showProgress();
    }, 1000);
    try {
      const h = await getHelper();
      s.files = state.dataFiles = await withData(h, 'preset', name);
      if (s.cancelled) return;
      s.user = await userFor(h, 'preset', name, true, (on, line) => {
        s.asking = on;
        if (s.cancelled) return;
        askLine(on ? line : '');
      });
      state.userFiles = s.user.map((f) => f.file);
      if (s.cancelled) return;
      const p = await h.request('plan', { name, runs });
      if (s.cancelled) return;
      // The Workers: the field's count, or auto; a count whose Workers
      // would not fit the page's memory is the engine's one-line
      // refusal naming the field.
      const wk = await workersFor(h, name, runs);
      if (!wk) throw new Error(state.workersError);
      if (s.cancelled) return;
      Object.assign(state, { workersSetting: wk.auto ? 'auto' : String(wk.workers), workersAuto: wk.auto, workersSaid: wk.said, workersNote: wk.note });
      if (wk.note) setMsg(wk.note.charAt(0).toUpperCase() + wk.note.slice(1) + '.');
      state.total = s.total = p.tasks;
      // Run by run (run 0 of every series and point, then run 1, …), as
      // the CLI does: a cancelled sweep has a few runs at every point.
      s.order = [];
      for (let r = 0; r < p.runs; r++) {
        for (const se of p.series) for (let pt = 0; pt < se.points; pt++) s.order.push(se.first + pt * p.runs + r);
      }
      s.records = new Array(p.tasks);
      showProgress();
      const n = wk.workers;
      // The helper is worker 0; the others start in parallel.
      s.workers = [h, ...await Promise.all(Array.from({ length: n - 1 }, spawn))];
      await Promise.all(s.workers.map(async (w) => { await provide(w, s.files); await provideUser(w, s.user); }));
      if (s.cancelled) { for (const w of s.workers) w.terminate(); return; }
      state.workers = state.running = s.workers.length;
      showProgress();
      await Promise.all(s.workers.map((w) => drive(s, w, p.tasks)));
      if (s.cancelled) return;
      state.status = 'assembling';
      state.elapsedSeconds = (performance.now() - s.t0) / 1000;
      await assemble(s, false);
    } catch (e) {
      if (!s.cancelled) fail(e);
    } finally {
      if (sweep === s && !s.cancelled) {
        // Keep the helper (it draws the figures); the others go.
        for (const w of s.workers) if (w !== helper) w.terminate();
        finish();
      }
    }
  }

  async function drive(s, w, total) {
    while (!s.cancelled && s.next < total) {
      const tasks = [];
      while (tasks.length < CHUNK && s.next < total) tasks.push(s.order[s.next++]);
      await w.request('run', { name: s.name, runs: s.runs, tasks }, (pr) => {
        if (s.cancelled || s.records[pr.task] !== undefined) return;
        if (pr.record === undefined) {
          // A long run's iterations so far: the bar moves within it.
          s.partial.set(pr.task, { iter: pr.iter, total: pr.total });
        } else {
          s.partial.delete(pr.task);
          s.records[pr.task] = pr.record;
          state.done++;
        }
        state.inRun = [...s.partial.values()].map((v) => ({ ...v }));
        const doneNow = state.done + state.inRun.reduce((a, v) => a + (v.total > 0 ? Math.min(1, v.iter / v.total) : 0), 0);
        const el = (performance.now() - s.t0) / 1000;
        state.elapsedSeconds = el;
        state.etaSeconds = doneNow > 0 ? el / doneNow * (total - doneNow) : null;
        showProgress();
      });
    }
    state.running = Math.max(0, state.running - 1);
  }

  function finish() {
    if (sweep) clearInterval(sweep.clock);
    sweep = null;
    stopStallMonitor();
    runBtn.disabled = false;
    cancelBtn.disabled = true;
    sel.disabled = false;
    currentBtn.disabled = false;
    runsIn.disabled = false;
    workersIn.disabled = false;
    state.running = 0;
    showProgress();
  }

  function cancel() {
    const s = sweep;
    if (!s) return;
    s.cancelled = true;
    if (s.asking) { // the Your data panel waits for the experiment's files
      askLine('');
      const c = document.getElementById('userdata-cancel');
      if (c) c.click();
    }
    // Terminating a worker stops its run at once; the helper was one of
    // them, so a fresh one assembles what finished.
    for (const w of s.workers) w.terminate();
    if (helper && helper.dead) helper = null;
    state.running = 0;
    state.status = 'cancelled';
    state.elapsedSeconds = (performance.now() - s.t0) / 1000;
    finish();
    const finished = s.records.filter((r) => r !== undefined).length;
    setMsg(`Cancelled: ${finished} of ${s.total || 0} runs finished.`);
    if (finished > 0) {
      assemble(s, true).catch((e) => { if (s.gen === generation) setMsg('Cancelled; the partial result could not be assembled: ' + e.message, 'error'); });
    }
  }

  // ------------------------------------------------------------- results

  let result = null; // {name, json, csv, figure}

  async function assemble(s, partial) {
    const recs = s.records.filter((r) => r !== undefined);
    const h = await getHelper();
    await provide(h, s.files || []); // a fresh helper after Cancel
    await provideUser(h, s.user || []);
    const r = await h.request('assemble', { name: s.name, runs: s.runs, records: '[' + recs.join(',') + ']' });
    if (s.gen !== generation) return; // a later sweep owns the panel now
    result = { name: s.name, json: r.json, csv: r.csv, figure: JSON.parse(r.figure) };
    // state.kept names the sweep once it is kept (the gallery reads it).
    keep.put({ ...result, partial, at: Date.now() }).then(() => { state.kept = s.name; }, () => {}); // storage off or full: shown, not kept
    state.partial = partial;
    state.verdicts = result.figure.verdicts.map((v) => ({ claim: v.claim, verdict: v.verdict }));
    if (!partial) state.status = 'done';
    draw(result.figure);
    showVerdicts(result.figure);
    showTable(result.csv);
    for (const b of Object.values(dl)) b.disabled = false;
    // A complete sweep clears what an earlier one said.
    setMsg(partial ? `Cancelled: the figure and downloads show the ${recs.length} of ${s.total} runs that finished (marked partial).` : '');
    showProgress();
  }

  function download(name, mime, data) {
    const url = URL.createObjectURL(new Blob([data], { type: mime }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  async function downloadFigure(format) {
    if (!result) return;
    try {
      const h = await getHelper();
      // Reading the result plans its experiment: the helper needs its
      // datasets (a sweep kept from an earlier visit fetches them now).
      const exp = JSON.stringify(JSON.parse(result.json).experiment);
      await withData(h, 'experiment', exp);
      await userFor(h, 'experiment', exp); // and the user's files, which the page holds this session
      const data = await h.request('figure', { result: result.json, format });
      download(`${result.name}.${format}`, format === 'svg' ? 'image/svg+xml' : 'image/png', data);
    } catch (e) {
      setMsg(`${format.toUpperCase()}: ${e.message}`, 'error');
    }
  }

  // -------------------------------------------------------------- figure

  let plot = null;
  const PLOT_H = 380;
  // plotWidth is the room the plot has between its axis titles.
  function plotWidth() {
    const box = fig.querySelector('.exp-plot');
    return Math.max(240, (box && box.clientWidth) || fig.clientWidth || 720);
  }



  const draw = timed(drawFigure);
  // showTable shows a sweep whose series each have one x point (a table
  // such as DP-RECAL's Table IV) as a table from its CSV: one row per
  // series, one column per variable, mean ± sd over the runs.
  function showTable(csv) {
    const box = $('exp-table');
    box.textContent = '';
    state.tableRows = 0;
    // The metadata block's "# " lines come before the header.
    const rows = parseCSV((csv || '').split('\n').filter((l) => !l.startsWith('# ')).join('\n'));
    if (rows.length < 2) return;
    const h = rows[0], col = (n) => h.indexOf(n);
    const recs = rows.slice(1).filter((r) => r.length === h.length);
    if (recs.some((r) => r[col('point')] !== '0')) return; // a figure, not a table
    // ε's log10 only where ε itself overflowed.
    const overflow = recs.some((r) => r[col('variable')] === 'epsilon' && r[col('mean')] === 'Inf');
    const vars = [...new Set(recs.map((r) => r[col('variable')]))].filter((v) => overflow || v !== 'epsilon_log10');
    const labels = [...new Set(recs.map((r) => r[col('label')]))];
    const fmt = (v) => (v === '' || v === 'NaN' ? '–' : Number(v).toPrecision(4));
    const t = document.createElement('table');
    t.innerHTML = '<thead><tr><th>series</th>' + vars.map((v) => `<th>${v} (mean ± sd)</th>`).join('') + '</tr></thead>';
    const body = document.createElement('tbody');
    for (const l of labels) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = l;
      tr.append(th);
      for (const v of vars) {
        const r = recs.find((x) => x[col('label')] === l && x[col('variable')] === v);
        const td = document.createElement('td');
        td.textContent = r ? `${fmt(r[col('mean')])} ± ${fmt(r[col('sd')])}` : '–';
        tr.append(td);
      }
      body.append(tr);
    }
    t.append(body);
    box.append(t);
    state.tableRows = labels.length;
  }

  // parseCSV reads RFC 4180 CSV (quoted fields with "" escapes).
  function parseCSV(text) {
    const out = [];
    let row = [], f = '', q = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (q) {
        if (c === '"' && text[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c;
      } else if (c === '"') q = true;
      else if (c === ',') { row.push(f); f = ''; }
      else if (c === '\n') { row.push(f); out.push(row); row = []; f = ''; }
      else if (c !== '\r') f += c;
    }
    if (f !== '' || row.length) { row.push(f); out.push(row); }
    return out;
  }

  function drawFigure(fd) {
    // On index.html uPlot arrives after the simulator's first frame.
    if (typeof window.uPlot !== 'function') {
      window.dpsimPlot.loadUPlot().then(() => drawFigure(fd), (e) => { fig.textContent = e.message; });
      return;
    }
    figTitle.textContent = fd.title;
    figSub.textContent = fd.subtitle + (fd.y_note ? ' · ' + fd.y_note : '') + (fd.partial ? ` · PARTIAL: ${fd.finished} of ${fd.tasks} runs` : '');
    const ok = (v, log) => v != null && isFinite(v) && (!log || v > 0);
    // uPlot aligns every series on one x array: the union of the x values.
    const xs = [...new Set(fd.series.flatMap((s) => s.x.filter((x) => ok(x, fd.x_log))))].sort((a, b) => a - b);
    const at = new Map(xs.map((x, i) => [x, i]));
    let floor = Infinity;
    if (fd.y_log) for (const s of fd.series) for (const a of [s.y, s.lo, s.hi]) for (const v of a) if (v > 0 && v < floor) floor = v;
    floor = isFinite(floor) ? floor / 3 : 1;
    const data = [xs];
    const series = [{ label: fd.x_label }];
    const bands = [];
    const y2 = !!fd.y2_label;
    fd.series.forEach((s, k) => {
      const col = COLORS[k % COLORS.length];
      const y = new Array(xs.length).fill(null);
      const lo = new Array(xs.length).fill(null);
      const hi = new Array(xs.length).fill(null);
      const y2v = new Array(xs.length).fill(null);
      s.x.forEach((x, i) => {
        if (!at.has(x)) return;
        const j = at.get(x);
        if (ok(s.y[i], fd.y_log)) y[j] = s.y[i];
        let l = s.lo[i];
        if (fd.y_log && l != null && !(l > 0)) l = floor;
        if (ok(l, fd.y_log) && ok(s.hi[i], fd.y_log)) { lo[j] = l; hi[j] = s.hi[i]; }
        if (y2 && s.y2 && ok(s.y2[i], fd.y2_log)) y2v[j] = s.y2[i];
      });
      const base = data.length;
      data.push(y, hi, lo);
      series.push(
        // A metric evaluated every k iterations: markers at those points only.
        { label: s.label, stroke: col, width: 2, spanGaps: true, points: { show: fd.markers, size: 6, fill: col }, ...(fd.evaluated ? { paths: () => null } : {}) },
        ...[' (band top)', ' (band bottom)'].map((w) => (fd.evaluated
          // Evaluated every k iterations: the band's ends as small marks at
          // the evaluated points, no band between them.
          ? { label: s.label + w, stroke: col + '66', width: 0, spanGaps: false, paths: () => null, points: { show: true, size: 4, fill: col + '66', stroke: col + '66' } }
          : { label: s.label + w, stroke: 'transparent', width: 0, spanGaps: true, points: { show: false } })),
      );
      if (!fd.evaluated) bands.push({ series: [base + 1, base + 2], fill: col + '33' });
      if (y2) {
        data.push(y2v);
        series.push({ label: s.label + ' (right axis)', stroke: col, width: 1.5, dash: [6, 4], spanGaps: true, scale: 'y2', points: { show: false } });
      }
    });
    // The axis titles are the page's text, around the plot, not uPlot's:
    // uPlot draws a title on one line on its canvas, which cuts a title
    // longer than its axis; here a long one wraps (docs/experiments.md).
    const axes = [
      logAxis({ stroke: '#333', grid: { stroke: '#eceef2' } }, fd.x_log),
      logAxis({ stroke: '#333', grid: { stroke: '#eceef2' }, size: 50 }, fd.y_log),
    ];
    const scales = { x: { time: false, distr: fd.x_log ? 3 : 1 }, y: { distr: fd.y_log ? 3 : 1 } };
    if (y2) {
      axes.push(logAxis({ scale: 'y2', side: 1, stroke: '#333', grid: { show: false }, size: 50 }, fd.y2_log));
      scales.y2 = { distr: fd.y2_log ? 3 : 1 };
    }
    if (plot) plot.destroy();
    plot = null;
    fig.replaceChildren();
    const titled = (cls, text) => { const e = document.createElement('div'); e.className = cls; e.textContent = text; return e; };
    const plotBox = titled('exp-plot', '');
    fig.append(titled('exp-ylab', fd.y_label), plotBox, titled('exp-y2lab', y2 ? fd.y2_label + ' (dashed)' : ''), titled('exp-xlab', fd.x_label));
    fig.classList.toggle('has-y2', y2);
    const width = plotWidth();
    const opts = {
      width, height: PLOT_H, scales, axes, series, bands,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      hooks: { setCursor: [(u) => showReadout(u, fd, xs)] },
    };
    plot = new uPlot(opts, data, plotBox);
    fig.uplot = plot; // tests read its axes (e2e/corners.test.js)
    legend.replaceChildren();
    fd.series.forEach((s, k) => {
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'exp-swatch';
      sw.style.background = COLORS[k % COLORS.length];
      li.append(sw, document.createTextNode(s.label));
      legend.append(li);
    });
    const note = document.createElement('li');
    note.className = 'exp-band-note';
    note.textContent = `line: ${fd.statistic}; band: ${fd.band}`;
    legend.append(note);
    readout.textContent = 'Hover over the figure to read the values.';
    state.figureDrawn = true;
  }

  function showReadout(u, fd, xs) {
    const i = u.cursor.idx;
    if (i == null) { readout.textContent = 'Hover over the figure to read the values.'; return; }
    const x = xs[i];
    const parts = [`${fd.x_label}: ${fmt(x)}`];
    fd.series.forEach((s) => {
      const j = s.x.indexOf(x);
      if (j < 0) return;
      parts.push(`${s.label}: ${fmt(s.y[j])} [${fmt(s.lo[j])}, ${fmt(s.hi[j])}] (${s.n[j]} runs)` +
        (s.y2 ? ` · right axis ${fmt(s.y2[j])}` : ''));
    });
    readout.textContent = parts.join('  ·  ');
  }

  function showVerdicts(fd) {
    verdicts.replaceChildren();
    for (const v of fd.verdicts) {
      const li = document.createElement('li');
      const b = document.createElement('span');
      b.className = 'exp-verdict ' + (v.verdict === 'holds' ? 'holds' : v.verdict === 'does not hold' ? 'fails' : 'inconclusive');
      b.textContent = v.verdict;
      const claim = document.createElement('span');
      claim.textContent = ' ' + v.claim + ' — ';
      const sum = document.createElement('span');
      sum.className = 'muted';
      sum.textContent = v.summary;
      li.append(b, claim, sum);
      // Each verdict links to the passage of docs/ that explains it
      // (doc.html finds and highlights it; docs/ is served with the page).
      const name = (result && result.name) || sel.value || '';
      const fig = (figures.get(name) || '');
      const a = document.createElement('a');
      a.className = 'exp-why';
      a.href = `doc.html?experiment=${encodeURIComponent(name)}${fig ? '&fig=' + encodeURIComponent(fig) : ''}`;
      a.target = '_blank';
      a.rel = 'noopener';
      a.textContent = ' why?';
      a.title = `What docs/ says about ${name}${fig ? ' (' + fig + ')' : ''}`;
      li.append(a);
      verdicts.append(li);
    }
  }

  // ------------------------------------------------- main-thread stalls

  // state.maxStallMs is the longest task the page's thread ran during the
  // sweep, whoever ran it (the Long Tasks API reports tasks over 50 ms; as
  // a fallback, the lateness of a 10 ms heartbeat). On index.html that
  // includes ebiten's frames, which in headless Chromium's software WebGL
  // exceed 100 ms with no sweep at all; experiments.html has no ebiten.
  let observer = null;
  let beat = null;
  function startStallMonitor() {
    if (observer) observer.disconnect();
    if (beat) clearInterval(beat);
    state.maxStallMs = 0;
    if ('PerformanceObserver' in window && PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
      observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) state.maxStallMs = Math.max(state.maxStallMs, Math.round(e.duration));
      });
      observer.observe({ type: 'longtask' });
    } else {
      let last = performance.now();
      beat = setInterval(() => {
        const now = performance.now();
        state.maxStallMs = Math.max(state.maxStallMs, Math.round(now - last - 10));
        last = now;
      }, 10);
    }
  }
  // The Long Tasks API reports a task after it ends: keep listening a
  // moment so that the task that drew the figure is counted too.
  function stopStallMonitor() {
    const o = observer, bt = beat;
    observer = beat = null;
    setTimeout(() => {
      if (o) o.disconnect();
      if (bt) clearInterval(bt);
    }, 1000);
  }

  // -------------------------------------------------------------- wiring

  box.addEventListener('toggle', () => { if (box.open) loadPanel(); });
  sel.addEventListener('change', () => describe().catch(fail));
  runsIn.addEventListener('change', () => describe().catch(fail));
  const workersRead = () => {
    if (state.status === 'error' && state.error === state.workersError) setMsg(''); // what the field said is read again
    describe().catch(fail);
  };
  workersIn.addEventListener('change', () => {
    workersSetting.write(workersIn.value.trim(), 'experiments');
    workersRead();
  });
  // The audit's field changed it: the panel reads it again once it is
  // loaded and idle (a running sweep keeps its Workers).
  workersSetting.listen('experiments', (text) => {
    workersIn.value = text;
    if (!sweep && !['idle', 'loading'].includes(state.status)) workersRead();
  });
  runBtn.addEventListener('click', timed(run));
  // The current scenario's sweep: on the main page, where there is one.
  currentRow.hidden = !window.dpsimPage;
  currentBtn.addEventListener('click', () => { sweepCurrent(); });
  for (const inp of [fieldIn, valuesIn]) inp.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !currentBtn.disabled) sweepCurrent(); });
  cancelBtn.addEventListener('click', timed(cancel));
  dl.json.addEventListener('click', () => result && download(`${result.name}.json`, 'application/json', result.json));
  dl.csv.addEventListener('click', () => result && download(`${result.name}.csv`, 'text/csv', result.csv));
  dl.svg.addEventListener('click', () => downloadFigure('svg'));
  dl.png.addEventListener('click', () => downloadFigure('png'));
  window.addEventListener('resize', () => { if (plot && result) plot.setSize({ width: plotWidth(), height: PLOT_H }); });
  if (new URLSearchParams(location.search).has('experiment')) {
    box.open = true;
    box.scrollIntoView();
  }
  if (box.open) loadPanel();
})();
