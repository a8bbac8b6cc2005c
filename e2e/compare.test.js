'use strict';
// End-to-end test of the live comparison (public/compare.js,
// ui/comparebridge.go, docs/compare.md): on the GT-DP paper's Fig. 2
// preset, pick GT-DP (the run on screen), DPOP and DiaDSP, compare them,
// calibrate all to one ε, run: three curves are drawn (uPlot series with
// data), the ledgers report equal ε (or the entry that could not be
// calibrated is named), the view switches between entries, and the
// privacy–utility button opens the Experiments panel on the generated
// experiment. The README's screenshot is written to e2e/out/compare.png
// (1280×720; docs/img/compare.png is a copy).
//
//   node --test e2e/compare.test.js    (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, built, open, waiter } = require('./harness.js');
const wait = waiter({
  timeout: Number(process.env.E2E_TIMEOUT) || 180000,
  state: () => JSON.stringify([window.dpsimState && window.dpsimState.error, window.dpsimCompareState, window.dpsimSweepState && window.dpsimSweepState.status]),
});
let p = null;
let page = null;
const waitFor = (what, fn, arg, timeout) => wait(p, what, fn, arg, timeout);

before(async () => {
  built(['dpsim.wasm']);
  p = await open(null, { viewport: { width: 1280, height: 720 } });
  page = p.page;
});

