'use strict';
// End-to-end test of the harness itself: when the run's browser
// (DPSIM_BROWSER_WS, e2e/run.js) crashes or cannot be reached, a test
// waiting on it fails at once, naming it — never waits out its timeout.
// Each case runs e2e/testdata/wait.js against a browser of its own, so the
// run's browser is not touched.
//
//   node --test e2e/harness.test.js
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { chromium } = require('playwright-core');
const { CHROMIUM, CHROMIUM_ARGS } = require('./harness.js');

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

// The wait in wait.js lasts ten minutes: a hang fails these at their timeout.
test('a wait fails at once, naming the run\'s browser, when that browser crashes', { timeout: 60000 }, async () => {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const w = waiter(server.wsEndpoint());
    await Promise.race([w.waiting, w.ended.then((e) => { throw new Error(`wait.js ended before waiting: ${e.stderr}`); })]);
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
