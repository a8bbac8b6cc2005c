'use strict';
// End-to-end tests of issue 29's words (e2e/out/words-*.png to look at):
// each paper's legend from its plug-ins (no GT-DP "s and x" or "right
// panel" on DOLA, DP-NIDS, DPP², DP-RECAL, DSGD or the dispatch; "below"
// on a phone), the attack panel only on DP-RECAL's page, the preset menu
// grouped by paper with the paper's algorithm first, the glossary with
// every paper's symbols, a run that ends worse than its start said so
// (status and theory card, never "done"), and the noise warning that
// compares with the noise-free ghost only above rounding.
//
//   node --test e2e/words.test.js     (after ./build.sh)
const { describe, test, before } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, open: openPage, waiter } = require('./harness.js');

before(() => built(['index.html', 'page.js', 'wasm_exec.js', 'dpsim.wasm']));

const waitFor = waiter({ timeout: Number(process.env.E2E_TIMEOUT) || 120000, polling: 'raf' });

async function open(viewport, query = '', scale = 1) {
  const p = await openPage(query, { viewport, scale });
  await waitFor(p, 'frames', () => window.dpsimState && window.dpsimState.draws > 3 && window.dpsimReady && window.dpsimSimReady);
  return p;
}

// loadPreset chooses a preset in the menu, as a user does (the page
// fetches its datasets first).
async function loadPreset(p, name) {
  await p.page.selectOption('#preset', name);
  // A picture's place is known once the new scenario's frame is laid out
  // (ui.KeyOf says "" before): wait for it too.
  await waitFor(p, name, (n) => window.dpsimState.scenario === n && window.dpsimState.draws > 0 &&
    document.getElementById('view-key-text').textContent === window.dpsimState.legend &&
    (!['plane', 'gauge'].some((x) => (window.dpsimState.panels || []).includes(x)) || window.dpsimState.pictureWhere !== ''), name);
}

// The legend as the page shows it, with the run's algorithm's messages
// from its plug-in's words (dpsim.plugins(), as `dpsim plugins` prints).
async function legendOf(p) {
  return p.page.evaluate(() => {
    const st = window.dpsimState;
    const cat = JSON.parse(window.dpsim.plugins());
    const alg = cat.algorithms.find((a) => a.name === st.algorithmKind);
    const prob = cat.problems.find((a) => a.name === st.problemKind);
    const attack = document.getElementById('attack-section');
    return {
      text: document.getElementById('view-key-text').textContent,
      messages: alg.words.messages,
      picture: prob.words.picture || '',
      curve: prob.words.curve,
      others: cat.algorithms.filter((a) => a.name !== alg.name).map((a) => a.words.messages),
      panels: Array.from(st.panels),
      where: st.pictureWhere,
      attackShown: !attack.hidden && attack.getBoundingClientRect().height > 0,
    };
  });
}

describe('each paper\'s legend from its plug-ins', () => {
  test('DOLA, DP-NIDS, DPP², DP-RECAL, DSGD, the dispatch and GT-DP each say their own', async () => {
    const p = await open({ width: 1920, height: 1080 });
    try {
      for (const name of ['dola-mushrooms', 'dp-nids-ring8', 'dpp2-classifier', 'recal-synthetic', 'dsgd-mushrooms', 'dpdgt-ieee14', 'gtdp-rendezvous']) {
        await loadPreset(p, name);
        const k = await legendOf(p);
        assert.ok(k.text.includes(k.messages), `${name}: the legend lacks its algorithm's messages:\n  ${k.text}`);
        for (const o of k.others) if (o !== k.messages) assert.ok(!k.text.includes(o), `${name}: another algorithm's messages in ${k.text}`);
        assert.doesNotMatch(k.text, /right panel/i, name);
        if (name !== 'gtdp-rendezvous') assert.doesNotMatch(k.text, /GT-DP sends s and x|s_i \+ η_i/, `${name} speaks GT-DP: ${k.text}`);
        if (k.picture) {
          assert.equal(k.where, 'beside', name);
          assert.ok(k.text.includes('Beside the network: ' + k.picture), `${name}: ${k.text}`);
        } else {
          assert.ok(k.text.includes(k.curve) && k.panels.includes('curve'), `${name}: ${k.text} ${k.panels}`);
        }
        // The attack panel stands only where the algorithm's words say it applies.
        assert.equal(k.attackShown, name === 'recal-synthetic', `${name}: attack panel shown ${k.attackShown}`);
        assert.equal(k.panels.includes('attack'), name === 'recal-synthetic', name);
      }
      await p.page.screenshot({ path: path.join(OUT, 'words-1920x1080-gtdp.png') });
      await loadPreset(p, 'dpp2-classifier');
      await p.page.screenshot({ path: path.join(OUT, 'words-1920x1080-dpp2.png') });
    } finally {
      await p.ctx.close();
    }
  });

  for (const [w, h, scale, preset] of [[1366, 768, 1, 'dpdgt-ieee14'], [1920, 1080, 2, 'dp-nids-ring8'], [390, 844, 2, 'gtdp-rendezvous'], [390, 844, 2, 'dpdgt-ieee14']]) {
    test(`${preset} at ${w}×${h}${scale > 1 ? ' at 2×' : ''}: the legend follows the layout`, async () => {
      const p = await open({ width: w, height: h }, '?preset=' + preset, scale);
      try {
        await waitFor(p, 'the legend', () => window.dpsimState.legend && document.getElementById('view-key-text').textContent === window.dpsimState.legend);
        const k = await legendOf(p);
        if (k.picture) {
          // Where the view puts the picture: below on a phone, beside otherwise.
          const want = w < 760 ? 'below' : 'beside';
          assert.equal(k.where, want, `${preset}: ${k.text}`);
          assert.ok(k.text.includes((want === 'below' ? 'Below' : 'Beside') + ' the network: ' + k.picture), k.text);
        }
        assert.doesNotMatch(k.text, /right panel/i);
        await p.page.locator('#view-key').scrollIntoViewIfNeeded();
        await p.page.screenshot({ path: path.join(OUT, `words-${w}x${h}${scale > 1 ? '@2x' : ''}-${preset}.png`) });
      } finally {
        await p.ctx.close();
      }
    });
  }
});

