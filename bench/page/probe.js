'use strict';
// probe.js — the page's fast-forward speed in headless Chromium: loads a
// scenario through window.dpsim.load, turns fast-forward on, and over a
// window of seconds reports iterations per second, frames per second and
// the long tasks a PerformanceObserver saw (one JSON line).
//
//   node bench/page/probe.js URL SCENARIO.json [SECONDS]
//
// Run by bench/page/run.sh, which serves the built site and repeats it.
const { chromium } = require('../../e2e/node_modules/playwright-core');
const fs = require('node:fs');
const { CHROMIUM, CHROMIUM_ARGS } = require('../../e2e/harness.js');

(async () => {
  const [url, file, secs = '8'] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForFunction(() => window.dpsimReady === true && window.dpsimState && window.dpsimState.draws > 5, null, { timeout: 120000 });
    const res = await page.evaluate((t) => { const r = window.dpsim.load(t); return { ok: r.ok, error: String(r.error) }; }, fs.readFileSync(file, 'utf8'));
    if (!res.ok) throw new Error('load: ' + res.error);
    await page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
    await page.waitForTimeout(1500); // past the first frames and the JIT's warm-up
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
    });
    const s0 = await page.evaluate(() => ({ it: window.dpsimState.iter, d: window.dpsimState.draws, t: performance.now() }));
    await page.waitForTimeout(Number(secs) * 1000);
    const s1 = await page.evaluate(() => ({ it: window.dpsimState.iter, d: window.dpsimState.draws, t: performance.now(), long: window.__long }));
    const dt = (s1.t - s0.t) / 1000;
    console.log(JSON.stringify({
      itersPerSecond: Math.round((s1.it - s0.it) / dt),
      framesPerSecond: Number(((s1.d - s0.d) / dt).toFixed(1)),
      longTasks: s1.long.length,
      longestTaskMs: Math.round(Math.max(0, ...s1.long)),
    }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
