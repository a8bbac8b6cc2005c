'use strict';
// End-to-end: a comparison calibrated to one ε travels in a copied link.
// Three algorithms are compared on gtdp-fig2 at equal ε; the page's URL
// (kept up to date by share.js) is opened in a fresh browser, which must
// show the same comparison — same entries, same calibration — and, run to
// the same iteration, the same optimality of every entry, bit for bit.
//
//   node --test e2e/comparelink.test.js      (after ./build.sh)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { open, waiter } = require('./harness.js');

const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 180000, polling: 'raf', state: () => JSON.stringify(window.dpsimCompareState) });

// runTo pauses every entry at iteration k and returns each entry's
// label, ε and optimality there.
async function runTo(p, k) {
  await p.page.evaluate(() => window.dpsim.pause());
  for (;;) {
    const it = await p.page.evaluate(() => window.dpsimState.iter);
    if (it >= k) break;
    await p.page.evaluate(() => window.dpsim.step());
  }
  await waitFor(p, `every entry at ${k}`, (n) => window.dpsimCompareState.entries.every((e) => e.iter === n), k);
  return p.page.evaluate(() => window.dpsimCompareState.entries.map((e) => ({ label: e.label, kind: e.kind, opt: e.optimality, eps: e.epsilonText })));
}

test('a compared run at equal ε, sent as a link, comes back bit for bit', async () => {
  const a = await open('?preset=gtdp-fig2', { viewport: { width: 1280, height: 800 } });
  let b = null;
  try {
    await waitFor(a, 'the preset', () => window.dpsimState && window.dpsimState.ready && window.dpsimState.scenario === 'gtdp-fig2');
    await waitFor(a, 'the algorithm list', () => !document.getElementById('cmp-algo').disabled && document.querySelectorAll('#cmp-picked li').length === 2);
    // Drop the card's own second pick: the link test compares its own three.
    await a.page.click('#cmp-picked li:nth-child(2) .cmp-remove');
    for (const k of ['dpop', 'diadsp']) {
      await a.page.selectOption('#cmp-algo', k);
      await a.page.click('#cmp-add');
    }
    await a.page.click('#cmp-start');
    await waitFor(a, 'the comparison', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 3);
    // The URL follows every change (debounced) and holds the comparison.
    await waitFor(a, 'the link', () => /[?&]compare=/.test(location.search));
    const uncalibrated = await a.page.evaluate(() => location.href);
    await a.page.fill('#cmp-eps', '5000');
    await a.page.click('#cmp-cal');
    await waitFor(a, 'the calibration', () => window.dpsimCompareState.target === 5000);
    const want = await a.page.evaluate(() => window.dpsim.comparisonJSON());
    await waitFor(a, 'the link after the calibration', (u) => location.href !== u, uncalibrated);
    const link = await a.page.evaluate(() => location.href);
    assert.ok(!/[?&]preset=/.test(link), `a comparison's link carries it whole: ${link.slice(0, 120)}`);
    const ra = await runTo(a, 60);

    b = await open(link, { viewport: { width: 1280, height: 800 } });
    await waitFor(b, 'the comparison from the link', () => window.dpsimCompareState && window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 3);
    assert.equal(await b.page.evaluate(() => window.dpsim.comparisonJSON()), want, 'the same comparison');
    const rb = await runTo(b, 60);
    assert.deepEqual(rb, ra, 'every entry, bit for bit');
    assert.deepEqual(ra.map((e) => e.kind), ['gt-dp', 'dpop', 'diadsp']);
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await a.close();
    if (b) await b.close();
  }
});
