// compare.js — live comparison (docs/compare.md): pick two or more
// algorithms (or parameter sets of one) to run on the current scenario's
// problem instance, graph and seeds; all advance together, their curves
// overlay in the main plot (page.js's dpsimPlotExtra hook), the view
// animates the entry picked here; "Calibrate all" sets one ε for every
// entry's own accountant and the table reads each ledger's ε back;
// "Privacy–utility" opens the Experiments panel on the generated
// experiment (experiments.js openGenerated, the solver's
// experimentFromJSON). The Go side is ui/comparebridge.go:
// dpsim.loadComparison, comparisonJSON, compareState, compareView,
// calibrateAll, compareStop. window.dpsimCompareState is for tests.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const card = $('cmp-card');
  if (!card) return;

  // Okabe–Ito: distinct for the common colour-vision deficiencies; the
  // yellow (#F0E442) is left out, too pale on white.
  const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#882255'];
  const DASHES = [null, [8, 3], [2, 3], [10, 3, 2, 3], null, [8, 3], [2, 3], [10, 3, 2, 3]];
  const MIN = 2, MAX = 8;

  card.innerHTML = `<h2>Compare <span class="muted">— algorithms on this scenario: same problem, graph and seeds</span></h2>
    <div id="cmp-setup">
      <div class="row">
        <label for="cmp-algo">Algorithm</label>
        <select id="cmp-algo" disabled><option>(loading…)</option></select>
        <button type="button" id="cmp-add" disabled>Add</button>
      </div>
      <p id="cmp-filled" class="cmp-filled muted"></p>
      <ol id="cmp-picked" class="cmp-picked" aria-label="Algorithms to compare"></ol>
      <div class="row">
        <button type="button" id="cmp-start" class="primary" disabled>Compare</button>
        <span id="cmp-at" class="muted"></span>
        <span id="cmp-error" class="field-error" role="alert"></span>
      </div>
      <p id="cmp-dropped" class="cmp-dropped" role="status" aria-live="polite"></p>
      <details id="cmp-unavailable" class="cmp-unavailable" hidden>
        <summary>Not offered on this scenario</summary>
        <ul id="cmp-why"></ul>
      </details>
    </div>
    <div id="cmp-live" hidden>
      <table class="cmp-table">
        <caption class="visually-hidden">Compared algorithms: the view animates the one picked</caption>
        <thead><tr><th scope="col">view</th><th scope="col">algorithm</th><th scope="col" title="The largest ε over agents, read from the entry's own privacy ledger">ε, ledger</th><th scope="col" id="cmp-head-h">error</th><th scope="col" title="iteration">k</th></tr></thead>
        <tbody id="cmp-rows"></tbody>
      </table>
      <p id="cmp-verdict" class="cmp-verdict" role="status" aria-live="polite"></p>
      <div class="row">
        <label for="cmp-eps">Calibrate all to ε</label>
        <input type="number" id="cmp-eps" min="0" step="any" class="mono cmp-eps" placeholder="none">
        <button type="button" id="cmp-cal">Calibrate all</button>
        <span id="cmp-eps-error" class="field-error" role="alert"></span>
      </div>
      <div class="row">
        <button type="button" id="cmp-pu" title="Final error against ε for these algorithms on this scenario, each calibrated to every ε by its own accountant: a sweep in the Experiments panel, on every core">Privacy–utility curve</button>
        <button type="button" id="cmp-stop">Stop comparing</button>
        <span id="cmp-pu-msg" class="field-error" role="alert"></span>
      </div>
    </div>`;

  const algoSel = $('cmp-algo'), addBtn = $('cmp-add'), picked = $('cmp-picked');
  const startBtn = $('cmp-start'), errBox = $('cmp-error');
  const filledBox = $('cmp-filled'), atBox = $('cmp-at'), droppedBox = $('cmp-dropped');
  const unavail = $('cmp-unavailable'), why = $('cmp-why');
  const setup = $('cmp-setup'), live = $('cmp-live'), rows = $('cmp-rows');
  const verdict = $('cmp-verdict'), epsIn = $('cmp-eps'), calBtn = $('cmp-cal'), epsErr = $('cmp-eps-error');
  const puBtn = $('cmp-pu'), puMsg = $('cmp-pu-msg'), stopBtn = $('cmp-stop');

  const state = { on: false, entries: [], view: 0, target: 0, error: '', experiment: '', picks: [], offered: [] };
  window.dpsimCompareState = state;

  let titles = {};   // algorithm kind → title
  // The algorithms that can run on the scenario on screen, each with the
  // entry that runs it there, checked in Go by building it on this base
  // (dpsim.compareCandidates, scenario.Candidates); the others with why.
  let cands = [];
  // [{kind, label, params?, noise?, draws?, own?}]: picks[0] is the run
  // on screen (own), the others come from cands.
  let picks = [];
  let pickedFor = -1; // dpsimState.loads the picks were made for
  let info = null;   // the latest compareState()
  let sig = '';      // labels of the plotted entries

  const short = (t) => (t || '').replace(/ \(.*$/, '');
  const fmt = (v) => (v == null ? '—' : window.dpsimPlot.fmt(v));

  // ------------------------------------------------------- plot hook

  window.dpsimPlotExtra = {
    sig: () => sig,
    hideOwn: true,
    series(fmtv) {
      if (!info) return [];
      return info.entries.map((e, i) => ({
        label: e.label, scale: 'y', stroke: COLORS[i % COLORS.length], width: i === info.view ? 2.6 : 1.8,
        dash: DASHES[i % DASHES.length] || undefined, spanGaps: false, points: { show: false }, value: fmtv,
      }));
    },
    data(m) {
      const n = m.iter.length;
      const cols = m.compare || [];
      return (info ? info.entries : []).map((_, i) => (cols[i] ? cols[i] : new Array(n).fill(null)));
    },
  };

  // ------------------------------------------------------- picking

  function currentScenario() {
    try { return JSON.parse(window.dpsim.scenario() || 'null'); } catch (e) { return null; }
  }

  const runnable = () => cands.filter((c) => c.entry);
  const candOf = (kind) => cands.find((c) => c.kind === kind && c.entry);

  // A pick of candidate c: its entry as Go built it on this base.
  function pickOf(c, label) {
    return { kind: c.kind, label: label || '', params: c.entry.params, noise: c.entry.noise, draws: c.entry.draws };
  }

  // syncPicks makes the picks fit the scenario on screen, after every
  // build (a preset, a seed, Reset, the Target ε box): entry 1 becomes
  // the run on screen; the added entries are kept, re-made for this base,
  // when their algorithm still runs here, and the others are removed
  // with the reason said — never silently. The first time, the run on
  // screen and the first other algorithm that runs here (and can be
  // calibrated) are picked, so that Compare works on the first click.
  function syncPicks() {
    const s = currentScenario();
    if (!s || !s.algorithm) { picks = []; renderPicks(); return; }
    const own = { kind: s.algorithm.kind, label: '', params: s.algorithm.params, noise: s.noise, draws: s.algorithm.draws, own: true };
    const dropped = [];
    if (picks.length === 0) {
      const other = runnable().find((c) => c.kind !== own.kind && !c.note) || runnable().find((c) => c.kind !== own.kind);
      picks = other ? [own, pickOf(other)] : [own];
    } else {
      const kept = [];
      for (const p of picks.slice(1)) {
        const c = candOf(p.kind);
        if (c) kept.push(pickOf(c, p.label));
        else dropped.push(p);
      }
      picks = [own, ...kept];
    }
    droppedBox.textContent = dropped.length
      ? 'Removed from the comparison: ' + dropped.map((p) => {
        const c = cands.find((x) => x.kind === p.kind);
        return `${short(titles[p.kind] || p.kind)} (cannot run on this scenario: ${(c && c.reason) || 'the page could not check the algorithms on it'})`;
      }).join('; ') + '.'
      : '';
    renderPicks();
  }

  function renderPicks() {
    picked.replaceChildren();
    picks.forEach((p, i) => {
      const li = document.createElement('li');
      li.style.setProperty('--swatch', COLORS[i % COLORS.length]);
      const id = `cmp-label-${i}`;
      li.innerHTML = `<span class="cmp-swatch" aria-hidden="true"></span>
        <span class="cmp-kind"></span>
        <label for="${id}" class="visually-hidden">Label of entry ${i + 1}</label>
        <input type="text" id="${id}" class="cmp-label" maxlength="80">
        <button type="button" class="link cmp-remove" aria-label="Remove entry ${i + 1}">×</button>`;
      li.querySelector('.cmp-kind').textContent = short(titles[p.kind] || p.kind) + (p.own ? ' (this run)' : '');
      const inp = li.querySelector('input');
      inp.value = p.label;
      inp.placeholder = short(titles[p.kind] || p.kind);
      inp.addEventListener('input', () => { p.label = inp.value; });
      li.querySelector('button').addEventListener('click', () => { picks.splice(i, 1); renderPicks(); });
      picked.append(li);
    });
    addBtn.disabled = picks.length >= MAX || !algoSel.value;
    startBtn.disabled = picks.length < MIN;
    state.picks = picks.map((p) => p.kind);
    state.offered = runnable().map((c) => c.kind);
    errBox.textContent = picks.length < MIN ? '' : errBox.textContent;
    // The ε the comparison will run at: the scenario's own target.
    const s = currentScenario();
    const eps = s && s.calibrate && s.calibrate.epsilon;
    atBox.textContent = eps ? `every entry calibrated to ε = ${fmt(eps)}` : '';
  }

  // fillAlgorithms offers the algorithms that run on the scenario on
  // screen, and lists the others with the reason.
  // It returns false while the Worker that computes the run on screen
  // is still checking them (compareCandidates() is null: ask again; the
  // card offers nothing meanwhile, and drops no pick).
  function fillAlgorithms() {
    let plugins, got;
    try {
      plugins = JSON.parse(window.dpsim.plugins());
      got = JSON.parse(window.dpsim.compareCandidates());
    } catch (e) { return true; }
    state.checking = got === null;
    if (got === null) {
      algoSel.replaceChildren();
      algoSel.disabled = true;
      addBtn.disabled = startBtn.disabled = true;
      filledBox.textContent = 'Checking which algorithms run on this scenario, in the background thread that runs it…';
      return false;
    }
    cands = got;
    for (const a of plugins.algorithms) titles[a.name] = a.title;
    const keep = algoSel.value;
    algoSel.replaceChildren();
    const s = currentScenario();
    const ownKind = s && s.algorithm && s.algorithm.kind;
    const offer = runnable().slice().sort((a, b) => (a.kind === ownKind) - (b.kind === ownKind));
    for (const c of offer) {
      const o = document.createElement('option');
      o.value = c.kind;
      o.textContent = short(titles[c.kind] || c.title) + ` (${c.kind})`;
      algoSel.append(o);
    }
    if (offer.some((c) => c.kind === keep)) algoSel.value = keep;
    algoSel.disabled = offer.length === 0;
    why.replaceChildren();
    for (const c of cands.filter((x) => !x.entry)) {
      const li = document.createElement('li');
      li.textContent = `${short(titles[c.kind] || c.title)}: ${c.reason}`;
      why.append(li);
    }
    unavail.hidden = why.children.length === 0;
    describeChoice();
    return true;
  }

  // describeChoice says what the chosen algorithm's entry takes from
  // elsewhere than its defaults.
  function describeChoice() {
    const c = candOf(algoSel.value);
    filledBox.textContent = c && c.filled && c.filled.length ? 'Filled in: ' + c.filled.join('; ') + '.' : '';
    addBtn.disabled = picks.length >= MAX || !c;
  }
  algoSel.addEventListener('change', describeChoice);

  addBtn.addEventListener('click', () => {
    const c = candOf(algoSel.value);
    if (picks.length >= MAX || !c) return;
    picks.push(pickOf(c));
    renderPicks();
  });

  // The comparison of the picks on the page's current scenario.
  function comparisonText() {
    const base = currentScenario();
    if (!base) throw new Error('no scenario is loaded');
    const compare = picks.map((p) => {
      const e = { kind: p.kind };
      if (p.label.trim()) e.label = p.label.trim();
      if (p.params !== undefined && p.params !== null) e.params = p.params;
      if (p.noise) e.noise = p.noise;
      if (p.draws) e.draws = p.draws;
      return e;
    });
    return JSON.stringify({ format: 'dpsim-compare/1', base, compare });
  }

  function announce() {
    let json = '', comparison = '';
    try { json = window.dpsim.scenario() || ''; comparison = window.dpsim.comparisonJSON() || ''; } catch (e) { /* not ready */ }
    window.dispatchEvent(new CustomEvent('dpsim-scenario', { detail: { json, comparison } }));
  }

  // apply runs a bridge call that rebuilds the comparison and shows its
  // one-line error in box, or refreshes the card and tells listeners.
  function apply(box, fn) {
    box.textContent = '';
    let r;
    try { r = fn(); } catch (e) { r = { ok: false, error: String(e && e.message || e) }; }
    if (!r || !r.ok) { box.textContent = (r && r.error) || 'failed'; state.error = box.textContent; return false; }
    state.error = '';
    refresh(true);
    announce();
    return true;
  }

  startBtn.addEventListener('click', () => {
    apply(errBox, () => window.dpsim.loadComparison(comparisonText()));
  });
  stopBtn.addEventListener('click', () => {
    apply(puMsg, () => window.dpsim.compareStop());
  });

  // Calibrate all: empty removes every calibration.
  calBtn.addEventListener('click', () => {
    const text = epsIn.value.trim();
    const v = text === '' ? 0 : Number(text);
    if (text !== '' && !(v > 0 && Number.isFinite(v))) {
      epsErr.textContent = `target ε: must be a number > 0, or empty for none (got ${text})`;
      return;
    }
    apply(epsErr, () => window.dpsim.calibrateAll(v));
  });
  epsIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') calBtn.click(); });

  puBtn.addEventListener('click', async () => {
    puMsg.textContent = '';
    const exp = window.dpsimExperiments;
    if (!exp) { puMsg.textContent = 'the Experiments panel is not on this page'; return; }
    try {
      state.experiment = await exp.openGenerated(window.dpsim.comparisonJSON());
    } catch (e) {
      puMsg.textContent = String(e && e.message || e);
    }
  });

  rows.addEventListener('change', (e) => {
    if (e.target.name !== 'cmp-view') return;
    apply(errBox, () => window.dpsim.compareView(Number(e.target.value)));
  });

  // ------------------------------------------------------- the live card

  function refresh(force) {
    let text = '';
    try { text = window.dpsim.compareState() || ''; } catch (e) { return; }
    info = text ? JSON.parse(text) : null;
    state.on = !!info;
    const newSig = info ? info.entries.map((e) => e.label).join('\u0001') : '';
    sig = newSig;
    setup.hidden = !!info;
    const plotBox = $('plot');
    if (plotBox) plotBox.classList.toggle('cmp-on', !!info);
    live.hidden = !info;
    if (!info) { state.entries = []; return; }
    state.entries = info.entries;
    state.view = info.view;
    state.target = info.target;
    if (force || rows.children.length !== info.entries.length) buildRows();
    info.entries.forEach((e, i) => {
      const tr = rows.children[i];
      tr.querySelector('.cmp-e').textContent = e.epsilonText + (e.calibrated ? '' : ' ·');
      tr.querySelector('.cmp-e').title = e.calibrated ? `calibrated to ε = ${info.target}` : (e.note || 'not calibrated');
      tr.querySelector('.cmp-h').textContent = fmt(e.headline);
      tr.querySelector('.cmp-i').textContent = `${e.iter}/${e.iterations}`;
      tr.querySelector('input').checked = i === info.view;
      tr.classList.toggle('viewed', i === info.view);
    });
    renderVerdict();
  }

  function buildRows() {
    rows.replaceChildren();
    info.entries.forEach((e, i) => {
      const tr = document.createElement('tr');
      tr.style.setProperty('--swatch', COLORS[i % COLORS.length]);
      tr.innerHTML = `<td><input type="radio" name="cmp-view" value="${i}" aria-label="Show ${''} in the view"></td>
        <td><span class="cmp-swatch" aria-hidden="true"></span><span class="cmp-name"></span></td>
        <td class="mono cmp-e"></td><td class="mono cmp-h"></td><td class="mono cmp-i"></td>`;
      tr.querySelector('.cmp-name').textContent = e.label;
      tr.querySelector('input').setAttribute('aria-label', `Show ${e.label} in the view`);
      rows.append(tr);
    });
    if (document.activeElement !== epsIn) epsIn.value = info.target > 0 ? String(info.target) : '';
  }

  // renderVerdict says whether the ledgers agree on ε, and names every
  // entry that could not be calibrated, with the reason.
  function renderVerdict() {
    const es = info.entries;
    const parts = [];
    const cal = es.filter((e) => e.calibrated);
    const not = es.filter((e) => !e.calibrated);
    if (info.target > 0) {
      const done = cal.every((e) => e.iter >= e.iterations);
      const eq = cal.length > 0 && cal.every((e) => e.epsilon != null && Math.abs(e.epsilon - info.target) <= 1e-6 * info.target);
      if (cal.length) {
        parts.push(done
          ? (eq ? `Equal ε: the ledgers of ${cal.map((e) => e.label).join(', ')} report ε = ${fmt(info.target)} after the run.`
            : `The ledgers do not agree with the target ε = ${fmt(info.target)}: ${cal.map((e) => `${e.label} ${e.epsilonText}`).join(', ')}.`)
          : `Calibrated to ε = ${fmt(info.target)}: each ledger is checked when the run ends.`);
      }
      for (const e of not) parts.push(`Not calibrated: ${e.label} — ${e.note || 'no target'}.`);
    } else {
      parts.push('Not calibrated: each entry runs with its noise as written; "Calibrate all" puts them at one ε.');
    }
    const t = parts.join(' ');
    if (verdict.textContent !== t) verdict.textContent = t;
    const h = lastHeadline();
    $('cmp-head-h').textContent = h;
  }

  function lastHeadline() { const s = window.dpsimState; return s && s.headline === 'stationarity' ? 'stationarity' : 'optimality'; }

  // ------------------------------------------------------- lifecycle

  let lastLoads = -1, lastPoll = 0, lastAsk = 0;
  function tick(now) {
    const s = window.dpsimState;
    // After the simulator's first frame (page.js): the lists are not
    // needed to draw it.
    if (window.dpsim && s && s.ready && window.dpsimFirstFrame) {
      // The picks are made for a build once its candidates are known
      // (a Worker's answer may take a moment: asked again every 200 ms).
      const pick = () => { lastAsk = now; if (fillAlgorithms()) { pickedFor = s.loads; syncPicks(); } };
      if (s.loads !== lastLoads) {
        lastLoads = s.loads;
        refresh(true);
        if (!state.on && pickedFor !== s.loads) pick();
      } else if (!state.on && pickedFor !== s.loads && now - lastAsk > 200) {
        pick();
      } else if (state.on && now - lastPoll > 250) {
        lastPoll = now;
        refresh(false);
      }
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
