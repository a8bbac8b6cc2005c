// tour.js — the Tour: five short lessons, one per paper (core/tour,
// docs/tour.md). Each opens its scenario preset, at the smallest ε at
// which the paper's algorithm still learns as cmd/mktour measured it
// (dpsim.tour()), and says what is private, what is sent, what ε means
// there and what the noise costs against the noise-free ghost. Every
// sentence about an algorithm or a problem comes from its plug-in
// (dpsim.plugins(): its words, title and channels; dpsim.ledger(): the
// accountant's notion); the tour adds only its own measurements. Where
// no ε ≤ 10 learns, the lesson says so and draws the privacy–utility
// frontier with its knee. window.dpsimTour is for tests.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const btn = $('tour-open'), box = $('tour');
  if (!btn || !box) return;
  const SVGNS = 'http://www.w3.org/2000/svg';

  const state = { open: false, lesson: -1, lessons: [], shown: '', error: '' };
  window.dpsimTour = state;

  let results = null, algs = {}, probs = {}, channels = {};
  let shownFor = '';   // preset whose live parts the lesson shows
  let want = '';       // preset the lesson waits for

  const up = () => window.dpsim && window.dpsimReady === true && window.dpsimState && window.dpsimState.ready;
  (function enable() {
    if (up() && typeof window.dpsim.tour === 'function') btn.disabled = false;
    else setTimeout(enable, 100);
  })();

  box.innerHTML = `<div class="tour-head">
      <h2 id="tour-title" class="tour-title" tabindex="-1">Tour</h2>
      <button type="button" id="tour-close" class="link" aria-label="Close the tour">close</button>
    </div>
    <nav class="tour-tabs" aria-label="Lessons"><ol id="tour-tabs"></ol></nav>
    <p id="tour-verdict" class="tour-verdict"></p>
    <p id="tour-about" class="tour-about muted"></p>
    <div class="tour-body">
      <dl class="tour-facts">
        <dt>What is private</dt><dd id="tour-private"></dd>
        <dt>What is sent</dt><dd id="tour-sent"></dd>
        <dt>What ε means here</dt><dd id="tour-eps"></dd>
        <dt>What the noise costs</dt><dd id="tour-cost"></dd>
      </dl>
      <figure class="tour-figure">
        <div id="tour-chart" class="tour-chart"></div>
        <figcaption id="tour-caption" class="muted"></figcaption>
      </figure>
    </div>
    <div class="row tour-nav">
      <button type="button" id="tour-prev">← Previous</button>
      <button type="button" id="tour-next" class="primary">Next lesson →</button>
      <button type="button" id="tour-frontier">The frontier's sweep in Experiments</button>
      <span id="tour-error" class="field-error" role="alert"></span>
    </div>`;
  const tabs = $('tour-tabs'), title = $('tour-title');

  // ------------------------------------------------------------ numbers

  const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  // num writes a number for people: 1500, 0.079, 6.2·10⁻⁶.
  function num(v) {
    if (v == null || !Number.isFinite(v)) return '—';
    if (v !== 0 && (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e5)) {
      const [m, e] = v.toExponential(1).split('e');
      const sup = String(Number(e)).split('').map((c) => SUP[c]).join('');
      return (m === '1.0' ? '' : m.replace(/\.0$/, '') + '·') + '10' + sup;
    }
    return String(Number(v.toPrecision(2)));
  }
  // odds writes e^ε as a factor: "403", "22,000", "10^651".
  function odds(eps) {
    const l10 = eps / Math.LN10;
    if (l10 < 6) return Math.round(Math.exp(eps)).toLocaleString('en');
    return '10' + String(Math.floor(l10)).split('').map((c) => SUP[c]).join('');
  }
  const short = (t) => (t || '').replace(/ \(.*$/, '');

  // ------------------------------------------------------------ loading

  function load() {
    if (results) return true;
    try {
      results = JSON.parse(window.dpsim.tour());
      const plugins = JSON.parse(window.dpsim.plugins());
      for (const a of plugins.algorithms) algs[a.name] = a;
      for (const p of plugins.problems) probs[p.name] = p;
      const cat = JSON.parse(window.dpsim.builderCatalog());
      for (const a of cat.algorithms) channels[a.name] = a.channels || [];
    } catch (e) {
      results = null;
      say(String(e && e.message || e));
      return false;
    }
    state.lessons = results.lessons.map((l) => l.preset);
    tabs.replaceChildren();
    results.lessons.forEach((l, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tour-tab';
      b.textContent = `${i + 1}. ${short((algs[l.algorithm] || {}).title || l.algorithm)}`;
      b.addEventListener('click', () => show(i));
      li.append(b);
      tabs.append(li);
    });
    return true;
  }

  function say(msg) { $('tour-error').textContent = msg; state.error = msg; }

  // ------------------------------------------------------------ open, close

  function open(i) {
    if (!up() || !load()) return;
    box.hidden = false;
    state.open = true;
    btn.setAttribute('aria-expanded', 'true');
    const s = window.dpsimState;
    let at = i;
    if (at == null || at < 0) {
      // Start where the page is: its lesson, else the first.
      at = Math.max(0, results.lessons.findIndex((l) => l.preset === s.scenario));
    }
    show(at);
    title.focus();
  }

  function close() {
    box.hidden = true;
    state.open = false;
    btn.setAttribute('aria-expanded', 'false');
    btn.focus();
  }

  btn.addEventListener('click', () => (state.open ? close() : open(state.lesson)));
  $('tour-close').addEventListener('click', close);
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.stopPropagation(); close(); }
  });
  $('tour-prev').addEventListener('click', () => show(state.lesson - 1));
  $('tour-next').addEventListener('click', () => show(state.lesson + 1));
  $('tour-frontier').addEventListener('click', openFrontier);

  // ------------------------------------------------------------ a lesson

  // show makes lesson i current: its scenario is loaded through the
  // preset menu (page.js fetches a dataset first when it needs one), and
  // its text follows once the scenario is on screen.
  function show(i) {
    const ls = results.lessons;
    if (i < 0 || i >= ls.length) return;
    const L = ls[i];
    state.lesson = i;
    say('');
    Array.from(tabs.querySelectorAll('button')).forEach((b, k) => {
      if (k === i) b.setAttribute('aria-current', 'step'); else b.removeAttribute('aria-current');
    });
    $('tour-prev').disabled = i === 0;
    $('tour-next').disabled = i === ls.length - 1;
    const a = algs[L.algorithm] || {};
    title.textContent = `Tour · lesson ${i + 1} of ${ls.length}: ${short(a.title || L.algorithm)}`;
    writeStatic(L);
    want = L.preset;
    shownFor = '';
    const s = window.dpsimState;
    if (s.scenario !== L.preset) {
      const sel = $('preset');
      if (sel && Array.from(sel.options).some((o) => o.value === L.preset)) {
        sel.value = L.preset;
        sel.dispatchEvent(new Event('change', { bubbles: true }));
      } else {
        const r = window.dpsim.loadPreset(L.preset);
        if (r && !r.ok) say(r.error);
      }
    }
  }

  // writeStatic writes what the tour measured (core/tour results).
  function writeStatic(L) {
    const a = algs[L.algorithm] || {}, p = probs[L.problem] || {};
    const name = short(a.title || L.algorithm);
    const delta = L.delta > 0 ? ` with δ = ${num(L.delta)}` : '';
    const v = $('tour-verdict');
    if (L.epsilon == null) {
      v.textContent = `No ε of the frontier's grid lets ${name} learn here.`;
      v.className = 'tour-verdict warn';
    } else if (L.meaningful) {
      v.textContent = `${name} learns at ε = ${num(L.epsilon)}${delta}: meaningful privacy (ε ≤ 10).`;
      v.className = 'tour-verdict good';
    } else {
      v.textContent = `No ε ≤ 10 lets ${name} learn here: the smallest ε that does is ${num(L.epsilon)}${delta}. The frontier below shows why.`;
      v.className = 'tour-verdict warn';
    }
    $('tour-about').textContent = [a.doc, p.title ? `Problem: ${p.title}.` : ''].filter(Boolean).join(' · ');
    const k = L.knee;
    const crit = `It learns when its final ${L.metric} error is at most ${Math.round(results.threshold * 100)} % of its initial one`;
    $('tour-eps').textContent = k
      ? `${crit}: over ${k.n} seeded runs at ε = ${num(L.epsilon)} the final error is on average ${num(k.mean)} of the initial (95 % interval ${num(k.lo)}–${num(k.hi)}), the smallest ε of ${L.points.length} tried where that holds at a margin of ${num(L.margin)} standard errors. ` +
        `ε bounds how much one agent's private data can change everything the others receive: any outcome is at most e^ε ≈ ${odds(L.epsilon)} times more likely with it than without it${L.delta > 0 ? `, except with probability δ = ${num(L.delta)}` : ''}.`
      : `${crit}; no ε tried does.`;
    $('tour-cost').textContent = k
      ? `At ε = ${num(L.epsilon)} the ${L.metric} error falls from ${num(k.initial)} to ${num(k.final)} on average; the same runs without noise (the ghost) end at ${num(L.ghost.final)}` +
        (L.ghost.final > 0 ? `: the noise costs ${num(k.final / L.ghost.final)} times the ghost's error.` : '.') +
        ' The faint curve in the plot is this run\'s ghost.'
      : '';
    drawFrontier(L);
  }

  // writeLive writes what the scenario on screen says of itself: the
  // ledger's notion and the plug-in's messages.
  function writeLive(L) {
    const a = algs[L.algorithm] || {}, p = probs[L.problem] || {};
    let notion = '';
    try { notion = (JSON.parse(window.dpsim.ledger() || '{}').notion) || ''; } catch (e) { /* none */ }
    $('tour-private').textContent = `Each agent's own objective f_i${p.title ? ` (${p.title})` : ''}` + (notion ? `, in the sense of ${notion}.` : '.');
    const words = a.words && a.words.messages;
    const chs = (channels[L.algorithm] || []).map((c) => `${c.name}: ${c.doc}`).join(' · ');
    $('tour-sent').textContent = words || chs || (window.dpsimState.key || '');
  }

  function tick() {
    const s = window.dpsimState;
    if (state.open && want && s && s.scenario === want && shownFor !== want) {
      shownFor = want;
      state.shown = want;
      writeLive(results.lessons[state.lesson]);
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);

  // ------------------------------------------------------------ the frontier

  // drawFrontier draws L's frontier: the mean final ÷ initial error
  // against ε (log–log), the 10 % line, the ghost and the knee.
  function drawFrontier(L) {
    const host = $('tour-chart');
    host.replaceChildren();
    const pts = L.points.filter((q) => q.mean > 0 && Number.isFinite(q.mean));
    if (pts.length < 2) return;
    const W = 420, H = 230, m = { l: 46, r: 22, t: 10, b: 34 };
    const lx = (v) => Math.log10(v);
    const ys = pts.map((q) => q.mean).concat([results.threshold]);
    if (L.ghost.mean > 0) ys.push(L.ghost.mean);
    const x0 = lx(pts[0].epsilon), x1 = lx(pts[pts.length - 1].epsilon);
    const y0 = Math.floor(lx(Math.min(...ys))), y1 = Math.ceil(lx(Math.max(...ys)));
    const X = (v) => m.l + (lx(v) - x0) / (x1 - x0 || 1) * (W - m.l - m.r);
    const Y = (v) => H - m.b - (lx(v) - y0) / (y1 - y0 || 1) * (H - m.t - m.b);
    const svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'tour-svg');
    svg.setAttribute('role', 'img');
    const knee = L.epsilon == null ? '' : `, knee at ε = ${num(L.epsilon)}`;
    svg.setAttribute('aria-label', `${short((algs[L.algorithm] || {}).title)}: final error ÷ initial against ε, from ${num(pts[0].mean)} at ε = ${num(pts[0].epsilon)} to ${num(pts[pts.length - 1].mean)} at ε = ${num(pts[pts.length - 1].epsilon)}${knee}`);
    const el = (tag, attrs, text) => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text != null) e.textContent = text;
      svg.append(e);
      return e;
    };
    // At most six labels per axis: every k-th decade.
    const every = (n) => Math.max(1, Math.ceil(n / 6));
    const kx = every(Math.floor(x1) - Math.ceil(x0) + 1), ky = every(y1 - y0 + 1);
    for (let d = Math.ceil(x0); d <= Math.floor(x1); d++) {
      const x = X(10 ** d);
      el('line', { x1: x, x2: x, y1: m.t, y2: H - m.b, class: 'tour-grid' });
      if ((d - Math.ceil(x0)) % kx === 0) el('text', { x, y: H - m.b + 14, class: 'tour-tick', 'text-anchor': 'middle' }, num(10 ** d));
    }
    for (let d = y0; d <= y1; d++) {
      const y = Y(10 ** d);
      el('line', { x1: m.l, x2: W - m.r, y1: y, y2: y, class: 'tour-grid' });
      if ((d - y0) % ky === 0) el('text', { x: m.l - 4, y: y + 4, class: 'tour-tick', 'text-anchor': 'end' }, num(10 ** d));
    }
    el('text', { x: (m.l + W - m.r) / 2, y: H - 4, class: 'tour-axis', 'text-anchor': 'middle' }, L.delta > 0 ? `ε (δ = ${num(L.delta)})` : 'ε');
    el('text', { x: 12, y: (m.t + H - m.b) / 2, class: 'tour-axis', 'text-anchor': 'middle', transform: `rotate(-90 12 ${(m.t + H - m.b) / 2})` }, 'final ÷ initial');
    const ten = X(10);
    if (10 >= pts[0].epsilon && 10 <= pts[pts.length - 1].epsilon) {
      el('line', { x1: ten, x2: ten, y1: m.t, y2: H - m.b, class: 'tour-ten' });
      el('text', { x: ten + 3, y: m.t + 10, class: 'tour-note' }, 'ε = 10');
    }
    const thr = Y(results.threshold);
    el('line', { x1: m.l, x2: W - m.r, y1: thr, y2: thr, class: 'tour-threshold' });
    el('text', { x: m.l + 4, y: thr + 12, class: 'tour-note' }, 'learns below: 10 % of the initial');
    if (L.ghost.mean > 0) {
      const g = Y(L.ghost.mean);
      el('line', { x1: m.l, x2: W - m.r, y1: g, y2: g, class: 'tour-ghost' });
      el('text', { x: W - m.r - 2, y: g - 4, class: 'tour-note', 'text-anchor': 'end' }, 'ghost (no noise)');
    }
    el('polyline', { points: pts.map((q) => `${X(q.epsilon)},${Y(q.mean)}`).join(' '), class: 'tour-line' });
    for (const q of pts) el('circle', { cx: X(q.epsilon), cy: Y(q.mean), r: 3, class: q.learns ? 'tour-pt learns' : 'tour-pt' });
    if (L.epsilon != null) {
      const q = pts.find((p) => p.epsilon === L.epsilon);
      if (q) {
        const kx0 = X(q.epsilon), ky0 = Y(q.mean);
        el('circle', { cx: kx0, cy: ky0, r: 7, class: 'tour-knee' });
        // The label where the falling curve leaves room: above it to the
        // right of the knee, or below it to the left.
        const left = kx0 > (m.l + W - m.r) / 2;
        const ly = left ? Math.min(ky0 + 20, H - m.b - 4) : ky0 - 10;
        el('text', { x: left ? kx0 - 10 : kx0 + 10, y: ly, class: 'tour-note knee', 'text-anchor': left ? 'end' : 'start' }, `knee: ε = ${num(L.epsilon)}`);
      }
    }
    host.append(svg);
    $('tour-caption').textContent = `The frontier: ${L.points.length} values of ε, ${L.runs} seeded runs each (the experiment ${L.frontier}), ` +
      'the mean final error ÷ the initial one; filled points learn; the vertical line is ε = 10.';
  }

  // openFrontier opens the lesson's frontier experiment in the
  // Experiments panel, to run its sweep there.
  function openFrontier() {
    const L = results && results.lessons[state.lesson];
    const details = $('exp-box'), sel = $('exp-preset');
    if (!L || !details || !sel) { say('the Experiments panel is not on this page'); return; }
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    const name = L.frontier;
    (function pick(tries) {
      if (Array.from(sel.options).some((o) => o.value === name)) {
        sel.value = name;
        sel.dispatchEvent(new Event('change', { bubbles: true }));
        $('exp-section').scrollIntoView({ block: 'start', behavior: 'smooth' });
      } else if (tries > 0) setTimeout(() => pick(tries - 1), 200);
      else say(`the Experiments panel does not list ${name}`);
    })(100);
  }
})();
