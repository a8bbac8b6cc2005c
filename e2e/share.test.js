'use strict';
// The page as a link (docs/url.md): a copied URL reproduces the run bit
// for bit in a fresh browser; ?hide= removes what it names and only that;
// ?classroom leaves Play, the privacy slider and the view; a reload keeps
// the view's state.
//
//   ./build.sh && node --test e2e/share.test.js
//
// Screenshots: e2e/out/share-*.png. Environment as for e2e/smoke.test.js.
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { OUT, built, cli: builtCLI, open, scratch, site, waiter } = require('./harness.js');
const FATAL_CONSOLE = /panic|fatal error|exit code/i;

const tmp = scratch('share');
let baseURL = '';

before(async () => {
  built(['index.html', 'share.js', 'wasm_exec.js', 'dpsim.wasm']);
  baseURL = await site();
});

// fresh opens a page in a new browser context: nothing kept from another.
const fresh = (viewport = { width: 1280, height: 800 }) => open(null, { viewport });
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, state: () => JSON.stringify(window.dpsimState).slice(0, 600) });

// ready waits for the simulator, the URL's run applied and the link
// written (share.js writes it 300 ms after the scenario settles).
async function ready(b) {
  await waitFor(b, 'the simulator', () => window.dpsimReady && window.dpsimState && window.dpsimState.ready);
  await waitFor(b, 'the link', () => document.getElementById('share-url').value !== '');
  assert.deepEqual(b.log.filter((l) => FATAL_CONSOLE.test(l)), [], 'the Go program died');
}

// trace returns the run's metrics and ledger, the floats as hex bytes:
// equal strings are equal bits.
async function trace(page) {
  return page.evaluate(() => {
    const hex = (a) => Array.from(new Uint8Array(Float64Array.from(a || []).buffer), (x) => x.toString(16).padStart(2, '0')).join('');
    const m = window.dpsim.metrics(0);
    return { iter: Array.from(m.iter).join(','), optimality: hex(m.optimality), consensus: hex(m.consensus), objective: hex(m.objective),
      ledger: window.dpsim.ledger(), scenario: window.dpsim.scenario(), at: window.dpsimState.iter };
  });
}

// steps advances the paused run n iterations, as the Step button does.
async function steps(page, n) {
  await page.evaluate((k) => { window.dpsim.pause(); for (let i = 0; i < k; i++) window.dpsim.step(); }, n);
}

// settled waits until the address bar holds the current run (debounced).
async function settled(b, re) {
  await waitFor(b, `the URL to match ${re}`, (src) => new RegExp(src).test(location.search) && document.getElementById('share-url').value === location.href, re.source);
  return b.page.url();
}

