'use strict';
// End-to-end test of the tight bound beside the paper's (issue 31,
// docs/privacy-truth.md): on gtdp-fig1 (calibrated to ε = 1000) the State
// card, the readout and the inspector say "paper's bound" and "tight
// bound" with the tight ε below the paper's, at 1280×800 and on a phone;
// on DDGT, which claims no privacy, no tight bound is shown. Screenshots go
// to e2e/out/tight-*.png.
//
//   node --test e2e/tight.test.js     (after ./build.sh)
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { SITE, OUT, CHROMIUM, CHROMIUM_ARGS, startServer } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 180000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpsim-tight-'));
let server = null;
let baseURL = '';
let browser = null;

before(async () => {
  for (const f of ['index.html', 'page.js', 'wasm_exec.js', 'dpsim.wasm']) {
    if (!fs.existsSync(path.join(SITE, f))) throw new Error(`missing ${path.join(SITE, f)} (run ./build.sh)`);
  }
  fs.mkdirSync(OUT, { recursive: true });
  ({ proc: server, url: baseURL } = await startServer(tmp, { quiet: true }));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(viewport, query, opts = {}) {
  const ctx = await browser.newContext({ viewport, hasTouch: !!opts.touch, isMobile: !!opts.touch });
  const page = await ctx.newPage();
  const log = [];
  page.on('console', (m) => log.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
  await page.goto(baseURL + query);
  const p = { ctx, page, log };
  await waitFor(p, 'the simulation', () => window.dpsimState && window.dpsimState.draws > 3 && window.dpsimReady && window.dpsimSimReady);
  await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
  return p;
}

async function waitFor(p, what, fn, arg) {
  try {
    return await p.page.waitForFunction(fn, arg, { timeout: TIMEOUT, polling: 100 });
  } catch (e) {
    const st = await p.page.evaluate(() => JSON.stringify({ ...window.dpsimState, labels: undefined })).catch(() => '?');
    throw new Error(`waiting for ${what}: ${e.message.split('\n')[0]}\n state: ${st}\n console: ${p.log.slice(-10).join('\n  ')}`);
  }
}

const shot = (p, name) => p.page.screenshot({ path: path.join(OUT, `tight-${name}.png`) });

describe('the tight bound beside the paper\'s', () => {
  for (const [w, h, touch] of [[1280, 800, false], [390, 844, true]]) {
    test(`gtdp-fig1 at ${w}×${h}: State card, readout and inspector`, async () => {
      const p = await open({ width: w, height: h }, '?preset=gtdp-fig1', { touch });
      try {
        await waitFor(p, 'the run\'s end', () => window.dpsimState.iter >= 500 && !window.dpsimState.running);
        const st = await p.page.evaluate(() => window.dpsimState);
        assert.equal(st.epsilonKind, 'dp');
        assert.ok(st.epsilonTight > 0 && st.epsilonTight < st.epsilon, `tight ${st.epsilonTight} against the paper's ${st.epsilon}`);
        assert.equal(st.epsilonTightIter, st.iter, 'the tight bound of the ended run is not current');
        assert.equal(st.epsilonTightDelta, 1e-6);
        const eps = await p.page.textContent('#stat-eps');
        assert.match(eps, /paper's bound/);
        const tight = await p.page.textContent('#stat-tight');
        assert.ok(await p.page.isVisible('#stat-tight'), 'the State card hides the tight bound');
        assert.match(tight, new RegExp(`^${st.epsilonTightText.replace('.', '\\.')} \\(δ = .*\\), at most .* above the exact value`));
        assert.equal(await p.page.getAttribute('#stat-tight-dt', 'data-term'), 'epsilon-tight');
        const ro = await p.page.textContent('#ro-eps');
        assert.equal(ro, `${st.epsilonText} (paper) · ${st.epsilonTightText} (tight)`, 'the readout');
        assert.match(await p.page.getAttribute('#ro-eps', 'title'), /paper's bound · .* \(δ = .*\) tight bound/);
        await p.page.locator('#stat-tight').scrollIntoViewIfNeeded();
        await shot(p, `state-${w}x${h}`);
        // The inspector, by keyboard: agent 0's tight bound beside its paper's.
        const v = JSON.parse(await p.page.evaluate(() => window.dpsim.inspectAgent(0)));
        assert.match(v.epsilon_tight, / at δ = 1e-6$/);
        await p.page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
        let at = null;
        for (let i = 0; i < 80 && at !== 'view-agents'; i++) {
          await p.page.keyboard.press('Tab');
          at = await p.page.evaluate(() => document.activeElement.id);
        }
        assert.equal(at, 'view-agents', 'Tab does not reach the agents');
        await p.page.keyboard.press('Enter');
        await waitFor(p, 'the inspector', () => !document.getElementById('inspector').hidden);
        const ins = await p.page.textContent('#inspector');
        assert.match(ins, /paper's bound\); .* \(tight bound\)/, `the inspector: ${ins}`);
        await shot(p, `inspector-${w}x${h}`);
      } finally { await p.ctx.close(); }
    });
  }

  test('DDGT, which claims no privacy, shows no tight bound', async () => {
    const p = await open({ width: 1280, height: 800 }, '?preset=ddgt-ieee14');
    try {
      await waitFor(p, 'a few iterations', () => window.dpsimState.iter > 5);
      const st = await p.page.evaluate(() => window.dpsimState);
      assert.equal(st.epsilonKind, 'unaccounted');
      assert.match(st.epsilonTightReason, /no privacy analysis/);
      assert.equal(await p.page.isVisible('#stat-tight'), false, 'a tight bound row for an algorithm without a paper\'s bound');
      assert.doesNotMatch(await p.page.textContent('#ro-eps'), /tight/);
    } finally { await p.ctx.close(); }
  });
});
