'use strict';
// profile.js — sums up what E2E_PROFILE wrote (e2e/harness.js): per file,
// its tests' wall and CPU time, the contexts and page loads they made, how
// long a load took to be ready, and the time spent in waits and sleeps.
//
//   E2E_PROFILE=/tmp/p.jsonl node e2e/run.js e2e/share.test.js …
//   node e2e/profile.js /tmp/p.jsonl [-v]      (-v: every test too)
const fs = require('node:fs');

const [file, flag] = process.argv.slice(2);
if (!file) { console.error('usage: node e2e/profile.js PROFILE.jsonl [-v]'); process.exit(2); }
// A subtest's line (sub) is counted in its test's already.
const rows = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => !r.sub);
const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
const med = (a) => { if (!a.length) return NaN; const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
const files = new Map();
for (const r of rows) {
  if (!files.has(r.file)) files.set(r.file, []);
  files.get(r.file).push(r);
}
const sum = (a, k) => a.reduce((x, r) => x + (typeof k === 'function' ? k(r) : r[k]), 0);
console.log('   wall     cpu  ctx loads  ready(med) ready(sum)  waits   sleeps  file');
const all = [];
for (const [f, rs] of [...files].sort((a, b) => sum(b[1], 'cpuMs') - sum(a[1], 'cpuMs'))) {
  const loads = rs.flatMap((r) => r.loads);
  const ready = loads.map((l) => (l.simReady ?? l.ready) - l.nav).filter((x) => Number.isFinite(x));
  all.push(...ready);
  console.log(`${s(sum(rs, 'wallMs'))} ${s(sum(rs, 'cpuMs'))} ${String(sum(rs, 'contexts')).padStart(4)} ${String(loads.length).padStart(5)} ${s(med(ready))}    ${s(sum(ready, (x) => x))}  ${s(sum(rs, 'waitMs'))} ${s(sum(rs, 'sleepMs'))}  ${f} (${rs.length} tests)`);
  if (flag === '-v') {
    for (const r of rs) {
      const rd = r.loads.map((l) => (((l.simReady ?? l.ready) - l.nav) / 1000).toFixed(1)).join(' ');
      console.log(`      ${s(r.wallMs)} ${s(r.cpuMs)} ${String(r.contexts).padStart(4)} ${String(r.loads.length).padStart(5)}  [${rd}]  waits ${s(r.waitMs)} sleeps ${s(r.sleepMs)}  ${r.test.slice(0, 80)}`);
    }
  }
}
console.log(`${s(sum(rows, 'wallMs'))} ${s(sum(rows, 'cpuMs'))} ${String(sum(rows, 'contexts')).padStart(4)} ${String(sum(rows, (r) => r.loads.length)).padStart(5)} ${s(med(all))}    ${s(sum(all, (x) => x))}  ${s(sum(rows, 'waitMs'))} ${s(sum(rows, 'sleepMs'))}  in all`);
