'use strict';
// harness.js — what every end-to-end test needs: the paths, Chromium's
// flags, the static server, the browser, a page with its console kept,
// and waits that say what they waited for.
//
// One browser and one server serve a whole run: e2e/run.js starts them
// once and names them to every test file (DPSIM_BROWSER_WS,
// DPSIM_SERVER_URL). A file run alone (node --test e2e/x.test.js) starts
// its own, once for the file. Each page lives in its own browser context:
// no storage is shared between tests. Whatever the harness opened is
// closed when the file ends (a root after hook registered here), so a
// failed test leaves no page running into the next file.
//
// Environment:
//   CHROMIUM          browser binary (default /usr/bin/chromium)
//   DPSIM_SITE        directory to serve (default public/)
//   E2E_TIMEOUT       ms to wait for frames / iterations (defaults per file)
//   DPSIM_BROWSER_WS  a running browser server's endpoint (e2e/run.js)
//   DPSIM_SERVER_URL  a running ./serve of DPSIM_SITE (e2e/run.js)
//   DPSIM_E2E_PROGRAMS  a directory of test programs built (test.sh; see
//                     testProgram)
//   E2E_TIERING       "default": every file's browser tiers WebAssembly up
//                     as users' do (see TEST_ARGS)
//   E2E_PROFILE       a file to which each test appends one JSON line: its
//                     wall and CPU time (the run's process tree), the pages
//                     it opened and when each was ready, its time in waits
//                     and sleeps (e2e/profile.js sums them up)
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { after, afterEach, beforeEach } = require('node:test');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '..');
const SITE = path.resolve(process.env.DPSIM_SITE || path.join(ROOT, 'public'));
const OUT = path.join(__dirname, 'out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// OFF_FEATURES: headless Chromium opens each browser context in a window
// of its own, and each window preloads its omnibox popup, a WebUI page
// (chrome://omnibox-popup.top-chrome) in a renderer of its own, which no
// test sees: 1.5–1.7 CPU-s per context, about 2.6 → 0.9 CPU-s for a
// context with a blank page, 100 contexts a run. Chromium reads only the
// last --disable-features, so the list repeats the features Playwright
// turns off itself (playwright-core 1.65.1, chromiumSwitches.ts);
// harness.test.js checks that a browser launched with CHROMIUM_ARGS still
// has all of Playwright's.
const OFF_FEATURES = [
  'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup',
  // Playwright's own
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

// Flags measured in shared/spec/browser-recipes.md. --enable-unsafe-swiftshader
// gives WebGL2 through SwiftShader without the deprecated automatic fallback.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader', `--disable-features=${OFF_FEATURES.join(',')}`,
];

// TEST_ARGS are the flags of the tests' browser: CHROMIUM_ARGS and V8's
// WebAssembly tier-up budget raised to its largest (2^31 − 1, 165 times
// the default; 100 times still let the Kage parser below be recompiled
// at every load, ~0.7 s of a compile thread). With V8's default
// (13,000,000) the code that runs only while a page starts — ebiten's
// shader compiler (go/parser, its Kage parser, a 146 KB function that
// takes 1–3 s alone), the Go programs' package inits, encoding/json —
// runs long enough to be recompiled by TurboFan, 5–7 s of CPU per page
// load that the page never gets back: on two cores a page took 6–10 s to
// be ready, against 3.5–4.5 s with the raised budget (docs/performance.md,
// "Start-up", the end-to-end tests). A function that stays hot (a long run, a sweep, the CNN)
// is still optimised, after a second or two of running. What the page
// does is the same either way; only how fast it does it differs, so a
// file that asserts a speed (frames/s, a long task, a stall) opens its
// pages in a browser with V8's default, as users have it (speedChecks).
// E2E_TIERING=default gives every file V8's default.
const FAST_START_ARGS = ['--js-flags=--wasm-tiering-budget=2147483647'];
const TEST_ARGS = process.env.E2E_TIERING === 'default' ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, ...FAST_START_ARGS];

// ENDED are the statuses of a run that has ended: finished, stopped by a
// stop rule, or finished worse than its start or diverged (ui/live.go). A
// test that waits for a run's end waits for any of them, so that a truthful
// "worse" fails its assertion at once instead of a 240 s timeout.
const ENDED = ['done', 'stopped', 'worse', 'diverged'];

