'use strict';
// End-to-end checks of the research corners of issue 29 (defect 10), in
// headless Chromium, with screenshots in e2e/out/ to look at:
//
//   - a cancelled sweep's messages and partial result never outlive a new
//     sweep: Cancel, then at once a new complete sweep, and its panel says
//     nothing of the cancelled one (the cancelled sweep's partial result is
//     assembled while the new one runs);
//   - a partial figure says how many runs each point has, not the
//     experiment's full count;
//   - no axis title or tick value is cut, on the Experiments panel's figure
//     (a 74-character y title) and on the page's live plot, at 1920×1080,
//     1366×768, 1920×1080 at 2× and 390×844.
//
//   node --test e2e/corners.test.js     (after ./build.sh)
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, open: openPage, waiter } = require('./harness.js');

const LONG = 'gtdp-noise-sweep'; // 2800 runs: long enough to cancel
const TALL = 'gtdp-fig3'; // its y title: "optimality error, mean of the last 1000 of 6000 iterations ((units of x)²)"
const SCREENS = [
  { name: '1920x1080', width: 1920, height: 1080, scale: 1 },
  { name: '1366x768', width: 1366, height: 768, scale: 1 },
  { name: '1920x1080@2x', width: 1920, height: 1080, scale: 2 },
  { name: '390x844', width: 390, height: 844, scale: 2 },
];
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 240000, state: () => JSON.stringify(window.dpsimSweepState || window.dpsimState) });

before(() => built(['index.html', 'experiments.html', 'experiments.js', 'sweep-worker.js', 'solver.wasm', 'plot-axes.js']));

const open = (url, screen = SCREENS[1]) => openPage(url, { viewport: { width: screen.width, height: screen.height }, scale: screen.scale });
const sweep = (b) => b.page.evaluate(() => ({ ...window.dpsimSweepState }));
const text = (b, sel) => b.page.textContent(sel);

