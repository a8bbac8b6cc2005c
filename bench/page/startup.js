'use strict';
// startup.js — cold loads of the dpsim page and of a minimal ebiten
// program, side by side, in headless Chromium; prints each load's
// breakdown and the medians (bench/page/startup.sh runs it).
//
//   node bench/page/startup.js URL ROUNDS
//
// The page is two Go programs (docs/performance.md, start-up): the view
// (view.wasm, ebiten) draws the scenario's first frame from its snapshot,
// then the simulator (dpsim.wasm) loads and takes over. Breakdown (ms
// after navigation): poster (the SVG on screen); the view's fetch (last
// byte), compile (instantiated), Go start-up (its main), ebiten start-up
// (what is left before the first frame), scenario build (the snapshot's
// decode and first mesh) → first frame; then the simulator's fetch,
// compile, bridge up and its first picture (sim ready). Third, the
// minimal program in dpsim's page (bench-minimal/inpage.html, which
// startup.sh makes from index.html): the page's own cost to a program's
// first frame, apart from the program. Each round loads the three in
// turn; the paired differences are medians of the rounds' differences,
// steadier than a difference of medians on a shared machine. Bytes: compressed
// bytes of every request started before the first frame, the page's
// HTML included, in decimal MB. A fresh browser context per load:
// nothing cached.
const { chromium } = require('../../e2e/node_modules/playwright-core');
const { CHROMIUM, CHROMIUM_ARGS } = require('../../e2e/harness.js');

const [url, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg) || 5;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const MB = 1e6;
const LIMIT = 2.1 * MB;

