'use strict';
// End-to-end test of the tight bound beside the paper's (issue 31,
// docs/privacy-truth.md): on gtdp-fig1 (calibrated to ε = 1000) the State
// card, the readout and the inspector say "paper's bound" and "tight
// bound" with the tight ε below the paper's, at 1280×800 and on a phone;
// on DDGT, which claims no privacy, no tight bound is shown. Screenshots go
// to e2e/out/tight-*.png.
//
//   node --test e2e/tight.test.js     (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, open: openPage, tabUntil, waiter } = require('./harness.js');

before(() => built(['index.html', 'page.js', 'wasm_exec.js', 'dpsim.wasm']));

const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 180000, state: () => JSON.stringify({ ...window.dpsimState, labels: undefined }) });

async function open(viewport, query, opts = {}) {
  const p = await openPage(query, { viewport, touch: !!opts.touch });
  await waitFor(p, 'the simulation', () => window.dpsimState && window.dpsimState.draws > 3 && window.dpsimReady && window.dpsimSimReady);
  await p.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
  return p;
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
        assert.ok(await tabUntil(p.page, 80, () => document.activeElement.id === 'view-agents'), 'Tab does not reach the agents');
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