// startServer builds ./serve into dir and runs it on a free loopback port;
// the server prints "serving <dir> at http://127.0.0.1:PORT/".
async function startServer(dir, { quiet = false } = {}) {
  const bin = path.join(dir, 'serve');
  execFileSync('go', ['build', '-o', bin, './serve'], { cwd: ROOT, stdio: 'inherit' });
  const proc = spawn(bin, ['-addr', '127.0.0.1:0', '-dir', SITE], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (!quiet) proc.stderr.on('data', (d) => process.stderr.write('[serve] ' + d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30000);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited early with code ${code}`)); });
    readline.createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(line);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  return { proc, url };
}

// cli returns the path of ./dpsim, the CLI ./build.sh builds beside the
// page from the same tree with the same version stamp (core/version), so
// that exports compared byte for byte name the same dpsim_version.
function cli() {
  const bin = path.join(ROOT, 'dpsim');
  const wasm = path.join(SITE, 'dpsim.wasm');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing (run ./build.sh)`);
  if (fs.existsSync(wasm) && fs.statSync(bin).mtimeMs < fs.statSync(wasm).mtimeMs) {
    throw new Error(`${bin} is older than ${wasm} (run ./build.sh)`);
  }
  return bin;
}

// testProgram returns the path of a test program: the page's program
// built for js/wasm with a test plug-in registered (pkg, e.g.
// ./ui/internal/datatoy/app), which a test serves in place of dpsim.wasm.
// test.sh builds them beside its other steps, before the end-to-end step
// (DPSIM_E2E_PROGRAMS names the directory, name.wasm in it); otherwise,
// or if it lacks one, it is built here, into this file's scratch.
function testProgram(pkg, name) {
  const dir = process.env.DPSIM_E2E_PROGRAMS;
  if (dir && fs.existsSync(path.join(dir, `${name}.wasm`))) return path.join(dir, `${name}.wasm`);
  const out = path.join(scratch(name), `${name}.wasm`);
  execFileSync('go', ['build', '-o', out, pkg], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
  });
  return out;
}

// inGitCheckout says whether ROOT is a git work tree git can read: there
// build.sh stamps the page and the CLI with the commit (core/version).
function inGitCheckout() {
  try {
    return execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'true';
  } catch { return false; }
}

// built throws, in one message, which of the site's files are missing.
function built(files) {
  const missing = files.filter((f) => !fs.existsSync(path.join(SITE, f)));
  if (!fs.existsSync(CHROMIUM)) missing.unshift(`${CHROMIUM} (apt-get install chromium)`);
  if (missing.length) throw new Error(`e2e prerequisites missing in ${SITE}: ${missing.join(', ')} (run ./build.sh)`);
}

// --------------------------------------------------- what a file opened

const scratchDirs = [];
const launched = new Set(); // browsers this file launched (closed at its end)
const contexts = new Set(); // contexts not yet closed, of any browser
let ownServer = null;

// scratch makes a temporary directory, removed when the file ends.
function scratch(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dpsim-${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}

let siteURL = null;
// site returns the base URL of the site (ending in /): the run's server
// (DPSIM_SERVER_URL) or one started for this file.
function site() {
  if (!siteURL) {
    siteURL = process.env.DPSIM_SERVER_URL
      ? Promise.resolve(process.env.DPSIM_SERVER_URL.replace(/\/?$/, '/'))
      : startServer(scratch('serve'), { quiet: true }).then((s) => { ownServer = s.proc; return s.url; });
  }
  return siteURL;
}

// gone holds, per browser, a promise that rejects when the browser goes
// away (crashed, killed, or the run's browser server closed).
const gone = new WeakMap();
const goneWhy = new WeakMap();
let closing = false;
function watch(b, name) {
  let reject = null;
  const pr = new Promise((_, r) => { reject = r; });
  pr.catch(() => {});
  goneWhy.set(b, `${name} disconnected: it crashed or was closed`);
  b.on('disconnected', () => { if (!closing) reject(new Error(goneWhy.get(b))); });
  gone.set(b, pr);
  return b;
}

// asUsers: this file asserts speeds (speedChecks), so its browsers run
// WebAssembly as users' do (CHROMIUM_ARGS), not with TEST_ARGS.
let asUsers = false;

// speedChecks declares, before the file opens its first page, that the
// file asserts speeds as users would see them (frames/s, long tasks,
// stalls): its pages open in a browser launched for the file with V8's
// default tier-up (CHROMIUM_ARGS), not in the run's (TEST_ARGS).
function speedChecks() {
  if (shared) throw new Error('speedChecks() must come before the file opens its first page');
  asUsers = true;
}

// launchBrowser launches a browser for this file alone, with extra flags
// (smoke.test.js's run without WebGL); it is closed when the file ends.
async function launchBrowser(extraArgs = []) {
  const base = asUsers ? CHROMIUM_ARGS : TEST_ARGS;
  const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...base, ...extraArgs] });
  launched.add(b);
  return watch(b, `the browser launched by ${path.basename(require.main ? require.main.filename : 'this file')}`);
}

