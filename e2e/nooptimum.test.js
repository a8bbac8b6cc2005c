'use strict';
// End-to-end test of the page for a problem without a known optimum.
// No built-in problem lacks one yet, so this test builds the page's
// program with a test plug-in registered (ui/internal/wavetoy/app: the
// wave toy, f_i(x) = Σ_c 1 − cos(x_c − t_i[c])) and serves it in place
// of dpsim.wasm. It checks that the live plot draws stationarity as its
// headline, with its label, and that the page says beside the plot why
// there is no ‖x − x*‖.
//
//   node --test e2e/            (after ./build.sh; ./test.sh does it)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');

const { OUT, open, testProgram, waiter } = require('./harness.js');
const FATAL_CONSOLE = /panic|fatal error|exit code/i;

let WASM = null; // the test program (before)
let p = null;
let page = null;
let log = null;

// The wave toy on a ring of eight, GT-DP with little noise.
const SCENARIO = {
  name: 'wave-toy-ring',
  title: 'GT-DP on the wave toy (no known optimum)',
  seed: 5,
  graph: { kind: 'ring', n: 8 },
  weights: { kind: 'metropolis' },
  problem: { kind: 'wave-toy', params: { dim: 2 } },
  algorithm: { kind: 'gt-dp', params: { alpha: 0.1, gradient_bound: 2 } },
  noise: {
    eta: { dist: 'laplace', scale: 0.01, decay: { kind: 'polynomial', c: 1, m: 1, p: 0.8 } },
    xi: { dist: 'laplace', scale: 0.01, decay: { kind: 'polynomial', c: 1, m: 1, p: 0.8 } },
  },
  iterations: 400,
};

const wait = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, polling: 'raf' });
const waitFor = (what, fn, arg, timeout) => wait(p, what, fn, arg, timeout);

before(async () => {
  WASM = testProgram('./ui/internal/wavetoy/app', 'wavetoy');
  // The test program in place of the site's dpsim.wasm.
  p = await open(null, {
    viewport: { width: 1280, height: 800 },
    route: (pg) => pg.route(/\/dpsim\.wasm(\?|$)/, (route) => route.fulfill({ path: WASM, contentType: 'application/wasm' })),
  });
  ({ page, log } = p);
});

describe('a problem without a known optimum', () => {
  test('the plot draws stationarity and says why there is no ‖x − x*‖', async () => {
    await p.goto('');
    await waitFor('dpsimReady', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.draws > 2);
    // The default scenario has an optimum: the usual plot, no note.
    assert.equal(await page.evaluate(() => window.dpsimState.headline), 'optimality');
    assert.equal(await page.isHidden('#plot-note'), true, 'no note for a problem with an optimum');

    // Through the page's scenario editor, as a user would.
    await page.click('#scenario-box summary');
    // The 'toggle' event fills the editor later: wait for it before filling.
    await page.waitForFunction(() => document.getElementById('scenario-text').value.trim() !== '');
    await page.fill('#scenario-text', JSON.stringify(SCENARIO));
    await page.click('#scenario-load');
    await waitFor('the wave scenario', () => window.dpsimState.scenario === 'wave-toy-ring');
    assert.match(await page.textContent('#scenario-msg'), /loaded/);
    const st = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.equal(st.headline, 'stationarity');
    assert.equal(st.headlineLabel, '‖(1/n)·Σ_i ∇f_i(x_i)‖²');
    assert.match(st.metricNote, /no ‖x − x\*‖/);

    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await waitFor('the run done', () => window.dpsimState.status === 'done');
    await waitFor('the plot drawn', () => Number(document.getElementById('plot').dataset.points) > 100
      && document.getElementById('plot').dataset.headline === 'stationarity');
    await page.waitForTimeout(300); // the plot redraws at most 8 times a second
    const s = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.ok(Number.isNaN(s.optimality), `optimality ${s.optimality}, want NaN`);
    assert.ok(s.stationarity > 0 && s.stationarity < 1e-2, `stationarity ${s.stationarity} after ${s.iter} iterations`);
    const h = await page.evaluate(() => {
      const m = window.dpsim.history();
      return { n: m.iter.length, stat: Array.from(m.stationarity), opt: Array.from(m.optimality) };
    });
    assert.equal(h.stat.length, h.n);
    assert.ok(h.stat.every((v) => v >= 0), 'stationarity history is finite and non-negative');
    assert.ok(h.opt.every((v) => Number.isNaN(v)), 'no optimality history');
    const m = await page.evaluate(() => Array.from(window.dpsim.metrics(0).stationarity));
    assert.equal(m.length, SCENARIO.iterations + 1);

    // The plot: the stationarity curve in its colour, legend and note.
    const info = await page.evaluate(() => {
      const c = document.querySelector('#plot canvas');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const series = [[0x12, 0x86, 0x6f], [0xe4, 0x57, 0x2e], [0x2f, 0x6f, 0xdd]];
      const hits = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) {
        series.forEach(([r, g, b], k) => {
          if (d[i + 3] > 200 && Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 60) hits[k]++;
        });
      }
      const note = document.getElementById('plot-note');
      const r = note.getBoundingClientRect();
      const plot = document.getElementById('plot').getBoundingClientRect();
      return {
        hits,
        legend: [...document.querySelectorAll('#plot .u-legend .u-label')].map((e) => e.textContent),
        note: note.hidden ? null : note.textContent,
        noteVisible: !note.hidden && r.width > 0 && r.height > 0 && getComputedStyle(note).display !== 'none',
        noteBelowPlot: r.top >= plot.bottom - 1 && r.top - plot.bottom < 80,
        defs: document.getElementById('plot-defs').textContent,
        statDt: document.getElementById('stat-opt-dt').textContent,
        statDd: document.getElementById('stat-opt').textContent,
      };
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(OUT, 'nooptimum.png') });
    await page.locator('#plot').screenshot({ path: path.join(OUT, 'nooptimum-plot.png') });
    assert.deepEqual(info.legend.filter((l) => /optimality|stationarity|consensus/.test(l)), ['stationarity', 'consensus']);
    assert.ok(info.hits[0] > 20, `stationarity curve: ${info.hits[0]} pixels`);
    assert.ok(info.hits[1] > 20, `consensus curve: ${info.hits[1]} pixels`);
    assert.ok(info.hits[2] < 5, `an optimality curve drawn: ${info.hits[2]} pixels`);
    assert.ok(info.noteVisible && info.noteBelowPlot, 'the note is visible right under the plot');
    assert.match(info.note, /^No ‖x − x\*‖: the problem has no known optimum/);
    assert.match(info.defs, /^stationarity = ‖\(1\/n\)·Σ_i ∇f_i\(x_i\)‖²; consensus = /);
    assert.equal(info.statDt, 'stationarity');
    assert.match(await page.textContent('#view-key-text'), /no optimum ★: none is known/);
    assert.notEqual(info.statDd, 'NaN');

    // Back to a problem with an optimum: the plot and the note follow.
    await page.evaluate(() => window.dpsim.loadPreset('gtdp-rendezvous'));
    await waitFor('optimality again', () => window.dpsimState.headline === 'optimality'
      && document.getElementById('plot').dataset.headline === 'optimality'
      && document.getElementById('plot-note').hidden);
    assert.match(await page.textContent('#view-key-text'), /the optimum ★ \(the targets' mean\)/);
    assert.ok(!log.some((l) => FATAL_CONSOLE.test(l)), 'console shows that the Go program died:\n' + log.join('\n'));
  });
});
