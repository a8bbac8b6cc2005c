'use strict';
// End-to-end test of the privacy slider's lowest end on DPP²: on its
// classifier (r̄ = 0.95 over 1000 iterations) the slider cannot go below
// ε ≈ 2.6·10¹², the ε of the most noise allowed, because Theorem 3's ε
// grows like r^(−K) and more noise only divides it. The page says so
// beside the slider ("why not lower?"), in the plug-in's words
// (dpsim.privacyRange's floor, from core/algorithms/dpp2), with the decay
// and the noise that do reach ε = 10; a scenario whose slider reaches
// meaningful privacy says nothing — at 1280×800 and at a phone's width,
// with screenshots.
//
//   node e2e/run.js e2e/privacy-floor.test.js   (after ./build.sh)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, open, waiter } = require('./harness.js');
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 180000 });

async function openPreset(preset, viewport, touch = false) {
  const p = await open(`?preset=${preset}`, { viewport, touch });
  await waitFor(p, preset, (n) => window.dpsimReady === true && window.dpsimState && window.dpsimState.scenario === n, preset);
  await waitFor(p, 'the slider', () => !document.getElementById('privacy-slider').disabled);
  return p;
}

for (const [name, viewport, touch] of [['1280', { width: 1280, height: 800 }, false], ['phone', { width: 390, height: 844 }, true]]) {
  test(`DPP²'s slider says why it stops at 2.6·10¹², in the plug-in's words (${name})`, async () => {
    const p = await openPreset('dpp2-classifier', viewport, touch);
    try {
      const { page } = p;
      const r = await page.evaluate(() => JSON.parse(window.dpsim.privacyRange()));
      assert.ok(Math.abs(r.min / 2.638e12 - 1) < 1e-3, `the lowest ε ${r.min}`);
      assert.equal(await page.getAttribute('#privacy-slider', 'data-min'), String(r.min));
      const why = page.locator('#privacy-floor-why');
      assert.ok(await why.isVisible(), 'the "why" link beside the slider');
      assert.equal(await why.textContent(), 'why not lower?');
      assert.equal(await page.isVisible('#privacy-floor'), false, 'the words wait for the click');
      await why.click();
      assert.equal(await why.getAttribute('aria-expanded'), 'true');
      const words = await page.textContent('#privacy-floor');
      assert.equal(words, r.floor, 'the words are the range\'s, from Go');
      assert.match(words, /^The lowest ε here, 2\.6·10¹² after 1000 iterations, is what the most noise allowed gives \(every noise scale ×10¹²: a scale may be at most 10¹²\)\. /);
      assert.match(words, /Theorem 3: ε = c̃·\(r\^\(−K\) − 1\)\/\(1 − r\) grows like r\^\(−K\) — here 0\.95\^\(−999\) ≈ 10\^22\.3 — while more noise only divides c̃, so no noise scale brings it lower; ε = 10 needs a decay r closer to 1 or a shorter horizon: r ≥ 0\.99[0-9]+ with the noise ×1000, /);
      assert.match(await page.getAttribute('#privacy-slider', 'title'), /from 2\.6·10¹² \(the most noise allowed\) .*grows like r\^\(−K\)/);
      const box = await page.evaluate(() => {
        const b = document.getElementById('privacy-floor').getBoundingClientRect();
        return { left: b.left, right: b.right, doc: document.documentElement.scrollWidth, win: window.innerWidth };
      });
      assert.ok(box.left >= 0 && box.right <= box.win + 0.5, `the words within the screen: ${JSON.stringify(box)}`);
      assert.ok(box.doc <= box.win, `no sideways scrolling: ${JSON.stringify(box)}`);
      await page.locator('fieldset.toolbar, .toolbar').first().screenshot({ path: path.join(OUT, `privacy-floor-${name}.png`) });
      // Closed again by the same link.
      await why.click();
      assert.equal(await page.isVisible('#privacy-floor'), false);
      assert.deepEqual(p.errors, [], 'no page errors');
    } finally {
      await p.close();
    }
  });
}

test('a slider that reaches meaningful privacy says nothing of its floor', async () => {
  const p = await openPreset('gtdp-rendezvous', { width: 1280, height: 800 });
  try {
    const r = await p.page.evaluate(() => JSON.parse(window.dpsim.privacyRange()));
    assert.ok(r.min <= 10, `gtdp-rendezvous's lowest ε ${r.min}`);
    assert.equal(r.floor, undefined);
    assert.equal(await p.page.isVisible('#privacy-floor-why'), false);
    assert.equal(await p.page.isVisible('#privacy-floor'), false);
  } finally {
    await p.close();
  }
});
