'use strict';
// End-to-end tests of the first screen (issue 29, defects 3 and 4): the
// landing opens on the tour's DP-RECAL lesson, at an ε that means
// something (ε = 6, δ = 10⁻⁵) and learns; the Tour (public/tour.js) is a
// visible button near the top, reachable by keyboard, with five lessons
// that load their presets and say where no ε ≤ 10 learns, drawing the
// frontier and its knee; Compare (public/compare.js) offers only the
// algorithms that run on the scenario on screen and works on its first
// click, two algorithms at the landing's ε; the Target ε box keeps the
// picked entries; a student follows one message in slow motion and reads
// its noise (on the landing's page, before its run ends). Screenshots in
// e2e/out/tour-*.png.
//
//   node --test e2e/tour.test.js     (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OUT, box, built, inspectMessage, open: openPage, tabUntil, waiter } = require('./harness.js');

const results = JSON.parse(fs.readFileSync(path.join(ROOT, 'core/tour/results.json'), 'utf8'));

before(() => built(['index.html', 'tour.js', 'dpsim.wasm', 'posters/tour-recal.snap']));

const waitFor = waiter({
  timeout: Number(process.env.E2E_TIMEOUT) || 120000,
  state: () => JSON.stringify([window.dpsimState && window.dpsimState.scenario, window.dpsimState && window.dpsimState.error,
    window.dpsimCompareState, window.dpsimTour]),
});

async function open(viewport, query = '', scale = 1) {
  const p = await openPage(query, { viewport, scale });
  await waitFor(p, 'frames', () => window.dpsimState && window.dpsimState.draws > 5 && window.dpsimReady);
  return p;
}

const landing = results.lessons.find((l) => l.preset === 'tour-recal');

describe('the first screen', () => {
  // One page: the first screen's checks on the fresh page, then a
  // student's slow motion on its run, then the same run to its end.
  test('the landing at 1366×768', async (t) => {
    const p = await open({ width: 1366, height: 768 });
    try {
      await t.test('opens on the tour\'s DP-RECAL lesson at ε = 6 (δ = 10⁻⁵)', async () => {
        const s = await p.page.evaluate(() => window.dpsimState);
        assert.equal(s.scenario, 'tour-recal');
        assert.ok(landing.meaningful && landing.epsilon <= 10, `the landing's lesson: ${JSON.stringify(landing.epsilon)}`);
        assert.match(await p.page.textContent('#scn-title'), /ε = 6 \(δ = 10⁻⁵\)/);
      });
      await t.test('a student follows one message and reads its noise', async () => {
        await p.page.click('#slow'); // slow motion plays
        await waitFor(p, 'a message on screen', () => window.dpsimState.slow && window.dpsimState.running && JSON.parse(window.dpsim.packetsOnScreen()).length > 0);
        await p.page.click('#play'); // pause: the message stays
        await waitFor(p, 'paused', () => !window.dpsimState.running);
        const pk = await inspectMessage(p, waitFor);
        const noi = parseFloat(await p.page.textContent('#inspector .noise-norm'));
        assert.ok(noi > 0, `noise ${noi}`);
        assert.match(await p.page.textContent('#inspector'), new RegExp(`agent ${pk.from} → agent ${pk.to}`));
        await p.page.screenshot({ path: path.join(OUT, 'tour-slow.png') });
        // Back to the landing's pace, the inspector closed, for the run's end.
        await p.page.click('#slow');
        await p.page.click('#inspector-close');
        await waitFor(p, 'slow motion off, the inspector closed', () => !window.dpsimState.slow && !window.dpsimState.running && document.getElementById('inspector').hidden);
      });
      await t.test('that run learns', async () => {
        await p.page.click('#fast');
        await waitFor(p, 'the run ends', () => ['done', 'stopped'].includes(window.dpsimState.status));
        const end = await p.page.evaluate(() => {
          const m = window.dpsim.metrics(0);
          return { first: m.optimality[0], last: m.optimality[m.optimality.length - 1], eps: window.dpsimState.epsilon };
        });
        assert.ok(Math.abs(end.eps - 6) <= 6e-9, `the ledger ends at ε = ${end.eps}`);
        assert.ok(end.last <= 0.1 * end.first, `final error ${end.last} against ${end.first} at the start`);
        await p.page.screenshot({ path: path.join(OUT, 'tour-landing.png') });
      });
    } finally {
      await p.ctx.close();
    }
  });
});