test('a new sweep clears what a cancelled one said; a partial figure says its runs per point', async () => {
  const b = await open(`experiments.html?experiment=${LONG}`);
  try {
    await waitFor(b, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
    await b.page.click('#exp-run');
    await waitFor(b, 'some runs', () => window.dpsimSweepState.status === 'running' && window.dpsimSweepState.done >= 30);
    await b.page.click('#exp-cancel');
    await waitFor(b, 'the partial figure', () => window.dpsimSweepState.partial && window.dpsimSweepState.figureDrawn);
    const sub = await text(b, '#exp-fig-sub');
    assert.doesNotMatch(sub, /of 200 runs per point/, 'a partial figure claims the experiment\'s 200 runs per point');
    assert.match(sub, /mean of \d+(–\d+)? runs? per point \(partial: \d+ of 2800 runs finished; the experiment asks 200 per point\)/);
    await b.page.screenshot({ path: path.join(OUT, 'corners-partial.png'), fullPage: true });

    // Cancel again, and start a short complete sweep at once, as a user
    // clicking Run right after Cancel does: the cancelled sweep's partial
    // result is still being assembled.
    await b.page.fill('#exp-runs', '50');
    await b.page.dispatchEvent('#exp-runs', 'change');
    await b.page.click('#exp-run');
    await waitFor(b, 'some runs again', () => window.dpsimSweepState.status === 'running' && window.dpsimSweepState.done >= 30);
    await b.page.evaluate(() => {
      document.getElementById('exp-cancel').click();
      const runs = document.getElementById('exp-runs');
      runs.value = '1';
      runs.dispatchEvent(new Event('change'));
      document.getElementById('exp-run').click();
    });
    await waitFor(b, 'the new sweep', () => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn && window.dpsimSweepState.total === 14);
    // Whatever the cancelled sweep still delivers lands in this time.
    await new Promise((r) => setTimeout(r, 4000));
    const st = await sweep(b);
    const msg = await text(b, '#exp-msg');
    assert.equal(st.status, 'done');
    assert.equal(st.partial, false, 'the panel shows the cancelled sweep\'s partial result');
    assert.doesNotMatch(msg, /Cancel/, `the message of the cancelled sweep survived: "${msg}"`);
    const sub2 = await text(b, '#exp-fig-sub');
    assert.doesNotMatch(sub2, /PARTIAL|partial/, `the new figure reads as partial: ${sub2}`);
    assert.match(sub2, /mean of 1 run per point/);
    await b.page.screenshot({ path: path.join(OUT, 'corners-after-cancel.png'), fullPage: true });
    assert.deepEqual(b.log.filter((l) => /pageerror|panic/.test(l)), []);
  } finally {
    await b.ctx.close();
  }
});

// cut reads, in the page, what could be cut: each axis title of the
// Experiments figure (an element whose text overflows its box or lies
// outside the figure) and each uPlot axis whose tick values are wider
// than the room it keeps for them.
async function cut(page, plotSel) {
  return page.evaluate((sel) => {
    const out = [];
    const fig = document.querySelector(sel);
    if (!fig) return ['no ' + sel];
    const fb = fig.getBoundingClientRect();
    for (const e of fig.querySelectorAll('.exp-xlab, .exp-ylab, .exp-y2lab')) {
      if (!e.textContent || getComputedStyle(e).display === 'none') continue;
      const r = e.getBoundingClientRect();
      if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) out.push(`${e.className} overflows its box: ${e.textContent}`);
      if (r.left < fb.left - 1 || r.right > fb.right + 1 || r.left < 0 || r.right > window.innerWidth) out.push(`${e.className} lies outside the figure: ${e.textContent}`);
    }
    const plots = [fig.uplot].filter(Boolean);
    for (const p of plots) {
      const ctx = document.createElement('canvas').getContext('2d');
      const pr = p.pxRatio || window.devicePixelRatio || 1;
      p.axes.forEach((ax, i) => {
        if (ax.show === false || ax.side === 0 || ax.side === 2) return;
        ctx.font = Array.isArray(ax.font) ? ax.font[0] : ax.font;
        const vals = (ax._values || []).filter((v) => v != null && v !== '');
        const w = Math.max(0, ...vals.map((v) => ctx.measureText(String(v)).width)) / pr;
        const room = ax._size - 10 - 5; // ticks and gap
        if (w > room + 0.5) out.push(`axis ${i}: tick value ${w.toFixed(1)} px wide in ${room} px (${vals.join(', ')})`);
        if (ax.label) {
          ctx.font = Array.isArray(ax.labelFont) ? ax.labelFont[0] : ax.labelFont;
          const lw = ctx.measureText(ax.label).width / pr;
          const h = p.bbox.height / pr;
          if (lw > h + 1) out.push(`axis ${i}: title "${ax.label}" is ${lw.toFixed(0)} px along a ${h.toFixed(0)} px axis`);
        }
      });
    }
    return out;
  }, plotSel);
}

for (const screen of SCREENS) {
  test(`no axis title or tick value is cut at ${screen.name}`, async () => {
    const b = await open(`experiments.html?experiment=${TALL}`, screen);
    try {
      await waitFor(b, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
      await b.page.fill('#exp-runs', '1');
      await b.page.dispatchEvent('#exp-runs', 'change');
      await b.page.click('#exp-run');
      await waitFor(b, 'the figure', () => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn);
      const bad = await cut(b.page, '#exp-figure');
      await (await b.page.$('#exp-figure')).screenshot({ path: path.join(OUT, `corners-figure-${screen.name}.png`) });
      assert.deepEqual(bad, [], `the Experiments figure at ${screen.name}`);
      const y = await b.page.textContent('#exp-figure .exp-ylab');
      assert.match(y, /mean of the last 1000 of 6000 iterations/, 'the whole y title is there');
    } finally {
      await b.ctx.close();
    }
    const m = await open(`?preset=gtdp-rendezvous`, screen);
    try {
      await waitFor(m, 'the simulator', () => window.dpsimReady && window.dpsimState && window.dpsimState.ready);
      await m.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
      await waitFor(m, 'the run done', () => window.dpsimState.status === 'done');
      await waitFor(m, 'the live plot', () => { const p = document.querySelector('[data-headline]'); return p && p.uplot && p.uplot.data[0].length > 10; });
      await m.page.waitForTimeout(500);
      const bad = await cut(m.page, '[data-headline]');
      const box = await m.page.$('[data-headline]');
      await box.screenshot({ path: path.join(OUT, `corners-liveplot-${screen.name}.png`) });
      assert.deepEqual(bad, [], `the live plot at ${screen.name}`);
    } finally {
      await m.ctx.close();
    }
  });
}
