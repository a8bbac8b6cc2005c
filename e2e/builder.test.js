'use strict';
// End-to-end tests of the scenario builder (issue 21 point 2,
// docs/builder.md): the form lists every plug-in of the catalog the page
// itself reports (dpsim.builderCatalog(), walked here, not a list); every
// algorithm and problem picked with its defaults gives a scenario that
// validates (a handful built and loaded); an invalid field shows its
// error beside it while two others show theirs; the JSON editor follows
// the form and the form the editor; a broken scenario never replaces the
// run. Screenshots at 1280×720 and 390×844 in e2e/out/.
//
//   node --test e2e/builder.test.js     (after ./build.sh)
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { OUT, built, open: openPage, waiter } = require('./harness.js');

const waitFor = waiter({
  timeout: Number(process.env.E2E_TIMEOUT) || 60000, polling: 50,
  state: () => JSON.stringify({ error: window.dpsimState.error, scenario: window.dpsimState.scenario,
    editor: document.getElementById('scenario-msg').textContent,
    builder: document.querySelector('#builder .bf-summary') && document.querySelector('#builder .bf-summary').textContent,
    errors: [...document.querySelectorAll('#builder .bf-error')].map((e) => e.textContent),
    messages: [...document.querySelectorAll('#messages li')].map((e) => e.textContent).slice(0, 4) }),
});

before(() => built(['index.html', 'page.js', 'builder.js', 'wasm_exec.js', 'dpsim.wasm']));

async function open(viewport, scale = 1) {
  // From GT-DP's rendezvous: the landing's calibrated DP-RECAL would ask
  // every noise-free algorithm picked for its target ε.
  const p = await openPage('?preset=gtdp-rendezvous', { viewport, scale });
  await waitFor(p, 'the builder', () => window.dpsimState && window.dpsimState.draws > 2 && document.querySelector('#builder[data-ready]'));
  await p.page.click('#builder-box > summary'); // closed by default
  return p;
}

// The builder's current scenario and the loaded one, as objects.
const formJSON = (page) => page.evaluate(() => JSON.parse(window.dpsimBuilder.json()));
const loadedJSON = (page) => page.evaluate(() => JSON.parse(window.dpsim.scenario()));
// validate runs the page's own check on the builder's scenario.
const validate = (page) => page.evaluate(() => JSON.parse(window.dpsim.validate(window.dpsimBuilder.json())));

async function pick(p, section, kind) {
  const sel = `select[data-section="${section}"]`;
  await p.page.selectOption(sel, kind);
  await waitFor(p, `${section} ${kind} in the form`, ([s, k]) => {
    const m = JSON.parse(window.dpsimBuilder.json());
    return s.split('.').reduce((v, key) => (v && v[key]), m)?.kind === k;
  }, [section, kind]);
}

async function build(p, check, arg) {
  await p.page.click('#builder-build');
  await waitFor(p, 'the build to load', check, arg);
}

const options = (page, section) => page.$$eval(`select[data-section="${section}"] option`, (os) => os.map((o) => o.value).filter(Boolean));

