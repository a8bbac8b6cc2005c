'use strict';
// End-to-end test of the Workers setting in the "Is this ε honest?" panel
// (public/audit.js): the audit runs on the page's Workers setting, the
// one the Experiments panel has (experiment.PageSettings; kept in this
// browser under dpsim.sweepWorkers), shown and editable beside the
// audit's other boxes with the declaration's words; auto takes one per
// core (at most 8) as the engine chooses, a count given is what runs, a
// bad value is the engine's one line naming the field, the rule and the
// value, and the progress and end lines say how many Workers ran and
// whether that was the user's setting or auto; Cancel still stops within
// 1 s — at 1280×800 and at a phone's width, with screenshots.
//
//   node e2e/run.js e2e/audit-workers.test.js   (after ./build.sh)
//
// The page says the machine has 8 cores (navigator.hardwareConcurrency,
// overridden), so that auto's count does not depend on this machine's.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, built, open, waiter } = require('./harness.js');
const CORES = 8;
const NO_BAR = '.toolbar { visibility: hidden !important; }';
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 240000, state: () => JSON.stringify(window.dpsimAudit && window.dpsimAudit.state) });

const eightCores = (page) => page.addInitScript((n) => {
  Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n, configurable: true });
}, CORES);

async function openPage(viewport, touch = false) {
  const p = await open('?preset=gtdp-rendezvous', { viewport, touch, route: eightCores });
  await waitFor(p, 'the preset', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.scenario === 'gtdp-rendezvous');
  await waitFor(p, 'the audit panel', () => !!window.dpsimAudit);
  await p.page.click('#aud-box summary');
  await waitFor(p, 'the Workers field read', () => window.dpsimAudit.state.checked > 0);
  return p;
}

// setWorkers types text in the audit's Workers field and waits for the
// engine's reading of it.
async function setWorkers(p, text) {
  const n = await p.page.evaluate(() => window.dpsimAudit.state.checked);
  await p.page.fill('#aud-workers', text);
  await p.page.dispatchEvent('#aud-workers', 'change');
  await waitFor(p, `Workers ${text} read`, (k) => window.dpsimAudit.state.checked > k, n);
}

// audit runs an audit of runs runs over iterations iterations to its end.
async function audit(p, runs, iterations) {
  await p.page.fill('#aud-runs', String(runs));
  await p.page.fill('#aud-iters', String(iterations));
  await p.page.click('#aud-run');
  await waitFor(p, 'the audit to end', () => ['done', 'error'].includes(window.dpsimAudit.state.status));
  return p.page.evaluate(() => ({ ...window.dpsimAudit.state, line: document.getElementById('aud-status').textContent }));
}

let p = null;
before(async () => {
  built(['solver.wasm', 'sweep-worker.js', 'audit.js']);
  p = await openPage({ width: 1280, height: 800 });
});
after(async () => { if (p) await p.close(); });

