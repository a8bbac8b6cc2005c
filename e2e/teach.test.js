'use strict';
// End-to-end tests of the page as a teaching instrument (issue 20): the
// layout at four window sizes, measured by element boxes (and
// screenshots in e2e/out/ to look at), the words (description, the
// current scenario's warnings only, glossary, ε in words), the question
// before a huge calibration, the plot's legend and clamp, fast-forward
// turning itself off, and slow motion with its inspector.
//
//   node --test e2e/teach.test.js     (after ./build.sh)
//
// Waits are on frame counters and state, except slow motion's, which is
// about wall-clock time by definition (a message on screen ≥ 1 s).
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, box, built, inspectMessage, open: openPage, waiter } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 120000;

before(() => built(['index.html', 'page.js', 'wasm_exec.js', 'dpsim.wasm']));

const waitFor = waiter({ timeout: TIMEOUT, polling: 'raf' });

async function open(viewport, query = '', scale = 1) {
  const p = await openPage(query, { viewport, scale });
  await waitFor(p, 'frames', () => window.dpsimState && window.dpsimState.draws > 5 && window.dpsimReady);
  return p;
}

async function loadPreset(p, name) {
  await p.page.selectOption('#preset', name);
  await waitFor(p, name, (n) => window.dpsimState.scenario === n, name);
  await p.page.waitForFunction(() => window.dpsimState.draws > 0);
}

describe('layout at four window sizes', () => {
  for (const [w, h, scale] of [[1920, 1080, 1], [1280, 800, 1], [800, 600, 1], [390, 844, 2]]) {
    test(`${w}×${h}`, async () => {
      const p = await open({ width: w, height: h }, '', scale);
      try {
        const vw = await box(p.page, '#view');
        const play = await box(p.page, '#play');
        const plot = await box(p.page, '#plot');
        const title = await box(p.page, '#scn-title');
        // The controls are on screen without scrolling.
        assert.ok(play.bottom <= h && play.y >= 0, `Play at ${JSON.stringify(play)}`);
        if (w >= 760) {
          // Side by side: the view fills what the metrics column leaves,
          // and the view and the plot are on screen together.
          assert.ok(vw.w >= 0.5 * w && vw.w <= w, `view ${vw.w} px wide in ${w}`);
          assert.ok(plot.x >= vw.right - 1, `plot at ${plot.x} not right of the view (${vw.right})`);
          assert.ok(vw.bottom <= h + 1 && plot.y < h - 100, `view bottom ${vw.bottom}, plot top ${plot.y} in ${h}`);
          assert.ok(vw.h >= 0.45 * h, `view ${vw.h} px tall in ${h}`);
        } else {
          // Stacked: the view the window's width, the plot below it.
          assert.ok(vw.w >= w - 40, `view ${vw.w} px wide in ${w}`);
          assert.ok(vw.h >= 300, `view ${vw.h} px tall`);
          assert.ok(plot.y >= vw.bottom, `plot at ${plot.y}, view ends at ${vw.bottom}`);
        }
        // The canvas has device pixels (crisp on HiDPI) and fills the view.
        const cv = await p.page.evaluate(() => {
          const c = document.querySelector('#view canvas');
          return c && { w: c.width, cw: c.clientWidth, h: c.height, ch: c.clientHeight };
        });
        assert.ok(cv, 'a canvas in the view');
        assert.ok(Math.abs(cv.w - cv.cw * scale) <= 2 * scale && Math.abs(cv.h - cv.ch * scale) <= 2 * scale, `canvas ${JSON.stringify(cv)} at ratio ${scale}`);
        // The preset's title is shown whole.
        const t = await p.page.evaluate(() => {
          const e = document.getElementById('scn-title');
          return { text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth, sh: e.scrollHeight, ch: e.clientHeight, title: window.dpsimState.title };
        });
        assert.equal(t.text, t.title);
        assert.ok(t.sw <= t.cw + 1 && t.sh <= t.ch + 1, `title cut: ${JSON.stringify(t)}`);
        assert.ok(title.bottom <= vw.y, 'title above the view');
        await p.page.screenshot({ path: path.join(OUT, `teach-${w}x${h}.png`) });
        // Nothing moves when another preset loads.
        await loadPreset(p, 'dpdgt-ieee14');
        await p.page.waitForFunction(() => window.dpsimState.draws > 3);
        assert.deepEqual(await box(p.page, '#play'), play, 'Play moved');
        assert.deepEqual(await box(p.page, '#view'), vw, 'the view moved');
        // A phone shows the network readable: labels not below 8 px.
        if (w < 760) {
          const sizes = await p.page.evaluate(() => [...document.querySelectorAll('#view-labels span')].map((s) => parseFloat(s.style.fontSize)));
          assert.ok(sizes.length > 0 && Math.min(...sizes) >= 8, `label sizes ${sizes}`);
        }
        // No two labels overlap, at any size (a phone squeezed DP-DGT's
        // 14 bus labels into each other).
        const overlaps = await p.page.evaluate(() => {
          const rs = [...document.querySelectorAll('#view-labels span')].map((s) => ({ t: s.textContent, r: s.getBoundingClientRect() })).filter((x) => x.r.width > 0);
          const out = [];
          for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
            const a = rs[i].r, b = rs[j].r;
            if (a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1) out.push(`${rs[i].t} × ${rs[j].t}`);
          }
          return out;
        });
        assert.deepEqual(overlaps, [], `labels overlap at ${w}×${h}`);
        await p.page.screenshot({ path: path.join(OUT, `teach-${w}x${h}-dpdgt.png`) });
      } finally {
        await p.ctx.close();
      }
    });
  }
});

