'use strict';
// End-to-end accessibility test (issue 21, point 5): axe-core finds no
// serious or critical violation on index.html, experiments.html and
// gallery.html with their panels open; Tab reaches every interactive
// control, in document order, and each has an accessible name; the `?`
// dialog lists exactly the shortcuts the key handler takes (both come
// from keys.js's one table) and pressing them does what they say; the
// view's text alternative follows the run. Screenshots of the dialog at
// 1280×720 and 390×844 land in e2e/out/.
//
//   node --test e2e/a11y.test.js     (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, open: openPage, waiter } = require('./harness.js');

const AXE = require.resolve('axe-core/axe.min.js');
const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000 });

before(() => built(['index.html', 'keys.js', 'wasm_exec.js', 'dpsim.wasm', 'solver.wasm']));

const open = (file, viewport = { width: 1280, height: 720 }, scale = 1) => openPage(file, { viewport, scale });

const simReady = (p) => waitFor(p, 'the simulation', () => window.dpsimReady && window.dpsimState && window.dpsimState.draws > 3);
const panelReady = (p) => waitFor(p, 'the experiments panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
const galleryReady = (p) => waitFor(p, 'the gallery', () => window.dpsimGallery && window.dpsimGallery.status === 'ready');

// openPanels opens every panel of index.html: the scenario editor, the
// experiments, the eavesdropper, the symbols.
async function openPanels(p) {
  await p.page.evaluate(() => {
    for (const id of ['more-controls', 'scenario-box', 'exp-box', 'eav-box']) {
      const d = document.getElementById(id);
      if (d) d.open = true;
    }
    window.dpsimGlossary.open(true);
  });
  await panelReady(p);
}

// axeSerious runs axe-core and returns its serious and critical
// violations, one line each.
async function axeSerious(page) {
  await page.addScriptTag({ path: AXE });
  const res = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.join(' | ')}`);
}

// One page per file serves both checks of that file's loaded state: axe
// first, then the walk with Tab (focus moves only; nothing is pressed
// but Tab). experiments.html's page then answers "?" and runs its sweep
// (see below). Each check is its own subtest, so a failure names it.
describe('axe-core and the keyboard on each page', () => {
  test('index.html with its panels open', async (t) => {
    const p = await open('');
    try {
      await simReady(p);
      await openPanels(p);
      await t.test('axe-core: no serious or critical violations', async () => {
        assert.deepEqual(await axeSerious(p.page), []);
      });
      await t.test('Tab reaches every control of index.html, in document order, each with a name', () => tabWalk(p, 'index.html'));
    } finally { await p.ctx.close(); }
  });
  test('experiments.html, before and after a sweep', async (t) => {
    const p = await open('experiments.html?experiment=dpdgt-fig2');
    try {
      await panelReady(p);
      await t.test('axe-core: no serious or critical violations before the sweep', async () => {
        assert.deepEqual(await axeSerious(p.page), []);
      });
      await t.test('Tab reaches every control of experiments.html, in document order, each with a name', () => tabWalk(p, 'experiments.html'));
      // "?" lists only what the page takes; Escape closes the dialog, E
      // focuses the preset list (blurred again before the sweep).
      await t.test('? on experiments.html lists only what that page takes', async () => {
        await p.page.evaluate(() => { document.activeElement && document.activeElement.blur(); });
        await p.page.keyboard.press('?');
        await waitFor(p, 'the shortcuts dialog', () => document.getElementById('keys-dialog') && document.getElementById('keys-dialog').open);
        const rows = await p.page.evaluate(() => [...document.querySelectorAll('#keys-dialog tbody tr')].map((tr) => tr.dataset.keys));
        assert.deepEqual(rows, ['e E', '?', 'Escape'], 'no simulation keys without the simulation');
        await p.page.keyboard.press('Escape');
        await p.page.keyboard.press('e');
        assert.equal(await p.page.evaluate(() => document.activeElement.id), 'exp-preset');
        await p.page.evaluate(() => document.activeElement.blur());
      });
      await t.test('axe-core: the figure, its legend, the verdicts and the downloads after a sweep', async () => {
        assert.equal(await p.page.evaluate(() => window.dpsimSweepState.status), 'ready', 'the panel is not back at ready');
        await p.page.fill('#exp-runs', '1');
        await p.page.click('#exp-run');
        await waitFor(p, 'the sweep', () => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.figureDrawn);
        assert.deepEqual(await axeSerious(p.page), [], 'after the sweep');
      });
    } finally { await p.ctx.close(); }
  });
  test('gallery.html', async (t) => {
    const p = await open('gallery.html');
    try {
      await galleryReady(p);
      await t.test('axe-core: no serious or critical violations', async () => {
        assert.deepEqual(await axeSerious(p.page), []);
      });
      await t.test('Tab reaches every control of gallery.html, in document order, each with a name', () => tabWalk(p, 'gallery.html'));
    } finally { await p.ctx.close(); }
  });
});

// The visible, enabled, focusable controls of the page in document order,
// each with its accessible name (Chromium's own, through the accessibility
// tree's computed name is not exposed to scripts: this follows the ARIA
// rules the page uses: aria-labelledby, aria-label, <label>, content,
// title; a hint inside an empty field is not a name).
const CONTROLS = () => {
  const sel = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  const visible = (el) => {
    if (el.closest('[hidden], [inert], [aria-hidden="true"]')) return false;
    for (let d = el.parentElement && el.parentElement.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) {
      if (!d.open && el.closest('summary') !== d.querySelector(':scope > summary')) return false;
    }
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  window.__a11yName = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) return by.split(/\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label').trim();
    if (el.labels && el.labels.length) return [...el.labels].map((l) => l.textContent).join(' ').trim();
    const t = (el.textContent || '').trim();
    if (t && !/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) return t;
    return (el.getAttribute('title') || '').trim();
  };
  window.__a11yKey = (el) => {
    if (!el.dataset.a11yKey) el.dataset.a11yKey = String(window.__a11yN = (window.__a11yN || 0) + 1);
    return el.dataset.a11yKey;
  };
  return [...document.querySelectorAll(sel)]
    .filter((el) => !el.disabled && visible(el) && !el.closest('fieldset:disabled'))
    .map((el) => ({ key: window.__a11yKey(el), what: el.tagName.toLowerCase() + (el.id ? '#' + el.id : ''), name: window.__a11yName(el) }));
};

// tabWalk: Tab reaches every visible, enabled control of p's page (file),
// in document order, each with a name and a visible focus ring; the
// canvas never takes focus. It starts with nothing focused, at the top.
async function tabWalk(p, file) {
  const all = await p.page.evaluate(CONTROLS);
  assert.ok(all.length >= (file === 'index.html' ? 30 : 5), `only ${all.length} controls found`);
  const nameless = all.filter((c) => !c.name).map((c) => c.what);
  assert.deepEqual(nameless, [], 'controls without an accessible name');
  assert.equal(await p.page.evaluate(() => document.querySelectorAll('[tabindex]:not([tabindex="-1"]):not([tabindex="0"])').length), 0, 'a positive tabindex breaks the order');
  await p.page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
  const reached = [];
  for (let i = 0; i < all.length + 40; i++) {
    await p.page.keyboard.press('Tab');
    const k = await p.page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return null;
      return { key: window.__a11yKey(a), what: a.tagName.toLowerCase() + (a.id ? '#' + a.id : ''), name: window.__a11yName(a), visible: getComputedStyle(a).outlineStyle !== 'none' || getComputedStyle(a).boxShadow !== 'none' };
    });
    if (!k) continue;
    if (reached.length && k.key === reached[0].key) break; // round the page
    reached.push(k);
  }
  const got = new Set(reached.map((r) => r.key));
  const missed = all.filter((c) => !got.has(c.key)).map((c) => c.what + ' "' + c.name + '"');
  assert.deepEqual(missed, [], 'controls Tab never reached');
  // In document order: the order of the list of controls.
  const pos = new Map(all.map((c, i) => [c.key, i]));
  const order = reached.filter((r) => pos.has(r.key)).map((r) => pos.get(r.key));
  for (let i = 1; i < order.length; i++) {
    assert.ok(order[i] > order[i - 1], `Tab went from ${all[order[i - 1]].what} back to ${all[order[i]].what}`);
  }
  // Focus is visible on every reached control (the page's :focus-visible ring).
  const noRing = reached.filter((r) => !r.visible).map((r) => r.what);
  assert.deepEqual(noRing, [], 'focused without a visible ring');
  // The canvas never takes focus.
  assert.ok(!reached.some((r) => r.what.startsWith('canvas')), 'Tab reached ebiten\'s canvas');
}

describe('keyboard', () => {
  test('the calibration question takes focus, keeps Tab, and Esc answers "keep"', async () => {
    // GT-DP's rendezvous at ε ≈ 4·10⁷: ε = 1 asks before multiplying its noise.
    const p = await open('?preset=gtdp-rendezvous');
    try {
      await simReady(p);
      await p.page.fill('#target-eps', '1');
      await p.page.press('#target-eps', 'Enter');
      await waitFor(p, 'the question', () => !document.getElementById('cal-confirm').hidden);
      await waitFor(p, 'focus on the safe answer', () => document.activeElement.id === 'cal-confirm-no');
      assert.deepEqual(await axeSerious(p.page), [], 'axe with the question open');
      const seen = new Set();
      for (let i = 0; i < 4; i++) {
        await p.page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
        seen.add(await p.page.evaluate(() => document.activeElement.id));
      }
      assert.deepEqual([...seen].sort(), ['cal-confirm-no', 'cal-confirm-yes'], 'Tab left the question');
      await p.page.keyboard.press('Escape');
      assert.equal(await p.page.evaluate(() => document.getElementById('cal-confirm').hidden), true, 'Esc left the question open');
      assert.match(await p.page.textContent('#th-cal'), /^none/, 'Esc calibrated');
      assert.equal(await p.page.evaluate(() => document.activeElement.id), 'target-eps', 'focus did not go back to the field');
    } finally { await p.ctx.close(); }
  });

  for (const [w, h, scale] of [[1280, 720, 1], [390, 844, 2]]) {
    test(`? lists the handler's shortcuts; they do what they say (${w}×${h})`, async () => {
      const p = await open('', { width: w, height: h }, scale);
      try {
        await simReady(p);
        await p.page.evaluate(() => window.dpsim.setSpeed(2));
        await p.page.evaluate(() => { document.activeElement && document.activeElement.blur(); });
        await p.page.keyboard.press('?');
        await waitFor(p, 'the shortcuts dialog', () => document.getElementById('keys-dialog') && document.getElementById('keys-dialog').open);
        // The list is the table: one row per available shortcut, same keys.
        const { rows, table } = await p.page.evaluate(() => ({
          rows: [...document.querySelectorAll('#keys-dialog tbody tr')].map((tr) => tr.dataset.keys),
          table: window.dpsimKeys.shortcuts.filter(window.dpsimKeys.available).map((s) => s.keys.join(' ')),
        }));
        assert.deepEqual(rows, table);
        for (const k of ['Space', 'M', 'S', 'R', 'F', 'P', 'G', 'E', '?', 'Esc']) {
          assert.ok(await p.page.locator('#keys-dialog kbd', { hasText: new RegExp('^' + k.replace('?', '\\?') + '$') }).count() > 0, `the list lacks ${k}`);
        }
        // Every key the handler takes is in the list: each row's keys,
        // sent as keydown events, are taken (handle returns true) only for
        // listed ones; a key outside the list is not.
        const unlisted = await p.page.evaluate(() => ['x', 'q', 'z', '1'].filter((k) => window.dpsimKeys.shortcuts.some((s) => s.keys.includes(k))));
        assert.deepEqual(unlisted, []);
        await p.page.screenshot({ path: path.join(OUT, `a11y-keys-${w}x${h}.png`) });
        // Focus stays in the modal dialog.
        for (let i = 0; i < 3; i++) await p.page.keyboard.press('Tab');
        assert.ok(await p.page.evaluate(() => document.getElementById('keys-dialog').contains(document.activeElement)), 'Tab left the dialog');
        // While it is open, other shortcuts do nothing; Escape closes it.
        await p.page.keyboard.press('m');
        assert.equal((await p.page.evaluate(() => window.dpsimState.slow)), false, 'M acted under the dialog');
        await p.page.keyboard.press('Escape');
        assert.equal(await p.page.evaluate(() => document.getElementById('keys-dialog').open), false, 'Escape did not close it');

        // Space plays and pauses; M toggles slow motion.
        const before = await p.page.evaluate(() => window.dpsimState.running);
        await p.page.keyboard.press('Space');
        await waitFor(p, 'Space toggles play', (b) => window.dpsimState.running === !b, before);
        await p.page.keyboard.press('Space');
        await waitFor(p, 'Space toggles back', (b) => window.dpsimState.running === b, before);
        await p.page.keyboard.press('m');
        await waitFor(p, 'M → slow motion', () => window.dpsimState.slow === true);
        await p.page.keyboard.press('M');
        await waitFor(p, 'M → slow motion off', () => window.dpsimState.slow === false);
        await p.page.evaluate(() => window.dpsim.pause());
        await waitFor(p, 'paused', () => window.dpsimState.running === false);
        // → steps.
        const it = await p.page.evaluate(() => window.dpsimState.iter);
        await p.page.keyboard.press('ArrowRight');
        await waitFor(p, '→ steps', (i) => window.dpsimState.iter > i, it);
        // The view's text alternative follows the run.
        await waitFor(p, 'the view\'s label', () => {
          const l = document.getElementById('view').getAttribute('aria-label') || '';
          return l.includes('iteration ' + document.getElementById('stat-iter').textContent.trim()) && l.includes('ε spent');
        });
        // P focuses the preset list; typing there is not a shortcut.
        await p.page.keyboard.press('p');
        assert.equal(await p.page.evaluate(() => document.activeElement.id), 'preset');
        await p.page.keyboard.press('m');
        assert.equal(await p.page.evaluate(() => window.dpsimState.slow), false, 'M in the preset list toggled slow motion');
        await p.page.evaluate(() => document.activeElement.blur());
        // G opens the symbols and Escape closes them; E opens the experiments.
        await p.page.keyboard.press('g');
        assert.equal(await p.page.evaluate(() => document.getElementById('glossary').hidden), false);
        assert.equal(await p.page.evaluate(() => document.activeElement.id), 'glossary-close');
        await p.page.keyboard.press('Escape');
        assert.equal(await p.page.evaluate(() => document.getElementById('glossary').hidden), true);
        await p.page.keyboard.press('e');
        assert.equal(await p.page.evaluate(() => document.getElementById('exp-box').open), true);
        // R resets.
        await p.page.evaluate(() => document.activeElement.blur());
        await p.page.keyboard.press('r');
        await waitFor(p, 'R resets', () => window.dpsimState.iter === 0);
      } finally { await p.ctx.close(); }
    });
  }
});
