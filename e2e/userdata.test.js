'use strict';
// End-to-end test of your own data in the page (docs/data.md, "Your own
// data"), in headless Chromium:
//
//   node --test e2e/userdata.test.js      (after ./build.sh; ./test.sh runs it)
//
// For each of the five learning problems (logistic; least squares with the
// elastic net; softmax; the nonconvex classifier; the CNN) and each file
// format (LIBSVM, CSV, .npy, .npz) a scenario naming files of the user's
// is loaded, the page asks for them, the test gives them — picked with
// the file input or dropped on the page, in turn — and the run's Export
// JSON is byte for byte what `dpsim run` writes for the same scenario and
// files (whose own pinned scenario then replays it: cmd/dpsim's
// TestUserDataEveryProblemAndFormat). A file other than the one an
// export pins is refused in one line naming both hashes; a data file
// dropped with no scenario waiting trains the current problem on it.
// A scenario on the user's files is built and run in a Web Worker, to
// which the page hands them (ui/remote.go): a broken file's error comes
// from there, and the load reports it.
// Environment as in smoke.test.js (CHROMIUM, DPSIM_SITE, E2E_TIMEOUT).
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const { ENDED, ROOT, OUT, built, cli: builtCLI, download, open, scratch, waiter } = require('./harness.js');
const TIMEOUT = Number(process.env.E2E_TIMEOUT) || 240000;

const tmp = scratch('userdata');
let bin = '';

// ------------------------------------------------------------ the files

// A seeded generator, so that every run writes the same files.
function rng(seed) {
  let s = BigInt(seed) | 1n;
  return () => {
    s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number(s >> 33n) / 2 ** 31;
  };
}

function rows(p, seed, n) {
  const r = rng(seed);
  const x = [];
  const y = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < p.cols; j++) row.push(p.pixels ? Math.floor(r() * 256) : Math.round(r() * 1000 - 300) / 250);
    x.push(row);
    y.push(i % p.classes);
  }
  return { x, y };
}

const num = (v) => String(v);
const libsvm = ({ x, y }) => x.map((row, i) => [num(y[i]), ...row.map((v, j) => (v !== 0 ? `${j + 1}:${num(v)}` : null)).filter(Boolean)].join(' ')).join('\n') + '\n';
const csv = ({ x, y }) => [...x[0].map((_, j) => `f${j}`), 'label'].join(',') + '\n' + x.map((row, i) => [...row, y[i]].map(num).join(',')).join('\n') + '\n';

