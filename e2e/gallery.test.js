'use strict';
// End-to-end test of the gallery of paper figures (gallery.html, issue 21
// point 3): every experiment preset that reproduces a paper figure
// (read here from core/experiment/presets/, independently of the page)
// appears, grouped by paper (headed by the paper's title, its authors
// beneath: never a file name), with each of its claims; a figure never
// swept says "not run yet" and has no picture; its link opens it in the
// Experiments panel; after a sweep there, the gallery shows that sweep's
// verdicts and its picture — the very PNG "dpsim sweep" draws for it —
// and the link shows the sweep again. Screenshots at 1280×720 and
// 390×844 land in e2e/out/.
//
//   node --test e2e/gallery.test.js     (after ./build.sh)
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { decodePNG, pixelStats } = require('./png.js');
const { ROOT, OUT, built, cli, open, scratch, waiter } = require('./harness.js');

// A figure whose sweep takes well under a second natively at one run.
const CHEAP = 'dpdgt-fig2';
const tmp = scratch('gallery');

// The figures, from the experiment files themselves.
const FIGURES = (() => {
  const dir = path.join(ROOT, 'core', 'experiment', 'presets');
  const out = new Map();
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const e = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    // "Authors, Title (algorithm)": the heading is the title.
    if (e.reproduces) out.set(f.replace(/\.json$/, ''), { paper: e.reproduces.paper.replace(/ \([^)]*\)$/, '').split(', ').pop(), claims: (e.expectations || []).map((x) => x.claim) });
  }
  return out;
})();

before(() => built(['gallery.html', 'gallery.js', 'wasm_exec.js', 'solver.wasm']));

const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, state: () => JSON.stringify(window.dpsimSweepState || window.dpsimGallery) });
const galleryReady = (p) => waitFor(p, 'the gallery', () => window.dpsimGallery && window.dpsimGallery.status === 'ready');

// shown reads the gallery: per figure, its paper's heading and its
// claims with their badges.
const shown = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('li.gal-item')].map((li) => [li.dataset.experiment, {
  paper: li.closest('section').querySelector('h2').textContent,
  authors: (li.closest('section').querySelector('.gal-authors') || {}).textContent || '',
  picture: !!li.querySelector('figure.gal-pic img'),
  claims: [...li.querySelectorAll('.gal-claims > li')].map((c) => ({ verdict: c.querySelector('.exp-verdict') && c.querySelector('.exp-verdict').textContent, text: c.textContent })),
  link: li.querySelector('a.gal-open').getAttribute('href'),
  doc: li.querySelector('a.gal-doc').getAttribute('href'),
}])));

