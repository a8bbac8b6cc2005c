'use strict';
// End-to-end test of the Workers setting and of helper Workers that fail
// (ui/farm.go, core/farm.Helpers, public/run-worker.js; docs/bridge.md,
// "Helper Workers"), in headless Chromium:
//
//   - hostile values of the setting — setWorkers(1e9), 2^53, −1, 1.5,
//     NaN, Infinity, 9, "abc", nothing — are refused in one line naming
//     workers, the rule and the value, and start no Worker; a hostile
//     value kept in the browser (localStorage) is dropped with one line,
//     the menu on auto;
//   - a helper Worker that answers wrongly (a NaN, another agent's
//     gradient, a reply cut short, an error, or nothing at all: the test
//     hook self.dpsimFarmFault in the run's Worker) is found out: the run
//     says so in one line, its Worker computes the gradients itself, and
//     the export is that of the run on 1 Worker, byte for byte.
//
// Screenshots in e2e/out/farm-*.png.
//
//   node e2e/run.js e2e/farm.test.js      (after ./build.sh)
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, download: save, open: openPage, scratch, waiter } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 300000;
const PRESET = 'gtdp-logistic-mushrooms'; // full gradients, on a dataset: a heavy run
const tmp = scratch('farm');

before(() => built(['index.html', 'page.js', 'run-worker.js', 'farm-worker.js', 'remote.js', 'dpsim.wasm', 'view.wasm']));

const open = (url, opts = {}) => openPage(url, { viewport: { width: 1366, height: 768 }, keep: (m) => m.type() !== 'warning', ...opts });
const waitFor = waiter({ timeout: TIMEOUT });
const ready = (b) => waitFor(b, 'the simulator', () => window.dpsimReady && window.dpsimState && window.dpsimState.ready);
const download = (b, id) => save(b, id, tmp, TIMEOUT);
const messages = (b) => b.page.$$eval('#messages li', (ls) => ls.map((l) => l.textContent));

test('hostile values of the Workers setting: one line each, no Worker started', async () => {
  const b = await open(null);
  try {
    await b.page.addInitScript(() => { try { localStorage.setItem('dpsim.workers', '1e9'); } catch (e) { /* none */ } });
    await b.goto('');
    await ready(b);
    const cores = await b.page.evaluate(() => navigator.hardwareConcurrency);
    const most = Math.max(2, Math.min(cores, 8));
    const kept = (await messages(b)).filter((m) => /^workers: /.test(m));
    assert.deepEqual(kept, [`workers: the value kept in this browser, "1e9", is not one this machine offers (auto, 1 … ${most}): auto is used`]);
    assert.equal(await b.page.inputValue('#workers'), '0', 'the menu is on auto');
    assert.equal(await b.page.evaluate(() => localStorage.getItem('dpsim.workers')), null, 'the hostile value is no longer kept');
    const offered = await b.page.$$eval('#workers option', (os) => os.map((o) => o.value));
    assert.deepEqual(offered, ['0', '1', ...Array.from({ length: most - 1 }, (_, k) => String(k + 2))]);

    const got = await b.page.evaluate(() => {
      const vals = [[1e9], [2 ** 53], [-1], [1.5], [NaN], [Infinity], [9], [1024], ['abc'], ['4'], []];
      return vals.map((v) => {
        const t0 = performance.now();
        const r = window.dpsim.setWorkers(...v);
        return { r, ms: performance.now() - t0 };
      });
    });
    const shown = ['1e+09', '9.007199254740992e+15', '-1', '1.5', 'NaN', '+Inf', '9', '1024', '"abc"', '"4"', 'nothing'];
    got.forEach(({ r, ms }, k) => {
      assert.equal(r.ok, false, `setWorkers(${shown[k]}) was accepted`);
      assert.ok(r.error.startsWith('workers: must be a whole number from 0 (auto: '), r.error);
      assert.ok(r.error.endsWith(`to 8 (a run's Worker and at most 7 helpers, each holding the problem's data) (got ${shown[k]})`), r.error);
      assert.ok(!r.error.includes('\n'), 'one line');
      assert.ok(ms < 50, `setWorkers(${shown[k]}) took ${ms} ms`);
    });
    for (const n of [0, 1, 8]) assert.equal((await b.page.evaluate((n) => window.dpsim.setWorkers(n), n)).ok, true, `setWorkers(${n})`);
    assert.equal(b.page.workers().length, 0, 'no Worker was started');
    await b.page.screenshot({ path: path.join(OUT, 'farm-workers-kept.png') });
    assert.deepEqual(b.log.filter((l) => /pageerror|panic/.test(l)), []);
  } finally {
    await b.ctx.close();
  }
});