describe('the tour', () => {
  for (const [w, h, scale] of [[1920, 1080, 1], [1366, 768, 1], [1920, 1080, 2], [390, 844, 2]]) {
    test(`one click away at ${w}×${h}${scale > 1 ? ` at ${scale}×` : ''}: five lessons, the frontier where no ε ≤ 10 learns`, async () => {
      const p = await open({ width: w, height: h }, '', scale);
      try {
        await waitFor(p, 'the Tour button', () => !document.getElementById('tour-open').disabled);
        const b = await box(p.page, '#tour-open');
        assert.ok(b.y >= 0 && b.bottom <= 200 && b.w > 0, `the Tour button at ${JSON.stringify(b)}`);
        await p.page.click('#tour-open');
        await waitFor(p, 'lesson 1', () => window.dpsimTour.open && window.dpsimTour.shown === 'tour-recal');
        assert.deepEqual(await p.page.evaluate(() => window.dpsimTour.lessons), results.lessons.map((l) => l.preset));
        const v1 = await p.page.textContent('#tour-verdict');
        assert.match(v1, /learns at ε = 6 with δ = 10⁻⁵: meaningful privacy/);
        for (const id of ['#tour-private', '#tour-sent', '#tour-eps', '#tour-cost']) {
          assert.ok((await p.page.textContent(id)).length > 20, `${id} is empty`);
        }
        assert.match(await p.page.textContent('#tour-eps'), /e\^ε ≈ 403 times/);
        assert.match(await p.page.textContent('#tour-private'), /zCDP/, 'the ledger\'s notion');
        // What is sent is the algorithm's own words (method.Words.Messages), lesson by lesson.
        const said = () => p.page.evaluate(() => {
          const a = JSON.parse(window.dpsim.plugins()).algorithms.find((x) => x.name === JSON.parse(window.dpsim.scenario()).algorithm.kind);
          return { sent: document.getElementById('tour-sent').textContent, words: a.words.messages };
        });
        let w1 = await said();
        assert.ok(w1.words && w1.sent === w1.words, `lesson 1 sends ${JSON.stringify(w1)}`);
        await p.page.screenshot({ path: path.join(OUT, `tour-lesson1-${w}x${h}@${scale}.png`) });
        // Lesson 2, GT-DP: no ε ≤ 10 learns; its preset loads; the
        // frontier is drawn with the knee at the preset's ε.
        await p.page.click('#tour-next');
        await waitFor(p, 'lesson 2', () => window.dpsimTour.shown === 'tour-gtdp' && window.dpsimState.scenario === 'tour-gtdp');
        const gt = results.lessons.find((l) => l.preset === 'tour-gtdp');
        assert.ok(!gt.meaningful);
        assert.match(await p.page.textContent('#tour-verdict'), new RegExp(`No ε ≤ 10 lets GT-DP learn here: the smallest ε that does is ${gt.epsilon}`));
        assert.equal(await p.page.locator('#tour-chart circle.tour-knee').count(), 1);
        w1 = await said();
        assert.ok(w1.words && w1.sent === w1.words && /s_i \+ η_i/.test(w1.words), `lesson 2 sends ${JSON.stringify(w1)}`);
        assert.match(await p.page.getAttribute('#tour-chart svg', 'aria-label'), new RegExp(`knee at ε = ${gt.epsilon}`));
        await p.page.screenshot({ path: path.join(OUT, `tour-lesson2-${w}x${h}@${scale}.png`) });
      } finally {
        await p.ctx.close();
      }
    });
  }

  test('by keyboard: Tab reaches the button, Enter opens, the lessons by Tab and Enter, Escape closes', async () => {
    const p = await open({ width: 1366, height: 768 });
    try {
      await waitFor(p, 'the Tour button', () => !document.getElementById('tour-open').disabled);
      assert.ok(await tabUntil(p.page, 40, () => document.activeElement && document.activeElement.id === 'tour-open'), 'Tab never reached the Tour button');
      await p.page.keyboard.press('Enter');
      await waitFor(p, 'the tour open', () => window.dpsimTour.open && document.activeElement.id === 'tour-title');
      // The last lesson's tab, by keyboard.
      await p.page.focus('#tour-tabs li:last-child button');
      await p.page.keyboard.press('Enter');
      await waitFor(p, 'lesson 5', () => window.dpsimTour.lesson === 4);
      assert.match(await p.page.textContent('#tour-title'), /lesson 5 of 5/);
      await p.page.keyboard.press('Escape');
      await waitFor(p, 'closed', () => !window.dpsimTour.open && document.getElementById('tour').hidden && document.activeElement.id === 'tour-open');
    } finally {
      await p.ctx.close();
    }
  });
});

