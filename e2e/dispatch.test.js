'use strict';
// End-to-end test of the resource-allocation view: the DP-DGT preset on the
// IEEE 14-bus digraph in headless Chromium. It checks what a reader of the
// paper must see — arrows on directed links, pushed and pulled packets,
// generator and load buses with their labels, the supply–demand gauge and
// the prices — and leaves screenshots in e2e/out/ (dispatch-*.png).
//
//   node --test e2e/            (./test.sh does it; ./build.sh first)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { decodePNG, pixelStats } = require('./png.js');

const { OUT, built, open, waiter } = require('./harness.js');
const wait = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, polling: 'raf', state: () => JSON.stringify({ ...window.dpsimState, labels: undefined }) });
let p = null;
let page = null;
const waitFor = (what, fn, arg) => wait(p, what, fn, arg);

before(async () => {
  built(['index.html', 'page.js', 'wasm_exec.js', 'dpsim.wasm']);
  p = await open(null, { viewport: { width: 1280, height: 860 } });
  page = p.page;
});

describe('the DP-DGT economic-dispatch view', () => {
  test('loads the IEEE 14-bus preset and draws the network with its labels', async () => {
    await p.goto('?preset=dpdgt-ieee14&speed=40');
    await waitFor('the preset', () => window.dpsimState && window.dpsimState.scenario === 'dpdgt-ieee14' && window.dpsimState.draws > 10);
    const s = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.equal(s.allocation, true, 'the allocation panel is on');
    assert.equal(s.nodes, 14);
    assert.equal(s.links, 35);
    assert.match(s.reading, /link j → i, the DP-DGT paper's reading/);
    const labels = await page.$$eval('#view-labels span', (els) => els.map((e) => e.textContent));
    for (const want of ['1', '8', '14', 'bus 1', 'bus 8', 'Supply and demand']) {
      assert.ok(labels.includes(want), `label ${want} among ${labels.length} labels`);
    }
    assert.ok(labels.some((l) => /^load 55/.test(l)), 'bus 4 shows its load');
    assert.ok(labels.some((l) => /^0 \/ 76\.7\*$/.test(l)), 'bus 1 shows its output and optimum');
    assert.match(await page.textContent('#view-note'), /paper's reading/);
    assert.match(await page.textContent('#stat-epsinf'), /ε∞ ≤ 50653\.5 by the recursion \(31\); 49327\.3 by the closed form \(37\)/);
  });

  test('messages travel: pushed s filled, pulled w̃ hollow', async () => {
    await page.evaluate(() => window.dpsim.step());
    await waitFor('iteration 1 with its packets', () => window.dpsimState.iter === 1 && window.dpsimState.packets > 0);
    const s = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.equal(s.packets, 70, '35 pushes of s and 35 pulls of w̃');
    assert.match(s.key, /s sent \(filled\)/);
    assert.match(s.key, /w̃ pulled \(hollow\)/);
    // At 1 it/s every iteration's packets take a second to cross: capture
    // them in flight.
    await page.evaluate(() => { window.dpsim.setSpeed(1); window.dpsim.play(); });
    await waitFor('iteration 3', () => window.dpsimState.iter >= 3);
    await page.waitForTimeout(450);
    await page.locator('#view').screenshot({ path: path.join(OUT, 'dispatch-step.png') });
    await page.evaluate(() => window.dpsim.pause());
  });

  test('playing brings supply to demand and the prices to λ*', async () => {
    await page.evaluate(() => { window.dpsim.setSpeed(2000); window.dpsim.play(); });
    await waitFor('iteration ≥ 600', () => window.dpsimState.iter >= 600);
    await page.evaluate(() => window.dpsim.pause());
    await waitFor('labels of the paused frame', () => window.dpsimState.labels.length > 20);
    await page.waitForTimeout(300);
    const png = await page.locator('#view').screenshot({ path: path.join(OUT, 'dispatch-run.png') });
    const st = pixelStats(decodePNG(png));
    assert.ok(st.foregroundFraction > 0.05 && st.colours > 20, `a drawn view: ${JSON.stringify(st)}`);
    const labels = await page.$$eval('#view-labels span', (els) => els.map((e) => e.textContent));
    const gen = labels.find((l) => /^generation Σw = /.test(l));
    assert.ok(gen, 'the gauge label');
    const total = Number(gen.replace(/^generation Σw = /, '').replace(/ MW$/, ''));
    assert.ok(Math.abs(total - 361) < 3, `total generation ${total} MW is near the demand, 361 MW`);
    const s = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.ok(s.optimality < 1, `‖w − w*‖² = ${s.optimality} after ${s.iter} iterations`);
    assert.ok(s.consensus < 1e-3, `price disagreement ${s.consensus}`);
    // the metrics are named for this problem, not as distances to one x*
    await waitFor('the theory card', () => /from iteration/.test(document.getElementById('th-measured').textContent));
    assert.match(await page.textContent('#th-measured'), /mean of ‖w − w\*‖² = Σ_i \(w_i − w_i\*\)²/);
    assert.match(await page.textContent('#metrics-foot'), /Optimality = ‖w − w\*‖².*consensus = \(1\/n\)·Σ_i \(p_i − p̄\)² \(prices\)/);
    await page.screenshot({ path: path.join(OUT, 'dispatch-page.png'), fullPage: true });
  });

  test('the Fig. 5 experiment runs in the page and its claims hold', async () => {
    await p.goto('?preset=dpdgt-ieee14&experiment=dpdgt-fig5');
    await waitFor('the solver', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
    const presets = await page.evaluate(() => [...window.dpsimSweepState.presets]);
    for (const p of ['dpdgt-fig2', 'dpdgt-fig3', 'dpdgt-fig4', 'dpdgt-fig5']) assert.ok(presets.includes(p), `experiment ${p} listed`);
    await page.click('#exp-run');
    await waitFor('the sweep to end', () => ['done', 'error'].includes(window.dpsimSweepState.status));
    const st = await page.evaluate(() => ({ ...window.dpsimSweepState, verdicts: [...window.dpsimSweepState.verdicts].map((v) => ({ ...v })) }));
    assert.equal(st.status, 'done', st.error);
    assert.deepEqual(st.verdicts.map((v) => v.verdict), ['holds', 'holds']);
    assert.ok(st.figureDrawn, 'the figure was drawn');
    await (await page.$('section.experiments')).screenshot({ path: path.join(OUT, 'dispatch-fig5-page.png') });
  });
});
