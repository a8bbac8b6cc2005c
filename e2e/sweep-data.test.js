'use strict';
// End-to-end test of the Experiments panel on an experiment that trains
// on a committed dataset (issue 16, item 7): gtdp-logistic-mushrooms-noise,
// GT-DP's logistic regression on mushrooms, 12 runs.
//
//   node --test e2e/sweep-data.test.js   (after ./build.sh; ./test.sh runs it)
//
// It checks that a missing file (404) stops the sweep before any run with
// the main page's one-line message; that the next try fetches each of the
// two splits once, shows the download on the progress bar, hands the
// bytes to every worker and gives the CLI's bytes; that a second sweep
// fetches nothing; and that a reload (a sweep kept in the browser)
// fetches the data again to draw its SVG. Environment as in
// smoke.test.js (CHROMIUM, DPSIM_SITE, E2E_TIMEOUT).
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { built, cli: builtCLI, download: save, open, scratch, waiter } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 240000;
const PRESET = 'gtdp-logistic-mushrooms-noise';
const RUNS = 12;

const tmp = scratch('sweep-data');
let cli = {};
let p = null;
let page = null;
let log = null;
let dataRequests = [];

before(async () => {
  built(['experiments.html', 'experiments.js', 'datafetch.js', 'sweep-worker.js', 'solver.wasm', 'data/mushrooms-train.gz', 'data/mushrooms-test.gz']);
  const bin = builtCLI();
  const out = path.join(tmp, `${PRESET}.json`);
  execFileSync(bin, ['sweep', '--quiet', '--out', out, `preset:${PRESET}`], { stdio: 'inherit' });
  for (const ext of ['json', 'svg']) cli[ext] = fs.readFileSync(path.join(tmp, `${PRESET}.${ext}`));
  p = await open(null, { viewport: { width: 1280, height: 900 } });
  ({ page, log } = p);
  // Worker requests are the page's too; only the page fetches data.
  p.ctx.on('request', (r) => { if (/\/data\/[^/]+\.gz$/.test(r.url())) dataRequests.push(path.basename(r.url())); });
});

const sweepState = () => page.evaluate(() => ({ ...window.dpsimSweepState }));
const wait = waiter({ timeout: TIMEOUT, state: () => JSON.stringify(window.dpsimSweepState) });
const waitSweep = (what, fn, arg, timeout) => wait(p, what, fn, arg, timeout);
const download = async (id) => (await save(p, id, tmp)).data;

test('a missing dataset file stops the sweep with a one-line message', async () => {
  await p.goto(`experiments.html?experiment=${PRESET}`);
  await waitSweep('the panel', () => window.dpsimSweepState && window.dpsimSweepState.status === 'ready');
  // Before the data is here the description names it and plans nothing.
  await waitSweep('the description', () => /Trains on .*mushrooms.*\(train\).*\(test\)/i.test(document.getElementById('exp-desc').textContent));
  await page.route(/\/data\/mushrooms-train\.gz$/, (r) => r.fulfill({ status: 404, body: 'not found' }));
  await page.click('#exp-run');
  await waitSweep('the error', () => window.dpsimSweepState.status === 'error');
  const st = await sweepState();
  assert.equal(st.done, 0, 'no run started');
  const msg = await page.textContent('#exp-msg');
  assert.match(msg, /^Cannot fetch the dataset mushrooms\/train \(data\/mushrooms-train\.gz\): the file is not on the server/);
  assert.ok(!msg.includes('\n'), 'one line');
  assert.equal(await page.$eval('#exp-run', (e) => e.disabled), false, 'the sweep can be tried again');
  await page.unroute(/\/data\/mushrooms-train\.gz$/);
});

test('the next try fetches each split once, hands it to every worker and gives the CLI\'s bytes', async () => {
  dataRequests = [];
  await page.click('#exp-run');
  let sawFetch = false;
  for (;;) {
    const st = await sweepState();
    if (/Fetch(ing|ed) .*MB/.test(await page.textContent('#exp-progress-text'))) sawFetch = true;
    if (st.status === 'done' || st.status === 'error') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const st = await sweepState();
  assert.equal(st.status, 'done', `sweep ended with ${st.status}: ${st.error}`);
  assert.equal(st.done, RUNS);
  assert.ok(st.workers >= 1, `${st.workers} workers`); // each needs the data: a worker without it fails its runs
  assert.ok(sawFetch || st.dataLoaded > 0, 'the download was shown');
  assert.deepEqual(dataRequests.sort(), ['mushrooms-test.gz', 'mushrooms-train.gz']);
  assert.deepEqual(st.dataFiles.map((f) => f.file), ['mushrooms-train.gz', 'mushrooms-test.gz']);
  assert.deepEqual(st.verdicts.map((v) => v.verdict), ['holds']);
  assert.ok((await download('#exp-dl-json')).equals(cli.json), 'the page\'s JSON equals the CLI\'s');
  assert.ok((await download('#exp-dl-svg')).equals(cli.svg), 'the page\'s SVG equals the CLI\'s');

  // Again: nothing fetched (the session's cache), the same bytes.
  await page.click('#exp-run');
  await waitSweep('the second sweep', () => window.dpsimSweepState.status === 'done' && window.dpsimSweepState.done === 12);
  assert.equal(dataRequests.length, 2, `fetched again: ${dataRequests}`);
  assert.ok((await download('#exp-dl-json')).equals(cli.json), 'the second sweep\'s JSON equals the CLI\'s');
});

test('a kept sweep after a reload fetches its data to draw the SVG', async () => {
  dataRequests = [];
  await page.reload();
  await waitSweep('the kept sweep shown', () => window.dpsimSweepState && window.dpsimSweepState.restored !== '' && window.dpsimSweepState.figureDrawn);
  assert.equal(dataRequests.length, 0, 'showing a kept sweep fetches nothing');
  assert.ok((await download('#exp-dl-svg')).equals(cli.svg), 'the kept result draws the CLI\'s SVG');
  assert.deepEqual(dataRequests.sort(), ['mushrooms-test.gz', 'mushrooms-train.gz']);
  const errs = log.filter((l) => /pageerror|panic|exit code/.test(l));
  assert.deepEqual(errs, [], 'no page errors');
});
