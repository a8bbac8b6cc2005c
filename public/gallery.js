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
// swept here says "not run yet".
//
// Each swept figure is shown as its picture: the PNG the solver draws
// from the kept sweep's figure data (figureData, the same bytes as
// "dpsim sweep" writes for that result). Pictures are not rendered at
// build time: a sweep of every figure, even at one run per point, trains
// CNNs on MNIST and CIFAR-10 and took 5–60 s a figure natively (minutes
// in all, far longer than build.sh may), and a picture of one run per
// point would show neither the paper's run counts nor its bands. The
// picture is the user's own sweep, at the runs per point it says.
// (docs/accessibility.md.)
//
// Papers are named by their title and authors (experiment.Papers).
//
// Tests read window.dpsimGallery: {status, figures, papers, pictures, error}.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const statusEl = $('gal-status');
  const root = $('gallery');
  const toc = $('gal-toc');
  const state = { status: 'loading', figures: [], papers: [], others: 0, pictures: 0, error: '' };
  window.dpsimGallery = state;

  // solver starts a solver worker and returns {ask, close}.
  async function solver() {
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
    } catch (e) {
      w.terminate();
      throw e;
    }
    return { ask, close: () => w.terminate() };
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
      const title = items[0].paper_title || paper;
      if (i > 1) toc.append(' · ');
      toc.append(el('a', { href: '#' + id, textContent: title }));
      const sec = el('section', { className: 'card gal-paper', id });
      sec.setAttribute('aria-labelledby', id + '-h');
      sec.append(el('h2', { id: id + '-h', textContent: title }));
      if (items[0].paper_authors) sec.append(el('p', { className: 'gal-authors muted', textContent: items[0].paper_authors }));
      const ul = el('ul', { className: 'gal-list' });
      for (const p of items) ul.append(item(p, sweeps[p.name]));
      sec.append(ul);
      root.append(sec);
    }
    toc.hidden = byPaper.size === 0;
    state.figures = figs.map((p) => p.name);
    state.papers = [...byPaper.values()].map((items) => items[0].paper_title || items[0].paper);
  }

  // picture is the place of a figure's picture: filled by draw() for a
  // kept sweep, else saying how to get one.
  function picture(p, kept) {
    const box = el('figure', { className: 'gal-pic' });
    box.dataset.experiment = p.name;
    if (!kept) {
      box.classList.add('empty');
      box.append(el('figcaption', { className: 'muted', textContent: 'No picture yet: the figure is drawn here from your sweep of it in this browser.' }));
    } else {
      box.append(el('figcaption', { className: 'muted', textContent: 'Drawing your sweep…' }));
    }
    return box;
  }

  // draw fills each kept sweep's picture with the SVG the solver draws
  // from its figure data.
  async function draw(ask, sweeps) {
    for (const box of root.querySelectorAll('figure.gal-pic:not(.empty)')) {
      const v = sweeps[box.dataset.experiment];
      const cap = box.querySelector('figcaption');
      try {
        // The PNG, not the SVG: the PNG is drawn with the figure's own
        // fonts, so its text is where render/figure fitted it, whatever
        // fonts this browser has (an SVG names its fonts; a browser
        // without them substitutes wider ones).
        const png = await ask('figureData', { figure: JSON.stringify(v.figure), format: 'png' });
        const img = el('img', { className: 'gal-png', src: URL.createObjectURL(new Blob([png], { type: 'image/png' })), loading: 'lazy' });
        const fd = v.figure;
        img.alt = `${fd.title}: ${fd.series.map((x) => x.label).join('; ')} against ${fd.x_label}; y: ${fd.y_label}. ${fd.subtitle}`;
        img.width = 880; // the CLI's figure is 880 px wide; CSS scales it to the column
        box.insertBefore(img, cap);
        cap.textContent = `Your ${v.partial ? 'partial ' : ''}sweep of ${new Date(v.at).toLocaleString()}: ${fd.subtitle}`;
        state.pictures++;
      } catch (e) {
        cap.textContent = 'The picture could not be drawn: ' + (e && e.message || e);
        cap.classList.add('error');
      }
    }
  }

  function item(p, kept) {
    const li = el('li', { className: 'gal-item' });
    li.dataset.experiment = p.name;
    const h = el('h3', { className: 'gal-title' }, el('span', { className: 'gal-fig', textContent: p.figure }), ' ', p.title);
    li.append(h, el('p', { className: 'gal-name muted mono', textContent: p.name }));
    li.append(picture(p, kept));
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
    let w = null;
    try {
      w = await solver();
      const list = await w.ask('presets');
      const sweeps = await kept(list.map((p) => p.name));
      render(list, sweeps);
      const n = Object.keys(sweeps).filter((k) => state.figures.includes(k)).length;
      statusEl.textContent = `${state.figures.length} figures from ${state.papers.length} papers; ` +
        `${n} swept in this browser. ${state.others} other experiments are in the Experiments panel.`;
      await draw(w.ask, sweeps);
      state.status = 'ready';
    } catch (e) {
      state.status = 'error';
      state.error = String(e && e.message || e);
      statusEl.textContent = 'Could not list the figures: ' + state.error;
      statusEl.classList.add('error');
    } finally {
      if (w) w.close();
    }
  }
  load();
})();
