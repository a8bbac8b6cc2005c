'use strict';
// End-to-end test of the "Is this ε honest?" panel (public/audit.js): on
// gtdp-rendezvous, an audit of the first 20 iterations in Web Workers
// shows the paper's bound, the tight bound of the same releases (between
// the two) and the audit's lower bound on one log
// scale with words, the verdict, and the eavesdropper's ROC curves drawn,
// and the JSON is the bytes dpsim audit writes for the same experiment;
// a long audit cancels within 1 s and stays cancelled; a bad run count is
// named in one line; the panel fits a phone (390×844). Screenshots go to
// e2e/out/audit-*.png.
//
//   node --test e2e/audit.test.js   (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { execFileSync } = require('node:child_process');
const { OUT, built, cli, scratch, open: openPage, waiter } = require('./harness.js');
// The sticky top bar would cover the panel's heading in its screenshot.
const NO_BAR = '.toolbar { visibility: hidden !important; }';

const tmp = scratch('audit');
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 180000, state: () => JSON.stringify(window.dpsimAudit && window.dpsimAudit.state) });

async function open(viewport) {
  const p = await openPage('?preset=gtdp-rendezvous', { viewport });
  await waitFor(p, 'the preset', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.scenario === 'gtdp-rendezvous');
  await waitFor(p, 'the audit panel', () => !!window.dpsimAudit);
  return p;
}

// audit opens the panel, sets the boxes and starts an audit.
async function audit(page, runs, iterations) {
  const open = await page.evaluate(() => document.getElementById('aud-box').open);
  if (!open) await page.click('#aud-box summary');
  await page.fill('#aud-runs', String(runs));
  await page.fill('#aud-iters', String(iterations));
  await page.click('#aud-run');
}

// inked counts the canvas pixels that are not blank.
async function inked(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }, id);
}

before(() => built(['solver.wasm']));

// badCount: a fresh panel refuses a bad run count in one line and runs nothing.
async function badCount(p) {
  const { page } = p;
  await audit(page, 7, 20);
  assert.match(await page.textContent('#aud-field'), /^Runs: must be a whole number from 8 to 200000 \(got 7\)$/);
  assert.equal(await page.evaluate(() => window.dpsimAudit.state.status), 'idle');
  await page.fill('#aud-runs', '1001');
  await page.click('#aud-run');
  assert.match(await page.textContent('#aud-field'), /^Runs: must be even/);
}