test('the audit panel shows the Workers setting with the declaration\'s words, and a bad value is refused in one line before anything runs', async () => {
  const { page } = p;
  assert.equal(await page.textContent('#aud-workers-label'), 'Workers');
  assert.equal(await page.inputValue('#aud-workers'), '', 'auto when nothing is kept');
  assert.match(await page.getAttribute('#aud-workers', 'title'),
    /^Web Workers running a sweep \(Experiments\) or an audit \(Is this ε honest\?\) — one setting for both, kept in this browser —, .*\(Web Workers: \[0, 64\], up to this machine's cores; default auto\)$/);
  assert.equal(await page.textContent('#aud-workers-hint'), `auto: one per core (${CORES} here), at most 8`);
  for (const bad of ['abc', '1.5', '-1', String(CORES + 1), '1e9']) {
    await setWorkers(p, bad);
    assert.equal(await page.textContent('#aud-workers-error'),
      `Workers: must be a whole number from 1 to ${CORES} (this machine's cores), or empty for auto: one per core, at most 8 (got ${JSON.stringify(bad)})`);
  }
  const st = await audit(p, 400, 20);
  assert.equal(st.status, 'error');
  assert.equal(st.done, 0, 'no run started');
  assert.match(st.error, /^Workers: must be a whole number from 1 to 8 .*\(got "1e9"\)$/);
  assert.equal(st.line, 'The audit did not start: the Workers setting is refused (beside it).', 'the line is said once, beside the field');
  await page.locator('#audit-section').screenshot({ path: path.join(OUT, 'audit-workers-refused.png'), style: NO_BAR });
});

test('one setting with the Experiments panel: a change in either field is the other\'s, and kept in this browser', async () => {
  const { page } = p;
  await setWorkers(p, '3');
  assert.equal(await page.textContent('#aud-workers-error'), '');
  assert.equal(await page.textContent('#aud-workers-hint'), '', 'no auto hint for a count');
  assert.equal(await page.evaluate(() => localStorage.getItem('dpsim.sweepWorkers')), '3');
  assert.equal(await page.inputValue('#exp-workers'), '3', 'the Experiments panel\'s field reads the same');
  // And the other way: the Experiments panel's field changes the audit's.
  await page.click('#exp-box summary');
  await waitFor(p, 'the Experiments panel', () => window.dpsimSweepState.status === 'ready');
  const n = await page.evaluate(() => window.dpsimAudit.state.checked);
  await page.fill('#exp-workers', '2');
  await page.dispatchEvent('#exp-workers', 'change');
  await waitFor(p, 'the audit to read 2', (k) => window.dpsimAudit.state.checked > k, n);
  assert.equal(await page.inputValue('#aud-workers'), '2');
  assert.equal(await page.evaluate(() => localStorage.getItem('dpsim.sweepWorkers')), '2');
});

const bytes = {};
test('a count given is what the audit runs on, and its lines say so', async () => {
  const st = await audit(p, 400, 20);
  assert.equal(st.status, 'done', st.error);
  assert.equal(st.done, 400);
  assert.equal(st.workers, 2);
  assert.equal(st.workersAuto, false);
  assert.match(st.line, /^400 runs in [0-9.]+ s on 2 Workers \(your setting\)$/);
  bytes['2'] = st.json;
});

test('auto takes one per core (at most 8), says so, and changes no byte', async () => {
  const { page } = p;
  await setWorkers(p, '');
  assert.equal(await page.evaluate(() => localStorage.getItem('dpsim.sweepWorkers')), '');
  await page.fill('#aud-runs', '400');
  await page.fill('#aud-iters', '20');
  await page.click('#aud-run');
  await waitFor(p, 'runs under way', () => window.dpsimAudit.state.done > 0 || ['done', 'error'].includes(window.dpsimAudit.state.status));
  const line = await page.textContent('#aud-status');
  assert.match(line, /^[0-9]+ \/ 400 runs on 8 Workers \(auto\) · /, `the progress line: ${line}`);
  await waitFor(p, 'the audit to end', () => ['done', 'error'].includes(window.dpsimAudit.state.status));
  const st = await page.evaluate(() => ({ ...window.dpsimAudit.state, line: document.getElementById('aud-status').textContent }));
  assert.equal(st.status, 'done', st.error);
  assert.equal(st.workers, CORES);
  assert.equal(st.workersAuto, true);
  assert.match(st.line, /^400 runs in [0-9.]+ s on 8 Workers \(auto\)$/);
  assert.ok(st.json === bytes['2'], 'the same JSON on 2 Workers and on 8');
  await page.locator('#audit-section').screenshot({ path: path.join(OUT, 'audit-workers-auto.png'), style: NO_BAR });
});

test('Cancel stops an audit on 3 Workers within 1 s and says on how many', async () => {
  const { page } = p;
  await setWorkers(p, '3');
  await page.fill('#aud-runs', '200000');
  await page.fill('#aud-iters', '1000');
  await page.click('#aud-run');
  await waitFor(p, 'runs under way', () => (window.dpsimAudit.state.status === 'running' && window.dpsimAudit.state.done > 0) ||
    ['done', 'error', 'cancelled'].includes(window.dpsimAudit.state.status));
  assert.equal(await page.evaluate(() => window.dpsimAudit.state.status), 'running');
  assert.match(await page.textContent('#aud-status'), /runs on 3 Workers \(your setting\) · /);
  await page.click('#aud-cancel');
  await waitFor(p, 'the cancel', () => window.dpsimAudit.state.status === 'cancelled', undefined, 5000);
  const st = await page.evaluate(() => window.dpsimAudit.state);
  assert.ok(st.stoppedAt - st.cancelledAt < 1000, `the page stopped ${st.stoppedAt - st.cancelledAt} ms after the click`);
  assert.equal(st.workers, 3);
  assert.match(await page.textContent('#aud-status'), /^Cancelled after [0-9]+ of 200000 runs on 3 Workers \(your setting\)$/);
  assert.equal(await page.isEnabled('#aud-workers'), true);
  assert.deepEqual(p.errors, [], 'no page errors');
});

test('at a phone\'s width the field, its hint and its refusal fit the screen', async () => {
  const phone = await openPage({ width: 390, height: 844 }, true);
  try {
    const { page } = phone;
    await setWorkers(phone, '12');
    assert.match(await page.textContent('#aud-workers-error'), /^Workers: must be a whole number from 1 to 8/);
    const fits = await page.evaluate(() => ['aud-workers', 'aud-workers-error', 'aud-run', 'aud-runs'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return { id, left: r.left, right: r.right, w: r.width };
    }));
    for (const f of fits) assert.ok(f.left >= 0 && f.right <= 390 && f.w > 0, `${f.id} within the screen: ${JSON.stringify(f)}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling');
    await page.locator('#audit-section').screenshot({ path: path.join(OUT, 'audit-workers-phone.png'), style: NO_BAR });
  } finally {
    await phone.close();
  }
});
