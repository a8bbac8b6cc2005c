'use strict';
// harness.js — what every end-to-end test needs: the paths, Chromium's
// flags and the static server (./serve built once per test file on a free
// loopback port). Environment:
//   CHROMIUM      browser binary (default /usr/bin/chromium)
//   DPSIM_SITE    directory to serve (default public/)
//   E2E_TIMEOUT   ms to wait for frames / iterations (defaults per file)
const { spawn, execFileSync } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const ROOT = path.resolve(__dirname, '..');
const SITE = path.resolve(process.env.DPSIM_SITE || path.join(ROOT, 'public'));
const OUT = path.join(__dirname, 'out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Flags measured in shared/spec/browser-recipes.md. --enable-unsafe-swiftshader
// gives WebGL2 through SwiftShader without the deprecated automatic fallback.
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader',
];

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
  const fs = require('node:fs');
  const bin = path.join(ROOT, 'dpsim');
  const wasm = path.join(SITE, 'dpsim.wasm');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing (run ./build.sh)`);
  if (fs.existsSync(wasm) && fs.statSync(bin).mtimeMs < fs.statSync(wasm).mtimeMs) {
    throw new Error(`${bin} is older than ${wasm} (run ./build.sh)`);
  }
  return bin;
}

// inGitCheckout says whether ROOT is a git work tree git can read: there
// build.sh stamps the page and the CLI with the commit (core/version).
function inGitCheckout() {
  try {
    return execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'true';
  } catch { return false; }
}

// ENDED are the statuses of a run that has ended: finished, stopped by a
// stop rule, or finished worse than its start or diverged (ui/live.go). A
// test that waits for a run's end waits for any of them, so that a truthful
// "worse" fails its assertion at once instead of a 240 s timeout.
const ENDED = ['done', 'stopped', 'worse', 'diverged'];

module.exports = { ENDED, ROOT, SITE, OUT, CHROMIUM, CHROMIUM_ARGS, startServer, cli, inGitCheckout };