// runOn builds PRESET for n Workers (a new run Worker: the preset chosen,
// or Reset), sets the fault hook in its Worker, plays it until its helper
// has answered or been given up, then to its end, and returns its export
// and what the page says of its Workers.
async function runOn(b, n, fault, load) {
  await b.page.selectOption('#workers', String(n));
  await load();
  await waitFor(b, `${PRESET} built for ${n} Workers`, (name) => window.dpsimState.scenario === name && window.dpsimState.remote.active &&
    window.dpsimState.remote.phase !== 'building' && window.dpsimState.iter === 0, PRESET);
  // The Worker a Reset replaced may still be listed for a moment.
  let runs = [];
  for (const t0 = Date.now(); Date.now() - t0 < 10000; await new Promise((r) => setTimeout(r, 100))) {
    runs = b.page.workers().filter((w) => /run-worker\.js/.test(w.url()));
    if (runs.length === 1) break;
  }
  assert.equal(runs.length, 1, 'one run Worker');
  // A silent helper is given up after 1 s (the hook self.dpsimFarmWait),
  // not the 10 s farm.Wait allows a real one: the same line and bytes.
  if (fault) await runs[0].evaluate((f) => { self.dpsimFarmFault = f; if (f === 'silent') self.dpsimFarmWait = 1000; }, fault);
  // The tight bound shown is never one of an iteration not shown yet: the
  // Worker runs ahead of the animation, and its later bound once stood
  // beside the paper's ε of an earlier iteration, above it.
  await b.page.evaluate(() => {
    window.tightAhead = [];
    window.tightPoll = setInterval(() => {
      const s = window.dpsimState;
      if (s && s.epsilonTightText && s.epsilonTightIter > s.iter) window.tightAhead.push(`${s.epsilonTightIter} at ${s.iter}`);
      // Nor a bound of 0 left from iteration 0 beside a later iteration's
      // paper's ε (read from the page as drawn: the readout's iteration
      // and the State card's row are written in one pass).
      const it = parseInt(document.getElementById('ro-iter').textContent, 10);
      const dd = document.getElementById('stat-tight');
      if (it > 0 && dd && !dd.hidden && /^0 \(δ/.test(dd.textContent)) window.tightAhead.push(`"${dd.textContent.slice(0, 24)}…" at ${it}`);
    }, 10);
  });
  await b.page.evaluate(() => window.dpsim.play());
  if (n > 1) {
    await waitFor(b, 'the helper Worker', () => window.dpsimState.remote.workers > 1 || window.dpsimState.remote.workersNote !== '' || window.dpsimState.status === 'done');
  }
  const note = await b.page.evaluate(() => window.dpsimState.remote.workersNote);
  const shot = fault ? await b.page.screenshot({ path: path.join(OUT, `farm-fault-${fault}.png`) }) : null;
  await b.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
  await waitFor(b, 'the run\'s end', () => window.dpsimState.status === 'done' || window.dpsimState.status === 'diverged');
  const st = await b.page.evaluate(() => ({ status: window.dpsimState.status, workers: window.dpsimState.remote.workers, note: window.dpsimState.remote.workersNote, shown: document.getElementById('remote-note').textContent }));
  const ahead = await b.page.evaluate(() => { clearInterval(window.tightPoll); return window.tightAhead; });
  assert.deepEqual(ahead.slice(0, 3), [], `${n} Workers${fault ? ', ' + fault : ''}: a tight bound of a later iteration, or a stale 0, shown (its iteration at the one shown)`);
  return { json: await download(b, '#export-json'), note, shot, ...st };
}

test('a helper Worker that answers wrongly or not at all: found out, said in one line, the bytes of 1 Worker', async () => {
  const b = await open('');
  try {
    await ready(b);
    const reset = () => b.page.evaluate(() => { window.dpsim.pause(); window.dpsim.setFast(false); window.dpsim.reset(); });
    const one = await runOn(b, 1, '', () => b.page.selectOption('#preset', PRESET));
    assert.equal(one.status, 'done');
    assert.equal(one.workers, 1);
    const good = await runOn(b, 2, '', reset);
    assert.equal(good.note, '', 'good helpers are kept');
    assert.equal(good.workers, 2, 'the gradients went to 2 Workers');
    assert.ok(good.json.data.equals(one.json.data), 'the export on 2 Workers is that on 1');
    const why = { nan: /helper 1 sent a wrong answer \(agent \d+'s gradient has NaN in place 1\)/,
      agent: /helper 1 sent a wrong answer \(a gradient for agent \d+ where agent \d+'s was asked\)/,
      truncated: /helper 1 sent a wrong answer \(a message cut short\)/,
      throw: /helper 1 failed \(RangeError: out of memory \(dpsimFarmFault\)\)/, silent: /helper 1 did not answer within 1s/ };
    for (const fault of Object.keys(why)) {
      const t0 = Date.now();
      const r = await runOn(b, 2, fault, reset);
      console.log(`# helper 1 ${fault}: ${r.note} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      assert.equal(r.status, 'done', `${fault}: the run ends well`);
      assert.equal(r.workers, 1, `${fault}: the run's Worker computes alone`);
      assert.match(r.note, /^the helper Workers were stopped: helper 1 /, fault);
      assert.match(r.note, why[fault]);
      assert.match(r.note, /; the run's Worker now computes every gradient itself, with the same results$/);
      assert.doesNotMatch(r.note, /amiss|farm:|\[\d+\]/, `${fault}: plain words`);
      assert.ok(!r.note.includes('\n'), 'one line');
      assert.equal(r.shown, r.note, `${fault}: the box under the dataset says it`);
      assert.ok(r.json.data.equals(one.json.data), `${fault}: the export (${r.json.data.length} bytes) is that on 1 Worker (${one.json.data.length} bytes)`);
    }
    assert.deepEqual(b.log.filter((l) => /pageerror|panic/.test(l)), []);
  } finally {
    await b.ctx.close();
  }
});
