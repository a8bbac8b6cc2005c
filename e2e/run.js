'use strict';
// run.js — the whole end-to-end run with one browser and one server:
// builds ./serve once and starts it, starts one headless Chromium as a
// browser server (playwright-core's launchServer, with the tests' flags:
// harness.js, TEST_ARGS), and runs
// `node --test` on the given files (default: every e2e/*.test.js) with
// DPSIM_SERVER_URL and DPSIM_BROWSER_WS naming them; every file opens
// its pages in fresh contexts of that browser (e2e/harness.js). Both are
// stopped when the run ends, fails or is interrupted. If PIDFILE is set,
// the browser's and the server's process ids are written there, so that
// a caller (test.sh) can kill them should this process itself be killed.
//
//   node e2e/run.js                        (after ./build.sh)
//   node e2e/run.js e2e/share.test.js …    some files
//   E2E_CONCURRENCY=2 node e2e/run.js      two files at a time
//   E2E_TIERING=default node e2e/run.js    WebAssembly tiered up as users' browsers do
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { ROOT, CHROMIUM, TEST_ARGS, startServer } = require('./harness.js');

async function main() {
  const files = process.argv.slice(2).map((f) => path.resolve(f));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpsim-e2e-run-'));
  let server = null;
  let browser = null;
  let child = null;
  let stopping = false;
  // stop closes the browser (or, interrupted, kills it) and the server.
  const stop = async (force = false) => {
    if (stopping) return;
    stopping = true;
    if (browser) await (force ? browser.kill() : browser.close().catch(() => browser.kill()));
    if (server) server.proc.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
    const pids = process.env.PIDFILE;
    if (pids && fs.existsSync(pids)) fs.writeFileSync(pids, ''); // nothing left to kill
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, async () => {
      if (child) child.kill(sig);
      await stop(true);
      process.exit(128 + os.constants.signals[sig]);
    });
  }
  try {
    server = await startServer(tmp, { quiet: true });
    // The signals are this script's to handle: it stops the test run first.
    browser = await chromium.launchServer({
      executablePath: CHROMIUM, headless: true, args: TEST_ARGS,
      handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    });
    const bproc = browser.process();
    if (process.env.PIDFILE) fs.writeFileSync(process.env.PIDFILE, `${bproc.pid} ${server.proc.pid}\n`);
    bproc.once('exit', (code, signal) => {
      if (!stopping) console.error(`e2e/run.js: the shared browser exited during the run (code ${code}, signal ${signal}); the tests still running fail naming it`);
    });
    console.log(`e2e/run.js: one browser for the run (${CHROMIUM}), the site at ${server.url}`);
    const env = { ...process.env, DPSIM_BROWSER_WS: browser.wsEndpoint(), DPSIM_SERVER_URL: server.url, DPSIM_RUN_PID: String(process.pid) };
    // node's own reporter (spec on a terminal, TAP otherwise, as node
    // chooses by itself), then e2e/timing.js's table of where the time went.
    const reporters = ['--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout',
      '--test-reporter', path.join(__dirname, 'timing.js'), '--test-reporter-destination', 'stdout'];
    // E2E_CONCURRENCY: how many files run at once (node's default, one
    // fewer than the cores, when unset).
    const conc = process.env.E2E_CONCURRENCY ? [`--test-concurrency=${process.env.E2E_CONCURRENCY}`] : [];
    child = spawn(process.execPath, ['--test', ...conc, ...reporters, ...(files.length ? files : ['e2e/'])], { cwd: ROOT, env, stdio: 'inherit' });
    const code = await new Promise((resolve) => child.once('exit', (c, s) => resolve(c === null ? 128 + os.constants.signals[s] : c)));
    return code;
  } finally {
    await stop();
  }
}

main().then((code) => { process.exitCode = code; }, (e) => {
  console.error(`e2e/run.js: ${e.stack || e}`);
  process.exitCode = 1;
});