describe('the preset menu and the glossary', () => {
  test('presets grouped by paper, the Tour\'s lesson and the paper\'s algorithm first; every paper\'s symbols in the glossary', async (t) => {
    const p = await open({ width: 1366, height: 768 });
    try {
      const menu = await p.page.evaluate(() => [...document.querySelectorAll('#preset optgroup')].map((g) => ({
        label: g.label, paper: g.dataset.paper, algs: [...g.querySelectorAll('option')].map((o) => o.dataset.algorithm),
        names: [...g.querySelectorAll('option')].map((o) => o.value),
      })));
      assert.equal(menu.length, 5, JSON.stringify(menu.map((g) => g.label)));
      // The landing's paper first, then the Tour's order, each group led by its lesson.
      assert.match(menu[0].label, /^DP-RECAL/);
      assert.deepEqual(menu.map((g) => g.names[0]), ['tour-recal', 'tour-gtdp', 'tour-dpp2', 'tour-dpdgt', 'tour-ldp']);
      assert.equal(await p.page.$eval('#preset', (el) => el.value), 'tour-recal');
      for (const g of menu) {
        assert.equal(g.algs[0], g.paper, `${g.label} starts with a baseline`);
        const firstBaseline = g.algs.findIndex((a) => a !== g.paper);
        if (firstBaseline > 0) assert.ok(g.algs.slice(firstBaseline).every((a) => a !== g.paper), `${g.label}: ${g.algs}`);
      }
      const groupOf = (n) => menu.find((g) => g.names.includes(n)).paper;
      assert.equal(groupOf('diadsp-dpp2-fig3'), 'dpp2');
      assert.equal(groupOf('diadsp-fig2'), 'gt-dp');
      assert.equal(groupOf('pdop-online-mushrooms'), 'ldp-online');
      // The glossary: the run's algorithm first, then every plug-in's.
      await loadPreset(p, 'dpp2-classifier');
      await p.page.click('#glossary-open');
      const g = await p.page.textContent('#glossary');
      for (const sym of ['ū', 'r̄', 'η^k', 'M̄', 'PLF', 'λ_t', 'ς^i', 'σ_1', 'ρ-zCDP', 'λ*', 'β_k']) assert.ok(g.includes(sym), `glossary lacks ${sym}`);
      const first = await p.page.evaluate(() => document.querySelector('#glossary-list dt.glossary-group').textContent);
      assert.match(first, /^DPP²/);
      await p.page.evaluate(() => document.querySelector('#glossary-list dt.glossary-group').scrollIntoView({ block: 'start' }));
      await p.page.locator('#glossary').screenshot({ path: path.join(OUT, 'words-glossary.png') });
      // The same page, as a user goes on: the symbols closed, GT-DP's
      // rendezvous (where issue 29 saw teal packets at ε ≈ 1) chosen in
      // the menu, which builds its run afresh at iteration 0 (asserted).
      await t.test('the packets\' colour counts all the noise a message carries: at ε = 1 the estimates fly off and the packets are red, against the noise-free twin', async () => {
        await p.page.click('#glossary-close');
        await loadPreset(p, 'gtdp-rendezvous');
        assert.equal(await p.page.evaluate(() => window.dpsimState.iter), 0, 'the chosen preset starts at iteration 0');
        const r = await p.page.evaluate(() => { const x = window.dpsim.calibrate(1); return { ok: x.ok, error: x.error }; });
        assert.ok(r.ok, r.error);
        await p.page.evaluate(() => { window.dpsim.setSpeed(80); window.dpsim.play(); });
        await waitFor(p, '40 iterations', () => window.dpsimState.iter >= 40);
        await p.page.evaluate(() => window.dpsim.pause());
        await waitFor(p, 'packets on screen', () => !window.dpsimState.running && JSON.parse(window.dpsim.packetsOnScreen()).length > 4);
        const got = await p.page.evaluate(() => {
          const pks = JSON.parse(window.dpsim.packetsOnScreen()).slice(0, 12);
          return { legend: window.dpsimState.legend, msgs: pks.map((k) => JSON.parse(window.dpsim.inspect(k.x, k.y))).filter((v) => v.kind === 'message') };
        });
        assert.match(got.legend, /how far it is from the message the same run without noise sends/);
        assert.ok(got.msgs.length > 0, 'no message under the packets');
        for (const v of got.msgs) {
          assert.ok(v.deviation >= 100, `a packet at ε = 1 off the noise-free message by ${v.deviation} (fresh noise ÷ signal ${v.ratio}): not red`);
        }
        await p.page.locator('#view').screenshot({ path: path.join(OUT, 'words-eps1-packets.png') });
      });
    } finally {
      await p.ctx.close();
    }
  });
});

