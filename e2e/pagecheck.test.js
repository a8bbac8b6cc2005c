'use strict';
// End-to-end checks of what three paper issues claim the page does, with
// screenshots in e2e/out/ to look at:
//   issue 18: the Experiments panel runs DP-RECAL's Table IV
//             (recal-table4 at a tenth of its activations, 1 run per
//             point: four datasets fetched and handed to the workers) and
//             shows it as a table with a CSV;
//   issue 19: ldp-mnist-200 (Algorithm 1, MNIST CNN, 10 agents, 200
//             iterations = 2,000 batch steps) runs in a Worker, shows
//             progress, never blocks the page's thread for long, and
//             reports its time; the test prints the wall time and the
//             longest main-thread task;
//   issue 17: DPP² in slow motion shows its two rounds one at a time
//             (round 0's y messages, then round 1's z messages), and the
//             inspector reads each message's signal and noise.
//
//   node --test e2e/pagecheck.test.js     (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OUT, built, open, scratch, waiter, speedChecks } = require('./harness.js');

// This file asserts a speed as users would see it (no main-thread task
// over 200 ms while the MNIST run trains): its pages open in a browser
// that tiers WebAssembly up as theirs does (harness.js, TEST_ARGS).
speedChecks();

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 600000;
const tmp = scratch('pagecheck');

before(() => built(['index.html', 'experiments.html', 'experiments.js', 'sweep-worker.js', 'solver.wasm', 'dpsim.wasm']));

const openPage = (url, viewport = { width: 1280, height: 900 }) => open(url, { viewport });
const waitFor = waiter({ timeout: TIMEOUT, state: () => JSON.stringify(window.dpsimSweepState || window.dpsimState) });

