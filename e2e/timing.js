'use strict';
// timing.js — a node:test reporter that ends the run with where its time
// went: each file's wall time (from its process's start to its end) and
// the slowest tests, so that a run
// that grows shows which file grew. e2e/run.js adds it beside the usual
// reporter:
//
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./e2e/timing.js --test-reporter-destination=stdout e2e/
const path = require('node:path');

const SLOWEST = 12;

module.exports = async function* timing(source) {
  const files = new Map(); // file → { first, last, tests }
  const tests = [];
  for await (const ev of source) {
    const d = ev.data || {};
    if (!d.file) continue;
    const now = Date.now();
    let f = files.get(d.file);
    if (!f) files.set(d.file, (f = { first: now, last: now, tests: 0, started: false, ended: false }));
    // The file's own entry (named by its path) is dequeued when its
    // process starts and completes when it ends; the events of its tests
    // may come in a burst at its end.
    if (d.name === d.file && ev.type === 'test:dequeue' && !f.started) { f.first = now; f.started = true; }
    if (!f.ended) f.last = now;
    if (d.name === d.file && ev.type === 'test:complete' && !f.ended) {
      f.ended = true;
      // Said as each file ends too, so that a run cut short still shows
      // where its time went.
      yield `e2e timing: ${((f.last - f.first) / 1000).toFixed(1)} s  ${path.relative(process.cwd(), d.file)}\n`;
    }
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && d.details && d.details.type !== 'suite') {
      f.tests++;
      tests.push({ file: d.file, name: d.name, ms: d.details.duration_ms || 0, failed: ev.type === 'test:fail' });
    }
  }
  if (files.size === 0) return;
  const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
  const name = (f) => path.relative(process.cwd(), f);
  const rows = [...files].map(([file, f]) => ({ file, ms: f.last - f.first, n: f.tests })).sort((a, b) => b.ms - a.ms);
  let out = '\ne2e timing: each file\'s wall time (s), slowest first\n';
  for (const r of rows) out += `${s(r.ms)}  ${name(r.file)} (${r.n} tests)\n`;
  out += `${s(rows.reduce((a, r) => a + r.ms, 0))}  in all\n`;
  out += `the ${SLOWEST} slowest tests (s)\n`;
  for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) {
    out += `${s(t.ms)}  ${path.basename(t.file)}: ${t.name.length > 90 ? t.name.slice(0, 89) + '…' : t.name}${t.failed ? ' (failed)' : ''}\n`;
  }
  yield out;
};
