'use strict';
// End-to-end test of the gradient-leakage attack panel (issue 18, item 6):
// on the built site (./build.sh), clicking "Run the attack" loads
// solver.wasm in a worker, fetches MNIST 0 vs 1's training split, runs
// RECAL and DP-RECAL and draws the true image beside the two
// reconstructions with their errors: RECAL's is the image (MSE < 1e-4),
// DP-RECAL's no better than about a random guess. Saves a screenshot to
// e2e/out/attack.png.
//
//   node --test e2e/attack.test.js      (after ./build.sh)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, open } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 180000;

test('the attack panel shows the image, RECAL\'s reconstruction and DP-RECAL\'s', { timeout: TIMEOUT + 30000 }, async () => {
  // The panel stands only on DP-RECAL's page (its words say the attack
  // applies): RECAL on synthetic data needs no dataset fetched.
  const { page, errors } = await open('?preset=recal-synthetic', { viewport: { width: 1280, height: 2400 } });
  await page.waitForSelector('#attack-run', { state: 'visible', timeout: TIMEOUT });
  await page.click('#attack-run');
  await page.waitForFunction(() => window.dpsimAttackState && ['done', 'error'].includes(window.dpsimAttackState.status), null, { timeout: TIMEOUT });
  const st = await page.evaluate(() => window.dpsimAttackState);
  assert.equal(st.status, 'done', st.error);
  const r = st.report;
  assert.equal(r.dataset, 'mnist-01');
  assert.equal(r.width, 28);
  assert.ok(r.recal.Error < 1e-4, `RECAL's reconstruction MSE ${r.recal.Error}`);
  assert.ok(r.dp_recal.Error > 0.5 * r.dp_recal.RandomGuess, `DP-RECAL's MSE ${r.dp_recal.Error}, random guess ${r.dp_recal.RandomGuess}`);
  assert.equal(await page.locator('#attack-images canvas').count(), 3);
  await page.locator('#attack-section').screenshot({ path: path.join(OUT, 'attack.png') });
  assert.deepEqual(errors, []);
});
