'use strict';
// End-to-end test of the harness itself: when the run's browser
// (DPSIM_BROWSER_WS, e2e/run.js) crashes or cannot be reached, a test
// waiting on it fails at once, naming it — never waits out its timeout.
// Each case runs e2e/testdata/wait.js against a browser of its own, so the
// run's browser is not touched. The first also checks CHROMIUM_ARGS's
// --disable-features (harness.js, OFF_FEATURES): Playwright's own kept,
// and no omnibox popup loaded beside the test's page.
//
//   node --test e2e/harness.test.js
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { chromium } = require('playwright-core');
const { CHROMIUM, CHROMIUM_ARGS, OFF_FEATURES } = require('./harness.js');

// waiter starts wait.js on the browser at ws; returns a promise of its
// "waiting" line and one of its end (code and stderr).
function waiter(ws) {
  const child = spawn(process.execPath, [path.join(__dirname, 'testdata', 'wait.js')], {
    env: { ...process.env, DPSIM_BROWSER_WS: ws }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const waiting = new Promise((resolve) => readline.createInterface({ input: child.stdout }).on('line', (l) => { if (l === 'waiting') resolve(); }));
  const ended = new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return { waiting, ended };
}

// checkFeatures: Chromium reads only the last --disable-features, which
// is CHROMIUM_ARGS's: it must name every feature Playwright turns off in
// its own (the earlier ones), and with a page open (wait.js's) no
// renderer of the browser is a top-chrome WebUI (the omnibox popup).
function checkFeatures(pid) {
  const args = (p) => fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
  const lists = args(pid).filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice(19).split(','));
  assert.ok(lists.length >= 2, `the browser's --disable-features: ${JSON.stringify(lists)}`);
  assert.deepEqual(lists[lists.length - 1], OFF_FEATURES);
  const lost = lists.slice(0, -1).flat().filter((f) => !OFF_FEATURES.includes(f));
  assert.deepEqual(lost, [], 'Playwright turns these features off too: add them to harness.js\'s OFF_FEATURES');
  // A renderer's command line is one string: the zygote rewrites it.
  const dir = args(pid).find((a) => a.startsWith('--user-data-dir='));
  const webui = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try { const a = args(d).join(' ').split(' '); return a.includes(dir) && a.includes('--top-chrome-webui'); } catch { return false; }
  });
  assert.deepEqual(webui, [], 'a top-chrome WebUI renderer runs beside the page');
}

// The wait in wait.js lasts ten minutes: a hang fails these at their timeout.
test('a wait fails at once, naming the run\'s browser, when that browser crashes', { timeout: 60000 }, async () => {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const w = waiter(server.wsEndpoint());
    await Promise.race([w.waiting, w.ended.then((e) => { throw new Error(`wait.js ended before waiting: ${e.stderr}`); })]);
    checkFeatures(server.process().pid);
    await server.kill();
    const { code, stderr } = await w.ended;
    assert.equal(code, 1);
    assert.match(stderr, /^waiting for something that never comes: the run's browser \(DPSIM_BROWSER_WS=ws:\/\/\S+\) disconnected: it crashed or was closed$/m);
  } finally {
    await server.kill();
  }
});

test('a run\'s browser that does not answer is named in one line', { timeout: 60000 }, async () => {
  const { code, stderr } = await waiter('ws://127.0.0.1:9/none').ended;
  assert.equal(code, 1);
  assert.match(stderr, /^the run's browser at DPSIM_BROWSER_WS=ws:\/\/127\.0\.0\.1:9\/none does not answer \(.*\); e2e\/run\.js starts it, or unset DPSIM_BROWSER_WS to launch one per file\n$/);
});