describe('the builder at 1280×720', () => {
  let p;
  let catalog;
  before(async () => {
    p = await open({ width: 1280, height: 720 });
    catalog = JSON.parse(await p.page.evaluate(() => window.dpsim.builderCatalog()));
  });
  after(async () => { if (p) await p.ctx.close(); });

  test('the form lists every plug-in of the catalog', async () => {
    assert.ok(catalog.algorithms.length >= 10 && catalog.problems.length >= 5, 'a catalog');
    assert.deepEqual(await options(p.page, 'algorithm'), catalog.algorithms.map((a) => a.name));
    assert.deepEqual(await options(p.page, 'problem'), catalog.problems.map((a) => a.name));
    assert.deepEqual(await options(p.page, 'graph'), catalog.graphs.map((a) => a.name));
    const form = await formJSON(p.page);
    const alg = catalog.algorithms.find((a) => a.name === form.algorithm.kind);
    const wsec = alg.roles ? 'weights.' + alg.roles[0].role : 'weights';
    assert.deepEqual(await options(p.page, wsec), catalog.weights.map((a) => a.name));
    // Every field of the scenario's own: iterations with its unit and range.
    const it = await p.page.$eval('[data-field="iterations"]', (e) => e.textContent);
    assert.match(it, /iterations.*\[1, 1e7\]/);
  });

  test('every algorithm and every problem picked with its defaults validates; a handful run', async () => {
    const built = new Set(['gt-dp', 'dpop', 'diadsp', 'dp-dgt', 'dp-admm']);
    for (const a of catalog.algorithms) {
      await pick(p, 'algorithm', a.name);
      // Its parameters and noise channels are drawn, from the catalog.
      for (const f of a.params) {
        assert.ok(await p.page.$(`[data-field="algorithm.params.${f.name}"]`), `${a.name}: no field for ${f.name}`);
      }
      for (const c of a.channels) {
        assert.ok(await p.page.$(`[data-field="noise.${c.name}"]`), `${a.name}: no noise channel ${c.name}`);
      }
      const r = await validate(p.page);
      assert.deepEqual(r.errors, [], `${a.name}: ${JSON.stringify(r.errors)}`);
      if (built.has(a.name)) {
        await build(p, (k) => JSON.parse(window.dpsim.scenario()).algorithm.kind === k && !window.dpsimState.error, a.name);
        assert.equal((await loadedJSON(p.page)).algorithm.kind, a.name);
      }
    }
    for (const pr of catalog.problems) {
      await pick(p, 'problem', pr.name);
      for (const f of pr.params) {
        assert.ok(await p.page.$(`[data-field^="problem.params.${f.name}"]`), `${pr.name}: no field for ${f.name}`);
      }
      const r = await validate(p.page);
      assert.deepEqual(r.errors, [], `${pr.name}: ${JSON.stringify(r.errors)}`);
    }
    for (const g of catalog.graphs) {
      await pick(p, 'graph', g.name);
      const r = await validate(p.page);
      assert.deepEqual(r.errors.filter((e) => !e.path.startsWith('graph') && !e.path.startsWith('weights')), [], `graph ${g.name}: ${JSON.stringify(r.errors)}`);
    }
  });

  test('three errors at once, each beside its field; a broken scenario does not replace the run', async () => {
    await p.page.selectOption('#preset', 'gtdp-rendezvous');
    await waitFor(p, 'the preset', () => window.dpsimState.scenario === 'gtdp-rendezvous');
    await p.page.click('#builder-current');
    await waitFor(p, 'the form to follow', () => JSON.parse(window.dpsimBuilder.json()).name === 'gtdp-rendezvous');
    const before = await p.page.evaluate(() => window.dpsim.scenario());

    await p.page.fill('input[data-path="iterations"]', '0');
    await p.page.fill('input[data-path="algorithm.params.alpha"]', '-1');
    await p.page.fill('input[data-path="noise.eta.scale"]', '-2');
    await waitFor(p, 'three errors', () => document.querySelectorAll('#builder .bf-error').length >= 3 && !document.querySelector('#builder[data-pending]'));
    for (const [field, got] of [['iterations', '(got 0)'], ['algorithm.params.alpha', '(got -1)'], ['noise.eta.scale', '-2']]) {
      // The error sits in the field's own row, beside its input.
      const text = await p.page.$eval(`.bf-field[data-field="${field}"]`, (row) => {
        const err = row.querySelector('.bf-msg .bf-error');
        return err && row.contains(row.querySelector('input')) ? err.textContent : '';
      });
      assert.ok(text.includes(got), `${field}: ${JSON.stringify(text)}`);
      assert.ok(!text.includes('\n'), `${field}: one line`);
    }
    assert.match(await p.page.textContent('#builder .bf-summary'), /3 errors/);
    await p.page.evaluate(() => { document.getElementById('builder').scrollIntoView(); window.scrollBy(0, -110); });
    await p.page.screenshot({ path: path.join(OUT, 'builder-1280x720.png') });
    // The JSON editor follows the form.
    const edited = JSON.parse(await p.page.inputValue('#scenario-text'));
    assert.equal(edited.iterations, 0);
    assert.equal(edited.algorithm.params.alpha, -1);
    assert.equal(edited.noise.eta.scale, -2);
    // Build refuses; the loaded scenario and its run stay.
    await p.page.click('#builder-build');
    assert.equal(await p.page.evaluate(() => window.dpsim.scenario()), before);
    assert.equal(await p.page.evaluate(() => window.dpsimState.scenario), 'gtdp-rendezvous');
    // A gradient bound of 5e-324 made the ledger read ε = 0: its error
    // sits beside it too, one line naming the rule and the value.
    await p.page.fill('input[data-path="algorithm.params.gradient_bound"]', '5e-324');
    const floor = '.bf-field[data-field="algorithm.params.gradient_bound"] .bf-msg .bf-error';
    await waitFor(p, 'the floor\'s error', (sel) => document.querySelector(sel) && !document.querySelector('#builder[data-pending]'), floor);
    const text = await p.page.textContent(floor);
    assert.match(text, /must be 0 or at least 1e-100 in magnitude \(got 5e-324\)/);
    assert.ok(!text.includes('\n'), 'one line');
    await p.page.fill('input[data-path="algorithm.params.gradient_bound"]', '60');
    await waitFor(p, 'the floor\'s error to go', (sel) => !document.querySelector(sel) && !document.querySelector('#builder[data-pending]'), floor);
  });

  test('the form follows the JSON editor; invalid JSON leaves it as it was', async () => {
    const box = await p.page.$('#scenario-box');
    await box.evaluate((d) => { d.open = true; });
    const m = await formJSON(p.page);
    m.iterations = 1500; // record.checkpoints holds 1000
    m.algorithm.params.alpha = 0.05;
    await p.page.fill('#scenario-text', JSON.stringify(m, null, 2));
    await waitFor(p, 'the form to follow the editor',
      () => document.querySelector('input[data-path="iterations"]').value === '1500');
    assert.equal(await p.page.inputValue('input[data-path="algorithm.params.alpha"]'), '0.05');
    // noise.eta.scale is still -2: its error stays beside it, the others went.
    await waitFor(p, 'one error left', () => document.querySelectorAll('#builder .bf-error').length === 1);
    await p.page.fill('#scenario-text', '{\n  "name": "x",,\n  "iterations": 5\n}');
    await waitFor(p, 'the parse error', () => /line 2/.test(document.getElementById('builder-json-msg').textContent));
    assert.equal(await p.page.inputValue('input[data-path="iterations"]'), '1500');
    assert.equal((await formJSON(p.page)).iterations, 1500);
    await p.page.evaluate(() => { document.getElementById('scenario-box').scrollIntoView(); window.scrollBy(0, -110); });
    await p.page.screenshot({ path: path.join(OUT, 'builder-json-1280x720.png') });
  });

  test('the four stream seeds are fields: seed and seeds together, or seeds half given, are errors beside them; a new noise seed keeps the graph', async () => {
    await p.page.selectOption('#preset', 'gtdp-rendezvous');
    await waitFor(p, 'the preset', () => window.dpsimState.scenario === 'gtdp-rendezvous');
    await p.page.click('#builder-current');
    await waitFor(p, 'the form to follow', () => JSON.parse(window.dpsimBuilder.json()).name === 'gtdp-rendezvous');
    for (const k of ['data', 'graph', 'noise', 'algorithm']) assert.ok(await p.page.$(`input[data-path="seeds.${k}"]`), `a field for seeds.${k}`);
    await p.page.fill('input[data-path="seeds.noise"]', '7');
    await waitFor(p, 'the missing stream seeds beside seeds', () => {
      const fields = [...document.querySelectorAll('#builder .bf-error')].map((e) => e.closest('[data-field]').dataset.field);
      return fields.length === 1 && fields[0] === 'seeds' && /give all of/.test(document.querySelector('#builder .bf-error').textContent) &&
        !document.querySelector('#builder[data-pending]');
    });
    for (const [k, v] of [['data', '1'], ['graph', '1'], ['algorithm', '1']]) await p.page.fill(`input[data-path="seeds.${k}"]`, v);
    await waitFor(p, 'the seed conflict beside seed', () => {
      const row = document.querySelector('.bf-field[data-field="seed"] .bf-msg');
      return row && /not both/.test(row.textContent) && !document.querySelector('#builder[data-pending]');
    });
    await p.page.fill('input[data-path="seed"]', '');
    await waitFor(p, 'no error', () => document.querySelectorAll('#builder .bf-error').length === 0 && !document.querySelector('#builder[data-pending]'));
    const m = await formJSON(p.page);
    assert.equal(m.seed, undefined);
    assert.deepEqual(m.seeds, { data: 1, graph: 1, noise: 7, algorithm: 1 });
    await p.page.evaluate(() => { document.querySelector('[data-field="seeds"]').scrollIntoView(); window.scrollBy(0, -140); });
    await p.page.screenshot({ path: path.join(OUT, 'builder-seeds-1280x720.png') });
  });
});

describe('the builder on a phone, 390×844', () => {
  test('fits the width, errors beside their fields', async () => {
    const p = await open({ width: 390, height: 844 }, 2);
    try {
      await p.page.fill('input[data-path="iterations"]', '-5');
      await waitFor(p, 'the error', () => document.querySelector('.bf-field[data-field="iterations"] .bf-error'));
      const over = await p.page.evaluate(() => {
        const b = document.getElementById('builder').getBoundingClientRect();
        return { right: b.right, page: document.documentElement.scrollWidth };
      });
      assert.ok(over.right <= 390 && over.page <= 390, JSON.stringify(over));
      await p.page.evaluate(() => document.querySelector('.bf-field[data-field="iterations"]').scrollIntoView({ block: 'center' }));
      await p.page.screenshot({ path: path.join(OUT, 'builder-390x844.png') });
    } finally {
      await p.ctx.close();
    }
  });
});
