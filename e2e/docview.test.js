'use strict';
// End-to-end test of doc.html, where a verdict's "why?" link leads: for
// every experiment preset (walks core/experiment/presets, not a list) the
// page finds and highlights a passage of docs/ that explains it — one that
// names the experiment, the figure it reproduces or its family — and a
// whole doc renders its headings, tables and lists. A bad name is a
// one-line error, not a blank page.
//
//   node --test e2e/docview.test.js      (after ./build.sh)
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { ROOT, OUT, CHROMIUM, CHROMIUM_ARGS, startServer } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 60000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpsim-doc-e2e-'));
let server = null;
let browser = null;

before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  server = await startServer(tmp, { quiet: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});
after(async () => {
  if (browser) await browser.close();
  if (server) server.proc.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(query, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}doc.html?${query}`);
  await page.waitForFunction(() => window.dpsimDocState && window.dpsimDocState.status !== 'loading', null, { timeout: TIMEOUT });
  const st = await page.evaluate(() => ({ ...window.dpsimDocState, hit: (document.querySelector('.doc-hit') || {}).textContent || '', note: document.getElementById('doc-note').textContent }));
  return { page, st, errors };
}

describe('doc.html', () => {
  const dir = path.join(ROOT, 'core', 'experiment', 'presets');
  const presets = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => {
    const e = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    return { name: e.name, fig: e.reproduces ? e.reproduces.figure : '' };
  });

  test('every experiment preset has its explanation highlighted', async () => {
    assert.ok(presets.length >= 30, `${presets.length} presets`);
    for (const p of presets) {
      const q = `experiment=${encodeURIComponent(p.name)}${p.fig ? '&fig=' + encodeURIComponent(p.fig) : ''}`;
      const { page, st, errors } = await open(q);
      try {
        assert.deepEqual(errors, [], `${p.name}: page errors`);
        assert.equal(st.status, 'ready', `${p.name}: ${st.error}`);
        const fam = p.name.split('-').slice(0, 2).join('-');
        const figure = p.fig.replace(/\s*\(.*\)$/, '');
        assert.ok(st.hit.includes(p.name) || (figure && st.hit.includes(figure)) || st.hit.includes(fam),
          `${p.name}: the passage highlighted in ${st.file} names neither it, nor ${figure || 'its figure'}, nor ${fam}: ${st.hit.slice(0, 160)}`);
        assert.match(st.note, new RegExp(p.name.replace(/[.-]/g, '\\$&')));
        if (p.name === 'dpdgt-fig4') await page.screenshot({ path: path.join(OUT, 'doc-dpdgt-fig4.png') });
      } finally {
        await page.close();
      }
    }
  });

  test('a whole doc renders; a bad name is a one-line error', async () => {
    const { page, st } = await open('f=gtdp-paper.md', { width: 390, height: 844 });
    try {
      assert.equal(st.status, 'ready');
      const shape = await page.evaluate(() => ({ h1: document.querySelectorAll('#doc h1').length, h2: document.querySelectorAll('#doc h2').length, tables: document.querySelectorAll('#doc table').length, lists: document.querySelectorAll('#doc ul, #doc ol').length, raw: /\*\*|\n\|/.test(document.getElementById('doc').innerText) }));
      assert.equal(shape.h1, 1);
      assert.ok(shape.h2 >= 3 && shape.tables >= 1 && shape.lists >= 1, JSON.stringify(shape));
      assert.equal(shape.raw, false, 'no markdown markup left in the text');
      await page.screenshot({ path: path.join(OUT, 'doc-phone.png') });
    } finally {
      await page.close();
    }
    for (const q of ['f=../serve/main.go', 'f=nope.md', 'experiment=%3Cscript%3E']) {
      const { page: p2, st: s2 } = await open(q);
      try {
        assert.equal(s2.status, 'error', q);
        assert.match(s2.note, /^doc: /, q);
        assert.ok(!s2.note.includes('\n'), 'one line');
      } finally {
        await p2.close();
      }
    }
  });
});
