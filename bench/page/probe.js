'use strict';
// probe.js — the page's fast-forward speed in headless Chromium: loads a
// scenario through window.dpsim.load, turns fast-forward on, and over a
// window of seconds reports iterations per second, frames per second and
// the long tasks a PerformanceObserver saw (one JSON line).
//
//   node bench/page/probe.js URL SCENARIO.json [SECONDS]
//
// Run by bench/page/run.sh, which serves the built site and repeats it.
// With PROBE_PROFILE=FILE it also records a CPU profile of the page's main
// thread over the window (Chrome DevTools' .cpuprofile format) and prints
// the functions with the most self time, to see where a frame goes; with
// PROBE_TRACE=FILE a Chromium trace of the window (chrome://tracing, or
// ui.perfetto.dev), whose renderer events show the browser's own work
// (CrGpuMain's CommandBufferService:PutChanged is SwiftShader drawing;
// CrRendererMain's CommandBufferProxyImpl::WaitForGetOffset, the page
// waiting for it). PROBE_W and PROBE_H set the viewport (1280×800).
const { chromium } = require('../../e2e/node_modules/playwright-core');
const fs = require('node:fs');
const { CHROMIUM, CHROMIUM_ARGS } = require('../../e2e/harness.js');

// summarise prints the 25 functions with the most self time, in per cent
// of the profile, to stderr.
function summarise(profile) {
  const self = new Map(), byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dts = profile.timeDeltas;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id), d = dts[i + 1] || 0;
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}`;
    self.set(key, (self.get(key) || 0) + d);
    total += d;
  });
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [k, v] of rows) console.error(`${(100 * v / total).toFixed(1).padStart(5)} %  ${k}`);
}

(async () => {
  const [url, file, secs = '8'] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: Number(process.env.PROBE_W || 1280), height: Number(process.env.PROBE_H || 800) } });
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
    let cdp = null;
    if (process.env.PROBE_PROFILE) {
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    if (process.env.PROBE_TRACE) {
      await browser.startTracing(page, { path: process.env.PROBE_TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'gpu', 'viz', 'toplevel', 'benchmark'] });
    }
    const s0 = await page.evaluate(() => ({ it: window.dpsimState.iter, d: window.dpsimState.draws, t: performance.now() }));
    await page.waitForTimeout(Number(secs) * 1000);
    const s1 = await page.evaluate(() => ({ it: window.dpsimState.iter, d: window.dpsimState.draws, t: performance.now(), long: window.__long }));
    const dt = (s1.t - s0.t) / 1000;
    if (process.env.PROBE_TRACE) await browser.stopTracing();
    const canvas = await page.evaluate(() => { const c = document.querySelector('canvas'); return c ? { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight, dpr: devicePixelRatio } : null; });
    if (process.env.PROBE_PROFILE || process.env.PROBE_TRACE) console.error('canvas', JSON.stringify(canvas));
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(process.env.PROBE_PROFILE, JSON.stringify(profile));
      summarise(profile);
    }
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