async function load(browser, path, marks, first, wasms) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url + path);
  const last = marks[marks.length - 1];
  await page.waitForFunction((m) => performance.getEntriesByName(m).length > 0, last, { timeout: 120000 });
  const r = await page.evaluate(([marks, first, wasms]) => {
    const at = (n) => { const e = performance.getEntriesByName(n)[0]; return e ? Math.round(e.startTime) : null; };
    const out = {};
    for (const m of marks) out[m] = at(m);
    const t = out[first];
    let bytes = 0;
    const before = [];
    for (const e of performance.getEntriesByType('resource')) {
      if (e.startTime <= t) {
        bytes += e.transferSize || e.encodedBodySize || 0;
        before.push(e.name.replace(/^https?:\/\/[^/]+\//, ''));
      }
      for (const w of wasms) if (e.name.endsWith(w)) out['fetch ' + w] = Math.round(e.responseEnd);
    }
    const nav = performance.getEntriesByType('navigation')[0];
    if (nav) bytes += nav.transferSize || 0;
    out.bytes = bytes;
    out.before = before;
    out.build = typeof window.dpsimSnapshotBuildMs === 'number' ? window.dpsimSnapshotBuildMs : 0;
    return out;
  }, [marks, first, wasms]);
  await ctx.close();
  return r;
}

(async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const dp = [], mn = [], ip = [];
  const DP = ['dpsim-poster', 'dpsim-view-instantiated', 'dpsim-view-go-main', 'dpsim-first-frame', 'dpsim-instantiated', 'dpsim-ready', 'dpsim-sim-ready'];
  for (let i = 0; i < rounds; i++) {
    // Alternate, so that both see the same machine load.
    const a = await load(browser, '', DP, 'dpsim-first-frame', ['/view.wasm', '/dpsim.wasm']);
    const b = await load(browser, 'bench-minimal/', ['minimal-instantiated', 'minimal-go-start', 'minimal-first-frame'], 'minimal-first-frame', ['/minimal.wasm']);
    const c = await load(browser, 'bench-minimal/inpage.html', ['dpsim-view-instantiated', 'minimal-go-start', 'minimal-first-frame'], 'minimal-first-frame', ['/minimal.wasm']);
    a.ebiten = a['dpsim-first-frame'] - a['dpsim-view-go-main'] - a.build;
    console.log(`round ${i + 1}: dpsim poster ${a['dpsim-poster']} · view fetch ${a['fetch /view.wasm']} · compiled ${a['dpsim-view-instantiated']} · Go main ${a['dpsim-view-go-main']} · ` +
      `scenario build ${a.build.toFixed(1)} · first frame ${a['dpsim-first-frame']} ms · ${(a.bytes / MB).toFixed(3)} MB before it | simulator fetch ${a['fetch /dpsim.wasm']} · compiled ${a['dpsim-instantiated']} · bridge up ${a['dpsim-ready']} · sim ready ${a['dpsim-sim-ready']} ms | ` +
      `minimal ebiten: fetch ${b['fetch /minimal.wasm']} · compiled ${b['minimal-instantiated']} · Go up ${b['minimal-go-start']} · first frame ${b['minimal-first-frame']} ms · ${(b.bytes / MB).toFixed(3)} MB | ` +
      `minimal in dpsim's page: fetch ${c['fetch /minimal.wasm']} · compiled ${c['dpsim-view-instantiated']} · Go up ${c['minimal-go-start']} · first frame ${c['minimal-first-frame']} ms`);
    if (i === 0) console.log(`  fetched before dpsim's first frame: ${a.before.join(', ')}`);
    dp.push(a); mn.push(b); ip.push(c);
  }
  const m = (arr, k) => median(arr.map((x) => x[k]));
  const d = (arr, k1, k0) => median(arr.map((x) => x[k1] - x[k0]));
  console.log(`median of ${rounds}: dpsim first frame ${m(dp, 'dpsim-first-frame')} ms, ${(m(dp, 'bytes') / MB).toFixed(3)} MB before it (poster ${m(dp, 'dpsim-poster')} ms); breakdown: ` +
    `view fetch ${m(dp, 'fetch /view.wasm')} · compile ${d(dp, 'dpsim-view-instantiated', 'fetch /view.wasm')} · Go start-up ${d(dp, 'dpsim-view-go-main', 'dpsim-view-instantiated')} · ` +
    `ebiten start-up ${Math.round(m(dp, 'ebiten'))} · scenario build ${m(dp, 'build').toFixed(1)} ms → first frame; then simulator fetch ${m(dp, 'fetch /dpsim.wasm')} · compiled ${m(dp, 'dpsim-instantiated')} · bridge up ${m(dp, 'dpsim-ready')} · sim ready ${m(dp, 'dpsim-sim-ready')} ms`);
  console.log(`median of ${rounds}: minimal ebiten first frame ${m(mn, 'minimal-first-frame')} ms, ${(m(mn, 'bytes') / MB).toFixed(3)} MB; breakdown: fetch ${m(mn, 'fetch /minimal.wasm')} · compile ${d(mn, 'minimal-instantiated', 'fetch /minimal.wasm')} · ` +
    `Go start-up ${d(mn, 'minimal-go-start', 'minimal-instantiated')} · ebiten start-up to the first frame ${d(mn, 'minimal-first-frame', 'minimal-go-start')} ms`);
  console.log(`median of ${rounds}: minimal ebiten in dpsim's page first frame ${m(ip, 'minimal-first-frame')} ms; breakdown: fetch ${m(ip, 'fetch /minimal.wasm')} · ` +
    `compile ${d(ip, 'dpsim-view-instantiated', 'fetch /minimal.wasm')} · Go start-up ${d(ip, 'minimal-go-start', 'dpsim-view-instantiated')} · ` +
    `ebiten start-up to the first frame ${d(ip, 'minimal-first-frame', 'minimal-go-start')} ms`);
  const paired = (xs, ys) => median(xs.map((x, i) => x['dpsim-first-frame'] - ys[i]['minimal-first-frame']));
  console.log(`paired, median of the rounds' differences: dpsim − minimal ${paired(dp, mn)} ms; dpsim − minimal in dpsim's page ${paired(dp, ip)} ms; ` +
    `the page's own cost (minimal in the page − minimal alone) ${median(ip.map((x, i) => x['minimal-first-frame'] - mn[i]['minimal-first-frame']))} ms`);
  console.log(`targets: poster ≤ 1000 ms: ${m(dp, 'dpsim-poster') <= 1000 ? 'met' : 'MISSED'}; first frame ≤ minimal's: ${m(dp, 'dpsim-first-frame') <= m(mn, 'minimal-first-frame') ? 'met' : 'MISSED'}; ` +
    `first frame ≤ minimal's in dpsim's page: ${m(dp, 'dpsim-first-frame') <= m(ip, 'minimal-first-frame') ? 'met' : 'MISSED'}; ` +
    `bytes before the first frame ≤ 2.1 MB (decimal): ${m(dp, 'bytes') <= LIMIT ? 'met' : 'MISSED'} (SwiftShader, 2 shared cores: a GPU-less floor)`);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
