'use strict';
// End-to-end test of the Experiments panel's Workers setting: how many
// Web Workers run a sweep (each its own memory, one run at a time).
//
//   node --test e2e/sweep-workers.test.js   (after ./build.sh)
//
// The page says the machine has 8 cores (navigator.hardwareConcurrency,
// overridden), so that the test does not depend on this machine's. It
// checks that a bad value is refused beside the field in one line naming
// the field, the rule and the value; that a count chosen is what the
// sweep runs on (the description, the progress line, dpsimSweepState)
// and changes no byte of the result; that the value is kept in the
// browser; and that Workers that would not fit the page's memory get the
// engine's one-line refusal naming the field (Plan.CheckMemory with the
// page's setting), while auto takes the most that fit and says so — at
// 1280×800 and at a phone's width, with screenshots.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, built, download: save, open, scratch, waiter } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 240000;
const PRESET = 'gtdp-error-bands';
const CORES = 8;
const tmp = scratch('sweep-workers');

// An experiment whose runs each keep ten million recorded points (the
// engine's TestSweepWorkersRefused): one Worker fits the page's budget,
// eight do not. Planning it builds each point once; nothing runs.
const HEAVY = JSON.stringify({
  format: 'dpsim-experiment/1', name: 'long-runs', title: 'Long runs',
  base: { preset: 'gtdp-rendezvous' }, set: { iterations: 10000000 },
  series: [{ name: 'a' }, { name: 'b', label: 'half step', set: { 'algorithm.params.alpha': 0.05 } }],
  x: { kind: 'field', fields: ['noise.eta.scale', 'noise.xi.scale'], values: [1, 0.1], label: 'b', scale: 'log' },
  runs: 6, seed: 7,
  metrics: [{ name: 'optimality' }, { name: 'consensus', id: 'cons-tail', reduce: 'tail-mean', last: 50 }],
  statistic: 'mean', figure: { title: 'T', y: { metric: 'optimality', label: 'err', scale: 'log' } },
});

const eightCores = (page) => page.addInitScript((n) => {
  Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n, configurable: true });
}, CORES);

const wait = waiter({ timeout: TIMEOUT, state: () => JSON.stringify(window.dpsimSweepState) });
let p = null;

before(async () => {
  built(['experiments.html', 'experiments.js', 'sweep-worker.js', 'solver.wasm', 'wasm_exec.js']);
  p = await open(null, { viewport: { width: 1280, height: 800 }, route: eightCores });
});
after(async () => { if (p) await p.close(); });

