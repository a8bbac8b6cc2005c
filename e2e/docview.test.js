'use strict';
// End-to-end test of doc.html, where a verdict's "why?" link leads: for
// every experiment preset (walks core/experiment/presets, not a list) the
// page finds and highlights a passage of docs/ that explains it — one that
// names the experiment, the figure it reproduces or its family — and a
// whole doc renders its headings, tables and lists. A bad name is a
// one-line error, not a blank page.
//
//   node --test e2e/docview.test.js      (after ./build.sh)
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OUT, open: openPage } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 60000;

async function open(query, viewport = { width: 1280, height: 800 }) {
  const p = await openPage(null, { viewport });
  return { ...p, ...(await show(p, query)) };
}

// show goes to doc.html?query in p (a page of harness.open) and returns
// the document's state once it has loaded, and the errors of that load.
async function show(p, query) {
  p.errors.length = 0;
  await p.goto(`doc.html?${query}`);
  await p.page.waitForFunction(() => window.dpsimDocState && window.dpsimDocState.status !== 'loading', null, { timeout: TIMEOUT });
  const st = await p.page.evaluate(() => ({ ...window.dpsimDocState, hit: (document.querySelector('.doc-hit') || {}).textContent || '', note: document.getElementById('doc-note').textContent }));
  return { st, errors: [...p.errors] };
}

describe('doc.html', () => {
  const dir = path.join(ROOT, 'core', 'experiment', 'presets');
  const presets = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => {
    const e = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    return { name: e.name, fig: e.reproduces ? e.reproduces.figure : '' };
  });

  test('every experiment preset has its explanation highlighted', async () => {
    assert.ok(presets.length >= 30, `${presets.length} presets`);
    // One page goes from preset to preset (doc.html keeps nothing between
    // loads); two such pages share the presets, for the wait on each load.
    const viewport = { width: 1280, height: 800 };
    const pages = [await openPage(null, { viewport }), await openPage(null, { viewport })];
    try {
      await Promise.all(pages.map(async (page, k) => {
        for (const p of presets.filter((_, i) => i % pages.length === k)) {
          const q = `experiment=${encodeURIComponent(p.name)}${p.fig ? '&fig=' + encodeURIComponent(p.fig) : ''}`;
          const { st, errors } = await show(page, q);
          assert.deepEqual(errors, [], `${p.name}: page errors`);
          assert.equal(st.status, 'ready', `${p.name}: ${st.error}`);
          const fam = p.name.split('-').slice(0, 2).join('-');
          const figure = p.fig.replace(/\s*\(.*\)$/, '');
          assert.ok(st.hit.includes(p.name) || (figure && st.hit.includes(figure)) || st.hit.includes(fam),
            `${p.name}: the passage highlighted in ${st.file} names neither it, nor ${figure || 'its figure'}, nor ${fam}: ${st.hit.slice(0, 160)}`);
          assert.match(st.note, new RegExp(p.name.replace(/[.-]/g, '\\$&')));
          if (p.name === 'dpdgt-fig4') await page.page.screenshot({ path: path.join(OUT, 'doc-dpdgt-fig4.png') });
        }
      }));
    } finally {
      for (const page of pages) await page.close();
    }
  });

  test('a whole doc renders; a bad name is a one-line error', async () => {
    const { page, st, close } = await open('f=gtdp-paper.md', { width: 390, height: 844 });
    try {
      assert.equal(st.status, 'ready');
      const shape = await page.evaluate(() => ({ h1: document.querySelectorAll('#doc h1').length, h2: document.querySelectorAll('#doc h2').length, tables: document.querySelectorAll('#doc table').length, lists: document.querySelectorAll('#doc ul, #doc ol').length, raw: /\*\*|\n\|/.test(document.getElementById('doc').innerText) }));
      assert.equal(shape.h1, 1);
      assert.ok(shape.h2 >= 3 && shape.tables >= 1 && shape.lists >= 1, JSON.stringify(shape));
      assert.equal(shape.raw, false, 'no markdown markup left in the text');
      await page.screenshot({ path: path.join(OUT, 'doc-phone.png') });
    } finally {
      await close();
    }
    for (const q of ['f=../serve/main.go', 'f=nope.md', 'experiment=%3Cscript%3E']) {
      const { st: s2, close: c2 } = await open(q);
      try {
        assert.equal(s2.status, 'error', q);
        assert.match(s2.note, /^doc: /, q);
        assert.ok(!s2.note.includes('\n'), 'one line');
      } finally {
        await c2();
      }
    }
  });
});
