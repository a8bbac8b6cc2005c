// audit.js — the "Is this ε honest?" panel: for the current scenario, the
// paper's bound on ε (its ledger), the tight bound of the same releases
// (when the ledger states them) and the lower bound an audit of the
// messages proves, on one log scale with words, and the eavesdropper's
// ROC curves (docs/privacy-truth.md).
//
// The audit is the distinguishing experiment of core/experiment's audit
// kind, run in Web Workers on solver.wasm (sweep-worker.js, the
// Experiments panel's worker): the current scenario (dpsim.scenario(), as
// pinned) becomes an audit experiment, every worker plans it (a probe
// run, the neighbour, two noise-free references), the runs are handed out
// in chunks, and one worker assembles them — the bytes "dpsim audit"
// writes. How many workers: the page's Workers setting, one with the
// Experiments panel's (experiment.PageSettings, shared through
// window.dpsimWorkers.workersSetting): auto takes one per core, at most 8,
// as many as fit the page's memory; a count given is checked by the
// engine (CheckPageWorkers, Plan.PageWorkers) and refused in one line
// naming the field. Cancel terminates the workers. It writes its own markup into
// #audit-section and touches nothing else. Tests read
// window.dpsimAudit.state; window.dpsimAudit.numbers() is what the tour
// shows (the three numbers and their words).
(() => {
  'use strict';

  const section = document.getElementById('audit-section');
  if (!section) return;
  const $ = (id) => document.getElementById(id);

  section.innerHTML = `<details id="aud-box">
    <summary><h2>Is this ε honest? <span class="muted">— the paper's bound, the tight bound and what an audit of the messages proves</span></h2></summary>
    <p class="aud-intro muted">The ledger's ε is what the algorithm's paper proves: an <em>upper</em> bound. An audit runs the scenario many times on its data and on a neighbouring data set — one agent's data changed as far as the paper's adjacency allows — with fresh noise each time, lets an eavesdropper on that agent's messages guess which data set each run had, and turns its mistakes into a <em>lower</em> bound on ε that holds with 95 % confidence. The true ε lies between the two.</p>
    <div class="aud-row">
      <span class="aud-pair"><label for="aud-runs">Runs</label>
      <input type="number" id="aud-runs" class="mono aud-num" min="8" max="200000" step="2" value="2000" inputmode="numeric" title="In all, half on the scenario's data D and half on its neighbour D′ (even, 8 to 200,000); the bound can reach about ln(runs/15)"></span>
      <span class="aud-pair"><label for="aud-iters">Iterations</label>
      <input type="number" id="aud-iters" class="mono aud-num" min="1" step="1" inputmode="numeric" placeholder="the scenario's" title="Audit the first K iterations (the ledger's ε is then the one at K); empty: all of them"></span>
      <span class="aud-pair"><label for="aud-agent">Agent</label>
      <input type="number" id="aud-agent" class="mono aud-num" min="0" step="1" inputmode="numeric" placeholder="most exposed" title="The audited agent; empty: the one the ledger charges most"></span>
      <span class="aud-pair"><label for="aud-workers" id="aud-workers-label">Workers</label>
      <input type="text" id="aud-workers" class="mono aud-workers" inputmode="numeric" placeholder="auto" spellcheck="false" aria-describedby="aud-workers-hint"></span>
      <button type="button" id="aud-run" class="primary">Audit this scenario</button>
      <button type="button" id="aud-cancel" disabled>Cancel</button>
    </div>
    <p class="aud-workers-line"><span id="aud-workers-hint" class="muted"></span> <span id="aud-workers-error" class="field-error" role="alert"></span></p>
    <p id="aud-field" class="field-error" role="alert"></p>
    <div class="aud-progress-row">
      <progress id="aud-progress" value="0" max="1"></progress>
      <span id="aud-status" class="mono" role="status" aria-live="polite"></span>
    </div>
    <div id="aud-result" hidden>
      <h3>On one scale <span class="muted">(ε, log scale)</span></h3>
      <svg id="aud-scale" class="aud-scale" viewBox="0 0 640 112" role="img" aria-label="the paper's bound, the tight bound and the audit's lower bound on one log scale"></svg>
      <p id="aud-scale-note" class="muted small"></p>
      <ul id="aud-words" class="aud-words"></ul>
      <p id="aud-verdict" class="aud-verdict"></p>
      <div class="aud-grid">
        <div>
          <h3>The eavesdropper's ROC curves</h3>
          <canvas id="aud-roc" class="aud-roc" width="360" height="300" role="img" aria-label="ROC curves of the eavesdropper's tests"></canvas>
          <ul id="aud-legend" class="aud-legend"></ul>
        </div>
        <div>
          <h3>The tests</h3>
          <div class="aud-scroll"><table id="aud-tests" aria-label="the tests and their rates"></table></div>
          <p id="aud-detail" class="muted small"></p>
        </div>
      </div>
      <div class="aud-row">
        <span class="muted">Download:</span>
        <button type="button" id="aud-dl-json" disabled>JSON</button>
        <span class="muted">— what <code>dpsim audit</code> writes</span>
      </div>
    </div>
  </details>`;

  const box = $('aud-box');
  const runsIn = $('aud-runs');
  const itersIn = $('aud-iters');
  const agentIn = $('aud-agent');
  const workersIn = $('aud-workers');
  const workersLabel = $('aud-workers-label');
  const workersHint = $('aud-workers-hint');
  const workersErr = $('aud-workers-error');
  const runBtn = $('aud-run');
  const cancelBtn = $('aud-cancel');
  const bar = $('aud-progress');
  const status = $('aud-status');
  const field = $('aud-field');
  const resultBox = $('aud-result');

  const state = { status: 'idle', done: 0, total: 0, workers: 0, workersAuto: true, workersSaid: '', workersNote: '', workersError: '', checked: 0,
    error: '', result: null, cancelledAt: 0, stoppedAt: 0 };
  const COLORS = ['#0072B2', '#D55E00'];
  const CHUNK = 8;

  // ------------------------------------------------------------ workers

  // The solver's module and the sweep worker's request protocol
  // ({id, cmd, …} answered by {id, ok, value | error}, with {id,
  // progress} on the way) are the experiments panel's (experiments.js).
  const { solverModule, SolverWorker, workersSetting } = window.dpsimWorkers;

  async function spawn() {
    const module = await solverModule();
    const w = new SolverWorker();
    await w.request('init', { module });
    return w;
  }

  // checker is a worker kept while the panel is open and idle: it reads
  // the setting's declaration and checks the field as it changes, and it
  // becomes the first worker of the next audit (which ends it).
  let checker = null;
  function getChecker() {
    if (!checker) {
      checker = spawn();
      checker.catch(() => { checker = null; });
    }
    return checker;
  }
  function takeChecker() {
    const c = getChecker();
    checker = null;
    return c;
  }
  // dropChecker ends the idle checker (the panel closed): no solver's
  // memory is held for a panel nobody looks at.
  function dropChecker() {
    const c = checker;
    checker = null;
    if (c) c.then((w) => w.terminate(), () => {});
  }

  // ------------------------------------------------------------ Workers
  //
  // The field shows the shared setting and writes it; its words — the
  // label, the tooltip, the hint, the refusal — are the declaration's
  // and the engine's (the solver's settings() and workers()).
  const cores = () => navigator.hardwareConcurrency || 0;
  workersIn.value = workersSetting.read();
  let declared = false;
  async function declare(h) {
    if (declared) return;
    const [f] = await h.request('settings');
    if (f) workersIn.title = workersSetting.title(f);
    declared = true;
  }

  // showWorkers shows a workers() answer (or its refusal) beside the field.
  function showWorkers(r, err) {
    state.workersError = workersErr.textContent = err ? String(err.message || err) : '';
    workersHint.textContent = r ? r.hint : '';
    if (r) workersLabel.textContent = r.setting;
  }

  // checkWorkers reads the field as the engine does, while no audit runs:
  // its one-line refusal beside it, or what auto means here.
  async function checkWorkers() {
    if (job) return;
    try {
      const h = await getChecker();
      await declare(h);
      if (job) return;
      let r = null, err = null;
      try { r = await h.request('workers', { name: '', text: workersIn.value, cores: cores() }); } catch (e) { err = e; }
      if (!job) showWorkers(r, err);
    } catch (e) {
      /* no solver (not built): the audit says so when it starts */
    } finally {
      state.checked++;
    }
  }
  workersIn.addEventListener('change', () => {
    workersSetting.write(workersIn.value.trim(), 'audit');
    checkWorkers();
  });
  workersSetting.listen('audit', (text) => {
    workersIn.value = text;
    if (box.open) checkWorkers();
  });

  // ------------------------------------------------------------ the run

  let job = null; // {workers, cancelled}

  function fail(msg) {
    state.status = 'error';
    state.error = msg;
    status.textContent = msg;
    status.classList.add('aud-error');
    runBtn.disabled = false;
    cancelBtn.disabled = true;
  }

  // wanted reads the three boxes: {runs, iterations, agent} or null, the
  // box at fault named in one line.
  function wanted() {
    field.textContent = '';
    const whole = (el, name, lo, hi, empty) => {
      const t = el.value.trim();
      if (t === '' && empty !== undefined) return empty;
      const v = Number(t);
      if (!Number.isInteger(v) || v < lo || v > hi) {
        field.textContent = `${name}: must be a whole number from ${lo} to ${hi} (got ${t === '' ? 'nothing' : t})`;
        return null;
      }
      return v;
    };
    const runs = whole(runsIn, 'Runs', 8, 200000);
    if (runs === null) return null;
    if (runs % 2) { field.textContent = `Runs: must be even, half on D and half on its neighbour (got ${runs})`; return null; }
    const iterations = whole(itersIn, 'Iterations', 1, 10000000, 0);
    if (iterations === null) return null;
    const agent = whole(agentIn, 'Agent', 0, 4999, -1);
    if (agent === null) return null;
    return { runs, iterations, agent };
  }

  // experimentJSON is the audit experiment of the current scenario.
  function experimentJSON(w) {
    const sc = JSON.parse(window.dpsim.scenario());
    const name = ('audit-' + (sc.name || 'scenario')).slice(0, 64).replace(/[-_.]+$/, '');
    const audit = {};
    if (w.agent >= 0) audit.agent = w.agent;
    const e = {
      format: 'dpsim-experiment/1', name, title: 'Privacy audit: ' + (sc.title || sc.name),
      base: { scenario: sc }, audit, runs: w.runs / 2, seed: 1,
    };
    if (w.iterations > 0) e.set = { iterations: w.iterations };
    return JSON.stringify(e);
  }

  async function run() {
    if (job || !window.dpsim || typeof window.dpsim.scenario !== 'function') return;
    const w = wanted();
    if (!w) return;
    const me = { workers: [], cancelled: false };
    job = me;
    Object.assign(state, { status: 'starting', done: 0, total: w.runs, workers: 0, workersSaid: '', workersNote: '', error: '', result: null, cancelledAt: 0, stoppedAt: 0 });
    status.classList.remove('aud-error');
    runBtn.disabled = true;
    cancelBtn.disabled = false;
    workersIn.disabled = true;
    bar.value = 0;
    status.textContent = 'Starting the workers…';
    try {
      const json = experimentJSON(w);
      const name = JSON.parse(json).name;
      const text = workersIn.value;
      // The first worker (the checker, if it is up) checks the Workers
      // field before anything is fetched or planned.
      const first = takeChecker();
      first.then((x) => me.workers.push(x), () => {});
      const h = await first;
      if (me.cancelled) return;
      await declare(h);
      try {
        showWorkers(await h.request('workers', { name: '', text, cores: cores() }), null);
      } catch (e) {
        showWorkers(null, e);
        throw e;
      }
      // A scenario on a committed dataset: its files, fetched once, to
      // every worker.
      const needs = await h.request('dataNeeds', { kind: 'experiment', arg: json });
      if (needs.error) throw new Error(needs.error);
      const files = [];
      for (const f of needs.uses) {
        status.textContent = `Fetching ${f.title} (${f.split})…`;
        files.push({ file: f.file, bytes: await window.dpsimData.fetchFile(f, () => {}) });
      }
      const prepare = async (x) => {
        for (const f of files) await x.request('provide', f);
        await x.request('experimentFromJSON', { json });
        return x.request('plan', { name, runs: 0 });
      };
      status.textContent = 'Planning: a probe run, the neighbour, two noise-free references…';
      const plan = await prepare(h);
      if (me.cancelled) return;
      // How many: the engine's choice for the setting (auto: the most
      // that fit), or its one-line refusal naming the field.
      let wk;
      try {
        wk = await h.request('workers', { name, runs: 0, text, cores: cores() });
      } catch (e) {
        showWorkers(null, e);
        throw e;
      }
      Object.assign(state, { workers: wk.workers, workersAuto: wk.auto, workersSaid: wk.said, workersNote: wk.note });
      if (wk.workers > 1) {
        status.textContent = `Planning on ${wk.said}…`;
        const more = Array.from({ length: wk.workers - 1 }, () => new SolverWorker());
        me.workers.push(...more);
        if (me.cancelled) return;
        const module = await solverModule();
        await Promise.all(more.map(async (x) => { await x.request('init', { module }); await prepare(x); }));
      }
      if (me.cancelled) return;
      const n = wk.workers;
      state.total = plan.tasks;
      state.status = 'running';
      const t0 = performance.now();
      const recs = [];
      let next = 0;
      const show = () => {
        bar.max = state.total;
        bar.value = state.done;
        const s = (performance.now() - t0) / 1000;
        const eta = state.done ? s * (state.total - state.done) / state.done : NaN;
        status.textContent = `${state.done} / ${state.total} runs on ${wk.said} · ${s.toFixed(0)} s` + (isFinite(eta) ? ` · about ${eta.toFixed(0)} s left` : '') + (wk.note ? ` — ${wk.note}` : '');
      };
      show();
      await Promise.all(me.workers.slice(0, n).map(async (x) => {
        while (!me.cancelled && next < plan.tasks) {
          const tasks = [];
          for (let k = 0; k < CHUNK && next < plan.tasks; k++) tasks.push(next++);
          await x.request('run', { name: plan.name, runs: 0, tasks }, (p) => {
            if (p.record === undefined) return;
            recs.push(p.record);
            state.done++;
            show();
          });
        }
      }));
      if (me.cancelled) return;
      status.textContent = `Assembling ${recs.length} runs…`;
      const out = await h.request('assemble', { name: plan.name, runs: 0, records: '[' + recs.join(',') + ']' });
      const res = JSON.parse(out.json);
      state.result = res.audit;
      state.json = out.json;
      state.status = 'done';
      state.seconds = (performance.now() - t0) / 1000;
      show();
      status.textContent = `${state.done} runs in ${state.seconds.toFixed(1)} s on ${wk.said}` + (wk.note ? ` — ${wk.note}` : '');
      draw(res.audit);
    } catch (e) {
      if (me.cancelled) return;
      const line = String(e && e.message || e);
      // The Workers field's refusal is said once, beside the field.
      fail(line === state.workersError ? 'The audit did not start: the Workers setting is refused (beside it).' : line);
      state.error = line;
    } finally {
      for (const x of me.workers) x.terminate();
      if (job === me) {
        job = null;
        runBtn.disabled = false;
        cancelBtn.disabled = true;
        workersIn.disabled = false;
      }
    }
  }

  // cancel stops at once: the workers are terminated, their runs lost.
  // state.cancelledAt is the click's own time (the event's timeStamp), so
  // that stoppedAt − cancelledAt counts a busy page's delay too.
  function cancel(e) {
    if (!job) return;
    state.cancelledAt = e && e.timeStamp ? e.timeStamp : performance.now();
    job.cancelled = true;
    for (const x of job.workers) x.terminate();
    job = null;
    state.status = 'cancelled';
    state.stoppedAt = performance.now();
    status.textContent = `Cancelled after ${state.done} of ${state.total} runs` + (state.workers ? ` on ${state.workersSaid}` : '');
    runBtn.disabled = false;
    cancelBtn.disabled = true;
    workersIn.disabled = false;
  }

  // ------------------------------------------------------------ drawing

  const fmt = (v) => {
    if (v === 'Inf' || v === Infinity) return '∞';
    if (typeof v !== 'number' || !isFinite(v)) return '—';
    if (v === 0) return '0';
    if (v >= 1e5 || v < 1e-3) return v.toExponential(2).replace('e+', ' × 10^').replace('e-', ' × 10^-');
    return String(Number(v.toPrecision(3)));
  };
  const num = (v) => (v === 'Inf' ? Infinity : v === '-Inf' ? -Infinity : typeof v === 'number' ? v : NaN);

  // numbers is what the panel shows, for the tour (p29tour) and tests:
  // the three bounds at the audited horizon, their words, the verdict.
  function numbers(a = state.result) {
    if (!a) return null;
    const paper = num(a.claim);
    const tight = a.tight === undefined ? null : num(a.tight);
    return {
      agent: a.agent, paper, paperLog10: num(a.claim_log10), tight, tightNote: a.tight_note || '',
      audit: num(a.epsilon), ceiling: num(a.ceiling), delta: a.delta, confidence: a.confidence,
      runs: a.runs, test: a.test, verdict: a.verdict, summary: a.summary, neighbour: a.neighbour,
      words: words(a),
    };
  }

  // words says the three numbers in sentences.
  function words(a) {
    const paper = num(a.claim), audit = num(a.epsilon), ceil = num(a.ceiling);
    const d = a.delta ? ` at δ = ${a.delta}` : '';
    const out = [];
    out.push(`The paper's bound: ε ≤ ${fmt(paper)}${d} for agent ${a.agent} — what ${a.algorithm}'s analysis proves (${a.notion}).`);
    if (a.tight !== undefined) out.push(`The tight bound: ε ≤ ${fmt(num(a.tight))}${a.tight_delta ? ` at δ = ${a.tight_delta}` : ''} (at most ${fmt(a.tight_error || 0)} above the exact value) — the same releases composed exactly; no analysis of them can prove less.`);
    else out.push(`The tight bound: — (${a.tight_note || 'not available'}).`);
    out.push(`The audit: ε ≥ ${fmt(audit)} with ${Math.round(100 * a.confidence)} % confidence — ${a.runs.d + a.runs.neighbour} runs of an eavesdropper's ${a.test} test on agent ${a.agent}'s messages, the neighbour: ${a.neighbour}.`);
    if (isFinite(ceil)) out.push(`These runs cannot show more than ε ≈ ${fmt(ceil)} however leaky the mechanism: more runs raise the ceiling (about ln(runs/15)).`);
    if (isFinite(paper) && audit > 0) {
      const gap = Math.log10(paper / audit);
      if (gap >= 1) out.push(`The paper's bound is ${gap.toFixed(1)} orders of magnitude above what the audit shows: the true ε is somewhere between the two.`);
    }
    return out;
  }

  function draw(a) {
    resultBox.hidden = false;
    const n = numbers(a);
    const ul = $('aud-words');
    ul.replaceChildren(...n.words.map((t) => { const li = document.createElement('li'); li.textContent = t; return li; }));
    const v = $('aud-verdict');
    v.textContent = a.summary;
    v.className = 'aud-verdict ' + (a.verdict === 'exceeds claim' ? 'aud-bad' : a.verdict === 'consistent' ? 'aud-ok' : '');
    drawScale(n);
    drawROC(a);
    drawTests(a);
    $('aud-detail').textContent = `Adjacency: ${a.adjacency_text} (from ${a.adjacency_from}). Noise law: ${a.law}.`;
    const dl = $('aud-dl-json');
    dl.disabled = false;
  }

  // drawScale puts the three numbers (and the ceiling) on a log axis, in
  // CSS pixels of the panel's width: the upper bounds above the axis, the
  // lower bound and the ceiling below, each on its own line.
  function drawScale(n) {
    const svg = $('aud-scale');
    const vals = [n.paper, n.tight, n.audit, n.ceiling].filter((x) => typeof x === 'number' && isFinite(x) && x > 0);
    const paperLog = isFinite(n.paper) ? Math.log10(n.paper) : (isFinite(n.paperLog10) ? n.paperLog10 : 3);
    const lo = Math.floor(Math.min(...vals.map(Math.log10), 0) - 0.5);
    let hi = Math.ceil(Math.max(paperLog, ...vals.map(Math.log10)) + 0.5);
    if (hi - lo < 2) hi = lo + 2;
    const W = Math.max(240, Math.round(svg.clientWidth || 640)), H = 112, L = 14, R = W - 14, Y = 46;
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const x = (lg) => L + (R - L) * (Math.max(lo, Math.min(hi, lg)) - lo) / (hi - lo);
    const parts = [];
    const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    // Where the true ε lies: from the audit up to the smaller upper bound.
    const upper = Math.min(paperLog, n.tight !== null && isFinite(n.tight) ? Math.log10(n.tight) : Infinity);
    const audLog = n.audit > 0 ? Math.log10(n.audit) : lo;
    parts.push(`<rect x="${x(audLog)}" y="${Y - 8}" width="${Math.max(1, x(upper) - x(audLog))}" height="16" class="aud-band"/>`);
    parts.push(`<line x1="${L}" y1="${Y}" x2="${R}" y2="${Y}" class="aud-axis"/>`);
    const step = Math.max(1, Math.ceil((hi - lo) / Math.max(2, Math.floor((R - L) / 48))));
    for (let e = lo; e <= hi; e += step) {
      parts.push(`<line x1="${x(e)}" y1="${Y - 3}" x2="${x(e)}" y2="${Y + 3}" class="aud-axis"/>`);
      parts.push(`<text x="${x(e)}" y="${Y + 15}" class="aud-tick">10<tspan dy="-5" font-size="8">${e}</tspan></text>`);
    }
    const mark = (lg, label, cls, y) => {
      const px = x(lg);
      parts.push(`<line x1="${px}" y1="${Y - 10}" x2="${px}" y2="${Y + 10}" class="${cls}"/>`);
      const anchor = px < W * 0.3 ? 'start' : px > W * 0.7 ? 'end' : 'middle';
      parts.push(`<text x="${px}" y="${y}" text-anchor="${anchor}" class="aud-label ${cls}">${esc(label)}</text>`);
    };
    mark(paperLog, `paper: ε ≤ ${fmt(n.paper)}`, 'aud-paper', 12);
    if (n.tight !== null && isFinite(n.tight)) mark(Math.log10(n.tight), `tight: ε ≤ ${fmt(n.tight)}`, 'aud-tight', 28);
    mark(audLog, `audit: ε ≥ ${fmt(n.audit)}`, 'aud-audit', Y + 32);
    if (isFinite(n.ceiling) && n.ceiling > 0) mark(Math.log10(n.ceiling), `most these runs can show: ${fmt(n.ceiling)}`, 'aud-ceiling', Y + 50);
    svg.innerHTML = parts.join('');
    $('aud-scale-note').textContent = `Shaded: where agent ${n.agent}'s true ε lies, from what the audit proves up to the smallest upper bound.` +
      (n.tight === null ? ` The tight bound: — (${n.tightNote}).` : '');
  }

  function drawROC(a) {
    const cv = $('aud-roc');
    const dpr = window.devicePixelRatio || 1;
    const cssW = cv.clientWidth || 360, cssH = Math.round(cssW * 0.8);
    cv.style.height = cssH + 'px';
    cv.width = Math.round(cssW * dpr);
    cv.height = Math.round(cssH * dpr);
    const g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cssW, cssH);
    const L = 40, T = 8, Rr = cssW - 10, B = cssH - 34;
    const px = (f) => L + (Rr - L) * f, py = (t) => B - (B - T) * t;
    g.strokeStyle = '#999';
    g.lineWidth = 1;
    g.strokeRect(L, T, Rr - L, B - T);
    g.fillStyle = '#555';
    g.font = '11px sans-serif';
    g.textAlign = 'center';
    for (const t of [0, 0.5, 1]) {
      g.fillText(String(t), px(t), B + 14);
      g.textAlign = 'right';
      g.fillText(String(t), L - 4, py(t) + 4);
      g.textAlign = 'center';
    }
    g.fillText('false-positive rate', (L + Rr) / 2, B + 28);
    g.save();
    g.translate(12, (T + B) / 2);
    g.rotate(-Math.PI / 2);
    g.fillText('true-positive rate', 0, 0);
    g.restore();
    g.setLineDash([4, 4]);
    g.beginPath();
    g.moveTo(px(0), py(0));
    g.lineTo(px(1), py(1));
    g.stroke();
    g.setLineDash([]);
    const legend = $('aud-legend');
    legend.replaceChildren();
    a.tests.forEach((t, i) => {
      g.strokeStyle = COLORS[i % COLORS.length];
      g.lineWidth = 2;
      g.beginPath();
      t.roc.forEach((p, k) => (k ? g.lineTo(px(p.fpr), py(p.tpr)) : g.moveTo(px(p.fpr), py(p.tpr))));
      g.stroke();
      const li = document.createElement('li');
      li.innerHTML = `<span class="aud-swatch" style="background:${COLORS[i % COLORS.length]}"></span>`;
      li.append(`${t.statistic}: ε ≥ ${fmt(num(t.epsilon))}`);
      legend.append(li);
    });
    const li = document.createElement('li');
    li.innerHTML = '<span class="aud-swatch aud-chance"></span>';
    li.append('chance (a guess that ignores the messages)');
    legend.append(li);
  }

  function drawTests(a) {
    const tb = $('aud-tests');
    const rows = [['test', 'ε ≥', 'false positives', 'false negatives', 'threshold']];
    for (const t of a.tests) {
      const rate = (r) => `${r.count}/${r.runs} (≤ ${fmt(num(r.upper))})`;
      rows.push([t.statistic, fmt(num(t.epsilon)), rate(t.fpr), rate(t.fnr), `${t.above ? '>' : '≤'} ${fmt(num(t.threshold))}`]);
    }
    tb.replaceChildren(...rows.map((r, i) => {
      const tr = document.createElement('tr');
      for (const c of r) {
        const cell = document.createElement(i ? 'td' : 'th');
        cell.textContent = c;
        tr.append(cell);
      }
      return tr;
    }));
  }

  function download() {
    if (!state.json) return;
    const blob = new Blob([state.json], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = (JSON.parse(state.json).experiment.name || 'audit') + '.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  runBtn.addEventListener('click', run);
  cancelBtn.addEventListener('click', cancel);
  $('aud-dl-json').addEventListener('click', download);
  box.addEventListener('toggle', () => {
    if (!box.open) {
      if (!job) dropChecker();
      return;
    }
    if (!job) checkWorkers();
    if (state.result) drawROC(state.result);
  });
  window.addEventListener('resize', () => {
    if (state.result && box.open) {
      drawROC(state.result);
      drawScale(numbers());
    }
  });

  window.dpsimAudit = { state, run, cancel, numbers: () => numbers() };
})();
