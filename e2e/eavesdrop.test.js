'use strict';
// End-to-end test of the "What an eavesdropper sees" panel
// (public/eavesdrop.js) on DPP²: loading the dpp2-classifier preset,
// opening the panel taps agent 0 (the run restarts at iteration 0); after
// two steps the panel shows both rounds of iteration 1 on the agent's
// links, the truth beside the reconstruction, and says the reconstruction
// is exact; a tap on another agent and the removal of the tap work.
// Screenshots go to e2e/out/eavesdrop-*.png.
//
//   node --test e2e/            (after ./build.sh; ./test.sh does it)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, built, open, waiter } = require('./harness.js');
const wait = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, polling: 'raf', state: () => JSON.stringify([window.dpsimState, window.dpsimEavesdropState]) });
let p = null;
let page = null;
let log = null;
const waitFor = (what, fn, arg, timeout) => wait(p, what, fn, arg, timeout);

before(async () => {
  built(['dpsim.wasm']);
  p = await open(null, { viewport: { width: 1280, height: 900 } });
  ({ page, log } = p);
});

describe('the eavesdropper panel', () => {
  test('DPP²: both rounds on agent 0\'s links, the reconstruction exact', async () => {
    await p.goto('?preset=dpp2-classifier');
    await waitFor('the DPP² preset', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.scenario === 'dpp2-classifier');
    assert.equal(await page.isHidden('#eavesdrop-section'), false, 'the panel is shown');
    // Opening the panel on a DPP² run taps agent 0.
    await page.click('#eav-box summary');
    await waitFor('the tap', () => window.dpsimEavesdropState.agent === 0);
    await page.evaluate(() => { window.dpsim.step(); });
    await waitFor('iteration 1', () => window.dpsimState.iter >= 1);
    await page.evaluate(() => { window.dpsim.step(); });
    await waitFor('the frame of iteration 1', () => window.dpsimEavesdropState.iter === 1);
    const v = await page.evaluate(() => JSON.parse(window.dpsim.eavesdropView()));
    assert.equal(v.agent, 0);
    assert.equal(v.inverts, true);
    assert.deepEqual(v.frames.map((f) => f.iteration), [0, 1]);
    for (const f of v.frames) {
      assert.deepEqual(f.sent.map((m) => [m.channel, m.round]), [['y', 0], ['z', 1]]);
      const rounds = f.received.map((m) => m.round);
      assert.ok(rounds.length > 0 && rounds.every((r, i) => i === 0 || r >= rounds[i - 1]), `received in round order: ${rounds}`);
      assert.ok(rounds.includes(0) && rounds.includes(1), 'both rounds received');
      assert.ok(f.residual_x < 1e-12 && f.residual_grad < 1e-12, `residuals ${f.residual_x}, ${f.residual_grad}`);
    }
    const text = await page.textContent('#eav-verdict');
    assert.match(text, /exactly/);
    assert.match(await page.textContent('#eav-iter'), /Agent 0, iteration k = 1/);
    const rows = await page.$$eval('#eav-table tr', (trs) => trs.map((t) => t.textContent));
    assert.ok(rows.some((r) => r.startsWith('x_i (private)')) && rows.some((r) => r.startsWith('reconstructed x̂_i')), rows.join('\n'));
    await page.locator('#eavesdrop-section').screenshot({ path: path.join(OUT, 'eavesdrop-k1.png') });

    // Later: the noise shrinks against the signal.
    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await waitFor('iteration 300', () => window.dpsimState.iter >= 300);
    await page.evaluate(() => { window.dpsim.pause(); window.dpsim.setFast(false); });
    await waitFor('a late frame', () => window.dpsimEavesdropState.iter >= 299);
    const late = await page.evaluate(() => JSON.parse(window.dpsim.eavesdropView()));
    const f = late.frames[late.frames.length - 1];
    assert.ok(f.shield_x < 1e-3, `shield ${f.shield_x} at iteration ${f.iteration}`);
    assert.equal(late.frames.length, 64, 'the live window keeps 64 iterations');
    await page.waitForTimeout(300);
    await page.locator('#eavesdrop-section').screenshot({ path: path.join(OUT, 'eavesdrop-late.png') });

    // Another agent, then no tap.
    await page.fill('#eav-agent', '7');
    await page.click('#eav-tap');
    await waitFor('agent 7', () => window.dpsimEavesdropState.agent === 7 && window.dpsimState.iter === 0);
    await page.click('#eav-off');
    await waitFor('no tap', () => window.dpsimEavesdropState.agent === -1);
    assert.equal(await page.evaluate(() => window.dpsim.eavesdropView()), 'null');
    await page.fill('#eav-agent', '50');
    await page.click('#eav-tap');
    assert.match(await page.textContent('#eav-msg'), /from 0 to 49/);
    assert.ok(!log.some((l) => /panic|fatal error|pageerror/i.test(l)), log.join('\n'));
  });
});