const ready = async (b, query = `experiment=${PRESET}`) => {
  await b.goto(`experiments.html?${query}`);
  await wait(b, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
};

// setWorkers types text in the Workers field and waits for the panel to
// have read it: an error beside the field, or the description's count.
async function setWorkers(b, text) {
  await b.page.fill('#exp-workers', text);
  const before = await b.page.evaluate(() => window.dpsimSweepState.described);
  const t0 = Date.now();
  await b.page.dispatchEvent('#exp-workers', 'change');
  await wait(b, `the panel to read Workers ${text}`, (n) => window.dpsimSweepState.described > n, before);
  return Date.now() - t0;
}

const sweep = async (b) => {
  await b.page.click('#exp-run');
  await wait(b, 'the sweep', () => ['done', 'error'].includes(window.dpsimSweepState.status));
  return b.page.evaluate(() => ({ ...window.dpsimSweepState, progress: document.getElementById('exp-progress-text').textContent }));
};

test('a bad Workers value is refused beside the field, in one line naming the field, the rule and the value', async () => {
  await ready(p);
  assert.match(await p.page.textContent('#exp-desc'), new RegExp(`on ${CORES} Workers \\(auto\\)`));
  assert.match(await p.page.getAttribute('#exp-workers', 'title'), /^Web Workers running a sweep \(Experiments\) or an audit \(Is this ε honest\?\) — one setting for both, kept in this browser —, .*\(Web Workers: \[0, 64\], up to this machine's cores; default auto\)$/);
  for (const bad of ['abc', '1.5', '0.5', '-1', String(CORES + 1), '1e9']) {
    const ms = await setWorkers(p, bad);
    const err = await p.page.textContent('#exp-workers-error');
    assert.equal(err, `Workers: must be a whole number from 1 to ${CORES} (this machine's cores), or empty for auto: one per core, at most 8 (got ${JSON.stringify(bad)})`);
    console.log(`# ${bad}: refused in ${ms} ms`);
  }
  // Run is refused with the same line, before any Worker starts.
  const st = await sweep(p);
  assert.equal(st.status, 'error');
  assert.equal(st.done, 0);
  assert.match(st.error, /^Workers: must be a whole number from 1 to 8/);
});

test('a count chosen is what the sweep runs on, shown in its progress, kept in the browser, and changes no byte', async () => {
  await p.page.fill('#exp-runs', '50');
  await p.page.dispatchEvent('#exp-runs', 'change');
  const bytes = {};
  for (const n of ['1', '2']) {
    await setWorkers(p, n);
    assert.equal(await p.page.textContent('#exp-workers-error'), '');
    assert.match(await p.page.textContent('#exp-desc'), new RegExp(`150 runs \\(50 per point\\) on ${n} Workers? \\(your setting\\)`));
    const st = await sweep(p);
    assert.equal(st.status, 'done', st.error);
    assert.equal(st.workers, Number(n));
    assert.equal(st.workersSetting, n);
    assert.match(st.progress, new RegExp(`150 / 150 runs .* done in .* on ${n} Workers? \\(your setting\\)$`));
    bytes[n] = (await save(p, '#exp-dl-json', tmp)).data;
  }
  assert.ok(bytes['1'].equals(bytes['2']), 'the same JSON on 1 and 2 Workers');
  await p.page.reload();
  await wait(p, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
  assert.equal(await p.page.inputValue('#exp-workers'), '2', 'the setting is kept in this browser');
});

test('Workers that would not fit the page\'s memory get the engine\'s refusal naming the field; auto takes the most that fit', async () => {
  const opened = await p.page.evaluate((t) => window.dpsimExperiments.openJSON(t, 'long-runs.json'), HEAVY);
  assert.ok(opened.ok, opened.error);
  await p.page.fill('#exp-runs', '');
  await p.page.dispatchEvent('#exp-runs', 'change');
  const ms = await setWorkers(p, '8');
  const line = await p.page.textContent('#exp-workers-error');
  const re = /^Workers: each Web Worker \(its own memory: the datasets, the problem instances and one run\) holds about [0-9.]+ [MG]iB, and 8 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ([1-7]) fit \(got 8\)$/;
  const m = re.exec(line);
  assert.ok(m, `the refusal: ${line}`);
  console.log(`# refused in ${ms} ms: ${line}`);
  const most = Number(m[1]);
  const st = await sweep(p);
  assert.equal(st.status, 'error');
  assert.equal(st.done, 0, 'no run started');
  assert.equal(st.error, line, 'Run is refused for the same line');
  assert.equal(await p.page.textContent('#exp-msg'), 'The sweep did not start: the Workers setting is refused (beside it).', 'the line is said once, beside the field');
  await (await p.page.$('section.experiments')).screenshot({ path: path.join(OUT, 'sweep-workers-refused.png') });
  // The most that fit are accepted, and auto takes them, saying why.
  await setWorkers(p, String(most));
  assert.equal(await p.page.textContent('#exp-workers-error'), '');
  await setWorkers(p, '');
  assert.equal(await p.page.textContent('#exp-msg'), '', 'the refusal is gone once the field is changed');
  const desc = await p.page.textContent('#exp-desc');
  assert.match(desc, new RegExp(`24 runs \\(6 per point\\) on ${most} Workers? \\(auto\\) — auto: ${most} Workers, not 8: each holds about [0-9.]+ [MG]iB of its own, and 8 would take the sweep past the 4\\.0 GiB it may use`));
  await (await p.page.$('section.experiments')).screenshot({ path: path.join(OUT, 'sweep-workers-auto.png') });
  assert.deepEqual(p.errors, [], 'no page errors');
});

test('at a phone\'s width the field and its refusal fit the screen', async () => {
  const phone = await open(null, { viewport: { width: 390, height: 844 }, touch: true, route: eightCores });
  try {
    await ready(phone);
    const opened = await phone.page.evaluate((t) => window.dpsimExperiments.openJSON(t, 'long-runs.json'), HEAVY);
    assert.ok(opened.ok, opened.error);
    await setWorkers(phone, '8');
    assert.match(await phone.page.textContent('#exp-workers-error'), /^Workers: each Web Worker/);
    const fits = await phone.page.evaluate(() => ['exp-workers', 'exp-workers-error', 'exp-runs'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return { id, left: r.left, right: r.right, w: r.width };
    }));
    for (const f of fits) assert.ok(f.left >= 0 && f.right <= 390 && f.w > 0, `${f.id} within the screen: ${JSON.stringify(f)}`);
    assert.equal(await phone.page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await (await phone.page.$('#exp-workers')).scrollIntoViewIfNeeded();
    await phone.page.screenshot({ path: path.join(OUT, 'sweep-workers-phone.png') });
  } finally {
    await phone.close();
  }
});