// runExperiment opens the panel on name, sets the runs per point, runs it,
// and returns the progress texts seen on the way and the final state.
async function runExperiment(p, name, runs) {
  await waitFor(p, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
  if (runs) await p.page.fill('#exp-runs', String(runs));
  await p.page.click('#exp-run');
  const texts = [];
  for (;;) {
    const t = await p.page.textContent('#exp-progress-text');
    if (texts[texts.length - 1] !== t) texts.push(t);
    const st = await p.page.evaluate(() => window.dpsimSweepState.status);
    if (st === 'done' || st === 'error' || st === 'cancelled') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await p.page.waitForTimeout(200); // the last progress frame
  texts.push(await p.page.textContent('#exp-progress-text'));
  return { texts, st: await p.page.evaluate(() => ({ ...window.dpsimSweepState })) };
}

describe('issue 18: DP-RECAL Table IV in the Experiments panel', () => {
  // Table IV as the preset has it but 30 activations per agent instead of
  // 300 (the same 20 series, datasets and table; a tenth of the runs'
  // work, which took 100 s of the e2e run): opened as a file dropped on
  // the panel is (window.dpsimExperiments.openJSON). The preset itself
  // runs in full natively (core/experiment) and opens by name in
  // e2e/sweep.test.js.
  test('recal-table4 at 30 activations, 1 run per point: four datasets, a table and a CSV', async () => {
    const p = await openPage('experiments.html');
    const requests = [];
    p.ctx.on('request', (r) => { if (/\/data\/[^/]+\.gz$/.test(r.url())) requests.push(path.basename(r.url())); });
    try {
      const e = JSON.parse(fs.readFileSync(path.join(ROOT, 'core/experiment/presets/recal-table4.json'), 'utf8'));
      e.name = 'recal-table4-short';
      Object.assign(e.set, { 'stop.max_activations': 30, iterations: 600, 'record.every': 600, 'record.eval_every': 600 });
      delete e.expectations; // the claims of the full runs
      await waitFor(p, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
      const opened = await p.page.evaluate((t) => window.dpsimExperiments.openJSON(t, 'recal-table4-short.json'), JSON.stringify(e));
      assert.ok(opened.ok, opened.error);
      const t0 = Date.now();
      const { st, texts } = await runExperiment(p, 'recal-table4-short', 1);
      const secs = (Date.now() - t0) / 1000;
      assert.equal(st.status, 'done', `sweep ended with ${st.status}: ${st.error}\n${p.log.slice(-10).join('\n')}`);
      assert.equal(st.done, 20, '20 series × 1 point × 1 run');
      assert.deepEqual([...new Set(requests)].sort(), [
        'cifar10-catdog-test.gz', 'cifar10-catdog-train.gz', 'fmnist-tshirt-trouser-test.gz', 'fmnist-tshirt-trouser-train.gz',
        'ijcnn1-test.gz', 'ijcnn1-train.gz', 'mnist-01-test.gz', 'mnist-01-train.gz']);
      assert.equal(st.tableRows, 20, 'one table row per algorithm and dataset');
      const table = await p.page.evaluate(() => {
        const t = document.querySelector('#exp-table table');
        return { head: [...t.querySelectorAll('thead th')].map((e) => e.textContent), rows: [...t.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent)) };
      });
      for (const col of ['messages', 'relative_error', 'test_accuracy']) {
        assert.ok(table.head.some((h) => h.startsWith(col)), `a ${col} column: ${table.head}`);
      }
      for (const r of table.rows) {
        const acc = Number(r[table.head.findIndex((h) => h.startsWith('test_accuracy'))].split(' ')[0]);
        assert.ok(acc > 0 && acc <= 1, `${r[0]}: test accuracy ${acc}`);
      }
      assert.ok(table.rows.some((r) => /DP-RECAL, ijcnn1/.test(r[0])) && table.rows.some((r) => /DP-RWADMM.*cifar/.test(r[0])), 'every algorithm and dataset');
      const [d] = await Promise.all([p.page.waitForEvent('download', { timeout: 60000 }), p.page.click('#exp-dl-csv')]);
      const csvPath = path.join(tmp, 'table4.csv');
      await d.saveAs(csvPath);
      const csv = fs.readFileSync(csvPath, 'utf8');
      assert.match(csv.split('\n').find((l) => !l.startsWith('# ')), /^experiment,series,label,point/);
      assert.ok(csv.split('\n').filter((l) => /,messages,/.test(l)).length === 20, 'one messages row per series in the CSV');
      await p.page.locator('#exp-table').scrollIntoViewIfNeeded();
      await p.page.screenshot({ path: path.join(OUT, 'pagecheck-table4.png'), fullPage: true });
      console.log(`recal-table4 at 30 activations (1 run per point, 20 runs): ${secs.toFixed(1)} s wall; progress "${texts[texts.length - 1]}"`);
    } finally {
      await p.ctx.close();
    }
  });
});

describe('issue 19: a 200-iteration, 10-agent MNIST run in the page', () => {
  test('ldp-mnist-200 runs in a Worker with progress, no long main-thread task, and its time shown', async () => {
    const p = await openPage(`experiments.html?experiment=ldp-mnist-200`);
    try {
      await waitFor(p, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
      await p.page.evaluate(() => {
        window.longTasks = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push({ start: e.startTime, ms: e.duration }); })
          .observe({ type: 'longtask', buffered: false });
        // The page stays responsive: a frame counter runs throughout.
        window.frames = 0;
        const tick = () => { window.frames++; requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
      });
      const t0 = Date.now();
      const { st, texts } = await runExperiment(p, 'ldp-mnist-200');
      const secs = (Date.now() - t0) / 1000;
      assert.equal(st.status, 'done', `run ended with ${st.status}: ${st.error}\n${p.log.slice(-10).join('\n')}`);
      assert.equal(st.done, 1);
      const { longTasks, frames } = await p.page.evaluate(() => ({ longTasks: window.longTasks, frames: window.frames }));
      const longest = Math.max(0, ...longTasks.map((t) => t.ms));
      console.log(`ldp-mnist-200: ${secs.toFixed(1)} s wall (panel: ${st.elapsedSeconds.toFixed(1)} s); longest main-thread task ${longest.toFixed(0)} ms (${longTasks.length} over 50 ms); ${frames} frames`);
      console.log(`  progress texts: ${texts.length}, the last three ${JSON.stringify(texts.slice(-3))}`);
      // Progress: the text moved while the run went on (elapsed seconds), and
      // the end reports the time.
      const running = texts.filter((t) => /elapsed/.test(t));
      assert.ok(running.length >= 2, `progress updates while running: ${JSON.stringify(texts)}`);
      // … and within the one run, its iterations climb (the Worker
      // reports them), so the bar is not stuck at 0 for the whole run.
      const iters = texts.map((t) => /iteration (\d+) of 200/.exec(t)).filter(Boolean).map((m) => Number(m[1]));
      assert.ok(iters.length >= 3 && iters[iters.length - 1] > iters[0], `the run's iterations shown: ${JSON.stringify(iters)}`);
      for (let i = 1; i < iters.length; i++) assert.ok(iters[i] >= iters[i - 1], 'iterations never go back');
      assert.match(texts[texts.length - 1], /1 \/ 1 runs \(100\.0 %\) · done in \d+/);
      assert.ok(longest <= 200, `a main-thread task of ${longest.toFixed(0)} ms`);
      assert.ok(frames > secs * 5, `${frames} frames in ${secs.toFixed(1)} s: the page froze`);
      await p.page.screenshot({ path: path.join(OUT, 'pagecheck-ldp-mnist-200.png'), fullPage: true });
    } finally {
      await p.ctx.close();
    }
  });
});

describe('issue 17: DPP² in slow motion, one round at a time', () => {
  test('dpp2-classifier: round 0\'s y messages, then round 1\'s z messages; the inspector reads signal and noise', async () => {
    const p = await openPage('', { width: 1280, height: 800 });
    try {
      await waitFor(p, 'frames', () => window.dpsimState && window.dpsimState.draws > 5 && window.dpsimReady, undefined, 120000, 'raf');
      await p.page.selectOption('#preset', 'dpp2-classifier');
      await waitFor(p, 'dpp2-classifier', () => window.dpsimState.scenario === 'dpp2-classifier', undefined, 120000, 'raf');
      await p.page.click('#slow');
      await waitFor(p, 'slow and running', () => window.dpsimState.slow && window.dpsimState.running && window.dpsimState.iter >= 1, undefined, 120000, 'raf');
      // Watch the packets, per frame which channels are on screen, until
      // four rounds have come and gone (y, z, y, z: both changes of round)
      // or for 8 s.
      const seen = await p.page.evaluate(async () => {
        const frames = [];
        const t0 = performance.now();
        let rounds = 0;
        let last = '';
        while (performance.now() - t0 < 8000 && rounds < 5) {
          const qs = JSON.parse(window.dpsim.packetsOnScreen());
          if (qs.length) {
            const f = { t: performance.now() - t0, iters: [...new Set(qs.map((q) => q.iteration))], ch: [...new Set(qs.map((q) => q.channel))].sort() };
            frames.push(f);
            const k = `${f.iters[0]}:${f.ch.join()}`;
            if (k !== last) { rounds++; last = k; }
          }
          await new Promise((r) => requestAnimationFrame(r));
        }
        return { frames, turns: window.dpsimState.turns, slowSeconds: window.dpsimState.slowSeconds, channels: window.dpsimState.channels };
      });
      const mixed = seen.frames.filter((f) => f.ch.length > 1);
      assert.equal(mixed.length, 0, `both rounds on screen at once: ${JSON.stringify(mixed.slice(0, 3))}`);
      // The order within an iteration: y before z.
      const seq = [];
      for (const f of seen.frames) {
        const k = `${f.iters[0]}:${f.ch[0]}`;
        if (seq[seq.length - 1] !== k) seq.push(k);
      }
      console.log(`dpp2-classifier slow motion: turns ${seen.turns}, ${seen.slowSeconds} s per iteration, channels ${JSON.stringify(seen.channels)}; rounds seen ${JSON.stringify(seq)}`);
      assert.ok(seq.length >= 2, `at least two rounds seen: ${JSON.stringify(seq)}`);
      for (let i = 1; i < seq.length; i++) {
        const [it0, c0] = seq[i - 1].split(':');
        const [it1, c1] = seq[i].split(':');
        if (it0 === it1) assert.deepEqual([c0, c1], ['y', 'z'], `round order in iteration ${it0}: ${JSON.stringify(seq)}`);
        else assert.ok(c0 === 'z' && c1 === 'y', `an iteration ends with z and starts with y: ${JSON.stringify(seq)}`);
      }
      // Pause on each round, screenshot it, inspect one message.
      for (const ch of ['y', 'z']) {
        // Pause a third of a turn into round ch (a turn is 1.5 s), so the
        // packets are mid-link, not hidden under their senders; a pause
        // that lands in the other round is retried.
        let qs = [];
        for (let tries = 0; tries < 5; tries++) {
          if (!(await p.page.evaluate(() => window.dpsimState.running))) await p.page.click('#play');
          await waitFor(p, `round ${ch} on screen`, (c) => {
            const q = JSON.parse(window.dpsim.packetsOnScreen());
            return q.length > 0 && q.every((x) => x.channel === c);
          }, ch, 60000, 'raf');
          await p.page.waitForTimeout(400);
          await p.page.click('#play');
          await waitFor(p, 'paused', () => !window.dpsimState.running, undefined, 30000, 'raf');
          qs = JSON.parse(await p.page.evaluate(() => window.dpsim.packetsOnScreen()));
          if (qs.length > 0 && qs.every((q) => q.channel === ch)) break;
        }
        assert.ok(qs.length > 0 && qs.every((q) => q.channel === ch), `paused on round ${ch}: ${JSON.stringify(qs.slice(0, 3))}`);
        await p.page.screenshot({ path: path.join(OUT, `pagecheck-dpp2-round-${ch}.png`) });
        const vb = await p.page.evaluate(() => { const r = document.getElementById('view').getBoundingClientRect(); return { x: r.x, y: r.y }; });
        await p.page.screenshot({ path: path.join(OUT, `pagecheck-dpp2-round-${ch}-zoom.png`), clip: { x: vb.x + qs[0].x - 80, y: vb.y + qs[0].y - 80, width: 160, height: 160 } });
        await p.page.mouse.click(vb.x + qs[0].x, vb.y + qs[0].y);
        await waitFor(p, 'the inspector', () => !document.getElementById('inspector').hidden && document.getElementById('inspector').dataset.kind === 'message', undefined, 30000, 'raf');
        const text = await p.page.textContent('#inspector');
        const sig = parseFloat(await p.page.textContent('#inspector .sig-norm'));
        const noi = parseFloat(await p.page.textContent('#inspector .noise-norm'));
        console.log(`  round ${ch}: ${qs.length} packets on screen; inspector: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
        assert.match(text, new RegExp(`agent ${qs[0].from} → agent ${qs[0].to}`));
        assert.ok(sig >= 0 && noi > 0, `round ${ch}: signal ${sig}, noise ${noi}`);
        await p.page.screenshot({ path: path.join(OUT, `pagecheck-dpp2-round-${ch}-inspector.png`) });
      }
      const errs = p.log.filter((l) => /pageerror|panic/.test(l));
      assert.deepEqual(errs, [], 'no page errors');
    } finally {
      await p.ctx.close();
    }
  });
});
