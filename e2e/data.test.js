'use strict';
// End-to-end test of the page's on-demand datasets (issue 16, item 7).
// Most of it builds the page's program with a test plug-in registered
// (ui/internal/datatoy/app: the data toy, f_i(x) = ½‖x − m_i‖², m_i a
// shard mean of a dataset's train split, which declares the split it
// loads) and serves it in place of dpsim.wasm. The datasets are public/data/*.gz, copied by ./build.sh.
//
// It checks that loading a scenario on the data toy shows a progress bar
// (MB done / total, the dataset's title and note) while the file streams
// in, then builds and plots; that a split is fetched once per session;
// that a small preset fetches nothing; and that a missing file (404), a
// corrupted copy (checksum) and no network each give a one-line message
// while the previous run stays exactly as it was. The last test uses the
// site's own dpsim.wasm: ?preset=gtdp-logistic-mushrooms in the URL
// fetches mushrooms' two splits with the progress bar, then plots.
//
//   node --test e2e/            (after ./build.sh; ./test.sh does it)
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { SITE, OUT, context, site, testProgram, waiter, watchPage } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 120000;
const FATAL_CONSOLE = /panic|fatal error|exit code/i;

let WASM = null; // the test program (before)
let ctx = null;
let p = null; // the page open (harness.watchPage), its page and log
let page = null;
let log = [];
let dataRequests = [];

// GT-DP on a ring of eight, the data toy on a dataset's train split.
function scenario(dataset, name = 'data-toy-ring') {
  return {
    name,
    title: `GT-DP on the data toy (${dataset})`,
    seed: 5,
    graph: { kind: 'ring', n: 8 },
    weights: { kind: 'metropolis' },
    problem: { kind: 'data-toy', params: { dataset } },
    algorithm: { kind: 'gt-dp', params: { alpha: 0.1, gradient_bound: 2 } },
    noise: {
      eta: { dist: 'laplace', scale: 0.01, decay: { kind: 'polynomial', c: 1, m: 1, p: 0.8 } },
      xi: { dist: 'laplace', scale: 0.01, decay: { kind: 'polynomial', c: 1, m: 1, p: 0.8 } },
    },
    iterations: 300,
  };
}

const wait = waiter({
  timeout: TIMEOUT, polling: 'raf',
  state: () => JSON.stringify(window.dpsimState) + '\n  data box: ' + (document.getElementById('data-load') || {}).outerHTML,
});
const waitFor = (what, fn, arg, timeout) => wait(p, what, fn, arg, timeout);

// openPage starts a fresh page (a fresh Go program: an empty session
// cache) in the one context, with wasm in place of the site's dpsim.wasm
// (the test program, by default), and goes to query (null: not yet).
async function openPage(wasm = WASM, query = '') {
  if (page) await page.close();
  dataRequests = [];
  p = watchPage(await ctx.newPage());
  ({ page, log } = p);
  cdp = null;
  page.on('request', (r) => { if (/\/data\/[^/]+\.gz$/.test(r.url())) dataRequests.push(path.basename(r.url())); });
  await page.route(/\/dpsim\.wasm(\?|$)/, (route) => route.fulfill({ path: wasm, contentType: 'application/wasm' }));
  if (query != null) await p.goto(query);
}

// openToy opens the test program on the default preset.
async function openToy() {
  await openPage();
  await waitFor('dpsimReady', () => window.dpsimReady === true && window.dpsimState && window.dpsimState.draws > 2);
  assert.equal(await page.isHidden('#data-load'), true, 'no dataset box for the default preset');
}

// throttle limits the page's downloads to bytesPerSecond (0: no limit),
// or cuts the network (offline).
// One CDP session per page: conditions set through another session would
// stay in force beside it.
let cdp = null;
async function throttle(bytesPerSecond, offline = false) {
  if (!cdp) {
    cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
  }
  await cdp.send('Network.emulateNetworkConditions', {
    offline, latency: 0, downloadThroughput: bytesPerSecond || -1, uploadThroughput: -1,
  });
}

async function loadInEditor(sc) {
  if (!(await page.evaluate(() => document.getElementById('scenario-box').open))) {
    await page.click('#scenario-box summary');
    // Opening fills the editor with the current scenario from a 'toggle'
    // event, which fires later: filling before it lands could interleave
    // the two texts.
    await page.waitForFunction(() => document.getElementById('scenario-text').value.trim() !== '');
  }
  await page.fill('#scenario-text', JSON.stringify(sc));
  await page.click('#scenario-load');
}