describe('status and theory tell the truth', () => {
  // One page: DP-NIDS from its link, then GT-DP's rendezvous chosen in
  // the menu, which builds a fresh run (iteration 0, none of DP-NIDS's
  // messages left: both asserted before it plays).
  test('DP-NIDS, then GT-DP\'s rendezvous, at 1920×1080', async (t) => {
    const p = await open({ width: 1920, height: 1080 }, '?preset=dp-nids-ring8');
    try {
      await t.test('DP-NIDS at ε = 12 ends far above its start: not "done", and the theory card says so', async () => {
        await p.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
        await waitFor(p, 'the run ended', () => ['done', 'worse', 'diverged'].includes(window.dpsimState.status));
        const st = await p.page.evaluate(() => ({ status: window.dpsimState.status, outcome: window.dpsimState.outcome, text: window.dpsimState.outcomeText }));
        assert.notEqual(st.status, 'done', JSON.stringify(st));
        assert.ok(st.outcome && /above its start/.test(st.text), JSON.stringify(st));
        const badge = await p.page.textContent('#stat-status');
        assert.ok(badge === 'diverged' || badge === 'worse than its start', badge);
        await waitFor(p, 'the theory card', () => /contradicts the claim/.test(document.getElementById('th-conv').textContent));
        const assume = await p.page.evaluate(() => [...document.querySelectorAll('#th-assume-list li')].map((l) => l.dataset.verdict + ' ' + l.textContent));
        assert.ok(assume.length >= 2, JSON.stringify(assume));
        const msgs = await p.page.evaluate(() => [...document.querySelectorAll('#messages li')].map((l) => l.textContent));
        assert.ok(msgs.some((m) => /diverged|worse than its start/.test(m)), JSON.stringify(msgs));
        await p.page.locator('#theory-card').scrollIntoViewIfNeeded();
        await p.page.screenshot({ path: path.join(OUT, 'words-status-dp-nids.png') });
      });
      await t.test('GT-DP\'s rendezvous (the landing of issue 29): the noise warning compares with the ghost only above rounding', async () => {
        await loadPreset(p, 'gtdp-rendezvous');
        const fresh = await p.page.evaluate(() => ({ iter: window.dpsimState.iter, msgs: [...document.querySelectorAll('#messages li')].map((l) => l.textContent) }));
        assert.equal(fresh.iter, 0, 'the chosen preset starts at iteration 0');
        assert.ok(!fresh.msgs.some((m) => /diverged|worse than its start|dominated by its noise/.test(m)), `messages of the run before: ${JSON.stringify(fresh.msgs)}`);
        await p.page.evaluate(() => { window.dpsim.setFast(true); window.dpsim.play(); });
        await waitFor(p, 'the run ended', () => ['done', 'worse', 'diverged'].includes(window.dpsimState.status));
        // Let the ghost catch up and the plot redraw.
        await p.page.evaluate(() => window.dpsim.pause());
        await waitFor(p, 'the ghost', () => window.dpsimState.ghostIter >= window.dpsimState.iter, undefined, 60000);
        await p.page.waitForTimeout(600);
        const r = await p.page.evaluate(() => ({
          floor: window.dpsimState.roundingFloor,
          msgs: [...document.querySelectorAll('#messages li')].map((l) => l.textContent),
        }));
        assert.ok(r.floor > 0, `rounding floor ${r.floor}`);
        for (const m of r.msgs) {
          const x = /is ([0-9.e+−-]+)× the noise-free run's \(([0-9.e+−-]+)/.exec(m);
          if (x) assert.ok(Number(x[2].replace('−', '-')) > r.floor, `a ratio against a ghost at rounding: ${m}`);
        }
        // Which of the two it says depends on how far the ghost had got when
        // it was first said (ui.NoiseWarning, tested natively on the run's end).
        assert.ok(r.msgs.some((m) => /dominated by its noise/.test(m)), `no noise warning: ${JSON.stringify(r.msgs)}`);
      });
    } finally {
      await p.ctx.close();
    }
  });
});
