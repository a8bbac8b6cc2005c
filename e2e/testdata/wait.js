'use strict';
// wait.js — e2e/harness.test.js's page: opens a page in the run's browser
// (DPSIM_BROWSER_WS), says "waiting" and waits, ten minutes at most, for
// what never comes. Its error is printed on stderr, its exit code 1.
const { open, waiter } = require('../harness.js');

(async () => {
  const p = await open(null);
  await p.page.setContent('<p>waiting</p>');
  console.log('waiting');
  await waiter({ timeout: 600000 })(p, 'something that never comes', () => false);
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
