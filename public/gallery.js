// gallery.js — the gallery of paper figures (gallery.html): every
// experiment preset that reproduces a paper figure, grouped by paper,
// with its title, the paper's claims and each claim's verdict, and a link
// that opens it in the Experiments panel (experiments.html?experiment=).
//
// The list is the solver's own (solver.wasm's presets(), in a Web Worker,
// as the Experiments panel reads it): a new figure preset appears here
// without page changes. The verdicts are the user's: the Experiments
// panel keeps the last sweep of each experiment in this browser
// (IndexedDB "dpsim", store "sweeps", key "exp:<name>"); a figure never
// swept here says "not run yet". (No verdicts are computed at build time:
// a sweep of every figure, even at reduced runs, trains CNNs on CIFAR-10
// and takes far longer than build.sh may; docs/accessibility.md.)
//
// Tests read window.dpsimGallery: {status, figures, papers, error}.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const statusEl = $('gal-status');
  const root = $('gallery');
  const toc = $('gal-toc');
  const state = { status: 'loading', figures: [], papers: [], others: 0, error: '' };
  window.dpsimGallery = state;

  // presets asks a solver worker for the experiment presets, then lets
  // it go.
  async function presets() {
    const resp = await fetch('solver.wasm');
    if (!resp.ok) throw new Error(`solver.wasm: HTTP ${resp.status} (run ./build.sh)`);
    let module;
    try {
      module = await WebAssembly.compileStreaming(resp.clone());
    } catch (e) {
      module = await WebAssembly.compile(await resp.arrayBuffer());
    }
    const w = new Worker('sweep-worker.js');
    let seq = 0;
    const ask = (cmd, data = {}) => new Promise((resolve, reject) => {
      const id = ++seq;
      const on = (e) => {
        if (e.data.id !== id || e.data.progress) return;
        w.removeEventListener('message', on);
        if (e.data.ok) resolve(e.data.value); else reject(new Error(e.data.error));
      };
      w.addEventListener('message', on);
      w.onerror = (e) => reject(new Error('worker: ' + (e.message || 'failed')));
      w.postMessage({ id, cmd, ...data });
    });
    try {
      await ask('init', { module });
      return await ask('presets');
    } finally {
      w.terminate();
    }
  }

  // kept returns the sweeps the Experiments panel kept in this browser,
  // by experiment name ({} when storage is off or nothing is kept).
  async function kept(names) {
    const out = {};
    if (!window.indexedDB) return out;
    let db;
    try {
      db = await new Promise((resolve, reject) => {
        const req = indexedDB.open('dpsim', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('sweeps'); // as experiments.js
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    } catch (e) {
      return out;
    }
    try {
      await new Promise((resolve, reject) => {
        const tx = db.transaction('sweeps', 'readonly');
        const st = tx.objectStore('sweeps');
        for (const key of ['last', ...names.map((n) => 'exp:' + n)]) {
          const req = st.get(key);
          req.onsuccess = () => {
            const v = req.result;
            if (!v || !v.figure || !v.name) return;
            // An experiment's own entry wins over 'last' (older pages kept
            // only 'last').
            if (key !== 'last' || !out[v.name]) out[v.name] = v;
          };
        }
        tx.oncomplete = resolve;
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    } catch (e) { /* nothing readable: not run yet */ }
    db.close();
    return out;
  }

  const el = (tag, props = {}, ...kids) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...kids);
    return e;
  };

  const VERDICT_CLASS = { 'holds': 'holds', 'does not hold': 'fails' };

  // slug makes an id from a paper's name.
  const slug = (s, i) => 'paper-' + i + '-' + s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);

  function render(list, sweeps) {
    const figs = list.filter((p) => p.paper);
    state.others = list.length - figs.length;
    const byPaper = new Map();
    for (const p of figs) {
      if (!byPaper.has(p.paper)) byPaper.set(p.paper, []);
      byPaper.get(p.paper).push(p);
    }
    root.replaceChildren();
    toc.replaceChildren(el('span', { className: 'muted', textContent: 'Papers: ' }));
    let i = 0;
    for (const [paper, items] of byPaper) {
      const id = slug(paper, i++);
      if (i > 1) toc.append(' · ');
      toc.append(el('a', { href: '#' + id, textContent: paper }));
      const sec = el('section', { className: 'card gal-paper', id });
      sec.setAttribute('aria-labelledby', id + '-h');
      sec.append(el('h2', { id: id + '-h', textContent: paper }));
      const ul = el('ul', { className: 'gal-list' });
      for (const p of items) ul.append(item(p, sweeps[p.name]));
      sec.append(ul);
      root.append(sec);
    }
    toc.hidden = byPaper.size === 0;
    state.figures = figs.map((p) => p.name);
    state.papers = [...byPaper.keys()];
  }

  // The Experiments panel's colours, in its order.
  const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];

  // thumb draws a kept sweep's curves small (no axes, no bands: a
  // reminder of the figure, not a reading of it), or returns null.
  function thumb(fd) {
    const W = 168, H = 64, pad = 3;
    const okX = (v) => v != null && isFinite(v) && (!fd.x_log || v > 0);
    const okY = (v) => v != null && isFinite(v) && (!fd.y_log || v > 0);
    const tx = (v) => (fd.x_log ? Math.log10(v) : v);
    const ty = (v) => (fd.y_log ? Math.log10(v) : v);
    const pts = (fd.series || []).map((se) => se.x.map((x, i) => [x, se.y[i]]).filter(([x, y]) => okX(x) && okY(y)).map(([x, y]) => [tx(x), ty(y)]));
    const all = pts.flat();
    if (all.length < 2) return null;
    const [x0, x1] = [Math.min(...all.map((q) => q[0])), Math.max(...all.map((q) => q[0]))];
    const [y0, y1] = [Math.min(...all.map((q) => q[1])), Math.max(...all.map((q) => q[1]))];
    const sx = (v) => pad + (x1 > x0 ? (v - x0) / (x1 - x0) : 0.5) * (W - 2 * pad);
    const sy = (v) => H - pad - (y1 > y0 ? (v - y0) / (y1 - y0) : 0.5) * (H - 2 * pad);
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('width', W);
    svg.setAttribute('height', H);
    svg.setAttribute('class', 'gal-thumb');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `thumbnail of your sweep: ${pts.length} curve${pts.length === 1 ? '' : 's'} (${fd.series.map((se) => se.label).join('; ')})`);
    pts.forEach((q, k) => {
      if (!q.length) return;
      const pl = document.createElementNS(NS, 'polyline');
      pl.setAttribute('points', q.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' '));
      pl.setAttribute('fill', 'none');
      pl.setAttribute('stroke', COLORS[k % COLORS.length]);
      pl.setAttribute('stroke-width', '1.5');
      svg.append(pl);
    });
    return svg;
  }

  function item(p, kept) {
    const li = el('li', { className: 'gal-item' });
    li.dataset.experiment = p.name;
    const h = el('h3', { className: 'gal-title' }, el('span', { className: 'gal-fig', textContent: p.figure }), ' ', p.title);
    li.append(h, el('p', { className: 'gal-name muted mono', textContent: p.name }));
    const t = kept && thumb(kept.figure);
    if (t) li.append(t);
    const verdicts = kept ? kept.figure.verdicts || [] : [];
    const claims = el('ul', { className: 'exp-verdicts gal-claims' });
    claims.setAttribute('aria-label', 'claims of ' + p.name);
    for (const c of p.claims || []) {
      const v = verdicts.find((x) => x.claim === c);
      const badge = el('span', {
        className: 'exp-verdict ' + (v ? VERDICT_CLASS[v.verdict] || 'inconclusive' : 'notrun'),
        textContent: v ? v.verdict : 'not run yet',
      });
      const row = el('li', {}, badge, ' ', c);
      if (v && v.summary) row.append(el('span', { className: 'muted', textContent: ' — ' + v.summary }));
      claims.append(row);
    }
    if (!(p.claims || []).length) claims.append(el('li', { className: 'muted', textContent: 'No claim checked: the figure is drawn for comparison.' }));
    li.append(claims);
    const open = el('a', { className: 'gal-open', href: 'experiments.html?experiment=' + encodeURIComponent(p.name) });
    open.textContent = kept ? 'Open it in the Experiments panel' : 'Not run yet — run it in the Experiments panel';
    open.setAttribute('aria-label', (kept ? 'Open ' : 'Run ') + p.name + ' in the Experiments panel');
    // What dpsim measured at the preset's full run count, as the paper's
    // doc records it (doc.html highlights the passage).
    const doc = el('a', { className: 'gal-doc', href: `doc.html?experiment=${encodeURIComponent(p.name)}${p.figure ? '&fig=' + encodeURIComponent(p.figure) : ''}` });
    doc.textContent = 'the measured verdicts in docs/';
    doc.setAttribute('aria-label', `What docs/ records of ${p.name}`);
    const foot = el('p', { className: 'gal-foot' }, open, ' · ', doc);
    if (kept) {
      foot.append(el('span', {
        className: 'muted',
        textContent: ` · verdicts of your ${kept.partial ? 'partial ' : ''}sweep of ${new Date(kept.at).toLocaleString()}`,
      }));
    }
    li.append(foot);
    return li;
  }

  async function load() {
    try {
      const list = await presets();
      const sweeps = await kept(list.map((p) => p.name));
      render(list, sweeps);
      const n = Object.keys(sweeps).filter((k) => state.figures.includes(k)).length;
      statusEl.textContent = `${state.figures.length} figures from ${state.papers.length} papers; ` +
        `${n} swept in this browser. ${state.others} other experiments are in the Experiments panel.`;
      state.status = 'ready';
    } catch (e) {
      state.status = 'error';
      state.error = String(e && e.message || e);
      statusEl.textContent = 'Could not list the figures: ' + state.error;
      statusEl.classList.add('error');
    }
  }
  load();
})();
