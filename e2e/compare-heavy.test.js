'use strict';
// End-to-end test of the comparison card on scenarios the page computes
// in a Web Worker (public/compare.js, ui/comparebridge.go: the card's
// candidates are built by the run's Worker, which holds its data,
// ui.CompareCandidatesOn and WorkerCandidates; the page decodes no copy
// of the dataset until a comparison runs there), in headless Chromium:
//
//   - the landing's picks (DP-RECAL and DP-ADMM) survive a switch to
//     DP-RECAL's ijcnn1 preset, a dataset run computed in a Worker (the
//     card once dropped DP-ADMM there, "cannot run on this scenario:
//     unknown algorithm": it had no candidates for a run in a Worker),
//     and their comparison's privacy–utility experiment is built in a
//     sweep Worker handed the dataset;
//   - on a scenario that trains on the user's own files (given in the
//     page), the card offers the algorithms, Compare runs them, and the
//     privacy–utility curve runs in the Experiments panel's Workers on
//     those files and draws its figure.
//
// Screenshots in e2e/out/compare-heavy-*.png.
//
//   node e2e/run.js e2e/compare-heavy.test.js      (after ./build.sh)
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { ROOT, OUT, built, open, scratch, waiter } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 300000;
const tmp = scratch('compare-heavy');

const waitFor = waiter({
  timeout: TIMEOUT,
  state: () => JSON.stringify([window.dpsimState && { scenario: window.dpsimState.scenario, error: window.dpsimState.error, remote: window.dpsimState.remote },
    window.dpsimCompareState, window.dpsimSweepState && { status: window.dpsimSweepState.status, error: window.dpsimSweepState.error, done: window.dpsimSweepState.done }]),
});

before(() => built(['index.html', 'page.js', 'compare.js', 'run-worker.js', 'userdata.js', 'experiments.js', 'sweep-worker.js', 'dpsim.wasm', 'solver.wasm']));

const ready = (b) => waitFor(b, 'the simulator', () => window.dpsimReady && window.dpsimState && window.dpsimState.ready && window.dpsimCompareState);
const picks = (b) => b.page.evaluate(() => window.dpsimCompareState.picks);
const dropped = (b) => b.page.textContent('#cmp-dropped');

test('the landing\'s picks survive a dataset preset computed in a Worker', async () => {
  const b = await open('', { viewport: { width: 1280, height: 900 } });
  try {
    await ready(b);
    await waitFor(b, 'the landing\'s picks', () => window.dpsimCompareState.picks.length === 2);
    assert.deepEqual(await picks(b), ['dp-recal', 'dp-admm']);
    await b.page.selectOption('#preset', 'dp-recal-ijcnn1');
    await waitFor(b, 'ijcnn1 in a Worker', () => window.dpsimState.scenario === 'dp-recal-ijcnn1' && window.dpsimState.remote.active &&
      window.dpsimState.remote.phase !== 'building');
    await waitFor(b, 'the card on ijcnn1', () => window.dpsimCompareState.offered.length > 0);
    assert.equal(await dropped(b), '', 'nothing is removed');
    assert.deepEqual(await picks(b), ['dp-recal', 'dp-admm']);
    const offered = await b.page.evaluate(() => window.dpsimCompareState.offered);
    assert.ok(offered.includes('dp-admm'), `offered: ${offered}`);
    // The candidates were built in the run's Worker, which holds the
    // data: the page decoded no copy of its own (it did, and kept it,
    // when it built them on its thread).
    const decoded = () => b.page.evaluate(() => JSON.parse(window.dpsim.dataDecoded()));
    assert.deepEqual(await decoded(), [], 'no dataset decoded on the page for the card');
    const why = await b.page.$$eval('#cmp-why li', (ls) => ls.map((l) => l.textContent));
    for (const w of why) assert.doesNotMatch(w, /unknown algorithm|^[^:]+: $/, 'each reason says what fails');
    await b.page.locator('#cmp-algo').scrollIntoViewIfNeeded();
    await b.page.screenshot({ path: path.join(OUT, 'compare-heavy-ijcnn1.png') });
    // Compared on the page's thread; its privacy–utility experiment is
    // built by a sweep Worker, which is handed the dataset first.
    await b.page.click('#cmp-start');
    await waitFor(b, 'the comparison on ijcnn1', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 2);
    assert.equal(await b.page.textContent('#cmp-error'), '');
    // A comparison runs on the page's thread: its data is decoded there
    // now, and only now.
    assert.ok((await decoded()).some((f) => /^ijcnn1-/.test(f)), `decoded for the comparison: ${await decoded()}`);
    const gen = await b.page.evaluate(() => window.dpsimExperiments.openGenerated(window.dpsim.comparisonJSON(), { run: false }).then((n) => ({ n }), (e) => ({ e: String(e.message || e) })));
    assert.deepEqual(gen, { n: 'compare-privacy-utility' });
    assert.deepEqual(b.log.filter((l) => /pageerror|panic/.test(l)), []);
  } finally {
    await b.ctx.close();
  }
});

