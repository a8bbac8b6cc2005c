'use strict';
// End-to-end test of experiments.html?experiment=NAME: a name no preset
// has (issue 28: it opened another experiment without a word) is said in
// the panel's message, which names the preset shown instead; a known name
// opens that preset with no message.
//
//   node --test e2e/experimenturl.test.js      (after ./build.sh)
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { OUT, CHROMIUM, CHROMIUM_ARGS, startServer } = require('./harness.js');

const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 120000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpsim-expurl-e2e-'));
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

async function open(query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}experiments.html?${query}`);
  await page.waitForFunction(() => window.dpsimSweepState && window.dpsimSweepState.status === 'ready', null, { timeout: TIMEOUT });
  const st = await page.evaluate(() => ({
    shown: document.getElementById('exp-preset').value,
    msg: document.getElementById('exp-msg').textContent,
    cls: document.getElementById('exp-msg').className,
    unknown: window.dpsimSweepState.unknownExperiment,
  }));
  return { page, st, errors };
}

describe('experiments.html?experiment=', () => {
  test('an unknown name is said, naming the preset shown instead', async () => {
    const { page, st, errors } = await open('experiment=nosuch');
    try {
      assert.deepEqual(errors, []);
      assert.equal(st.unknown, 'nosuch');
      assert.ok(st.shown, 'a preset is shown');
      assert.equal(st.msg, `?experiment=nosuch: no experiment preset has that name, so the panel shows ${st.shown}; choose one from the list.`);
      assert.match(st.cls, /error/);
      await (await page.$('section.experiments')).screenshot({ path: path.join(OUT, 'experiment-unknown.png') });
    } finally {
      await page.close();
    }
  });

  test('a known name opens it, without a message', async () => {
    const { page, st, errors } = await open('experiment=gtdp-error-bands');
    try {
      assert.deepEqual(errors, []);
      assert.equal(st.shown, 'gtdp-error-bands');
      assert.equal(st.unknown, undefined);
      assert.doesNotMatch(st.msg, /no experiment preset/);
    } finally {
      await page.close();
    }
  });
});