describe('live comparison', () => {
  test('GT-DP, DPOP and DiaDSP at equal ε: three curves, equal ledgers, the view switches, privacy–utility one click away', async () => {
    await p.goto('?preset=gtdp-fig2');
    await waitFor('the GT-DP preset', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.ready && window.dpsimState.scenario === 'gtdp-fig2');
    // The card starts with the run on screen and the first other
    // algorithm that runs here; this test picks its own second and third.
    await waitFor('the algorithm list', () => !document.getElementById('cmp-algo').disabled && document.querySelectorAll('#cmp-picked li').length === 2);
    assert.ok((await page.evaluate(() => window.dpsimCompareState.offered)).includes('dpop'), 'DPOP runs on gtdp-fig2 (its rendezvous has a domain)');
    await page.click('#cmp-picked li:nth-child(2) .cmp-remove');
    const events = [];
    await page.exposeFunction('cmpEvent', (d) => events.push(d));
    await page.evaluate(() => window.addEventListener('dpsim-scenario', (e) => window.cmpEvent(e.detail)));

    assert.equal(await page.evaluate(() => window.dpsim.comparisonJSON()), '', 'no comparison before one is started');
    await page.selectOption('#cmp-algo', 'dpop');
    await page.click('#cmp-add');
    await page.selectOption('#cmp-algo', 'diadsp');
    await page.click('#cmp-add');
    await page.click('#cmp-start');
    await waitFor('the comparison', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 3);
    assert.equal(await page.textContent('#cmp-error'), '');
    assert.deepEqual(await page.evaluate(() => window.dpsimCompareState.entries.map((e) => e.kind)), ['gt-dp', 'dpop', 'diadsp']);
    const cmp = JSON.parse(await page.evaluate(() => window.dpsim.comparisonJSON()));
    assert.equal(cmp.format, 'dpsim-compare/1');
    assert.equal(cmp.base.name, 'gtdp-fig2');
    assert.ok(events.some((d) => d.comparison && JSON.parse(d.comparison).compare.length === 3), 'dpsim-scenario fired with the comparison');

    // Calibrate all to one ε: a bad value is refused beside the field.
    await page.fill('#cmp-eps', '-3');
    await page.click('#cmp-cal');
    assert.match(await page.textContent('#cmp-eps-error'), /^target ε: must be a number > 0.*got -3/);
    await page.fill('#cmp-eps', '5000');
    await page.click('#cmp-cal');
    await waitFor('the calibration', () => window.dpsimCompareState.target === 5000);
    assert.equal(await page.textContent('#cmp-eps-error'), '');

    // Run to the end, fast.
    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await waitFor('every entry at its last iteration', () => window.dpsimCompareState.entries.every((e) => e.iter === e.iterations), undefined);
    // Three curves with data, on top of the page's own (hidden) ones.
    await waitFor('the plot with three curves', () => {
      const u = document.getElementById('plot').uplot;
      return u && u.series.length === 7 && u.data[4].length > 100 && [4, 5, 6].every((s) => u.data[s].filter((v) => v != null).length > 100);
    });
    const labels = await page.evaluate(() => document.getElementById('plot').uplot.series.slice(4).map((s) => [s.label, s.stroke()]));
    assert.deepEqual(labels.map((l) => l[0]), ['GT-DP', 'DPOP', 'DiaDSP']);
    assert.equal(new Set(labels.map((l) => l[1])).size, 3, 'three colours');

    // Equal ε, read from each ledger after the run; or the one that could
    // not be calibrated is named.
    const entries = await page.evaluate(() => window.dpsimCompareState.entries);
    const verdict = await page.textContent('#cmp-verdict');
    for (const e of entries) {
      if (e.calibrated) assert.ok(Math.abs(e.epsilon - 5000) <= 5000 * 1e-6, `${e.label}: ledger ε ${e.epsilonText}`);
      else assert.ok(verdict.includes(`Not calibrated: ${e.label} — `), `${e.label} is named in "${verdict}"`);
    }
    assert.ok(entries.filter((e) => e.calibrated).length >= 2, 'at least two entries calibrated');
    if (entries.every((e) => e.calibrated)) assert.match(verdict, /^Equal ε: the ledgers of GT-DP, DPOP, DiaDSP report ε = 5000 after the run\./);

    // The README's picture: the view on DPOP, the plot with its three curves.
    await page.check('#cmp-rows tr:nth-child(2) input[type=radio]');
    await waitFor('the view on DPOP', () => window.dpsimCompareState.view === 1 && /DPOP/.test(window.dpsimState.algorithm));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(OUT, 'compare.png') });

    // The view switches to DiaDSP and back to GT-DP.
    await page.check('#cmp-rows tr:nth-child(3) input[type=radio]');
    await waitFor('the view on DiaDSP', () => window.dpsimCompareState.view === 2 && /DiaDSP/.test(window.dpsimState.algorithm));
    await page.check('#cmp-rows tr:nth-child(1) input[type=radio]');
    await waitFor('the view on GT-DP', () => window.dpsimCompareState.view === 0 && /GT-DP/.test(window.dpsimState.algorithm));

    // Privacy–utility, one click away: the Experiments panel opens on the
    // generated experiment, runs it and draws its figure.
    await page.click('#cmp-pu');
    await waitFor('the generated experiment', () => window.dpsimSweepState.experiment === 'compare-privacy-utility');
    assert.equal(await page.evaluate(() => document.getElementById('exp-box').open), true);
    assert.equal(await page.inputValue('#exp-preset'), 'compare-privacy-utility');
    assert.match(await page.textContent('#exp-desc'), /GT-DP, DPOP, DiaDSP/);
    await waitFor('the privacy–utility figure', () => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn);
  });

  test('an entry that cannot be calibrated is named with the reason; an incompatible algorithm is refused in one line', async () => {
    const base = await page.evaluate(() => JSON.parse(window.dpsim.comparisonJSON()).base);
    base.iterations = 50;
    const noiseFree = { eta: { dist: 'laplace' }, xi: { dist: 'laplace' } };
    const text = JSON.stringify({ format: 'dpsim-compare/1', base, calibrate: { epsilon: 800 },
      compare: [{ kind: 'gt-dp' }, { kind: 'gt-dp', label: 'GT-DP without noise', noise: noiseFree }] });
    const r = await page.evaluate((t) => window.dpsim.loadComparison(t), text);
    assert.equal(r.ok, true, r.error);
    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await waitFor('the end of both runs', () => window.dpsimCompareState.entries.length === 2 && window.dpsimCompareState.entries.every((e) => e.iter === 50));
    await waitFor('the verdict', () => /Not calibrated: GT-DP without noise — ./.test(document.getElementById('cmp-verdict').textContent));
    const e = await page.evaluate(() => window.dpsimCompareState.entries);
    assert.ok(Math.abs(e[0].epsilon - 800) <= 800 * 1e-6, `GT-DP ledger ε ${e[0].epsilonText}`);
    assert.equal(e[1].calibrated, false);

    const bad = JSON.stringify({ format: 'dpsim-compare/1', base, compare: [{ kind: 'gt-dp' }, { kind: 'dp-dgt' }] });
    const r2 = await page.evaluate((t) => window.dpsim.loadComparison(t), bad);
    assert.equal(r2.ok, false);
    assert.match(r2.error, /^compare\[1\]: DP-DGT cannot run on this base scenario: /);
    assert.ok(!r2.error.includes('\n'));
    assert.equal(await page.evaluate(() => window.dpsimCompareState.entries.length), 2, 'the comparison on screen is kept');

    // Stop comparing: the page runs the base scenario alone.
    await page.click('#cmp-stop');
    await waitFor('the base alone', () => !window.dpsimCompareState.on && window.dpsim.comparisonJSON() === '');
  });
});