test('every paper figure, its claims, a link to its experiment, its last sweep\'s verdicts', async () => {
  const p = await open('gallery.html', { viewport: { width: 1280, height: 720 } });
  const { page } = p;
  try {
    await galleryReady(p);
    const g = await shown(page);
    assert.deepEqual(Object.keys(g).sort(), [...FIGURES.keys()].sort(), 'the figures listed');
    for (const [name, f] of FIGURES) {
      assert.equal(g[name].paper, f.paper, `${name}'s paper`);
      assert.doesNotMatch(g[name].paper, /\b[a-z0-9]+-[a-z0-9]+-[a-z0-9-]+\b/, `${name}'s paper is named by a file name`);
      assert.match(g[name].authors, /^[A-Z]\. [A-Z]/, `${name}'s paper's authors`);
      assert.equal(g[name].picture, false, `${name} has a picture in a fresh browser`);
      assert.equal(g[name].link, 'experiments.html?experiment=' + name);
      // … and what docs/ records of it (e2e/docview.test.js checks every
      // such link finds its passage).
      assert.ok(g[name].doc.startsWith('doc.html?experiment=' + encodeURIComponent(name)), `${name}'s doc link ${g[name].doc}`);
      if (f.claims.length === 0) continue;
      assert.equal(g[name].claims.length, f.claims.length, `${name}'s claims`);
      f.claims.forEach((c, i) => {
        assert.ok(g[name].claims[i].text.includes(c), `${name} claim ${i}: ${g[name].claims[i].text}`);
        assert.equal(g[name].claims[i].verdict, 'not run yet', `${name} claim ${i} in a fresh browser`);
      });
    }
    assert.ok(FIGURES.has(CHEAP) && FIGURES.get(CHEAP).claims.length > 0);
    await page.screenshot({ path: path.join(OUT, 'gallery-1280x720.png') });

    // The link opens the figure in the Experiments panel; a sweep there…
    await page.click(`li[data-experiment="${CHEAP}"] a.gal-open`);
    await page.waitForURL(/experiments\.html\?experiment=/);
    await waitFor(p, 'the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
    assert.equal(await page.inputValue('#exp-preset'), CHEAP);
    await page.fill('#exp-runs', '1');
    await page.click('#exp-run');
    await waitFor(p, 'the sweep, kept', (n) => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn && window.dpsimSweepState.kept === n, CHEAP);
    const verdicts = await page.evaluate(() => window.dpsimSweepState.verdicts);
    assert.equal(verdicts.length, FIGURES.get(CHEAP).claims.length);

    // …shows in the gallery, for that figure only.
    await p.goto('gallery.html');
    await galleryReady(p);
    const g2 = await shown(page);
    verdicts.forEach((v, i) => {
      assert.equal(g2[CHEAP].claims[i].verdict, v.verdict, `claim ${i} of ${CHEAP}`);
      assert.ok(g2[CHEAP].claims[i].text.includes(v.claim));
    });
    for (const [name] of FIGURES) {
      if (name !== CHEAP) assert.ok(g2[name].claims.every((c) => c.verdict === 'not run yet' || FIGURES.get(name).claims.length === 0), `${name} shows a verdict it never had`);
    }
    assert.match(await page.textContent(`li[data-experiment="${CHEAP}"] .gal-foot`), /verdicts of your sweep of/);
    // Its picture, for that figure only: the SVG the CLI draws for the
    // same sweep, shown (not blank).
    assert.equal(await page.locator('figure.gal-pic img').count(), 1, 'pictures');
    assert.equal(await page.evaluate(() => window.dpsimGallery.pictures), 1);
    const png = Buffer.from(await page.$eval(`li[data-experiment="${CHEAP}"] figure.gal-pic img`, (img) => fetch(img.src).then((r) => r.arrayBuffer()).then((b) => Array.from(new Uint8Array(b)))));
    const out = path.join(tmp, `${CHEAP}.json`);
    execFileSync(cli(), ['sweep', '--quiet', '--runs', '1', '--out', out, `preset:${CHEAP}`], { stdio: 'inherit' });
    assert.ok(png.equals(fs.readFileSync(path.join(tmp, `${CHEAP}.png`))), 'the gallery\'s picture is the CLI\'s PNG');
    await page.waitForFunction((n) => { const i = document.querySelector(`li[data-experiment="${n}"] figure.gal-pic img`); return i && i.complete && i.naturalWidth > 0; }, CHEAP);
    const shot = path.join(OUT, 'gallery-swept.png');
    await page.locator(`li[data-experiment="${CHEAP}"]`).screenshot({ path: shot });
    const px = pixelStats(decodePNG(fs.readFileSync(shot)));
    assert.ok(px.colours > 20 && px.foregroundFraction > 0.05, `the picture is not blank (${px.colours} colours, ${(100 * px.foregroundFraction).toFixed(1)} % foreground)`);
    await page.screenshot({ path: path.join(OUT, 'gallery-swept-1280x720.png'), fullPage: false });

    // Its link shows that sweep again in the panel.
    await page.click(`li[data-experiment="${CHEAP}"] a.gal-open`);
    await waitFor(p, 'the kept sweep', (n) => window.dpsimSweepState && window.dpsimSweepState.status === 'ready' && window.dpsimSweepState.restored === n && window.dpsimSweepState.figureDrawn, CHEAP);
  } finally {
    await p.close();
  }
});

test('the gallery on a phone (390×844)', async () => {
  const p = await open('gallery.html', { viewport: { width: 390, height: 844 }, scale: 2 });
  const { page } = p;
  try {
    await galleryReady(p);
    // Nothing wider than the window.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
    await page.screenshot({ path: path.join(OUT, 'gallery-390x844.png') });
  } finally {
    await p.close();
  }
});