let shared = null;
// browser returns the browser of the run: the one at DPSIM_BROWSER_WS, or
// one launched for this file. A browser that crashes or disconnects fails
// every wait at once (see waiter), naming it.
function browser() {
  if (!shared) {
    // The run's browser has TEST_ARGS; a file with speedChecks takes it
    // only when those are CHROMIUM_ARGS (E2E_TIERING=default).
    const ws = asUsers && TEST_ARGS !== CHROMIUM_ARGS ? '' : process.env.DPSIM_BROWSER_WS;
    shared = ws
      ? chromium.connect(ws, { timeout: 30000 }).then((b) => watch(b, `the run's browser (DPSIM_BROWSER_WS=${ws})`), (e) => {
        throw new Error(`the run's browser at DPSIM_BROWSER_WS=${ws} does not answer (${e.message.split('\n')[0]}); ` +
          'e2e/run.js starts it, or unset DPSIM_BROWSER_WS to launch one per file');
      })
      : launchBrowser();
  }
  return shared;
}

// context makes a fresh context of the run's browser (or of opts.browser):
// nothing kept from another. Options: viewport, scale, touch, context
// (more context options).
async function context(opts = {}) {
  const { viewport = { width: 1280, height: 720 }, scale = 1, touch = false, context: more = {} } = opts;
  const b = opts.browser || await browser();
  const t0 = Date.now();
  const ctx = await b.newContext({ viewport, deviceScaleFactor: scale, hasTouch: touch, isMobile: touch, ...more });
  if (prof) prof.context(ctx, t0);
  contexts.add(ctx);
  ctx.on('close', () => contexts.delete(ctx));
  return ctx;
}

// watchPage keeps page's console and errors in log (opts.keep: which
// console messages), its errors alone in errors, and returns the handle
// the waits take: { ctx, page, log, errors, crashed, goto, close }.
function watchPage(page, { keep = () => true } = {}) {
  const ctx = page.context();
  const b = ctx.browser();
  const p = { ctx, page, browser: b, log: [], errors: [], response: null, close: () => ctx.close() };
  let crash = null;
  const crashed = new Promise((_, reject) => { crash = reject; });
  page.on('crash', () => crash(new Error('the page crashed')));
  // Rejects when the page crashes or its browser goes away.
  p.crashed = Promise.race([crashed, gone.get(b)]);
  p.crashed.catch(() => {});
  page.on('console', (m) => { if (keep(m)) p.log.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => { p.log.push(`pageerror: ${e.message}`); p.errors.push(e.message); });
  // goto goes to url, relative to the site unless absolute.
  p.goto = async (url) => {
    if (prof) prof.goto(page);
    return (p.response = await page.goto(/^https?:/.test(url) ? url : (await site()) + url));
  };
  if (prof) prof.page(page);
  return p;
}

// open opens a page in a fresh context (see context) and goes to url
// (relative to the site unless absolute; null: nowhere); opts.route is
// called with the page before it loads, opts.keep as in watchPage.
async function open(url, opts = {}) {
  const ctx = await context(opts);
  const p = watchPage(await ctx.newPage(), opts);
  if (opts.route) await opts.route(p.page);
  if (url != null) await p.goto(url);
  return p;
}

// tabUntil presses Tab, at most max times, until pred (run in page with
// arg) returns a truthy value, and returns it (null when it never does).
async function tabUntil(page, max, pred, arg) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const v = await page.evaluate(pred, arg);
    if (v) return v;
  }
  return null;
}

// startState says, in the page, how far its start got: the document's
// state, the start's performance marks (ms), whether the page's scripts
// and the simulator are up, the view's message, and every file whose
// answer has ended, with when (the resource timing lists no file still
// on its way: a stuck view.wasm shows by its absence). A wait that fails
// prints it, so that a page stuck before its scripts run says where.
function startState() {
  const ms = (t) => Math.round(t);
  const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('dpsim-')).map((m) => `${m.name.slice(6)}@${ms(m.startTime)}`);
  const files = performance.getEntriesByType('resource').map((r) => `${r.name.replace(/^.*\//, '').slice(0, 40)}@${ms(r.responseEnd)}`);
  const msg = document.getElementById('view-msg');
  return [`document ${document.readyState} at ${ms(performance.now())}`, `marks ${marks.join(' ') || 'none'}`,
    `page.js ${window.dpsimPage ? 'up' : 'not up'}, simulator ${window.dpsimReady ? 'ready' : 'not ready'}`,
    `view message ${msg && !msg.hidden ? JSON.stringify(msg.textContent.trim().slice(0, 200)) : 'hidden'}`,
    `files ${files.join(' ')}`].join('; ');
}