describe('start-up', () => {
  test('the poster stands in for the simulator until its first frame', async () => {
    const { page, goto, close } = await openPage(null, { viewport: { width: 1280, height: 800 } });
    try {
      // Hold both programs back (the view, which draws the first frame
      // from the scenario's snapshot, and the simulator): the poster
      // alone must show the scenario.
      let release;
      const held = new Promise((r) => { release = r; });
      await page.route(/(dpsim|view)\.wasm$/, async (route) => { await held; await route.continue(); });
      await goto('?preset=dpdgt-ieee14');
      await page.waitForFunction(() => performance.getEntriesByName('dpsim-poster').length > 0, null, { timeout: 20000 });
      const info = await page.evaluate(() => {
        const p = document.getElementById('poster');
        const r = p.getBoundingClientRect();
        const v = document.getElementById('view').getBoundingClientRect();
        return { src: p.src, w: p.naturalWidth, shown: !p.hidden, cover: r.width >= v.width - 2 && r.height >= v.height - 2,
          at: performance.getEntriesByName('dpsim-poster')[0].startTime };
      });
      assert.match(info.src, /posters\/dpdgt-ieee14\.svg$/);
      assert.ok(info.shown && info.w > 0 && info.cover, JSON.stringify(info));
      await page.screenshot({ path: path.join(OUT, 'teach-poster.png') });
      release();
      await page.waitForFunction(() => window.dpsimState && window.dpsimState.draws > 2, null, { timeout: TIMEOUT });
      await page.waitForFunction(() => !document.getElementById('poster'), null, { timeout: 10000 });
    } finally {
      await close();
    }
  });
});

