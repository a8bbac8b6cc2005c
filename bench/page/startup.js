'use strict';
// startup.js — cold loads of the dpsim page and of a minimal ebiten
// program, side by side, in headless Chromium; prints each load's
// breakdown and the medians (bench/page/startup.sh runs it).
//
//   node bench/page/startup.js URL ROUNDS
//
// Breakdown (ms after navigation): poster (the scenario's picture on
// screen), fetch (dpsim.wasm's last byte), compile (instantiated), Go
// start-up (window.dpsim ready), first frame (ebiten up and the scenario
// built and drawn); bytes: compressed bytes fetched before the first
// frame. A fresh browser context per load: nothing cached.
const { chromium } = require('../../e2e/node_modules/playwright-core');
const { CHROMIUM, CHROMIUM_ARGS } = require('../../e2e/harness.js');

const [url, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg) || 5;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

async function load(browser, path, marks, wasm) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url + path);
  const last = marks[marks.length - 1];
  await page.waitForFunction((m) => performance.getEntriesByName(m).length > 0, last, { timeout: 120000 });
  const r = await page.evaluate(([marks, wasm]) => {
    const at = (n) => { const e = performance.getEntriesByName(n)[0]; return e ? Math.round(e.startTime) : null; };
    const out = {};
    for (const m of marks) out[m] = at(m);
    const first = out[marks[marks.length - 1]];
    let bytes = 0;
    for (const e of performance.getEntriesByType('resource')) {
      if (e.responseEnd <= first) bytes += e.transferSize || e.encodedBodySize || 0;
      if (e.name.endsWith(wasm)) out.fetch = Math.round(e.responseEnd);
    }
    const nav = performance.getEntriesByType('navigation')[0];
    if (nav) bytes += nav.transferSize || 0;
    out.bytes = bytes;
    return out;
  }, [marks, wasm]);
  await ctx.close();
  return r;
}

(async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const dp = [], mn = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate, so that both see the same machine load.
    const a = await load(browser, '', ['dpsim-poster', 'dpsim-instantiated', 'dpsim-go-main', 'dpsim-scenario-built', 'dpsim-ready', 'dpsim-first-frame'], '/dpsim.wasm');
    const b = await load(browser, 'bench-minimal/', ['minimal-instantiated', 'minimal-go-start', 'minimal-first-frame'], '/minimal.wasm');
    console.log(`round ${i + 1}: dpsim poster ${a['dpsim-poster']} · fetch ${a.fetch} · compiled ${a['dpsim-instantiated']} · Go main ${a['dpsim-go-main']} · scenario built ${a['dpsim-scenario-built']} · bridge up ${a['dpsim-ready']} · first frame ${a['dpsim-first-frame']} ms · ${(a.bytes / 1048576).toFixed(2)} MB | ` +
      `minimal ebiten: fetch ${b.fetch} · compiled ${b['minimal-instantiated']} · Go up ${b['minimal-go-start']} · first frame ${b['minimal-first-frame']} ms · ${(b.bytes / 1048576).toFixed(2)} MB`);
    dp.push(a); mn.push(b);
  }
  const m = (arr, k) => median(arr.map((x) => x[k]));
  const d = (k1, k0) => median(dp.map((x) => x[k1] - x[k0]));
  console.log(`median of ${rounds}: dpsim poster ${m(dp, 'dpsim-poster')} ms, fetch ${m(dp, 'fetch')}, compiled ${m(dp, 'dpsim-instantiated')}, first frame ${m(dp, 'dpsim-first-frame')} ms, ` +
    `${(m(dp, 'bytes') / 1048576).toFixed(2)} MB before it; breakdown: fetch ${m(dp, 'fetch')} · compile ${d('dpsim-instantiated', 'fetch')} · Go start-up ${d('dpsim-go-main', 'dpsim-instantiated')} · ` +
    `scenario build ${d('dpsim-scenario-built', 'dpsim-go-main')} · bridge ${d('dpsim-ready', 'dpsim-scenario-built')} · ebiten start-up to the first frame ${d('dpsim-first-frame', 'dpsim-ready')} ms`);
  const e = (k1, k0) => median(mn.map((x) => x[k1] - x[k0]));
  console.log(`median of ${rounds}: minimal ebiten first frame ${m(mn, 'minimal-first-frame')} ms, ${(m(mn, 'bytes') / 1048576).toFixed(2)} MB; breakdown: fetch ${m(mn, 'fetch')} · compile ${e('minimal-instantiated', 'fetch')} · ` +
    `Go start-up ${e('minimal-go-start', 'minimal-instantiated')} · ebiten start-up to the first frame ${e('minimal-first-frame', 'minimal-go-start')} ms`);
  console.log(`targets: poster ≤ 1000 ms: ${m(dp, 'dpsim-poster') <= 1000 ? 'met' : 'MISSED'}; first frame ≤ minimal's: ${m(dp, 'dpsim-first-frame') <= m(mn, 'minimal-first-frame') ? 'met' : 'MISSED'}; ` +
    `bytes before the first frame ≤ 2.1 MB: ${m(dp, 'bytes') <= 2.1 * 1048576 ? 'met' : 'MISSED'} (SwiftShader, 2 shared cores: a GPU-less floor)`);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