// waiter returns waitFor(p, what, fn, arg, timeout, polling): it waits for
// fn(arg) to be truthy in p's page and fails, naming what it waited for,
// with the page's state (opts.state, run in the page; default
// window.dpsimState) and the console's tail — at the timeout, at once if
// the page crashes or the browser goes away, or when opts.fail (called
// with p) returns a promise that rejects.
function waiter({ timeout = 120000, polling = 100, state = () => JSON.stringify(window.dpsimState), fail = null } = {}) {
  return async function waitFor(p, what, fn, arg, t = timeout, poll = polling) {
    const t0 = Date.now();
    try {
      const races = [p.page.waitForFunction(fn, arg, { timeout: t, polling: poll }), p.crashed];
      if (fail) races.push(fail(p));
      return await Promise.race(races);
    } catch (e) {
      // A wait the browser's end cut short says so, whichever came first.
      const why = p.browser.isConnected() && !/\bBrowser closed\b/.test(e.message) ? e.message.split('\n')[0] : goneWhy.get(p.browser);
      const st = await p.page.evaluate(state).catch(() => '?');
      const up = await p.page.evaluate(startState).catch(() => '?');
      throw new Error(`waiting for ${what}: ${why}\n  state: ${String(st).slice(0, 1500)}\n  start: ${String(up).slice(0, 1500)}\n  console:\n    ${p.log.slice(-15).join('\n    ')}`);
    } finally {
      if (prof) prof.waited(what, Date.now() - t0);
    }
  };
}

// inspectMessage clicks the first message on p's (paused) view, waits
// (with waitFor, a waiter's) for the inspector to show it and returns the
// message ({from, to, x, y}, dpsim.packetsOnScreen's).
async function inspectMessage(p, waitFor) {
  const pk = JSON.parse(await p.page.evaluate(() => window.dpsim.packetsOnScreen()))[0];
  const vb = await box(p.page, '#view');
  await p.page.mouse.click(vb.x + pk.x, vb.y + pk.y);
  await waitFor(p, 'the inspector', () => !document.getElementById('inspector').hidden && document.getElementById('inspector').dataset.kind === 'message');
  return pk;
}

// box returns the element sel's box in the window and whether it is shown
// (null if there is none).
const box = (page, sel) => page.evaluate((s) => {
  const el = document.querySelector(s);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right, shown: el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' };
}, sel);

// download clicks the button sel and saves what it downloads in dir;
// returns the file's name and bytes.
let downloads = 0;
async function download(p, sel, dir, timeout = 60000) {
  const [d] = await Promise.all([p.page.waitForEvent('download', { timeout }), p.page.click(sel)]);
  const file = path.join(dir, `${++downloads}-${d.suggestedFilename()}`);
  await d.saveAs(file);
  return { name: d.suggestedFilename(), data: fs.readFileSync(file) };
}

// cpuBusy returns the fraction of the machine's CPU time spent busy over
// the next second (from /proc/stat; the 1-minute load average elsewhere):
// timing bounds are asserted only on a quiet machine.
async function cpuBusy() {
  if (!fs.existsSync('/proc/stat')) return os.loadavg()[0] / os.cpus().length;
  const read = () => {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + (f[4] || 0), total: f.reduce((a, c) => a + c, 0) };
  };
  const a = read();
  await new Promise((r) => setTimeout(r, 1000));
  const c = read();
  return 1 - (c.idle - a.idle) / Math.max(1, c.total - a.total);
}

// ------------------------------------------------------------- profile

// treeCPU returns the CPU time (ms, user + system, with the children each
// process has reaped) of the process root and all its descendants.
function treeCPU(root) {
  const kids = new Map();
  const cpu = new Map();
  const hz = 100; // USER_HZ on Linux
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let st;
    try { st = fs.readFileSync(`/proc/${d}/stat`, 'utf8'); } catch { continue; }
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    const pid = Number(d);
    const ppid = Number(f[1]);
    cpu.set(pid, (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000 / hz);
    if (!kids.has(ppid)) kids.set(ppid, []);
    kids.get(ppid).push(pid);
  }
  let sum = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop();
    sum += cpu.get(pid) || 0;
    for (const k of kids.get(pid) || []) stack.push(k);
  }
  return sum;
}