describe('start-up order', () => {
  test('before the view\'s first frame only the view and boot.js run; the page\'s scripts come after', async (t) => {
    const watched = await openPage(null, { viewport: { width: 1280, height: 800 } });
    const { page, goto, close } = watched;
    try {
      await goto('');
      await page.waitForFunction(() => window.dpsimSimReady === true, null, { timeout: TIMEOUT });
      const r = await page.evaluate(() => {
        const start = (f) => {
          const e = performance.getEntriesByType('resource').find((x) => new URL(x.name).pathname.endsWith('/' + f));
          return e ? Math.round(e.startTime) : null;
        };
        const out = { ff: Math.round(performance.getEntriesByName('dpsim-first-frame')[0].startTime) };
        for (const f of ['boot.js', 'view.wasm', 'page.js', 'share.js', 'keys.js', 'glossary.js', 'builder.css', 'dpsim.wasm']) out[f] = start(f);
        return out;
      });
      for (const f of ['boot.js', 'view.wasm']) assert.ok(r[f] !== null && r[f] < r.ff, `${f} before the first frame: ${JSON.stringify(r)}`);
      for (const f of ['page.js', 'share.js', 'keys.js', 'glossary.js', 'builder.css', 'dpsim.wasm']) {
        assert.ok(r[f] !== null && r[f] >= r.ff, `${f} only after the first frame: ${JSON.stringify(r)}`);
      }
      // The same landing page, untouched so far (only read above), for
      // slow motion: a page of its own cost a start-up.
      await t.test('slow motion: a message stays on screen ≥ 1 s; the inspector reads its signal and noise', async () => {
        const p = watched;
        await waitFor(p, 'frames', () => window.dpsimState && window.dpsimState.draws > 5 && window.dpsimReady);
        assert.equal(await page.evaluate(() => window.dpsimState.slow), false, 'slow motion is on before the click');
        await p.page.click('#slow');
        await waitFor(p, 'slow and running', () => window.dpsimState.slow && window.dpsimState.running && window.dpsimState.iter >= 1);
        // Follow every packet on screen for 4 s.
        const seen = await p.page.evaluate(async () => {
          const first = new Map(), last = new Map();
          const t0 = performance.now();
          let most = 0; // senders on screen in one frame
          while (performance.now() - t0 < 4000) {
            const qs = JSON.parse(window.dpsim.packetsOnScreen());
            most = Math.max(most, new Set(qs.map((q) => q.from)).size);
            for (const q of qs) {
              const k = `${q.iteration}:${q.from}>${q.to}:${q.channel}`;
              const t = performance.now();
              if (!first.has(k)) first.set(k, t);
              last.set(k, t);
            }
            await new Promise((r) => requestAnimationFrame(r));
          }
          return { most, spans: [...first.keys()].map((k) => [k, last.get(k) - first.get(k)]) };
        });
        const longest = Math.max(0, ...seen.spans.map((s) => s[1]));
        assert.ok(longest >= 1000, `longest message on screen ${longest.toFixed(0)} ms: ${JSON.stringify(seen.spans.slice(0, 6))}`);
        // One sender at a time.
        assert.equal(seen.most, 1, `${seen.most} senders on screen at once`);
        // Pause: the messages stay; click one to inspect it.
        await p.page.click('#play');
        await waitFor(p, 'paused', () => !window.dpsimState.running);
        await p.page.waitForFunction(() => JSON.parse(window.dpsim.packetsOnScreen()).length > 0);
        const pk = await inspectMessage(p, waitFor);
        const text = await p.page.textContent('#inspector');
        assert.match(text, new RegExp(`agent ${pk.from} → agent ${pk.to}`));
        const sig = parseFloat(await p.page.textContent('#inspector .sig-norm'));
        const noi = parseFloat(await p.page.textContent('#inspector .noise-norm'));
        assert.ok(sig >= 0 && noi > 0, `signal ${sig}, noise ${noi}`);
        assert.match(text, /sender's ε so far/);
        await p.page.screenshot({ path: path.join(OUT, 'teach-inspector.png') });
      });
    } finally {
      await close();
    }
  });
});

describe('a missing page script', () => {
  test('is said in the view\'s box, not left at "Loading…"', async () => {
    const { page, goto, close } = await openPage(null, { viewport: { width: 1280, height: 800 } });
    try {
      await page.route(/\/page\.js$/, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
      await goto('');
      await page.waitForFunction(() => /Could not load page\.js/.test(document.getElementById('view-msg').textContent), null, { timeout: TIMEOUT });
      assert.equal(await page.evaluate(() => document.getElementById('view-msg').hidden), false);
    } finally {
      await close();
    }
  });
});

describe('a damaged snapshot', () => {
  test('is refused by the view, and the simulator loads without waiting for it', async () => {
    const { page, goto, close } = await openPage(null, { viewport: { width: 1280, height: 800 } });
    const warnings = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    try {
      // A host that answers with a page where the snapshot should be.
      await page.route(/posters\/[^/]+\.snap$/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>not here</p>' }));
      await goto('');
      await page.waitForFunction(() => window.dpsimSimReady === true, null, { timeout: TIMEOUT });
      assert.ok(warnings.some((w) => /dpsim view: the scenario's snapshot/.test(w)), JSON.stringify(warnings));
      assert.equal(await page.evaluate(() => window.dpsimSnapshotRefused), true);
      assert.ok(await page.evaluate(() => window.dpsimState && window.dpsimState.draws > 0));
    } finally {
      await close();
    }
  });
});

describe('words', () => {
  test('description, this scenario\'s warnings only, glossary', async (t) => {
    // gtdp-fig1 has a warning; loaded from the URL it must be shown.
    const p = await open({ width: 1280, height: 800 }, '?preset=gtdp-fig1');
    try {
      await waitFor(p, 'gtdp-fig1', () => window.dpsimState.scenario === 'gtdp-fig1');
      const st = await p.page.evaluate(() => ({ ...window.dpsimState, warnings: [...window.dpsimState.warnings] }));
      assert.ok(st.description.length > 20);
      assert.equal(await p.page.textContent('#scn-desc'), st.description);
      assert.ok(st.warnings.length > 0, 'gtdp-fig1 should warn');
      await waitFor(p, 'the warning shown', (w) => document.getElementById('messages').textContent.includes(w), st.warnings[0]);
      // Another scenario: the earlier warning goes.
      await loadPreset(p, 'gtdp-rendezvous');
      await waitFor(p, 'the warning gone', (w) => !document.getElementById('messages').textContent.includes(w), st.warnings[0]);
      // Every term of the state and theory cards has a glossary entry.
      const missing = await p.page.evaluate(() => [...document.querySelectorAll('#stats dt, .theory dt')]
        .filter((d) => !d.hidden && !d.classList.contains('visually-hidden') && d.id !== 'stat-stop-dt' && !d.classList.contains('has-term'))
        .map((d) => d.textContent));
      assert.deepEqual(missing, []);
      await p.page.click('#glossary-open');
      const g = await p.page.textContent('#glossary');
      for (const sym of ['ρ(W_o)', 'ρ_w', 'e^ε', 'x*', 'x̄', 'noise ÷ signal']) assert.ok(g.includes(sym), `glossary lacks ${sym}`);
      // The claims' verdicts link to docs/<paper>-paper.md: served with the page.
      const doc = await p.page.evaluate(async () => { const r = await fetch('docs/gtdp-paper.md'); return { ok: r.ok, text: (await r.text()).slice(0, 200) }; });
      assert.ok(doc.ok && doc.text.length > 20, 'docs/gtdp-paper.md is not served (build.sh copies docs/)');
      // The same page goes on with the GT-DP rendezvous the menu just built
      // (at iteration 0, asserted), the symbols closed: a page of its own
      // cost a start-up.
      await t.test('ε in words: never a bare 0 after messages, never ∞ for noise without guarantee', async () => {
        await p.page.click('#glossary-close');
        assert.deepEqual(await p.page.evaluate(() => [window.dpsimState.scenario, window.dpsimState.iter]), ['gtdp-rendezvous', 0]);
        // GT-DP's first messages cost nothing (sensitivity 0 at k = 0).
        await p.page.click('#step');
        await waitFor(p, 'iteration 1', () => window.dpsimState.iter === 1);
        await waitFor(p, 'ε text', () => /0 so far/.test(document.getElementById('stat-eps').textContent));
        assert.match(await p.page.textContent('#stat-eps-meaning'), /sensitivity 0/);
        await p.page.click('#step');
        await p.page.click('#step');
        await waitFor(p, 'ε meaning', () => /e\^ε = .*more likely when one agent's data change/.test(document.getElementById('stat-eps-meaning').textContent));
        await loadPreset(p, 'ddgt-ieee14');
        await waitFor(p, 'no guarantee', () => document.getElementById('stat-eps').textContent === 'noise, but no DP guarantee');
        assert.doesNotMatch(await p.page.textContent('#stats'), /no noise/);
      });
    } finally {
      await p.ctx.close();
    }
  });
});

describe('calibration, plot and speed', () => {
  test('asks before multiplying the noise by 4·10⁷, warns afterwards', async (t) => {
    // The former landing, at ε ≈ 4·10⁷: ε = 1 multiplies its noise by 4·10⁷.
    const p = await open({ width: 1280, height: 800 }, '?preset=gtdp-rendezvous');
    try {
      // The plot's log axis (public/plot-axes.js) on its own, with no
      // chart (u = null: no size to fit): this page's is as good as any,
      // and a page of its own cost a start-up.
      await t.test('log axes keep a few labels over hundreds of decades', async () => {
        const n = await p.page.evaluate(() => {
          const a = window.dpsimPlot.logAxis({}, true);
          return [a.splits(null, 0, 1e-3, 1e300).length, a.splits(null, 0, 1e-2, 1e2).length];
        });
        assert.ok(n[0] >= 2 && n[0] <= 10, `${n[0]} labels over 303 decades`);
        assert.equal(n[1], 5);
      });
      await p.page.fill('#target-eps', '1');
      await p.page.click('#target-apply');
      await waitFor(p, 'the question', () => !document.getElementById('cal-confirm').hidden);
      const q = await p.page.textContent('#cal-confirm');
      const factor = Number(await p.page.getAttribute('#cal-confirm', 'data-factor'));
      assert.ok(factor > 1e7 && factor < 1e8, `factor ${factor}`);
      assert.match(q, /multiplies every noise scale by 4\.0\d*e\+7/);
      assert.match(q, /trial of the first \d+ iterations ends with error/);
      // Nothing changed yet.
      assert.match(await p.page.textContent('#th-cal'), /^none/);
      await p.page.screenshot({ path: path.join(OUT, 'teach-calibrate-ask.png') });
      await p.page.click('#cal-confirm-yes');
      await waitFor(p, 'calibrated', () => /ε = 1(\.0+)? after/.test(document.getElementById('th-cal').textContent));
      await p.page.click('#fast');
      await waitFor(p, 'the noise warning', () => /dominated by its noise/.test(document.getElementById('messages').textContent), undefined, 60000);
      // The legend shows the latest values without a hover.
      const legend = await p.page.textContent('#plot .u-legend');
      assert.doesNotMatch(legend.replace(/consensus: —/, ''), /optimality: —/);
      await p.page.screenshot({ path: path.join(OUT, 'teach-calibrated.png') });
      // Fast-forward turns itself off when the run ends.
      await waitFor(p, 'the run ended', () => ['done', 'worse', 'diverged'].includes(window.dpsimState.status));
      await waitFor(p, 'fast off', () => window.dpsimState.fast === false);
      // The axes keep their tick labels over the 30 decades between the
      // ghost and the noisy run (uPlot had blanked all but one).
      await p.page.waitForTimeout(500);
      const labels = await p.page.evaluate(() => document.getElementById('plot').uplot.axes.slice(1).map((a) => a._values.filter(Boolean).length));
      assert.ok(labels.every((n) => n >= 2), `tick labels per y axis: ${labels}`);
      assert.equal(await p.page.getAttribute('#fast', 'aria-pressed'), 'false');
      // … and when a scenario loads.
      await p.page.evaluate(() => { window.dpsim.setFast(true); });
      await loadPreset(p, 'gtdp-rendezvous-rgg');
      assert.equal(await p.page.evaluate(() => window.dpsimState.fast), false);
    } finally {
      await p.ctx.close();
    }
  });
});

describe('a new user', () => {
  test('starts a run, follows one message in slow motion, changes ε and sees the error respond, within a minute', async () => {
    const t0 = Date.now();
    const p = await open({ width: 1280, height: 800 });
    try {
      await p.page.click('#play');
      await waitFor(p, 'running', () => window.dpsimState.running && window.dpsimState.iter >= 3);
      await p.page.click('#slow');
      await waitFor(p, 'a message on screen', () => window.dpsimState.slow && JSON.parse(window.dpsim.packetsOnScreen()).length > 0);
      await p.page.click('#play'); // pause: the messages stay
      await waitFor(p, 'paused', () => !window.dpsimState.running);
      const pk = await inspectMessage(p, waitFor);
      // The error at the scenario's own noise, then at a 100× smaller ε.
      const runToEnd = async () => {
        await p.page.click('#fast');
        await waitFor(p, 'the run ended (done, or worse than its start)', () => ['done', 'worse', 'diverged'].includes(window.dpsimState.status), undefined, 60000);
        return p.page.evaluate(() => window.dpsimState.optimality);
      };
      await p.page.click('#reset');
      const before = await runToEnd();
      const eps = await p.page.evaluate(() => window.dpsimState.epsilon);
      await p.page.fill('#target-eps', String(eps / 100));
      await p.page.click('#target-apply');
      await waitFor(p, 'calibrated or asked', () => !document.getElementById('cal-confirm').hidden || /after/.test(document.getElementById('th-cal').textContent));
      if (await p.page.isVisible('#cal-confirm')) await p.page.click('#cal-confirm-yes');
      await waitFor(p, 'calibrated', () => /after/.test(document.getElementById('th-cal').textContent) && window.dpsimState.iter === 0);
      const after = await runToEnd();
      assert.ok(after > 10 * before, `final error ${after} at ε/100 against ${before}`);
      const took = (Date.now() - t0) / 1000;
      assert.ok(took < 60, `took ${took.toFixed(1)} s`);
    } finally {
      await p.ctx.close();
    }
  });
});

describe('experiments panel words', () => {
  test('the description says the runs chosen, not the preset\'s own count', async () => {
    const { page, goto, close } = await openPage(null, { viewport: { width: 1280, height: 800 } });
    try {
      await goto('experiments.html?experiment=gtdp-noise-sweep');
      await page.waitForFunction(() => window.dpsimSweepState && window.dpsimSweepState.status === 'ready', null, { timeout: TIMEOUT });
      await page.fill('#exp-runs', '4');
      await page.dispatchEvent('#exp-runs', 'change');
      await page.waitForFunction(() => /\d+ runs \(4 per point\)/.test(document.getElementById('exp-desc').textContent), null, { timeout: TIMEOUT });
      const d = await page.textContent('#exp-desc');
      assert.match(d, /4 runs \(the preset's own: 200\) per point/);
      assert.doesNotMatch(d, /(^|[^:] )200 runs per point/);
    } finally {
      await close();
    }
  });
});