// csv writes n rows of 5 features and a 0/1 label that depends on them,
// the same every run (seed picks the rows).
function csv(name, seed, n) {
  const lines = ['f0,f1,f2,f3,f4,label'];
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: 5 }, (_, j) => Math.round(Math.sin(7.13 * i + 3.7 * j + seed) * 500) / 250);
    lines.push([...x, x[0] - x[2] + 0.3 * Math.sin(11.3 * i + seed) > 0 ? 1 : 0].join(','));
  }
  const file = path.join(tmp, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

test('on the user\'s own files: Compare and the privacy–utility curve, run in the Workers on those files', async () => {
  const b = await open('', { viewport: { width: 1280, height: 900 } });
  try {
    await ready(b);
    const files = [csv('cmp-train.csv', 3, 120), csv('cmp-test.csv', 4, 40)];
    const s = JSON.parse(fs.readFileSync(path.join(ROOT, 'core/scenario/presets/gtdp-logistic-mushrooms.json'), 'utf8'));
    s.name = 'cmp-user';
    s.problem.params.dataset = 'user';
    s.problem.params.data = { train: { file: 'cmp-train.csv' }, test: { file: 'cmp-test.csv' } };
    s.iterations = 40;
    s.graph.n = 4;
    s.calibrate = { epsilon: 50 };
    delete s.record;
    delete s.stop;
    await b.page.evaluate((t) => { window.__load = window.dpsimPage.loadScenarioText(t, null); }, JSON.stringify(s));
    await waitFor(b, 'the page asking for the files', () => document.getElementById('userdata').classList.contains('waiting'));
    await b.page.setInputFiles('#userdata-input', files);
    const res = await b.page.evaluate(() => window.__load.then((r) => r && { ok: r.ok, error: r.error }));
    assert.ok(res && res.ok, JSON.stringify(res));
    await waitFor(b, 'the user scenario in a Worker', () => window.dpsimState.scenario === 'cmp-user' && window.dpsimState.remote.active &&
      window.dpsimState.remote.phase !== 'building');
    assert.match(await b.page.evaluate(() => window.dpsimState.remote.why), /^it trains on your file cmp-train\.csv/);

    // The card offers the algorithms that run on the user's data, and
    // picks the run's own and one other.
    await waitFor(b, 'the card\'s picks', () => window.dpsimCompareState.picks.length === 2 && !document.getElementById('cmp-start').disabled);
    const offered = await b.page.evaluate(() => window.dpsimCompareState.offered);
    assert.ok(offered.includes('gt-dp') && offered.includes('dp-admm'), `offered: ${offered}`);
    const [own, other] = await picks(b);
    assert.equal(own, 'gt-dp');
    await b.page.click('#cmp-start');
    await waitFor(b, 'the comparison', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 2);
    assert.equal(await b.page.textContent('#cmp-error'), '');
    const cmp = JSON.parse(await b.page.evaluate(() => window.dpsim.comparisonJSON()));
    assert.equal(cmp.base.problem.params.data.train.file, 'cmp-train.csv');
    assert.match(cmp.base.problem.params.data.train.sha256, /^[0-9a-f]{64}$/, 'the comparison pins the file');
    await b.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await waitFor(b, 'both runs\' end', () => window.dpsimCompareState.entries.every((e) => e.iter === e.iterations));
    const entries = await b.page.evaluate(() => window.dpsimCompareState.entries);
    for (const e of entries) {
      assert.ok(e.calibrated, `${e.kind} calibrated: ${e.note}`);
      assert.ok(Math.abs(e.epsilon - 50) <= 50 * 1e-6, `${e.kind}: ledger ε ${e.epsilonText}`);
    }
    await b.page.locator('#cmp-rows').scrollIntoViewIfNeeded();
    await b.page.screenshot({ path: path.join(OUT, 'compare-heavy-user.png') });

    // Privacy–utility: the Experiments panel's Workers are handed the
    // user's file and draw the figure.
    await b.page.click('#cmp-pu');
    await waitFor(b, 'the generated experiment', () => (window.dpsimSweepState && window.dpsimSweepState.experiment === 'compare-privacy-utility') ||
      document.getElementById('cmp-pu-msg').textContent !== '');
    assert.equal(await b.page.textContent('#cmp-pu-msg'), '', 'the privacy–utility button says nothing amiss');
    await waitFor(b, 'the privacy–utility figure', () => (window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn) || window.dpsimSweepState.status === 'error');
    const sw = await b.page.evaluate(() => ({ status: window.dpsimSweepState.status, error: window.dpsimSweepState.error, done: window.dpsimSweepState.done, total: window.dpsimSweepState.total }));
    assert.equal(sw.status, 'done', `the sweep: ${sw.error}`);
    assert.equal(sw.done, sw.total);
    assert.match(await b.page.textContent('#exp-desc'), new RegExp(`GT-DP.*${other === 'dp-admm' ? 'DP-ADMM' : ''}`));
    await b.page.locator('#exp-box').scrollIntoViewIfNeeded();
    await b.page.screenshot({ path: path.join(OUT, 'compare-heavy-user-pu.png') });
    assert.deepEqual(b.log.filter((l) => /pageerror|panic/.test(l)), []);
  } finally {
    await b.ctx.close();
  }
});