// npy writes an .npy (version 1.0, C order) of dtype '<f8', '<f4', '<i8'
// or '|u1'.
function npy(descr, shape, values) {
  const st = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${st}, }`;
  dict += ' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64) + '\n';
  const size = { '<f8': 8, '<f4': 4, '<i8': 8, '|u1': 1 }[descr];
  const body = Buffer.alloc(values.length * size);
  values.forEach((v, k) => {
    if (descr === '<f8') body.writeDoubleLE(v, 8 * k);
    else if (descr === '<f4') body.writeFloatLE(v, 4 * k);
    else if (descr === '<i8') body.writeBigInt64LE(BigInt(v), 8 * k);
    else body.writeUInt8(v, k);
  });
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head.writeUInt8(1, 6);
  head.writeUInt16LE(dict.length, 8);
  return Buffer.concat([head, Buffer.from(dict, 'latin1'), body]);
}

// npz zips arrays, deflated (numpy.savez_compressed).
function npz(entries) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b) => { let c = 0xffffffff; for (const v of b) c = crcTable[(c ^ v) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const fname = Buffer.from(name + '.npy');
    const comp = zlib.deflateRawSync(data);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0); h.writeUInt16LE(20, 4); h.writeUInt16LE(8, 8);
    h.writeUInt32LE(crc32(data), 14); h.writeUInt32LE(comp.length, 18); h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(fname.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0); c.writeUInt16LE(20, 4); c.writeUInt16LE(20, 6); c.writeUInt16LE(8, 10);
    c.writeUInt32LE(crc32(data), 16); c.writeUInt32LE(comp.length, 20); c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(fname.length, 28); c.writeUInt32LE(offset, 42);
    locals.push(h, fname, comp);
    centrals.push(c, fname);
    offset += h.length + fname.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

// writeSource writes rows in a format into dir; returns the scenario's
// source and the files it names.
function writeSource(dir, format, stem, d) {
  const put = (name, b) => { fs.writeFileSync(path.join(dir, name), b); return name; };
  const flat = d.x.flat();
  switch (format) {
    case 'libsvm': return { src: { file: put(`${stem}.svm`, libsvm(d)), columns: d.x[0].length }, files: [`${stem}.svm`] };
    case 'csv': return { src: { file: put(`${stem}.csv`, csv(d)) }, files: [`${stem}.csv`] };
    case 'npy':
      put(`${stem}-x.npy`, npy('<f8', [d.x.length, d.x[0].length], flat));
      put(`${stem}-y.npy`, npy('<i8', [d.y.length], d.y));
      return { src: { file: `${stem}-x.npy`, labels_file: `${stem}-y.npy` }, files: [`${stem}-x.npy`, `${stem}-y.npy`] };
    case 'npz': {
      const x = d.x[0].length === 784 ? npy('|u1', [d.x.length, 28, 28], flat) : npy('<f4', [d.x.length, d.x[0].length], flat);
      return { src: { file: put(`${stem}.npz`, npz([['x', x], ['y', npy('|u1', [d.y.length], d.y)]])) }, files: [`${stem}.npz`] };
    }
  }
  throw new Error(format);
}

// The five learning problems (as cmd/dpsim/userdata_test.go).
const PROBLEMS = [
  { name: 'logistic', preset: 'ldp-online-mushrooms', rows: 60, cols: 5, classes: 2, test: true, dataset: true },
  { name: 'least-squares-elastic-net', preset: 'recal-synthetic', rows: 48, cols: 4, classes: 2, test: true, dataset: true },
  { name: 'softmax', preset: 'gtdp-softmax-synthetic', rows: 36, cols: 4, classes: 3, test: true, dataset: true },
  { name: 'nonconvex-classifier', preset: 'dpp2-classifier', rows: 120, cols: 3, classes: 2 },
  { name: 'cnn', preset: 'gtdp-cnn-mnist', rows: 12, cols: 784, classes: 3, test: true, dataset: true, pixels: true },
];
const FORMATS = ['libsvm', 'csv', 'npy', 'npz'];

// userCase writes a problem's files in a format into a folder of its own
// and returns the scenario text, its file and the files to give. Each
// case names its files apart: the page keeps every file of the session
// under its name, and a scenario that pins no sha256 takes the file it
// holds under the name without asking.
function userCase(p, format, tag = '') {
  const dir = fs.mkdtempSync(path.join(tmp, `${p.name}-${format}-`));
  const stem = `${p.name}-${format}${tag}`;
  const seed = tag ? 7 : 1; // other rows than the cases', which the page holds by content
  const train = writeSource(dir, format, `${stem}-train`, rows(p, seed, p.rows));
  const data = { train: train.src };
  const files = [...train.files];
  if (p.test) {
    const t = writeSource(dir, format, `${stem}-test`, rows(p, seed + 1, Math.floor(p.rows / 3)));
    data.test = t.src;
    files.push(...t.files);
  }
  if (p.pixels) data.scale = 'pixels';
  const s = JSON.parse(fs.readFileSync(path.join(ROOT, `core/scenario/presets/${p.preset}.json`), 'utf8'));
  if (p.dataset) s.problem.params.dataset = 'user';
  s.problem.params.data = data;
  s.name = `user-${p.name}-${format}${tag}`;
  s.iterations = 8;
  s.record = { every: 2, checkpoints: [0, 4, 8] };
  delete s.stop;
  const text = JSON.stringify(s, null, 1);
  const file = path.join(dir, 'scenario.json');
  fs.writeFileSync(file, text);
  return { dir, text, file, files: [...new Set(files)].map((f) => path.join(dir, f)), name: s.name };
}

// ------------------------------------------------------------ the page

const waitFor = waiter({
  timeout: TIMEOUT,
  state: () => JSON.stringify({ state: window.dpsimState && { scenario: window.dpsimState.scenario, status: window.dpsimState.status, error: window.dpsimState.error }, ud: window.dpsimUserData && window.dpsimUserData.state }),
});

// startLoad starts loading a scenario text as the editor's Load does,
// without waiting: it waits for the user's files.
async function startLoad(b, text) {
  await b.page.evaluate((t) => { window.__udLoad = window.dpsimPage.loadScenarioText(t, null); }, text);
}

// dropFiles drops files on the page as a user dragging them from the
// desktop does (dragenter, dragover, drop), on the view: anywhere works.
async function dropFiles(b, files) {
  const items = files.map((f) => [path.basename(f), fs.readFileSync(f).toString('base64')]);
  await b.page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [n, b64] of list) {
      const bin = atob(b64);
      const u = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
      dt.items.add(new File([u], n));
    }
    const target = document.getElementById('view') || document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, items);
}

async function runToEnd(b) {
  await b.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
  // The files' labels are drawn apart from their features, so a noisy run
  // may truthfully end worse than its start: what is checked is the bytes.
  await waitFor(b, 'the run ended', (ended) => ended.includes(window.dpsimState.status), ENDED);
}

const exportJSON = async (b) => (await download(b, '#export-json', tmp, TIMEOUT)).data;

function cliRun(file, out) {
  execFileSync(bin, ['run', '--quiet', '--out', out, file], { stdio: 'inherit' });
  return fs.readFileSync(out);
}

before(() => {
  built(['index.html', 'page.js', 'userdata.js', 'userdata.css', 'wasm_exec.js', 'dpsim.wasm', 'experiments.js', 'sweep-worker.js', 'solver.wasm']);
  bin = builtCLI();
});

describe('your own data', () => {
  let b;
  let trainedOn = ''; // the file the current scenario trains on, once dropped
  before(async () => {
    b = await open('?preset=gtdp-rendezvous', { viewport: { width: 1280, height: 900 } });
    await waitFor(b, 'the page ready', () => window.dpsimReady && window.dpsimState && window.dpsimState.scenario === 'gtdp-rendezvous' && window.dpsimUserData);
  });

  let k = 0;
  for (const p of PROBLEMS) {
    for (const format of FORMATS) {
      const idx = k++;
      const how = idx % 2 === 0 ? 'picked' : 'dropped';
      test(`${p.name} on ${format} files, ${how}: the page asks, runs, and exports the CLI's bytes`, async () => {
        const c = userCase(p, format);
        const cli = cliRun(c.file, path.join(c.dir, 'cli.json'));
        await startLoad(b, c.text);
        await waitFor(b, 'the page asking for the files', () => {
          const box = document.getElementById('userdata');
          return box && !box.hidden && box.classList.contains('waiting');
        });
        const asked = await b.page.$$eval('#userdata-files li[data-state="needed"]', (li) => li.map((x) => x.dataset.file));
        assert.deepEqual(asked.sort(), c.files.map((f) => path.basename(f)).sort(), 'the page names the files the scenario needs');
        if (idx === 0) await b.page.screenshot({ path: path.join(OUT, 'userdata-asks.png') });
        if (how === 'picked') await b.page.setInputFiles('#userdata-input', c.files);
        else await dropFiles(b, c.files);
        const res = await b.page.evaluate(() => window.__udLoad.then((r) => r && { ok: r.ok, error: r.error }));
        assert.ok(res && res.ok, `loaded: ${JSON.stringify(res)} ${b.log.slice(-5).join(' | ')}`);
        await waitFor(b, `the scenario ${c.name}`, (n) => window.dpsimState.scenario === n, c.name);
        // Built and run in a Web Worker, which the page handed the files.
        const remote = await b.page.evaluate(() => window.dpsimState.remote);
        assert.ok(remote && remote.active, `the run is computed in a Web Worker: ${JSON.stringify(remote)}`);
        assert.match(remote.why, /^it trains on your file /);
        await runToEnd(b);
        if (idx === 1) await b.page.screenshot({ path: path.join(OUT, 'userdata-ran.png') });
        const json = await exportJSON(b);
        assert.ok(json.equals(cli), `the page's JSON (${json.length} bytes) equals dpsim run's (${cli.length} bytes)`);
        const pinned = JSON.parse(json).scenario.problem.params.data;
        const named = [pinned.train, pinned.test].filter(Boolean);
        for (const s of named) {
          assert.match(s.sha256, /^[0-9a-f]{64}$/, 'the export pins each file by its sha256');
          if (s.labels_file) assert.match(s.labels_sha256, /^[0-9a-f]{64}$/);
        }
      });
    }
  }

  test('an export replayed with another file is refused in one line naming both hashes', async () => {
    const p = PROBLEMS[0];
    const c = userCase(p, 'csv', '-replay');
    const export1 = cliRun(c.file, path.join(c.dir, 'cli.json'));
    const pinned = JSON.stringify(JSON.parse(export1).scenario);
    const want = JSON.parse(export1).scenario.problem.params.data.train.sha256;
    // Another train.csv: one value changed.
    const trainFile = c.files.find((f) => /-train\.csv$/.test(f));
    const other = path.join(fs.mkdtempSync(path.join(tmp, 'other-')), path.basename(trainFile));
    fs.writeFileSync(other, fs.readFileSync(trainFile, 'utf8').replace(/\n([^,\n]+),/, '\n9,'));
    const before = await b.page.evaluate(() => ({ scenario: window.dpsimState.scenario, loads: window.dpsimState.loads }));
    await startLoad(b, pinned);
    await waitFor(b, 'the page asking', () => document.getElementById('userdata').classList.contains('waiting'));
    await b.page.setInputFiles('#userdata-input', [other]);
    await waitFor(b, 'the refusal', () => /has sha256 [0-9a-f]{64}, but the scenario pins/.test(document.getElementById('userdata-error').textContent));
    const msg = await b.page.textContent('#userdata-error');
    assert.ok(msg.includes(`but the scenario pins ${want}`), msg);
    assert.ok(!msg.includes('\n'), 'one line');
    await b.page.screenshot({ path: path.join(OUT, 'userdata-refused.png') });
    // The right file then loads it; the run before was never replaced.
    const st = await b.page.evaluate(() => ({ scenario: window.dpsimState.scenario, loads: window.dpsimState.loads }));
    assert.deepEqual(st, before, 'the current run is kept while the file is refused');
    await b.page.setInputFiles('#userdata-input', c.files);
    const res = await b.page.evaluate(() => window.__udLoad.then((r) => r && r.ok));
    assert.ok(res, 'the pinned scenario loads with the right files');
  });

  test('a data file dropped with no scenario waiting trains the current learning problem on it', async () => {
    const p = PROBLEMS[0];
    const preset = fs.readFileSync(path.join(ROOT, 'core/scenario/presets/gtdp-logistic-synthetic.json'), 'utf8');
    const loaded = await b.page.evaluate((t) => window.dpsimPage.loadScenarioText(t, null).then((r) => r && r.ok), preset);
    assert.ok(loaded);
    const dir = fs.mkdtempSync(path.join(tmp, 'train-on-'));
    const file = path.join(dir, 'mine.csv');
    fs.writeFileSync(file, csv(rows(p, 5, 40)));
    await dropFiles(b, [file]);
    await waitFor(b, 'the offer to train on it', () => !document.getElementById('userdata-train').hidden);
    assert.match(await b.page.textContent('#userdata-train'), /on mine\.csv$/);
    await b.page.click('#userdata-train');
    await waitFor(b, 'the scenario on mine.csv', () => /-user$/.test(window.dpsimState.scenario) && window.dpsimState.status !== 'error');
    const text = await b.page.evaluate(() => window.dpsim.scenario());
    assert.match(text, /"file": ?"mine\.csv"/);
    assert.match(text, /"sha256": ?"[0-9a-f]{64}"/, 'the scenario the page keeps names the file by its sha256');
    await runToEnd(b);
    await b.page.screenshot({ path: path.join(OUT, 'userdata-train-on.png') });
    trainedOn = file;
  });

  // The Experiments panel sweeps the scenario on screen, trained on the
  // dropped file, in its workers (handed the file by the page), and a
  // dropped experiment naming another file by its sha256 asks for it in
  // one line; each result is dpsim sweep's bytes on the same experiment
  // and files (docs/experiments.md, "The page").
  const waitSweep = waiter({ timeout: TIMEOUT, state: () => JSON.stringify({ sweep: window.dpsimSweepState, ud: window.dpsimUserData && window.dpsimUserData.state }) });
  const sweepJSON = async () => (await download(b, '#exp-dl-json', tmp, TIMEOUT)).data;
  function cliSweep(dir, text) {
    fs.writeFileSync(path.join(dir, 'exp.json'), text);
    execFileSync(bin, ['sweep', '--quiet', '--out', path.join(dir, 'cli-sweep.json'), path.join(dir, 'exp.json')], { stdio: 'inherit' });
    return fs.readFileSync(path.join(dir, 'cli-sweep.json'));
  }

  test('the Experiments panel sweeps the current scenario on the dropped file to dpsim sweep\'s bytes', async () => {
    assert.ok(trainedOn, 'the scenario on mine.csv (the test before)');
    await b.page.evaluate(() => { document.getElementById('exp-box').open = true; });
    await waitSweep(b, 'the panel ready', () => window.dpsimSweepState.status === 'ready');
    await b.page.fill('#exp-runs', '2');
    await b.page.fill('#exp-field', 'noise.eta.scale');
    await b.page.fill('#exp-values', '0.001, 0.1');
    await b.page.click('#exp-current');
    await waitSweep(b, 'the sweep done', () => ['done', 'error'].includes(window.dpsimSweepState.status) && window.dpsimSweepState.figureDrawn || window.dpsimSweepState.status === 'error');
    const st = await b.page.evaluate(() => ({ ...window.dpsimSweepState }));
    assert.equal(st.status, 'done', st.error);
    assert.deepEqual(st.userFiles, ['mine.csv'], 'the workers were handed the dropped file');
    assert.equal(st.total, 4, '2 values × 2 runs');
    await b.page.locator('#exp-box').screenshot({ path: path.join(OUT, 'userdata-sweep.png') });
    const page = await sweepJSON();
    const exp = JSON.parse(page).experiment;
    assert.match(exp.base.scenario.problem.params.data.train.sha256, /^[0-9a-f]{64}$/, 'the experiment names the file by its sha256');
    const cli = cliSweep(path.dirname(trainedOn), JSON.stringify(exp));
    assert.ok(page.equals(cli), `the page's sweep (${page.length} bytes) equals dpsim sweep's (${cli.length} bytes)`);
  });

  test('a dropped experiment on a file the page does not hold asks for it in one line, then sweeps to dpsim sweep\'s bytes', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'theirs-'));
    const theirs = path.join(dir, 'theirs.csv');
    fs.writeFileSync(theirs, csv(rows(PROBLEMS[0], 9, 40)));
    const sha = require('node:crypto').createHash('sha256').update(fs.readFileSync(theirs)).digest('hex');
    const page0 = JSON.parse(fs.readFileSync(path.join(path.dirname(trainedOn), 'exp.json'), 'utf8'));
    page0.name = 'theirs-sweep';
    page0.runs = 1;
    page0.base.scenario.problem.params.data.train = { file: 'theirs.csv', sha256: sha };
    const expFile = path.join(dir, 'theirs-sweep.json');
    fs.writeFileSync(expFile, JSON.stringify(page0));
    await b.page.fill('#exp-runs', '');
    await dropFiles(b, [expFile]);
    await waitSweep(b, 'the experiment open', () => document.getElementById('exp-preset').value === 'theirs-sweep' && /theirs\.csv/.test(document.getElementById('exp-desc').textContent));
    // "it", one file: the count the worker gives (missing_count), not a guess from its line.
    assert.match(await b.page.textContent('#exp-desc'), /trains on your file theirs\.csv \(sha256 [0-9a-f]{64}\): pick it or drop it on the page \(it is read in this tab, never uploaded\)\. Run the sweep to give it\.$/);
    await b.page.click('#exp-run');
    await waitSweep(b, 'the panel asking for the file', () => window.dpsimSweepState.askingFiles && window.dpsimUserData.state.waiting);
    const line = await b.page.evaluate(() => document.getElementById('exp-msg').firstChild.textContent.trim());
    assert.equal(line, `problem.params.data.train.file: the experiment trains on your file theirs.csv (sha256 ${sha}): pick it or drop it on the page (it is read in this tab, never uploaded)`);
    await b.page.locator('#exp-box').screenshot({ path: path.join(OUT, 'userdata-sweep-asks.png') });
    await dropFiles(b, [theirs]);
    await waitSweep(b, 'the sweep done', () => ['done', 'error'].includes(window.dpsimSweepState.status) && window.dpsimSweepState.experiment === 'theirs-sweep' && (window.dpsimSweepState.figureDrawn || window.dpsimSweepState.status === 'error'));
    const st = await b.page.evaluate(() => ({ ...window.dpsimSweepState }));
    assert.equal(st.status, 'done', st.error);
    const page = await sweepJSON();
    const cli = cliSweep(dir, JSON.stringify(page0));
    assert.ok(page.equals(cli), `the page's sweep (${page.length} bytes) equals dpsim sweep's (${cli.length} bytes)`);
  });

  test('a broken file is refused in one line naming the file, the row and the column', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'broken-'));
    const file = path.join(dir, 'bad.csv');
    fs.writeFileSync(file, 'a,b,label\n1,2,0\n1,NaN,1\n');
    const s = JSON.parse(fs.readFileSync(path.join(ROOT, 'core/scenario/presets/gtdp-logistic-synthetic.json'), 'utf8'));
    s.name = 'broken-user-data';
    s.problem.params.dataset = 'user';
    s.problem.params.data = { train: { file: 'bad.csv' } };
    const before = await b.page.evaluate(() => window.dpsimState.scenario);
    await startLoad(b, JSON.stringify(s));
    await waitFor(b, 'the page asking', () => document.getElementById('userdata').classList.contains('waiting'));
    await dropFiles(b, [file]);
    const res = await b.page.evaluate(() => window.__udLoad.then((r) => r && { ok: r.ok, error: r.error }));
    assert.ok(res && !res.ok, 'not loaded');
    assert.match(res.error, /problem\.params\.data\.train\.file: bad\.csv: row 2 \(line 3\), column "b": NaN/);
    assert.equal(await b.page.evaluate(() => window.dpsimState.scenario), before, 'the current run is kept');
  });
});