const dataBox = () => page.evaluate(() => {
  const b = document.getElementById('data-load');
  const bar = document.getElementById('data-progress');
  const vis = (id) => { const e = document.getElementById(id); const r = e.getBoundingClientRect(); return !e.hidden && r.width > 0 && r.height > 0; };
  return {
    state: b.dataset.state, hidden: b.hidden, title: document.getElementById('data-title').textContent,
    size: document.getElementById('data-size').textContent, barVisible: vis('data-progress'), value: bar.value, max: bar.max,
    note: vis('data-note') ? document.getElementById('data-note').textContent : null,
    error: vis('data-error') ? document.getElementById('data-error').textContent : null,
    decodeMs: b.dataset.decodeMs,
  };
});

before(async () => {
  assert.ok(fs.existsSync(path.join(SITE, 'data', 'mushrooms-train.gz')), `${SITE}/data/ has no datasets: run ./build.sh`);
  WASM = testProgram('./ui/internal/datatoy/app', 'datatoy');
  ctx = await context({ viewport: { width: 1280, height: 900 } });
});

describe('datasets fetched on demand', () => {
  test('a progress bar while the dataset streams in, then the run plots; fetched once per session', async () => {
    await openToy();
    // About 1.5 s for mushrooms-train.gz (48 KB): the bar is seen moving.
    await throttle(32 * 1024);
    await loadInEditor(scenario('mushrooms'));
    await waitFor('the progress bar part way', () => {
      const b = document.getElementById('data-load');
      const bar = document.getElementById('data-progress');
      return b.dataset.state === 'loading' && !bar.hidden && bar.value > 0 && bar.value < bar.max;
    });
    const mid = await dataBox();
    await page.locator('#data-load').screenshot({ path: path.join(OUT, 'data-progress.png') });
    assert.equal(mid.barVisible, true);
    assert.match(mid.title, /^Fetching LIBSVM mushrooms: poisonous vs edible/);
    assert.match(mid.size, /^0\.\d\d of 0\.05 MB$/);
    assert.match(mid.note, /LDP online paper uses all 8124 rows/);
    // The previous scenario (the landing) runs on while the file streams in.
    assert.equal(await page.evaluate(() => window.dpsimState.scenario), 'tour-recal');

    await waitFor('the data scenario', () => window.dpsimState.scenario === 'data-toy-ring');
    await throttle(0);
    const done = await dataBox();
    assert.equal(done.state, 'ready');
    assert.equal(done.barVisible, false);
    assert.match(done.title, /^Data: LIBSVM mushrooms: .* \(train\)$/);
    assert.equal(done.size, '0.05 MB');
    assert.ok(Number(done.decodeMs) >= 0, `decode time ${done.decodeMs}`);
    assert.match(await page.textContent('#scenario-msg'), /loaded/);
    assert.deepEqual(dataRequests, ['mushrooms-train.gz']);

    // The run, to its first plotted point and beyond.
    await page.evaluate(() => window.dpsim.play());
    await waitFor('the first plotted point', () => Number(document.getElementById('plot').dataset.points) > 0);
    await page.evaluate(() => window.dpsim.setFast(true));
    await waitFor('the run done', () => window.dpsimState.status === 'done');
    await page.waitForTimeout(300); // the plot redraws at most 8 times a second
    const st = await page.evaluate(() => ({ ...window.dpsimState }));
    assert.ok(st.optimality > 0 && st.optimality < 1e-2, `optimality ${st.optimality} after ${st.iter} iterations`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, 'data-run.png') });

    // A small preset fetches nothing and hides the box; the data scenario
    // again is built from the session's copy, without a request.
    await page.selectOption('#preset', 'dpdgt-ieee14');
    await waitFor('DP-DGT', () => window.dpsimState.scenario === 'dpdgt-ieee14' && document.getElementById('data-load').hidden);
    await page.selectOption('#preset', 'gtdp-rendezvous');
    await waitFor('GT-DP', () => window.dpsimState.scenario === 'gtdp-rendezvous' && document.getElementById('data-load').hidden);
    await loadInEditor(scenario('mushrooms', 'data-toy-again'));
    await waitFor('the data scenario again', () => window.dpsimState.scenario === 'data-toy-again');
    assert.equal((await dataBox()).state, 'ready');
    assert.deepEqual(dataRequests, ['mushrooms-train.gz'], 'a split is fetched once per session');

    // The CIFAR-10 gap is said while it loads, and stays beside the run.
    await throttle(1024 * 1024);
    await loadInEditor(scenario('cifar10-catdog', 'data-toy-cifar'));
    await waitFor('CIFAR-10 loading', () => document.getElementById('data-load').dataset.state === 'loading');
    const cifar = await dataBox();
    assert.match(cifar.note, /not the 10000 the DP-RECAL paper used/);
    assert.match(cifar.size, / of 2\.16 MB$/);
    await waitFor('the CIFAR scenario', () => window.dpsimState.scenario === 'data-toy-cifar');
    await throttle(0);
    assert.match((await dataBox()).note, /not the 10000 the DP-RECAL paper used/);
    await page.locator('#data-load').screenshot({ path: path.join(OUT, 'data-cifar-note.png') });

    // A load that is overtaken while its file streams in: the later one
    // wins, the earlier one's file is still kept, and nothing is said.
    await throttle(64 * 1024);
    await loadInEditor(scenario('mnist-01', 'data-toy-overtaken'));
    await waitFor('MNIST 0/1 streaming', () => Number(document.getElementById('data-load').dataset.loaded) > 0);
    await page.selectOption('#preset', 'dpdgt-ieee14');
    await waitFor('DP-DGT meanwhile', () => window.dpsimState.scenario === 'dpdgt-ieee14' && document.getElementById('data-load').hidden);
    await throttle(0);
    for (const t0 = Date.now(); !log.some((l) => /mnist-01-train\.gz: \d+ bytes checked and decoded/.test(l));) {
      if (Date.now() - t0 > TIMEOUT) throw new Error('the overtaken file was never provided:\n' + log.slice(-15).join('\n'));
      await page.waitForTimeout(100);
    }
    assert.equal(await page.evaluate(() => window.dpsimState.scenario), 'dpdgt-ieee14');
    assert.equal(await page.isHidden('#data-load'), true);
    assert.doesNotMatch(await page.textContent('#scenario-msg'), /not loaded/);
    const again = JSON.parse(await page.evaluate((t) => window.dpsim.dataNeeds('text', t), JSON.stringify(scenario('mnist-01'))));
    assert.deepEqual(again.need, [], 'the overtaken file is kept for the session');

    // How long Go holds the page's thread to check and decode the largest
    // split, MNIST train (30000 × 784): measured, reported, not asserted.
    const mnist = await page.evaluate(async () => {
      const b = new Uint8Array(await (await fetch('data/mnist-train.gz')).arrayBuffer());
      const t0 = performance.now();
      const r = window.dpsim.provideData('mnist-train.gz', b);
      return { ok: r.ok, error: r.error, goMs: r.ms, wallMs: performance.now() - t0, bytes: b.byteLength };
    });
    assert.equal(mnist.ok, true, mnist.error);
    fs.writeFileSync(path.join(OUT, 'data-decode.json'), JSON.stringify({ mnistTrain: mnist, mushroomsTrainGoMs: Number(done.decodeMs) }, null, 2) + '\n');
    console.log(`mnist-train.gz (${mnist.bytes} bytes): checked and decoded in ${mnist.goMs} ms in Go, ${mnist.wallMs.toFixed(0)} ms on the page's thread`);
    assert.ok(!log.some((l) => FATAL_CONSOLE.test(l)), 'console shows that the Go program died:\n' + log.join('\n'));
  });

  test('a missing, corrupted or unreachable file: a one-line message, the previous run untouched', async () => {
    await openToy();
    // A run part way through, paused so that any change would show.
    await page.evaluate(() => { window.dpsim.setSpeed(100); window.dpsim.play(); });
    await waitFor('some iterations', () => window.dpsimState.iter > 20);
    await page.evaluate(() => window.dpsim.pause());
    await waitFor('paused', () => !window.dpsimState.running);
    const snap = () => page.evaluate(() => ({
      scenario: window.dpsimState.scenario, iter: window.dpsimState.iter,
      recorded: window.dpsim.metrics(0).iter.length, json: window.dpsim.scenario(),
    }));
    const before = await snap();
    assert.ok(before.iter < 1000 && before.recorded === before.iter + 1, `part way: ${JSON.stringify(before).slice(0, 80)}`);

    const bytes = fs.readFileSync(path.join(SITE, 'data', 'mushrooms-train.gz'));
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length >> 1] ^= 0x40;
    const cases = [
      { what: '404', route: (r) => r.fulfill({ status: 404, body: 'not found' }), want: /^Cannot fetch the dataset mushrooms\/train \(data\/mushrooms-train\.gz\): the file is not on the server/ },
      { what: 'corrupted', route: (r) => r.fulfill({ status: 200, body: corrupt, contentType: 'application/octet-stream' }), want: /^dataset mushrooms\/train: file mushrooms-train\.gz has sha256 [0-9a-f]{64}: the manifest says [0-9a-f]{64} \(corrupted or replaced\)/ },
      { what: 'offline', offline: true, want: /^Cannot fetch the dataset mushrooms\/train .*: the network is unreachable \(offline\?\)/ },
    ];
    for (const c of cases) {
      if (c.route) await page.route(/\/data\/mushrooms-train\.gz$/, c.route);
      if (c.offline) await throttle(0, true);
      await loadInEditor(scenario('mushrooms'));
      await waitFor(`the ${c.what} error`, () => document.getElementById('data-load').dataset.state === 'error');
      const box = await dataBox();
      assert.match(box.error, c.want, c.what);
      assert.match(box.error, /The current scenario is unchanged\.$/);
      assert.match(box.title, /^Not loaded: LIBSVM mushrooms/);
      assert.ok(!box.error.includes('\n'), 'one line');
      assert.match(await page.textContent('#messages'), c.want);
      assert.match(await page.textContent('#scenario-msg'), /not loaded/);
      assert.deepEqual(await snap(), before, `${c.what}: the previous run changed`);
      await page.locator('#data-load').screenshot({ path: path.join(OUT, `data-error-${c.what}.png`) });
      if (c.route) await page.unroute(/\/data\/mushrooms-train\.gz$/);
      if (c.offline) await throttle(0, false);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, 'data-error.png') });

    // A failure is not cached: with the file back, the same load works.
    await loadInEditor(scenario('mushrooms'));
    await waitFor('the data scenario', () => window.dpsimState.scenario === 'data-toy-ring');
    assert.equal((await dataBox()).state, 'ready');
    assert.ok(!log.some((l) => FATAL_CONSOLE.test(l)), 'console shows that the Go program died:\n' + log.join('\n'));
  });

  test('the real page: ?preset=gtdp-logistic-mushrooms fetches both splits with a progress bar, then plots', async () => {
    // The site's own dpsim.wasm (no test plug-in) and the URL path: Go
    // defers the preset to the page, which fetches its datasets first.
    // The throttle slows only what the browser fetches itself: every file
    // but the datasets comes through a route (dpsim.wasm from the disk,
    // the rest fetched from the server by the harness; view.wasm alone,
    // 1.9 MB, took 80 s at 24 KB/s). mushrooms-train.gz (48 KB) takes
    // about 2 s, and the bar is seen part way.
    await openPage(path.join(SITE, 'dpsim.wasm'), null);
    const origin = new URL(await site()).origin;
    await page.route((u) => u.origin === origin && !/\/data\/[^/]+\.gz$|\/dpsim\.wasm$/.test(u.pathname), async (route) => {
      const r = await route.fetch({ headers: { ...route.request().headers(), 'accept-encoding': 'identity' } });
      await route.fulfill({ response: r });
    });
    await throttle(24 * 1024);
    await p.goto('?preset=gtdp-logistic-mushrooms');
    await waitFor('the progress bar part way', () => {
      const b = document.getElementById('data-load');
      const bar = document.getElementById('data-progress');
      return b && b.dataset.state === 'loading' && !bar.hidden && bar.value > 0 && bar.value < bar.max;
    });
    const mid = await dataBox();
    assert.equal(mid.barVisible, true);
    assert.match(mid.title, /^Fetching LIBSVM mushrooms: poisonous vs edible/);
    await waitFor('the preset', () => window.dpsimState && window.dpsimState.scenario === 'gtdp-logistic-mushrooms');
    await throttle(0);
    assert.equal((await dataBox()).state, 'ready');
    assert.deepEqual([...dataRequests].sort(), ['mushrooms-test.gz', 'mushrooms-train.gz']);
    await page.evaluate(() => window.dpsim.play());
    await waitFor('the first plotted point', () => Number(document.getElementById('plot').dataset.points) > 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, 'data-preset-url.png') });
    assert.ok(!log.some((l) => FATAL_CONSOLE.test(l)), 'console shows that the Go program died:\n' + log.join('\n'));
  });
});