describe('share', () => {
  test('an edited scenario\'s link reproduces its trace bit for bit in a fresh browser', async () => {
    const a = await fresh();
    await a.page.goto(baseURL + '?preset=gtdp-rendezvous');
    await ready(a);
    assert.match(new URL(a.page.url()).search, /^\?preset=gtdp-rendezvous&seed=1$/, 'an unmodified preset keeps a short link');
    // Edit the seed and an algorithm parameter in the JSON editor, Load.
    await a.page.click('#scenario-box > summary');
    await a.page.click('#scenario-current');
    const text = await a.page.inputValue('#scenario-text');
    const s = JSON.parse(text);
    s.seed = 4242;
    s.algorithm.params.alpha = 0.07;
    s.name = 'my-rendezvous';
    await a.page.fill('#scenario-text', JSON.stringify(s, null, 2));
    await a.page.click('#scenario-load');
    await waitFor(a, 'the edited scenario', () => window.dpsimState.scenario === 'my-rendezvous' && window.dpsimState.seed === 4242);
    const link = await settled(a, /^\?scenario=[A-Za-z0-9_-]+$/);
    assert.equal(await a.page.inputValue('#share-url'), link, 'the read-only field shows the link');
    await a.page.click('#share-copy');
    await waitFor(a, 'the copied confirmation', () => /copied|copy it/.test(document.getElementById('share-status').textContent));
    await steps(a.page, 120);
    const ta = await trace(a.page);
    assert.equal(ta.at, 120);

    const b = await fresh();
    await b.page.goto(link);
    await ready(b);
    await waitFor(b, 'the linked scenario', () => window.dpsimState.scenario === 'my-rendezvous');
    assert.equal(b.page.url(), link, 'the opened link is written back unchanged');
    await steps(b.page, 120);
    const tb = await trace(b.page);
    assert.equal(tb.scenario, ta.scenario);
    assert.ok(ta.optimality.length > 1000);
    for (const k of ['iter', 'optimality', 'consensus', 'objective', 'ledger']) assert.equal(tb[k], ta[k], `${k} differs`);
    const algo = JSON.parse(tb.scenario).algorithm.params.alpha;
    assert.equal(algo, 0.07);

    // dpsim run agrees: the link's scenario (as the editor shows it) run
    // by the CLI gives the same first 121 points.
    const file = path.join(tmp, 'linked.json');
    fs.writeFileSync(file, tb.scenario);
    execFileSync(builtCLI(), ['run', '--out', path.join(tmp, 'cli.json'), file], { stdio: 'ignore' });
    const cli = JSON.parse(fs.readFileSync(path.join(tmp, 'cli.json'), 'utf8')).metrics;
    const n = ta.iter.split(',').length;
    const hex = (a) => Buffer.from(Float64Array.from(a.slice(0, n)).buffer).toString('hex');
    assert.equal(cli.iteration.slice(0, n).join(','), ta.iter);
    for (const k of ['optimality', 'consensus', 'objective']) assert.equal(hex(cli[k]), ta[k], `dpsim run's ${k} differs from the page's`);
    await a.ctx.close();
    await b.ctx.close();
  });

  test('a preset with seed and target ε keeps a short link; a broken link is said and kept', async () => {
    const b = await fresh();
    await b.page.goto(baseURL + '?preset=gtdp-rendezvous&seed=7&epsilon=50');
    await ready(b);
    await waitFor(b, 'the calibration', () => JSON.parse(window.dpsim.scenario()).calibrate && window.dpsimState.seed === 7);
    await settled(b, /^\?preset=gtdp-rendezvous&seed=7&epsilon=50$/);
    const broken = baseURL + '?scenario=q1YqSy0qzszPU7&hide=plot,bogus';
    await b.page.goto(broken);
    await ready(b);
    const note = await b.page.textContent('#share-note');
    assert.match(note, /URL parameter scenario: is cut short|URL parameter scenario: is not a compressed scenario/);
    assert.match(note, /URL parameter hide: names an unknown part "bogus"/);
    assert.equal(await b.page.evaluate(() => getComputedStyle(document.querySelector('.plot-card')).display), 'none');
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(b.page.url(), broken, 'a link with errors stays in the address bar');
    await b.ctx.close();
  });

  test('each hide flag removes its part and only it; the view takes the room', async () => {
    const b = await fresh();
    await b.page.goto(baseURL);
    await ready(b);
    const parts = JSON.parse(await b.page.evaluate(() => window.dpsim.shareParts()));
    const dom = await b.page.evaluate(() => [...new Set([...document.querySelectorAll('[data-part]')].map((e) => e.dataset.part))]);
    assert.deepEqual([...dom].sort(), [...parts].sort(), 'the page\'s parts are ui/query.Parts');
    const viewW = await b.page.evaluate(() => document.getElementById('view').getBoundingClientRect().width);
    // boot.js hides the parts as the document loads, before any wasm: the
    // simulator and the view are not fetched for these twenty pages.
    const noWasm = (r) => r.abort();
    await b.page.route(/\.wasm$/, noWasm);
    for (const part of parts) {
      await b.page.goto(baseURL + '?hide=' + part, { waitUntil: 'domcontentloaded' });
      const seen = await b.page.evaluate(() => [...document.querySelectorAll('[data-part]')].map((e) => [
        e.dataset.part, e.hasAttribute('data-gone') && getComputedStyle(e).display === 'none',
        [...document.querySelectorAll(`[data-part="${e.dataset.part}"]`)].some((o) => !o.hasAttribute('data-gone'))]));
      for (const [name, gone, shown] of seen) {
        if (name === part) assert.ok(gone, `?hide=${part} leaves a ${name} element shown`);
        else assert.ok(shown, `?hide=${part} also hides ${name}`);
      }
    }
    await b.page.unroute(/\.wasm$/, noWasm);
    await b.page.goto(baseURL + '?hide=plot,compare,state,theory,messages,editor');
    await ready(b);
    const after = await b.page.evaluate(() => ({
      w: document.getElementById('view').getBoundingClientRect().width,
      seedFocusable: (() => { const el = document.getElementById('seed'); el.focus(); return document.activeElement === el; })(),
    }));
    assert.ok(after.w > viewW * 1.2, `the view did not grow: ${viewW} → ${after.w}`);
    assert.equal(after.seedFocusable, false, 'a hidden part stays in the tab order');
    await b.ctx.close();
  });

  test('?classroom shows Play, the privacy slider and the view; the slider calibrates', async () => {
    for (const vp of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
      const b = await fresh(vp);
      await b.page.goto(baseURL + '?preset=gtdp-rendezvous&classroom');
      await ready(b);
      const vis = await b.page.evaluate(() => {
        const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
        const out = {};
        for (const id of ['play', 'privacy-slider', 'view', 'step', 'preset', 'speed', 'target-eps', 'share-copy', 'exp-section', 'plot', 'messages', 'seed']) out[id] = shown(document.getElementById(id));
        const r = document.getElementById('view').getBoundingClientRect();
        out.viewW = r.width; out.viewH = r.height;
        return out;
      });
      assert.ok(vis.play && vis['privacy-slider'] && vis.view, JSON.stringify(vis));
      for (const id of ['step', 'preset', 'speed', 'target-eps', 'share-copy', 'exp-section', 'plot', 'messages', 'seed']) assert.equal(vis[id], false, `${id} is shown in classroom mode`);
      assert.ok(vis.viewW > vp.width * 0.85, `the view is ${vis.viewW} px wide`);
      const tag = `${vp.width}x${vp.height}`;
      await b.page.click('#play');
      await waitFor(b, 'iterations', () => window.dpsimState.iter >= 5);
      await b.page.screenshot({ path: path.join(OUT, `share-classroom-${tag}.png`) });
      if (vp.width === 1280) {
        // The slider to ε = 10: calibrates through Target ε (confirming if asked).
        await waitFor(b, 'the slider', () => !document.getElementById('privacy-slider').disabled);
        await b.page.evaluate(() => {
          const s = document.getElementById('privacy-slider');
          const lo = Math.log10(Number(s.dataset.min)), hi = Math.log10(Number(s.dataset.max));
          s.value = String(Math.round(((1 - lo) / (hi - lo)) * Number(s.max))); // log10(10) on the slider's scale
          s.dispatchEvent(new Event('pointerdown'));
          s.dispatchEvent(new Event('input'));
          s.dispatchEvent(new Event('change'));
        });
        const asked = await b.page.evaluate(() => !document.getElementById('cal-confirm').hidden);
        if (asked) await b.page.click('#cal-confirm-yes');
        await waitFor(b, 'the calibration to ε = 10', () => { const c = JSON.parse(window.dpsim.scenario()).calibrate; return c && c.epsilon === 10; });
        await settled(b, /^\?preset=gtdp-rendezvous&seed=1&epsilon=10&classroom$/);
        assert.equal(await b.page.textContent('#privacy-value'), 'ε = 10');
        await b.page.click('#play');
        await waitFor(b, 'iterations', () => window.dpsimState.iter >= 5);
        await b.page.screenshot({ path: path.join(OUT, `share-classroom-${tag}-eps10.png`) });
      }
      await b.ctx.close();
    }
  });

  test('a reload keeps the speed, the open boxes, slow motion and the iteration reached, bit for bit', async () => {
    const b = await fresh();
    await b.page.goto(baseURL + '?preset=gtdp-rendezvous&seed=3');
    await ready(b);
    await b.page.evaluate(() => {
      const s = document.getElementById('speed');
      s.value = '700';
      s.dispatchEvent(new Event('input'));
    });
    await b.page.click('#scenario-box > summary');
    await steps(b.page, 77);
    await b.page.evaluate(() => window.dpsim.setSlow(true));
    const before = await trace(b.page);
    const speed = await b.page.evaluate(() => window.dpsimState.speed);
    await b.page.waitForTimeout(1500); // saved every second, and on pagehide
    await b.page.reload();
    await ready(b);
    await waitFor(b, 'the restore note', () => document.getElementById('share-note').dataset.restored === '77');
    assert.match(await b.page.textContent('#share-note'), /Restored to iteration 77/);
    const st = await b.page.evaluate(() => ({ ...window.dpsimState }));
    assert.equal(st.iter, 77);
    assert.equal(st.slow, true);
    assert.equal(st.speed, speed);
    assert.equal(await b.page.evaluate(() => document.getElementById('scenario-box').open), true);
    const again = await trace(b.page);
    for (const k of ['iter', 'optimality', 'consensus', 'objective', 'ledger', 'scenario']) assert.equal(again[k], before[k], `${k} differs after the reload`);

    // A broken saved state is ignored with a note, never a blank page.
    // (Set before the page's scripts run: the page itself saves its
    // state on leaving.)
    await b.page.addInitScript(() => { if (!sessionStorage.getItem('broken')) { sessionStorage.setItem('broken', '1'); localStorage.setItem('dpsim.session', '{"v": 1, "run": 5'); } });
    await b.page.reload();
    await ready(b);
    assert.match(await b.page.textContent('#share-note'), /could not be read .* it was ignored/);
    assert.equal(await b.page.evaluate(() => window.dpsimState.iter), 0);
    await b.ctx.close();
  });
});