// fullAudit: 1000 runs of 20 iterations, read and drawn, the CLI's bytes.
async function fullAudit(p) {
  const { page } = p;
  await audit(page, 1000, 20);
  await waitFor(p, 'the audit to finish', () => ['done', 'error'].includes(window.dpsimAudit.state.status));
  assert.equal(await page.textContent('#aud-field'), '', 'the refusal before is gone');
  const st = await page.evaluate(() => window.dpsimAudit.state);
  assert.equal(st.status, 'done', st.error);
  assert.equal(st.done, 1000);
  const n = await page.evaluate(() => window.dpsimAudit.numbers());
  assert.equal(n.runs.d + n.runs.neighbour, 1000);
  assert.ok(n.paper > 1000, `the paper's bound at K = 20 is loose: ${n.paper}`);
  assert.ok(n.audit > 1 && n.audit <= n.ceiling && n.audit <= n.paper, `audit ${n.audit}, ceiling ${n.ceiling}, paper ${n.paper}`);
  assert.equal(n.verdict, 'consistent');
  // The tight bound of the same releases lies between the two.
  assert.ok(n.tight > 0 && n.tight <= n.paper * (1 + 1e-9), `tight ${n.tight}, paper ${n.paper}`);
  assert.ok(n.audit <= n.tight, `audit ${n.audit} above the tight bound ${n.tight}`);
  const words = await page.textContent('#aud-words');
  assert.match(words, /The paper's bound: ε ≤/);
  assert.match(words, /The tight bound: ε ≤ .* at δ = /);
  assert.match(words, /The audit: ε ≥ .* with 95 % confidence/);
  const scale = await page.textContent('#aud-scale');
  assert.match(scale, /paper: ε ≤/);
  assert.match(scale, /audit: ε ≥/);
  assert.ok(await inked(page, 'aud-roc') > 2000, 'the ROC curves are drawn');
  assert.equal(await page.locator('#aud-tests tr').count(), 3, 'two tests and a header');
  await page.locator('#audit-section').screenshot({ path: path.join(OUT, 'audit-1280.png'), style: NO_BAR });
  // The same experiment through dpsim audit gives the same bytes.
  const json = await page.evaluate(() => window.dpsimAudit.state.json);
  const exp = path.join(tmp, 'audit-exp.json');
  fs.writeFileSync(exp, JSON.stringify(JSON.parse(json).experiment));
  execFileSync(cli(), ['audit', '--quiet', '--workers', '2', '--out', path.join(tmp, 'cli.json'), exp]);
  assert.ok(fs.readFileSync(path.join(tmp, 'cli.json'), 'utf8') === json, 'the page and dpsim audit write the same bytes');
}

// cancelled: a long audit stops within 1 s of Cancel and stays stopped.
async function cancelled(p) {
  const { page } = p;
  await audit(page, 200000, 1000);
  // Runs under way — or an end, which fails at once instead of waiting out the timeout.
  await waitFor(p, 'runs under way', () => (window.dpsimAudit.state.status === 'running' && window.dpsimAudit.state.done > 0) ||
    ['done', 'error', 'cancelled'].includes(window.dpsimAudit.state.status));
  assert.equal(await page.evaluate(() => window.dpsimAudit.state.status), 'running', 'the long audit ended before Cancel');
  assert.ok(await page.evaluate(() => window.dpsimAudit.state.total) > 1000, 'the long audit, not the one before');
  const t0 = Date.now();
  await page.click('#aud-cancel');
  await waitFor(p, 'the cancel', () => window.dpsimAudit.state.status === 'cancelled', undefined, 5000);
  const st = await page.evaluate(() => window.dpsimAudit.state);
  // From the click's own time (its event's timeStamp, so a page too
  // busy to hear it counts) to the workers terminated and the panel
  // saying so; the test's own round trips are not the page's.
  assert.ok(st.stoppedAt - st.cancelledAt < 1000, `the page stopped ${st.stoppedAt - st.cancelledAt} ms after the click`);
  process.stderr.write(`cancel: ${(st.stoppedAt - st.cancelledAt).toFixed(1)} ms in the page, ${Date.now() - t0} ms through the test's round trips\n`);
  const done = st.done;
  await page.waitForTimeout(1500);
  const later = await page.evaluate(() => window.dpsimAudit.state);
  assert.equal(later.done, done, 'no run finished after the cancel');
  assert.equal(later.status, 'cancelled');
  assert.equal(await page.isEnabled('#aud-run'), true);
  assert.match(await page.textContent('#aud-status'), /Cancelled after/);
}

describe('Is this ε honest?', () => {
  test('the panel at 1280×800', async (t) => {
    const p = await open({ width: 1280, height: 800 });
    try {
      await t.test('a bad run count is named in one line, and nothing runs', () => badCount(p));
      await t.test('an audit at 1280×800: three numbers on one scale, words, ROC, verdict', () => fullAudit(p));
      await t.test('Cancel stops a long audit within 1 s, and it stays stopped', () => cancelled(p));
    } finally {
      await p.ctx.close();
    }
  });

  test('the panel on a phone (390×844)', async () => {
    const p = await open({ width: 390, height: 844 });
    const { ctx, page } = p;
    await audit(page, 400, 20);
    await waitFor(p, 'the audit to finish', () => ['done', 'error'].includes(window.dpsimAudit.state.status));
    assert.equal(await page.evaluate(() => window.dpsimAudit.state.status), 'done');
    const over = await page.evaluate(() => {
      const s = document.getElementById('audit-section');
      return { sw: s.scrollWidth, cw: s.clientWidth, doc: document.documentElement.scrollWidth, win: window.innerWidth };
    });
    assert.ok(over.sw <= over.cw + 1, `the panel overflows: ${JSON.stringify(over)}`);
    assert.ok(over.doc <= over.win + 1, `the page scrolls sideways: ${JSON.stringify(over)}`);
    assert.ok(await inked(page, 'aud-roc') > 1000, 'the ROC curves are drawn');
    await page.locator('#audit-section').screenshot({ path: path.join(OUT, 'audit-phone.png'), style: NO_BAR });
    await ctx.close();
  });
});
