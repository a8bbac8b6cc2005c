'use strict';
// workers.js — the page's 200-iteration, 10-agent MNIST CNN run (the base
// scenario of the experiment preset ldp-mnist-200: LDP online, 32 new
// images per agent and iteration) in fast-forward, with its agents'
// gradients on 1 Worker and on N (the page's Workers setting; ui/farm.go),
// interleaved over rounds: the seconds from Play to the run's end, their
// medians and the ratio, and whether the exports are the same bytes. One
// JSON line per run, then a summary.
//
//   node bench/page/workers.js URL [ROUNDS [N]]     (bench/page/workers.sh serves the site)
const { chromium } = require('../../e2e/node_modules/playwright-core');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { CHROMIUM, CHROMIUM_ARGS, ROOT } = require('../../e2e/harness.js');

const exp = JSON.parse(fs.readFileSync(path.join(ROOT, 'core/experiment/presets/ldp-mnist-200.json'), 'utf8'));
const scenario = Object.assign({}, exp.base.scenario, { name: 'ldp-mnist-200' });
const link = '?scenario=' + zlib.deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url');

async function once(browser, url, workers) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  try {
    await ctx.addInitScript((n) => localStorage.setItem('dpsim.workers', String(n)), workers);
    const page = await ctx.newPage();
    await page.goto(url + link);
    await page.waitForFunction(() => window.dpsimState && window.dpsimState.scenario === 'ldp-mnist-200' && window.dpsimState.remote.active &&
      window.dpsimState.remote.phase !== 'building', null, { timeout: 300000, polling: 100 });
    const t0 = Date.now();
    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await page.waitForFunction(() => ['done', 'stopped', 'worse', 'diverged'].includes(window.dpsimState.status), null, { timeout: 600000, polling: 50 });
    const secs = (Date.now() - t0) / 1000;
    const st = await page.evaluate(() => ({ status: window.dpsimState.status, iter: window.dpsimState.iter, remote: window.dpsimState.remote }));
    const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const bytes = fs.readFileSync(await d.path());
    return { workers, secs, status: st.status, iter: st.iter, used: st.remote.workers, note: st.remote.workersNote, buildSecs: st.remote.buildMs / 1000, bytes };
  } finally {
    await ctx.close();
  }
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

(async () => {
  const [url, roundsArg = '3', nArg = '2'] = process.argv.slice(2);
  const rounds = Number(roundsArg), n = Number(nArg);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const secs = { 1: [], [n]: [] };
  let ref = null, same = true;
  try {
    for (let r = 0; r < rounds; r++) {
      for (const w of (r % 2 ? [n, 1] : [1, n])) {
        const res = await once(browser, url, w);
        secs[w].push(res.secs);
        if (ref === null) ref = res.bytes;
        else same = same && ref.equals(res.bytes);
        const { bytes, ...line } = res;
        console.log(JSON.stringify(Object.assign({ round: r + 1, exportBytes: bytes.length }, line)));
      }
    }
  } finally {
    await browser.close();
  }
  const m1 = median(secs[1]), mn = median(secs[n]);
  console.log(`ldp-mnist-200 in the page, Play to end in fast-forward, medians of ${rounds} interleaved rounds on ${require('node:os').cpus().length} cores: ` +
    `1 Worker ${m1.toFixed(1)} s, ${n} Workers ${mn.toFixed(1)} s, speed-up ${(m1 / mn).toFixed(2)}×; exports ${same ? 'the same bytes' : 'DIFFER'}`);
  if (!same) process.exitCode = 1;
})().catch((e) => { console.error(e); process.exit(1); });