describe('compare from the landing page', () => {
  test('offers only what runs here, and two algorithms at one ε work on the first click', async () => {
    const p = await open({ width: 1366, height: 768 });
    try {
      await waitFor(p, 'the picks', () => window.dpsimCompareState.picks.length === 2 && !document.getElementById('cmp-start').disabled);
      const st = await p.page.evaluate(() => window.dpsimCompareState);
      assert.deepEqual(st.offered.slice().sort(), ['dp-admm', 'dp-extra', 'dp-nids', 'dp-recal', 'dp-rwadmm']);
      assert.equal(st.picks[0], 'dp-recal');
      assert.ok(!st.offered.includes('ddgt') && !st.offered.includes('dpop') && !st.offered.includes('diadsp'));
      assert.match(await p.page.textContent('#cmp-unavailable'), /GT-DP: .*proximal step/);
      await p.page.click('#cmp-start');
      await waitFor(p, 'the comparison', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 2);
      assert.equal(await p.page.textContent('#cmp-error'), '');
      await p.page.click('#fast');
      await waitFor(p, 'both runs end', () => window.dpsimCompareState.entries.every((e) => e.iter >= e.iterations));
      const es = await p.page.evaluate(() => window.dpsimCompareState.entries);
      for (const e of es) {
        assert.ok(e.calibrated, `${e.label} not calibrated: ${e.note}`);
        assert.ok(Math.abs(e.epsilon - 6) <= 6e-6, `${e.label}: ledger ε ${e.epsilonText}`);
      }
      await waitFor(p, 'the verdict', () => /^Equal ε: the ledgers of .* report ε = 6 after the run\./.test(document.getElementById('cmp-verdict').textContent));
      await p.page.screenshot({ path: path.join(OUT, 'tour-compare.png') });
    } finally {
      await p.ctx.close();
    }
  });

  test('the Target ε box keeps the entries added', async () => {
    const p = await open({ width: 1366, height: 768 });
    try {
      await waitFor(p, 'the picks', () => window.dpsimCompareState.picks.length === 2);
      await p.page.selectOption('#cmp-algo', 'dp-nids');
      await p.page.click('#cmp-add');
      const picks = await p.page.evaluate(() => window.dpsimCompareState.picks.slice());
      assert.equal(picks.length, 3);
      const loads = await p.page.evaluate(() => window.dpsimState.loads);
      await p.page.fill('#target-eps', '3');
      await p.page.click('#target-apply');
      await waitFor(p, 'calibrated or asked', () => !document.getElementById('cal-confirm').hidden || window.dpsimState.loads > 0);
      if (await p.page.isVisible('#cal-confirm')) await p.page.click('#cal-confirm-yes');
      await waitFor(p, 'rebuilt at ε = 3', (n) => window.dpsimState.loads > n && JSON.parse(window.dpsim.scenario()).calibrate.epsilon === 3, loads);
      await waitFor(p, 'the picks after the build', () => /calibrated to ε = 3/.test(document.getElementById('cmp-at').textContent));
      assert.deepEqual(await p.page.evaluate(() => window.dpsimCompareState.picks), picks);
      assert.equal(await p.page.textContent('#cmp-dropped'), '');
      await p.page.click('#cmp-start');
      await waitFor(p, 'three entries at ε = 3', () => window.dpsimCompareState.on && window.dpsimCompareState.entries.length === 3 && window.dpsimCompareState.target === 3);
    } finally {
      await p.ctx.close();
    }
  });
});