// prof, with E2E_PROFILE set, keeps per test: its pages (when each
// context was made, each load started, and the page's own marks of its
// start-up: dpsim-ready, dpsim-sim-ready, from its navigation), its time
// in waits (waiter) and fixed sleeps (page.waitForTimeout), and its wall
// and CPU time; the CPU is the run's whole process tree (e2e/run.js sets
// DPSIM_RUN_PID; otherwise this file's own), so that the browser's work
// counts. One JSON line per test.
const prof = (() => {
  const out = process.env.E2E_PROFILE;
  if (!out || !require.main || !/\.test\.js$/.test(require.main.filename)) return null;
  const root = Number(process.env.DPSIM_RUN_PID) || process.pid;
  const file = path.basename(require.main.filename);
  let cur = null;
  const fresh = (name) => ({ file, test: name, t0: Date.now(), cpu0: treeCPU(root), contexts: 0, ctxMs: 0, loads: [], waits: 0, waitMs: 0, sleeps: 0, sleepMs: 0 });
  const marks = () => {
    const n = performance.getEntriesByType('navigation')[0];
    const m = (k) => { const e = performance.getEntriesByName(k)[0]; return e ? Math.round(e.startTime) : null; };
    return { url: location.pathname + location.search, nav: n ? Math.round(n.startTime) : null, firstFrame: m('dpsim-first-frame'), ready: m('dpsim-ready'), simReady: m('dpsim-sim-ready') };
  };
  const pages = new Set();
  // before a page goes away, its marks
  const collect = async (page) => {
    if (!pages.has(page)) return;
    pages.delete(page);
    const mk = await page.evaluate(marks).catch(() => null);
    if (cur && mk && (mk.ready != null || mk.simReady != null || mk.firstFrame != null)) cur.loads.push(mk);
  };
  const api = {
    context(ctx, t0) {
      if (!cur) return;
      cur.contexts++;
      cur.ctxMs += Date.now() - t0;
      const close = ctx.close.bind(ctx);
      ctx.close = async (...a) => { for (const pg of ctx.pages()) await collect(pg); return close(...a); };
    },
    page(page) {
      pages.add(page);
      const w = page.waitForTimeout.bind(page);
      page.waitForTimeout = async (ms) => { if (cur) { cur.sleeps++; cur.sleepMs += ms; } return w(ms); };
    },
    // a new load replaces the page's marks: keep the old ones first
    async goto(page) { await collect(page); pages.add(page); },
    waited(what, ms) { if (cur) { cur.waits++; cur.waitMs += ms; } },
  };
  // A subtest (t.test) runs these hooks too: its line is marked sub and
  // its counts go to its test as well (e2e/profile.js sums tests only).
  const stack = [];
  beforeEach((t) => { if (cur) stack.push(cur); cur = fresh(t.name); });
  afterEach(async () => {
    if (!cur) return;
    if (!stack.length) for (const pg of [...pages]) if (!pg.isClosed()) await collect(pg);
    const r = cur;
    cur = stack.pop() || null;
    if (cur) {
      for (const k of ['contexts', 'ctxMs', 'waits', 'waitMs', 'sleeps', 'sleepMs']) cur[k] += r[k];
      cur.loads.push(...r.loads);
    }
    const line = { file: r.file, test: r.test, sub: !!cur, wallMs: Date.now() - r.t0, cpuMs: Math.round(treeCPU(root) - r.cpu0), contexts: r.contexts, ctxMs: r.ctxMs,
      loads: r.loads, waits: r.waits, waitMs: r.waitMs, sleeps: r.sleeps, sleepMs: r.sleepMs };
    fs.appendFileSync(out, JSON.stringify(line) + '\n');
  });
  return api;
})();

// Registered for test files only: run.js reads the constants above.
if (require.main && /\.test\.js$/.test(require.main.filename)) after(async () => {
  closing = true;
  for (const ctx of [...contexts]) await ctx.close().catch(() => {});
  if (shared) await shared.then((b) => b.close()).catch(() => {});
  for (const b of launched) await b.close().catch(() => {});
  if (ownServer) ownServer.kill('SIGTERM');
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

fs.mkdirSync(OUT, { recursive: true });

module.exports = {
  ENDED, ROOT, SITE, OUT, CHROMIUM, CHROMIUM_ARGS, OFF_FEATURES, TEST_ARGS, startServer, cli, testProgram, inGitCheckout,
  built, scratch, site, browser, launchBrowser, speedChecks, context, watchPage, open, tabUntil, waiter, box, inspectMessage, download, cpuBusy,
};
