// page.js — the dpsim page: loads dpsim.wasm, hosts ebiten's canvas in #view,
// drives the controls and draws the live error plot.
//
// The only names shared with the Go program are the ones in docs/bridge.md:
// window.dpsim (functions), window.dpsimState (state object),
// window.dpsimReady and the "dpsim-ready" event. It defines one global,
// window.dpsimPage.loadScenarioText, for public/export.js (drag and drop).
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const view = $('view');
  const viewMsg = $('view-msg');
  const viewMsgText = $('view-msg-text');
  const viewMsgDetail = $('view-msg-detail');
  const progress = $('load-progress');
  const controls = $('controls');
  const playBtn = $('play');
  const stepBtn = $('step');
  const fastBtn = $('fast');
  const resetBtn = $('reset');
  const speedIn = $('speed');
  const speedOut = $('speed-value');
  const seedIn = $('seed');
  const seedApply = $('seed-apply');
  const seedErr = $('seed-error');
  const presetSel = $('preset');
  const scenarioBox = $('scenario-box');
  const scenarioText = $('scenario-text');
  const scenarioLoad = $('scenario-load');
  const scenarioCurrent = $('scenario-current');
  const scenarioMsg = $('scenario-msg');
  const plotBox = $('plot');
  const plotDefs = $('plot-defs');
  const plotNote = $('plot-note');
  const viewLabels = $('view-labels');
  const viewKeyText = $('view-key-text');
  const viewNote = $('view-note');
  const messages = $('messages');
  const scnTitle = $('scn-title');
  const scnDesc = $('scn-desc');
  const slowBtn = $('slow');
  const plotClamp = $('plot-clamp');
  const epsMeaning = $('stat-eps-meaning');
  // The readout beside the picture (and, large, in classroom mode).
  const ro = {
    iter: $('ro-iter'), eps: $('ro-eps'), meaning: $('ro-meaning'), status: $('ro-status'),
    warn: $('ro-warn'), warnText: $('ro-warn-text'), warnAll: $('ro-warn-all'), box: $('readout'),
  };
  const stat = {
    iter: $('stat-iter'), opt: $('stat-opt'), optDt: $('stat-opt-dt'), cons: $('stat-cons'),
    eps: $('stat-eps'), rate: $('stat-rate'), status: $('stat-status'), msgs: $('stat-msgs'),
    stop: $('stat-stop'), stopDt: $('stat-stop-dt'),
  };

  // The simulator republishes its state ten times a second even while
  // nothing moves (ui.PublishEvery), and a write of the same text or
  // attribute still has the page restyled, laid out and painted again,
  // and a frame composited: what the state sets is written only when it
  // differs, so that an idle page stays idle.
  const setText = (el, t) => { if (el.textContent !== t) el.textContent = t; };
  const setProp = (el, k, v) => { if (el[k] !== v) el[k] = v; };
  const setAttr = (el, k, v) => { if (el.getAttribute(k) !== v) el.setAttribute(k, v); };
  const setData = (el, k, v) => { if (el.dataset[k] !== v) el.dataset[k] = v; };

  const WASM_URL = 'dpsim.wasm';
  // boot.js started the view and owns what it needs (the view's box, the
  // canvas, the poster, the snapshot, the labels): page.js takes it over.
  const boot = window.dpsimBoot;

  let ready = false;   // the Go bridge is up
  let dead = false;    // loading failed or the Go program exited
  // pending is the scenario whose datasets are being fetched ({title}),
  // null when none: meanwhile the page neither plays nor titles the
  // scenario before it as the new one (beginPending).
  let pending = null;

  // ---------------------------------------------------------------- messages

  // Every message belongs to the scenario that was current when it was
  // said (dpsimState.loads counts builds): when another is built, what
  // was said about the earlier one goes, and the new one's warnings come,
  // however it was loaded (preset, URL, editor, reset, seed, calibration).
  // keep: a message about the page itself, which stays.
  let generation = -1;
  function addMessage(kind, text, opts = {}) {
    const empty = messages.querySelector('li.empty');
    if (empty) empty.remove();
    // Say each thing once.
    for (const li of messages.children) {
      if (li.dataset.text === text && li.classList.contains(kind)) return;
    }
    const li = document.createElement('li');
    li.className = kind;
    li.dataset.text = text;
    li.dataset.gen = opts.keep ? 'page' : String(generation);
    li.textContent = text;
    messages.prepend(li);
    while (messages.children.length > 30) messages.lastElementChild.remove();
  }
  // newGeneration drops what was said about earlier scenarios and shows
  // the current one's warnings.
  function newGeneration(s) {
    generation = s.loads;
    for (const li of [...messages.children]) {
      if (li.dataset.gen !== 'page' && !li.classList.contains('empty')) li.remove();
    }
    const ws = s.warnings ? Array.from(s.warnings) : [];
    for (const w of ws) addMessage('warn', w);
    if (messages.children.length === 0) clearMessages();
  }
  function clearMessages() {
    messages.replaceChildren();
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'No warnings.';
    messages.append(li);
  }
  $('messages-clear').addEventListener('click', clearMessages);

  function showViewMessage(text, detail = '', opts = {}) {
    viewMsg.hidden = false;
    viewMsg.classList.toggle('error', !!opts.error);
    viewMsg.classList.toggle('trace', !!opts.trace);
    viewMsgText.textContent = text;
    viewMsgDetail.textContent = detail;
    progress.hidden = !opts.progress;
  }
  function hideViewMessage() { viewMsg.hidden = true; }

  // fatal shows an error in the view and the message box and disables controls.
  function fatal(title, detail) {
    dead = true;
    loadLateScripts(); // the panels that need no simulator still work
    controls.disabled = true;
    showViewMessage(title, detail || '', { error: true, trace: true });
    addMessage('error', detail ? `${title}\n${detail}` : title);
    setStatus('error');
  }

  // The status badge: the state's word, or for a run that ended above
  // its start, that (Go's ui.Status).
  const STATUS_WORDS = { worse: 'worse than its start' };
  function setStatus(s) {
    setText(stat.status, STATUS_WORDS[s] || s);
    setProp(stat.status, 'className', 'badge s-' + s);
  }

  // ------------------------------------------------------- ebiten's canvas

  // Ebitengine sizes its canvas from #view (boot.js). A large network's flow picture (dpsimState.large) is drawn, where
  // WebGL runs on the CPU (softwareGL), into a canvas LARGE_CANVAS_SCALE
  // times the view's size, which the browser stretches: a browser without
  // a GPU (SwiftShader) spends most of a
  // frame on the canvas's pixels — clearing, copying and reading it back
  // cost ~50 ns a pixel — and a cloud of 5,000 dots loses little at 0.7×
  // (docs/performance.md). canvasScale is the factor in force; Go reads it
  // as window.dpsimCanvasScale (render.Game.Layout) and sizes the picture's
  // lines and dots, the inspector's coordinates and the labels with it.
  const LARGE_CANVAS_SCALE = 0.7;
  let canvasScale = 1;
  function setCanvasScale(k) {
    if (k === canvasScale) return;
    canvasScale = k;
    window.dpsimCanvasScale = k;
    window.dispatchEvent(new Event('resize')); // ebiten re-reads the size
  }
  // ------------------------------------------------------------ formatting

  function fmtNum(x) {
    if (typeof x !== 'number') return '—';
    if (Number.isNaN(x)) return 'NaN';
    if (x === Infinity) return '∞';
    if (x === -Infinity) return '−∞';
    if (x === 0) return '0';
    const a = Math.abs(x);
    if (a >= 1e-3 && a < 1e4) return x.toPrecision(4);
    // 1e-6, not 1.000e-6: the digits a value has, as Go's inspector writes it.
    return x.toExponential(3).replace(/\.?0+e/, 'e');
  }
  function fmtSpeed(v) {
    if (v < 1) return v.toFixed(2) + ' it/s';
    if (v < 10) return v.toFixed(1) + ' it/s';
    return Math.round(v) + ' it/s';
  }

  // ------------------------------------------------------------ speed slider

  const SPEED_MIN = 0.25, SPEED_MAX = 2000;
  const LMIN = Math.log10(SPEED_MIN), LMAX = Math.log10(SPEED_MAX);
  const sliderToSpeed = (t) => {
    const v = 10 ** (LMIN + (t / 1000) * (LMAX - LMIN));
    // Round to 2 significant digits so values read well (0.25, 12, 180, 2000).
    const r = Number(v.toPrecision(2));
    return Math.min(SPEED_MAX, Math.max(SPEED_MIN, r));
  };
  const speedToSlider = (v) => {
    const c = Math.min(SPEED_MAX, Math.max(SPEED_MIN, v));
    return Math.round(((Math.log10(c) - LMIN) / (LMAX - LMIN)) * 1000);
  };

  // ------------------------------------------------------------------ plot

  // The live error plot, drawn with uPlot from the decimated history Go
  // keeps (at most about two thousand points per series however long the
  // run), redrawn at most PLOT_HZ times a second so that fast-forward
  // spends its frames on the simulation. Its first curve is the headline
  // metric the state names (dpsimState.headline): optimality, or
  // stationarity for a problem without a known optimum, which has no
  // ‖x − x*‖ to draw.
  const PLOT_HZ = 8;
  const COLORS = { optimality: '#2f6fdd', stationarity: '#12866f', cons: '#e4572e', ghost: 'rgba(47, 111, 221, 0.35)' };
  // The y range is clamped to [CLAMP_LO, CLAMP_HI]: beyond, a log axis
  // over hundreds of decades has no room for tick labels.
  const CLAMP_LO = 1e-30, CLAMP_HI = 1e30;
  const plot = {
    u: null,
    headline: 'optimality', // the first curve's metric
    rev: -1,          // history revision drawn
    pending: null,    // history fetched but not drawn yet
    last: 0,          // time of the last redraw
    xMax: 0,
    width: 0,
    hover: false,     // the cursor is on the plot: its legend follows it
  };

  // positive keeps what a log axis can draw: non-positive or non-finite
  // values become gaps.
  function positive(a) {
    const out = new Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = a[i] > 0 && a[i] < Infinity ? a[i] : null;
    return out;
  }

  // A single recorded point draws no line: mark points while there are few.
  const few = (u) => u.data[0].length <= 2;

  function plotWidth() { return Math.max(240, plotBox.clientWidth || 420); }
  function plotHeight() { return Math.max(180, Math.min(320, Math.round(plotWidth() * 0.55))); }

  // clampRange is the y range of the visible values, clamped so that the
  // axis keeps its labels however far a run diverged.
  function clampRange(u, min, max) {
    let lo = Infinity, hi = 0;
    for (let s = 1; s < u.data.length; s++) {
      // The noise-free ghost reaches machine precision (1e-29 and less):
      // below 1e-16 it would only squash the noisy curves, so it leaves
      // the plot at the bottom instead.
      const floor = s === 3 ? 1e-16 : 0;
      for (const v of u.data[s]) if (v != null && v >= floor) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    }
    if (!(hi > 0)) return [0.1, 10];
    lo = Math.max(lo, CLAMP_LO); hi = Math.min(hi, CLAMP_HI);
    if (hi / lo < 10) { lo /= 3; hi *= 3; }
    return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
  }

  // plotExtra is the hook for extra curves on the headline's axis
  // (compare.js): window.dpsimPlotExtra = {sig() → '' when none, else a
  // string that changes when the curves do; series() → uPlot series;
  // hideOwn → hide the page's own curves and consensus axis; data(m) → one array
  // per series aligned with m.iter}.
  function plotExtra() {
    const x = window.dpsimPlotExtra;
    return x && typeof x.sig === 'function' && x.sig() ? x : null;
  }

  function makePlot(headline) {
    const { logAxis } = window.dpsimPlot;
    const extra = plotExtra();
    plot.extraSig = extra ? extra.sig() : '';
    const width = plotWidth();
    plot.width = width;
    plot.headline = headline;
    const hc = COLORS[headline] || COLORS.optimality;
    plotBox.dataset.headline = headline;
    // Consensus on its own axis (right) and dashed with square markers,
    // so that it never hides under the headline curve; the noise-free
    // ghost faint and thin on the headline's axis.
    const fmtv = (u, v) => (v == null ? '—' : window.dpsimPlot.fmt(v));
    const sparse = (u, si) => u.data[0].length <= 2 || u.data[0].length < 60;
    plot.u = new uPlot({
      width, height: plotHeight(),
      scales: {
        x: { time: false, range: () => [0, plot.xMax || 10] },
        y: { distr: 3, range: clampRange },
        y2: { distr: 3, range: clampRange },
      },
      axes: [
        logAxis({ label: 'iteration', stroke: '#475467', grid: { stroke: '#edf0f4' }, size: 40 }, false),
        logAxis({ scale: 'y', label: headline, labelSize: 16, stroke: hc, grid: { stroke: '#edf0f4' }, size: 52 }, true),
        logAxis({ scale: 'y2', side: 1, label: 'consensus', labelSize: 16, stroke: COLORS.cons, grid: { show: false }, size: 52, show: !(extra && extra.hideOwn) }, true),
      ],
      series: [
        { label: 'iteration', value: (u, v) => (v == null ? '—' : String(Math.round(v))) },
        { label: headline, scale: 'y', stroke: hc, width: 2, spanGaps: false, points: { show: few, size: 6, fill: hc }, value: fmtv },
        { label: 'consensus', scale: 'y2', stroke: COLORS.cons, width: 1.6, dash: [6, 4], spanGaps: false,
          points: { show: sparse, size: 5, fill: '#fff', stroke: COLORS.cons, space: 24 }, value: fmtv },
        { label: 'noise-free', scale: 'y', stroke: COLORS.ghost, width: 1.2, spanGaps: true, points: { show: false }, value: fmtv },
        ...(extra ? extra.series(fmtv) : []),
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      hooks: {
        setCursor: [(u) => { plot.hover = u.cursor.idx != null && u.cursor.left >= 0; }],
      },
    }, [[], [], [], [], ...(extra ? extra.series(fmtv).map(() => []) : [])], plotBox);
    if (extra && extra.hideOwn) for (const i of [1, 2, 3]) plot.u.setSeries(i, { show: false });
    // Tests read the plot's scales and splits here (no global).
    plotBox.uplot = plot.u;
    const legendGhost = plotBox.querySelectorAll('.u-series')[3];
    if (legendGhost) { legendGhost.dataset.term = 'ghost'; if (window.dpsimGlossary) window.dpsimGlossary.attach(plotBox); }
    plotBox.addEventListener('mouseleave', () => { plot.hover = false; showLatest(); });
  }

  // showLatest puts the latest values in the legend while the cursor is
  // off the plot (uPlot shows "—" until hovered otherwise).
  function showLatest() {
    const u = plot.u;
    if (!u || plot.hover) return;
    const n = u.data[0].length;
    if (n > 0) u.setLegend({ idx: n - 1 });
  }

  function plotClear() {
    plot.rev = -1;
    plot.pending = { iter: [], optimality: [], consensus: [], stationarity: [], ghost: [] };
    plotBox.dataset.points = '0';
  }

  // pollMetrics fetches the decimated history when it changed.
  function pollMetrics(state) {
    if (!window.dpsim || typeof window.dpsim.history !== 'function' || !state) return;
    if (state.historyRev === plot.rev) return;
    let m;
    try { m = window.dpsim.history(); } catch (e) { onBridgeError(e); return; }
    if (!m || !m.iter) return;
    plot.pending = m;
    plot.rev = typeof m.rev === 'number' ? m.rev : state.historyRev;
  }

  function drawPlot(state) {
    if (typeof uPlot !== 'function' || !window.dpsimPlot) return;
    const headline = state && state.headline === 'stationarity' ? 'stationarity' : 'optimality';
    const ex = plotExtra();
    if (plot.u && (plot.headline !== headline || (ex ? ex.sig() : '') !== plot.extraSig)) {
      // uPlot's series are fixed when it is made: remake it for the other
      // headline, and redraw the history at once.
      plot.u.destroy();
      plot.u = null;
      plot.rev = -1;
      plot.last = 0;
    }
    if (!plot.u) makePlot(headline);
    const K = state && state.iterations > 0 ? state.iterations : 0;
    const now = performance.now();
    if (!plot.pending || now - plot.last < 1000 / PLOT_HZ) return;
    const m = plot.pending;
    plot.pending = null;
    plot.last = now;
    const n = m.iter.length;
    plot.xMax = Math.max(K, n ? m.iter[n - 1] : 0, 10);
    const first = headline === 'stationarity' ? (m.stationarity || []) : m.optimality;
    const ghost = m.ghost ? positive(m.ghost) : new Array(n).fill(null);
    const data = [Array.from(m.iter), positive(first), positive(m.consensus), ghost];
    if (ex) for (const col of ex.data(m)) data.push(positive(col));
    plot.u.setData(data);
    plotBox.dataset.points = String(n);
    // Say when the range is clamped: values beyond it sit on its edge.
    let out = 0;
    for (let s = 1; s < 3; s++) for (const v of data[s]) if (v != null && (v > CLAMP_HI || v < CLAMP_LO)) out++;
    // Non-finite after a finite value (or infinite): the run diverged. A
    // metric NaN throughout is one the problem does not have (no x*).
    const bad = [first, m.consensus].some((a) => {
      let seen = false;
      for (const v of a) {
        if (v < Infinity) seen = true;
        else if (seen || v === Infinity) return true;
      }
      return false;
    });
    plotClamp.hidden = !(out || bad);
    plotClamp.textContent = out || bad
      ? `The axes are clamped to 1e−30 … 1e30${bad ? ' and non-finite values are left out' : ''}: ${out ? out + ' point(s) lie beyond and are not drawn' : 'the run diverged'}.` : '';
    showLatest();
  }

  window.addEventListener('resize', () => {
    if (!plot.u) return;
    const w = plotWidth();
    if (w !== plot.width) { plot.width = w; plot.u.setSize({ width: w, height: plotHeight() }); }
  });

  // ----------------------------------------------------------------- state

  let lastState = null;
  let seedDirty = false;    // the user edited the seed field and did not apply
  let speedSynced = false;

  function renderState(s) {
    if (!s) return;
    if (typeof s.loads === 'number' && s.loads !== generation) {
      newGeneration(s);
      onScenarioBuilt(s);
    }
    renderScenarioHead(s);
    renderEpsilon(s);
    const K = s.iterations > 0 ? s.iterations : '—';
    setText(stat.iter, `${typeof s.iter === 'number' ? s.iter : '—'} / ${K}`);
    const stationary = s.headline === 'stationarity';
    setText(stat.optDt, stationary ? 'stationarity' : 'optimality');
    setText(stat.opt, fmtNum(stationary ? s.stationarity : s.optimality));
    setAttr(stat.opt, 'title', s.headlineLabel || '');
    setText(stat.cons, fmtNum(s.consensus));
    setAttr(stat.cons, 'title', s.consensusLabel || '');
    setText(stat.msgs, typeof s.messages === 'number' ? `${s.messages} / ${s.activations}` : '—');
    setProp(stat.stop, 'hidden', !s.stopReason);
    setProp(stat.stopDt, 'hidden', !s.stopReason);
    setText(stat.stop, s.stopReason || '');
    const epsInf = $('stat-epsinf');
    setProp(epsInf, 'hidden', !s.epsilonNote);
    setProp($('stat-epsinf-dt'), 'hidden', !s.epsilonNote);
    setText(epsInf, s.epsilonNote || '');
    setText(stat.rate, s.running && s.rate > 0 ? fmtSpeed(s.rate) : '—');
    if (!dead) setStatus(s.status || (s.running ? 'running' : 'paused'));

    const running = !!s.running;
    setAttr(playBtn, 'aria-pressed', String(running));
    setAttr(fastBtn, 'aria-pressed', String(!!s.fast));
    setAttr(slowBtn, 'aria-pressed', String(!!s.slow));
    view.classList.toggle('inspectable', !!(s.slow || !running));
    setText(playBtn.querySelector('.lbl'), running ? 'Pause' : 'Play');

    if (!speedSynced && typeof s.speed === 'number' && s.speed > 0) {
      speedSynced = true;
      speedIn.value = String(speedToSlider(s.speed));
      speedOut.textContent = fmtSpeed(s.speed);
    }
    if (!seedDirty && document.activeElement !== seedIn && typeof s.seed === 'number') {
      // A negative seed means "the scenario's own seeds".
      const v = s.seed >= 0 ? String(s.seed) : '';
      if (seedIn.value !== v) seedIn.value = v;
    }
    if (s.error && (!lastState || lastState.error !== s.error)) addMessage('error', s.error);
    if (lastState && lastState.fast && !s.fast && !running && ['done', 'stopped', 'diverged', 'worse'].includes(s.status)) {
      addMessage('info', 'Fast-forward turned itself off: the run has ended.');
    }
    checkNoiseDominated(s);
    if (s.outcome && (!lastState || lastState.outcome !== s.outcome)) {
      addMessage('warn', s.outcome === 'diverged'
        ? `The run diverged: ${s.outcomeText || 'the iterates are no longer finite'}.`
        : `The run ended worse than its start: ${s.outcomeText}. What the algorithm gained, the noise (or its settings) took back; the theory card says which of its assumptions fail.`);
    }
    if (s.stopReason && (!lastState || lastState.stopReason !== s.stopReason)) {
      addMessage('info', 'The run stopped early by its stop rule: ' + s.stopReason + '.');
    }
    renderMetricNote(s);
    if (presetsFilled) syncPreset(s.scenario);
    if (ready) refreshTheory(s, !lastState || lastState.scenario !== s.scenario || s.iter < lastState.iter);
  }

  // renderScenarioHead writes the scenario's title and description above
  // the view, so that what it shows (a rising error, a diverging
  // baseline) is read as intended, not as a bug. The box keeps its
  // height whatever the text, so nothing below it moves.
  let headSig = null;
  function renderScenarioHead(s) {
    if (pending) return;
    const sig = s.scenario + '|' + s.title + '|' + s.description;
    if (sig === headSig) return;
    headSig = sig;
    boot.takeHead();
    writeHead(s.title || s.scenario || '', s.description || '', s.scenario || '');
  }
  // writeHead writes the head's title and description, closed, with its
  // "more" control shown when the description is cut.
  function writeHead(title, desc, name) {
    scnTitle.textContent = title;
    scnTitle.title = name;
    scnDesc.textContent = desc;
    scnDesc.removeAttribute('title');
    openHead(false);
  }

  // The description shows two lines; "more" (a button: keyboard, touch)
  // lays the whole of it over the picture's top, "less" closes it.
  const scnHead = scnTitle.closest('.scn-head');
  const scnMore = $('scn-more');
  function openHead(open) {
    scnHead.classList.toggle('open', open);
    scnMore.setAttribute('aria-expanded', String(open));
    scnMore.textContent = open ? 'less' : 'more';
    scnMore.hidden = !open && !(scnDesc.scrollHeight > scnDesc.clientHeight + 1 || scnTitle.scrollHeight > scnTitle.clientHeight + 1);
  }
  scnMore.addEventListener('click', (e) => { e.stopPropagation(); openHead(!scnHead.classList.contains('open')); });
  scnHead.addEventListener('click', () => { if (!scnMore.hidden) openHead(!scnHead.classList.contains('open')); });
  window.addEventListener('resize', () => { if (!scnHead.classList.contains('open')) openHead(false); });

  // epsWords puts ε on a scale people can read: e^ε bounds how much more
  // likely any output becomes when one agent's data change. An (ε, δ)
  // guarantee (delta > 0) says its δ: the bound may fail with
  // probability δ (P ≤ e^ε·P′ + δ), which a bare e^ε would hide.
  function epsWords(eps, delta) {
    if (!(eps >= 0)) return '';
    const f = eps < 700 ? Math.exp(eps) : Infinity;
    const fac = f === Infinity ? `10^${(eps / Math.LN10).toFixed(0)}` : f < 10 ? f.toFixed(2) : f < 1e6 ? Math.round(f).toLocaleString('en-US') : f.toExponential(1);
    const word = eps <= 0.1 ? 'very strong privacy' : eps <= 1 ? 'strong privacy' : eps <= 5 ? 'moderate privacy'
      : eps <= 10 ? 'weak privacy' : 'no meaningful privacy';
    if (delta > 0) {
      return `e^ε = ${fac}, δ = ${fmtNum(delta)}: any output is at most ${fac}× more likely when one agent's data change, ` +
        `plus a probability of up to δ = ${fmtNum(delta)} that this bound fails (P ≤ e^ε·P′ + δ) — ${word}.`;
    }
    return `e^ε = ${fac}: any output is at most ${fac}× more likely when one agent's data change — ${word}.`;
  }

  // renderEpsilon shows ε with its meaning. Three cases never read as a
  // bare number: no noise (∞: no privacy), noise without an accountant
  // (DDGT, diff-DRADT: "noise, but no DP guarantee", not "∞"), and a
  // ledger still at 0 after noisy messages (the convention is said).
  function renderEpsilon(s) {
    let val = s.epsilonText || (s.epsilon === Infinity ? '∞' : fmtNum(s.epsilon));
    let mean = '';
    setData(stat.eps, 'kind', s.epsilonKind || '');
    if (s.epsilonKind === 'unaccounted') {
      val = 'noise, but no DP guarantee';
      mean = s.epsilonReason || 'This algorithm adds noise to its messages but proves no differential privacy, so no ε can be given.';
    } else if (s.epsilonKind === 'none') {
      val = '∞ (no noise)';
      mean = 'Messages carry no noise: nothing is hidden.';
    } else if (s.epsilon === 0 && !(s.messages > 0)) {
      mean = 'Nothing sent yet: nothing revealed.';
    } else if (s.epsilon === 0 && s.messages > 0) {
      val = '0 so far';
      // The convention is the algorithm's accountant's, in its words.
      mean = `The messages sent so far carry no private information by the accountant's count (${s.epsilonFree || s.epsilonSource || 'its source'}); ε grows from the next round on.`;
    } else if (s.epsilon > 0 || s.epsilonText) {
      mean = epsWords(s.epsilon === Infinity && s.epsilonText && s.epsilonText.startsWith('10^') ? Number(s.epsilonText.slice(3)) * Math.LN10 : s.epsilon, s.delta);
    }
    const dp = s.epsilonKind === 'dp';
    const tight = tightWords(s);
    setText(stat.eps, dp ? `${val} (paper's bound)` : val);
    setProp(stat.eps, 'className', dp || !s.epsilonKind ? 'mono' : 'eps-text');
    setText(epsMeaning, mean);
    setProp(tightRow.dt, 'hidden', !tight.long);
    setProp(tightRow.dd, 'hidden', !tight.long);
    setText(tightRow.dd, tight.long);
    // The readout's line is short (it does not wrap): the two numbers and
    // the ledger's δ (the tight bound's too when it is above 0); the
    // tight bound's δ in its title and in the State card.
    const paperDelta = s.delta > 0 && dp ? ` (δ = ${fmtNum(s.delta)})` : '';
    const full = val + paperDelta + (dp ? ' paper\'s bound' : '') + (tight.short ? ` · ${tight.short} tight bound` : '');
    setAttr(ro.eps, 'title', tight.short ? full : '');
    renderReadout(s, tight.short ? `${val} (paper) · ${s.epsilonTightText} (tight)${paperDelta}` : full, mean);
  }

  // The State card's row for the tight bound, after the meaning of ε: the
  // same releases the paper's analysis charges, composed exactly
  // (docs/privacy-truth.md).
  const tightRow = (() => {
    const dt = document.createElement('dt');
    dt.textContent = 'tight bound';
    dt.dataset.term = 'epsilon-tight';
    dt.id = 'stat-tight-dt';
    const dd = document.createElement('dd');
    dd.id = 'stat-tight';
    dd.className = 'small';
    epsMeaning.after(dt, dd);
    dt.hidden = dd.hidden = true;
    // Made after the glossary first attached its terms (when page.js runs
    // later than glossary.js): attach this one itself.
    if (window.dpsimGlossary) window.dpsimGlossary.attach(dt.parentElement);
    return { dt, dd };
  })();

  // tightWords says the tight bound beside the paper's: short for the
  // readout, long for the State card; empty where there is no paper's ε.
  function tightWords(s) {
    if (s.epsilonKind !== 'dp') return { short: '', long: '' };
    if (!s.epsilonTightText) {
      return { short: '', long: s.epsilonTightReason ? `none: ${s.epsilonTightReason}` : '' };
    }
    if (s.epsilonTightReason) return { short: s.epsilonTightText, long: `${s.epsilonTightText}: ${s.epsilonTightReason}` };
    // A bound of 0 from an iteration before the one shown (iteration 0,
    // nothing released yet; a Worker's run is refreshed as it goes) is
    // not this iteration's: beside the paper's ε it would read as "ε = 0".
    if (s.epsilonTight === 0 && s.epsilonTightIter !== s.iter) {
      return { short: '', long: `not composed yet for iteration ${s.iter}: it is refreshed as the run goes` };
    }
    const short = `${s.epsilonTightText} (δ = ${fmtNum(s.epsilonTightDelta)})`;
    const when = s.epsilonTightIter !== s.iter ? ` (at iteration ${s.epsilonTightIter}; refreshed as the run goes)` : '';
    // Below the discretization's resolution the error bound promises
    // nothing: the note replaces it (privacy.TightEntry.Note).
    if (s.epsilonTightNote) return { short: `${short} ⚠`, long: `${short}: ${s.epsilonTightNote}${when}.` };
    return {
      short,
      long: `${short}, at most ${fmtNum(s.epsilonTightError)} above the exact value: the releases the paper charges, composed exactly${when}.`,
    };
  }

  // renderReadout writes the run at a glance beside the picture: the
  // iteration, ε spent and its meaning, the status (the State card's
  // words), and the current warnings (renderWarnings).
  function renderReadout(s, eps, mean) {
    const it = `${typeof s.iter === 'number' ? s.iter : '—'} / ${s.iterations > 0 ? s.iterations : '—'}`;
    setText(ro.iter, it);
    setText(ro.eps, eps);
    setData(ro.eps, 'kind', s.epsilonKind || '');
    const m = pending ? `Loading ${pending.title}: the numbers above are the previous scenario's.` : mean;
    setText(ro.meaning, m);
    ro.box.classList.toggle('stale', !!pending);
  }
  // The status badge of the readout mirrors the State card's.
  new MutationObserver(() => {
    setText(ro.status, stat.status.textContent);
    setProp(ro.status, 'className', stat.status.className);
  }).observe(stat.status, { childList: true, characterData: true, subtree: true, attributes: true });

  // renderWarnings shows the current warnings (and errors) of the
  // messages list in the readout: the first, and a link to all of them.
  function renderWarnings() {
    const items = [...messages.querySelectorAll('li.warn, li.error')];
    ro.warn.hidden = items.length === 0;
    if (!items.length) return;
    ro.warnAll.hidden = !!messages.closest('[data-gone]');
    const first = items[0];
    ro.warn.classList.toggle('error', first.classList.contains('error'));
    const text = (items.length > 1 ? `${items.length} warnings. ` : '') + first.textContent;
    if (ro.warnText.textContent !== text) { ro.warnText.textContent = text; ro.warnText.title = text; } // one line shown; the whole on hover
  }
  new MutationObserver(renderWarnings).observe(messages, { childList: true, subtree: true, characterData: true });
  ro.warnAll.addEventListener('click', () => {
    const card = messages.closest('.card');
    card.scrollIntoView({ block: 'nearest' });
    messages.tabIndex = -1;
    messages.focus({ preventScroll: true });
  });

  // checkNoiseDominated says Go's noise warning (ui.NoiseWarning), once
  // per build: the run against its noise-free ghost, compared only above
  // floating-point rounding.
  function checkNoiseDominated(s) {
    if (s.noiseWarning && (!lastState || lastState.noiseWarning !== s.noiseWarning)) addMessage('warn', s.noiseWarning);
  }

  // onScenarioBuilt runs when a scenario is (re)built, however: the plot
  // starts again and fast-forward is off (Go turned it off).
  function onScenarioBuilt(s) {
    speedSynced = false;
    if (window.dpsimGlossary && window.dpsimGlossary.refresh) window.dpsimGlossary.refresh();
    calConfirm.hidden = true;
    fillAgents(s.nodes || 0);
    if (pinned) closeInspector();
    announceScenario();
  }

  // announceScenario tells the page's other parts (share.js: the link;
  // the builder, the comparison) that the current scenario changed —
  // however: load, preset, URL, seed, calibration, reset.
  function announceScenario() {
    const json = call('scenario');
    window.dispatchEvent(new CustomEvent('dpsim-scenario', { detail: { json: typeof json === 'string' ? json : '' } }));
  }

  // renderMetricNote writes, beside the plot, what its curves are for
  // this problem and algorithm and, for a problem without a known
  // optimum, why there is no ‖x − x*‖.
  let metricSig = null;
  function renderMetricNote(s) {
    const sig = [s.headline, s.headlineLabel, s.consensusLabel, s.metricNote].join('|');
    if (sig === metricSig) return;
    metricSig = sig;
    plotDefs.textContent = s.headlineLabel
      ? `${s.headline || 'optimality'} = ${s.headlineLabel}; consensus = ${s.consensusLabel}` : '';
    plotNote.hidden = !s.metricNote;
    plotNote.textContent = s.metricNote ? s.metricNote.charAt(0).toUpperCase() + s.metricNote.slice(1) + '.' : '';
  }

  // ------------------------------------------------------ canvas labels

  // The scene's text labels, written over the canvas (boot.js).
  const renderLabels = (s) => boot.renderLabels(s && s.labels);

  // The key under the view is the run's legend, composed in Go from the
  // algorithm's and the problem's own words (ui.KeyOf: what a link
  // carries, what the picture shows and where it stands), so that no
  // plug-in inherits another's text.
  let keySig = null;
  function renderKey(s) {
    const sig = [s.legend, s.reading].join('|');
    if (sig === keySig) return;
    keySig = sig;
    viewKeyText.textContent = s.legend || '';
    viewKeyText.dataset.where = s.pictureWhere || '';
    const notes = [];
    if (s.reading) notes.push('Directed links: arrows point from sender to receiver; ' + s.reading + '.');
    viewNote.hidden = notes.length === 0;
    viewNote.textContent = notes.join(' ');
  }

  // The live run attaches when the simulator has drawn its first picture
  // (dpsimState.ready): "dpsim-sim-ready" then.
  let simShown = false;
  function frame() {
    if (dead) return;
    const s = window.dpsimState;
    // Before the simulator, the labels of the snapshot's picture (the
    // view writes them: render.SnapshotSource).
    if (!simShown && window.dpsimSnapshotLabels) boot.renderLabels(window.dpsimSnapshotLabels);
    if (s && s !== lastState) {
      setCanvasScale(s.large && !s.allocation && softwareGL ? LARGE_CANVAS_SCALE : 1);
      renderState(s);
      renderLabels(s);
      renderKey(s);
      lastState = s;
    }
    if (!simShown && s && (s.ready || s.draws > 0)) {
      simShown = true;
      performance.mark('dpsim-sim-ready');
      boot.showFirstFrame();
      hideViewMessage();
      // Panels that the first frame does not need (the builder's form, the
      // comparison's lists) wait for "dpsim-sim-ready", sent once the
      // simulator's picture is on screen: built in the same task, they
      // held its first frame back by about 0.3 s.
      requestAnimationFrame(() => setTimeout(() => {
        window.dpsimSimReady = true;
        window.dispatchEvent(new Event('dpsim-sim-ready'));
        // Plotting loads after the first frame too (issue 20).
        window.dpsimPlot.loadUPlot().then(() => drawPlot(window.dpsimState), (e) => addMessage('error', e.message, { keep: true }));
      }, 0));
    }
    if (ready) { pollMetrics(s); renderBadges(s); }
    drawPlot(s);
    requestAnimationFrame(frame);
  }

  // ------------------------------------------------------------ inspector
  //
  // Hover a node or a message to ring it and read its sender; click to pin
  // the inspector: the sender's state, the message's signal and noise
  // apart, the receiver(s), the sender's ε so far (dpsim.inspect); an
  // agent also lists the messages it sent in the latest iteration
  // (dpsim.inspectAgent). From the keyboard the agents are a list
  // (#view-agents, role listbox): Tab reaches it, the arrow keys move from
  // agent to agent (the ring follows), Enter or Space inspects, Escape
  // closes; a live region says where the keyboard is and what the
  // inspector shows. On a phone the inspector is a sheet at the foot of
  // the screen, and the page scrolls the network above it.

  const inspector = $('inspector');
  const inspectorBody = $('inspector-body');
  const hoverRing = $('view-hover');
  const agentsBox = $('view-agents');
  let pinned = null; // what the inspector is pinned to: {agent} from the keyboard or a click
  let agentAt = -1;  // the agent the keyboard is on

  const vec = (a) => (a && a.length ? '(' + Array.from(a).map(fmtNum).join(', ') + ')' : '—');
  function inspectAt(clientX, clientY) {
    if (!ready || !window.dpsim || typeof window.dpsim.inspect !== 'function') return null;
    const r = view.getBoundingClientRect();
    let v = null;
    try { v = JSON.parse(call('inspect', clientX - r.left, clientY - r.top) || 'null'); } catch (e) { v = null; }
    return v && v.kind ? v : null;
  }
  function inspectAgent(i) {
    let v = null;
    try { v = JSON.parse(call('inspectAgent', i) || 'null'); } catch (e) { v = null; }
    return v && v.kind ? v : null;
  }
  function ring(v, kbd = false) {
    hoverRing.classList.toggle('on', !!v);
    hoverRing.classList.toggle('kbd', !!v && kbd);
    if (!v) return;
    const d = 2 * Math.max(v.r + 4, 8);
    hoverRing.style.left = v.x + 'px';
    hoverRing.style.top = v.y + 'px';
    hoverRing.style.width = hoverRing.style.height = d + 'px';
  }
  function row(k, v, cls = '') { return `<tr><td>${k}</td><td class="${cls}">${v}</td></tr>`; }
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  const ratioText = (sig, noi, r) => (sig === 0 ? (noi > 0 ? '∞ (the signal is 0: all noise)' : '0') : fmtNum(r));
  function showInspector(v) {
    const more = v.dim > (v.state || []).length ? ` (first ${(v.state || []).length} of ${v.dim})` : '';
    let html;
    if (v.kind === 'message') {
      html = `<h3>Message: agent ${v.agent} → agent ${v.to}</h3><table>` +
        row('iteration', `${v.iteration}, channel ${esc(v.channel)}${v.rounds > 1 ? `, round ${v.round + 1} of ${v.rounds}` : ''}`) +
        row('sender\'s state', vec(v.state) + more, 'mono') +
        row('<span data-term="signal">signal</span>', `${vec(v.signal)} · ‖signal‖ = <b class="sig-norm">${fmtNum(v.signal_norm)}</b>`, 'mono') +
        row('noise', `${vec(v.noise)} · ‖noise‖ = <b class="noise-norm">${fmtNum(v.noise_norm)}</b>`, 'mono') +
        row('noise ÷ signal', ratioText(v.signal_norm, v.noise_norm, v.ratio), 'mono') +
        (v.deviation != null ? row('off the noise-free message', `${fmtNum(v.deviation)}× its size (the packet's colour: all the noise this message carries, earlier noise included)`) : '') +
        row('receiver(s)', (v.receivers || [v.to]).join(', ')) +
        row('sender\'s ε so far', esc(v.epsilon) + tightCell(v)) + '</table>';
    } else {
      html = `<h3>Agent ${v.agent}</h3><table>` +
        row('iteration', String(v.iteration)) +
        row('state', vec(v.state) + more, 'mono') +
        row('ε so far', esc(v.epsilon) + tightCell(v)) +
        row('activations', String(v.activations)) + '</table>' + sentTable(v);
    }
    inspectorBody.innerHTML = html;
    inspector.dataset.kind = v.kind;
    inspector.dataset.agent = String(v.agent);
    inspector.hidden = false;
    if (window.dpsimGlossary) window.dpsimGlossary.attach(inspector);
    keepNetworkInSight();
  }
  // tightCell writes the agent's tight bound beside the paper's.
  function tightCell(v) {
    return v.epsilon_tight ? ` (<span data-term="epsilon-paper">paper's bound</span>); ${esc(v.epsilon_tight)} (<span data-term="epsilon-tight">tight bound</span>)` : '';
  }
  // sentTable lists the messages an agent sent in the latest iteration,
  // each with its signal and noise apart.
  function sentTable(v) {
    if (!v.sent) return `<p class="sent">Sent nothing in iteration ${v.iteration}${v.activations >= 0 ? ' (not active then)' : ''}.</p>`;
    const rows = v.sent.map((m) => `<tr><td>${esc(m.channel)}${v.rounds > 1 ? ` (round ${m.round + 1} of ${v.rounds})` : ''} → ${(m.receivers || []).join(', ')}</td>` +
      `<td class="mono">‖signal‖ = <b class="sig-norm">${fmtNum(m.signal_norm)}</b> · ‖noise‖ = <b class="noise-norm">${fmtNum(m.noise_norm)}</b> · ` +
      `noise ÷ signal = ${ratioText(m.signal_norm, m.noise_norm, m.ratio)}<br>signal ${vec(m.signal)}, noise ${vec(m.noise)}</td></tr>`).join('');
    return `<table class="sent"><caption>Its latest message${v.sent.length > 1 ? 's' : ''}, iteration ${v.iteration}</caption>${rows}</table>`;
  }
  // says what the inspector shows, for a screen reader.
  function sayInspection(v) {
    let t = `Agent ${v.agent}: ε so far ${v.epsilon}, active ${v.activations} times.`;
    if (v.sent) {
      for (const m of v.sent) t += ` Sent ${m.channel} to ${(m.receivers || []).join(', ')}: signal norm ${fmtNum(m.signal_norm)}, noise norm ${fmtNum(m.noise_norm)}.`;
    } else t += ` Sent nothing in iteration ${v.iteration}.`;
    agentsLive.textContent = t;
  }
  function closeInspector() {
    const hadFocus = inspector.contains(document.activeElement);
    inspector.hidden = true;
    pinned = null;
    ring(null);
    if (hadFocus && !agentsBox.hidden) agentsBox.focus();
    if (document.activeElement === agentsBox) markAgent(agentAt, false);
  }
  $('inspector-close').addEventListener('click', closeInspector);
  view.addEventListener('mousemove', (e) => {
    if (e.target.closest && e.target.closest('.inspector')) return;
    const v = inspectAt(e.clientX, e.clientY);
    ring(v);
    view.style.cursor = v ? 'pointer' : '';
    if (v && !pinned) showInspector(v);
  });
  view.addEventListener('mouseleave', () => { if (!pinned) { ring(null); inspector.hidden = true; } });
  view.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('.inspector')) return;
    let v = inspectAt(e.clientX, e.clientY);
    if (!v) { closeInspector(); return; }
    if (v.kind === 'node') v = inspectAgent(v.agent) || v;
    pinned = { agent: v.agent };
    ring(v);
    showInspector(v);
  });

  // The agents as a list for the keyboard: one option per agent,
  // rebuilt when a scenario is built. What the keyboard reaches is said
  // in a polite live region of its own.
  const agentsLive = window.dpsimKeys ? window.dpsimKeys.liveRegion('agents-live') : { textContent: '' };
  function fillAgents(n) {
    if (agentsBox.childElementCount === n) return;
    const opts = [];
    for (let i = 0; i < n; i++) {
      const o = document.createElement('div');
      o.id = 'agent-opt-' + i;
      o.className = 'visually-hidden';
      o.setAttribute('role', 'option');
      o.setAttribute('aria-selected', 'false');
      o.textContent = `Agent ${i} of ${n}`;
      opts.push(o);
    }
    agentsBox.replaceChildren(...opts);
    agentsBox.hidden = n === 0;
    agentAt = Math.min(agentAt, n - 1);
  }
  function agentPlaces() {
    try { return JSON.parse(call('agents') || '[]'); } catch (e) { return []; }
  }
  // markAgent puts the keyboard on agent i: the ring, the option, the
  // inspector if it is pinned, and a word for a screen reader.
  function markAgent(i, say = true) {
    const n = agentsBox.childElementCount;
    if (!n || i < 0) return;
    agentAt = Math.min(i, n - 1);
    const prev = agentsBox.querySelector('[aria-selected="true"]');
    if (prev) prev.setAttribute('aria-selected', 'false');
    const opt = $('agent-opt-' + agentAt);
    opt.setAttribute('aria-selected', 'true');
    agentsBox.setAttribute('aria-activedescendant', opt.id);
    const v = inspectAgent(agentAt);
    if (!v) return;
    opt.textContent = `Agent ${agentAt} of ${n}: ε so far ${v.epsilon}, active ${v.activations} times`;
    ring(v, true);
    if (pinned) { pinned = { agent: agentAt }; showInspector(v); }
    if (say) agentsLive.textContent = pinned ? '' : opt.textContent;
    if (pinned) sayInspection(v);
  }
  agentsBox.addEventListener('keydown', (e) => {
    const n = agentsBox.childElementCount;
    if (!n || e.ctrlKey || e.metaKey || e.altKey) return;
    const at = Math.max(agentAt, 0);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: n - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      markAgent(agentAt < 0 ? 0 : (to + n) % n);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (agentAt < 0) markAgent(0, false);
      const v = inspectAgent(agentAt);
      if (!v) return;
      pinned = { agent: agentAt };
      ring(v, true);
      showInspector(v);
      sayInspection(v);
    }
  });
  agentsBox.addEventListener('focus', () => markAgent(agentAt < 0 ? 0 : agentAt));
  agentsBox.addEventListener('blur', () => { if (!pinned) ring(null); });
  // A click on the picture inspects (above); it does not take the focus.
  agentsBox.addEventListener('mousedown', (e) => e.preventDefault());
  // The ring follows its agent when the picture is laid out again: after
  // a window resize, and after the view alone changes size (a card above
  // it growing as a run's numbers arrive), which moves the agents without
  // a resize event. Two frames: the view draws its new layout in the first.
  function followRing() {
    if (document.activeElement === agentsBox || pinned) requestAnimationFrame(() => requestAnimationFrame(() => {
      const v = agentAt >= 0 ? agentPlaces()[agentAt] : null;
      if (v) ring(v, document.activeElement === agentsBox);
    }));
  }
  window.addEventListener('resize', followRing);
  if (window.ResizeObserver) new ResizeObserver(followRing).observe(view);

  // keepNetworkInSight scrolls, on a phone, so that the network stands
  // above the inspector's sheet.
  const phone = window.matchMedia('(max-width: 759px)');
  function keepNetworkInSight() {
    if (!phone.matches || inspector.hidden) return;
    const pl = agentPlaces();
    if (!pl.length) return;
    // The agents, with room for the badges under them.
    const vr = view.getBoundingClientRect();
    const top = vr.top + Math.min(...pl.map((a) => a.y - a.r)) - 8;
    const bottom = vr.top + Math.max(...pl.map((a) => a.y + a.r)) + 28;
    const sheet = window.innerHeight - inspector.getBoundingClientRect().height;
    if (top >= 0 && bottom <= sheet) return;
    window.scrollBy({ top, behavior: 'instant' });
  }

  // Badges: in slow motion (or paused) each agent of a small network
  // shows its ε so far and its activations (dpsim.badges), refreshed a
  // few times a second.
  const badgeBox = $('view-badges');
  let badgeAt = 0, badgeSig = '';
  function renderBadges(s) {
    const want = s && !s.allocation && (s.slow || (!s.running && s.iter > 0)) && s.nodes <= 40;
    if (!want) { if (badgeBox.childElementCount) { badgeBox.replaceChildren(); badgeSig = ''; } return; }
    const now = performance.now();
    if (now - badgeAt < 250) return;
    badgeAt = now;
    let list = [];
    try { list = JSON.parse(call('badges') || '[]'); } catch (e) { list = []; }
    const sig = JSON.stringify(list);
    if (sig === badgeSig) return;
    badgeSig = sig;
    while (badgeBox.children.length > list.length) badgeBox.lastElementChild.remove();
    while (badgeBox.children.length < list.length) badgeBox.append(document.createElement('span'));
    list.forEach((b, i) => {
      const el = badgeBox.children[i];
      el.textContent = `${i}: ${b.epsilon} · ${b.activations}×`;
      el.title = `agent ${i}: ${b.epsilon} spent so far, active ${b.activations} times`;
      el.style.left = b.x.toFixed(1) + 'px';
      el.style.top = (b.y + b.r + 2).toFixed(1) + 'px';
    });
  }


  // ------------------------------------------------------------- datasets
  //
  // A scenario whose problem trains on a committed dataset needs its files
  // (public/data/<name>-<split>.gz) before Go can build it. Go says which
  // (dpsim.dataNeeds, from the manifest: size, sha256, title, note); the
  // page streams each one with a progress bar, hands the bytes to
  // dpsim.provideData (core/data checks the sha256 and decodes them, and
  // keeps them for the session), and only then loads the scenario. A
  // failure leaves the current scenario running, untouched.

  const dataBox = $('data-load');
  const dataTitle = $('data-title');
  const dataSize = $('data-size');
  const dataBar = $('data-progress');
  const dataNote = $('data-note');
  const dataError = $('data-error');
  let dataToken = 0;   // the latest load; an older one that finishes late is dropped

  // The fetch itself (streamed, with its one-line errors) is shared with
  // the Experiments panel: public/datafetch.js.
  const { mb, fetchFile: fetchDataFile } = window.dpsimData;

  function dataNeeds(kind, arg) {
    const text = call('dataNeeds', kind, arg);
    try { return JSON.parse(text || '{}'); } catch (e) { return {}; }
  }

  // showDataUses shows, beside the results, the datasets the current
  // scenario trains on and their notes (e.g. the CIFAR-10 gap); hidden
  // when it uses none.
  function showDataUses(uses) {
    dataBox.classList.remove('error');
    dataError.hidden = true;
    if (!uses || uses.length === 0) {
      dataBox.hidden = true;
      dataBox.dataset.state = '';
      return;
    }
    dataBox.hidden = false;
    dataBox.dataset.state = 'ready';
    dataTitle.textContent = 'Data: ' + uses.map((f) => `${f.title} (${f.split})`).join(', ');
    const total = uses.reduce((t, f) => t + f.bytes, 0);
    dataSize.textContent = `${mb(total)} MB`;
    dataBar.hidden = true;
    const notes = [...new Set(uses.map((f) => f.note).filter(Boolean))];
    dataNote.hidden = notes.length === 0;
    dataNote.textContent = notes.join(' ');
  }

  function showDataError(text) {
    dataBox.hidden = false;
    dataBox.dataset.state = 'error';
    dataBox.classList.add('error');
    dataBar.hidden = true;
    dataTitle.textContent = dataTitle.textContent.replace(/^Fetching /, 'Not loaded: ');
    dataSize.textContent = '';
    dataError.hidden = false;
    dataError.textContent = text + ' The current scenario is unchanged.';
    addMessage('error', text);
  }

  // ensureData fetches what a scenario needs; resolves 'ok' when it can be
  // built (now with its data), 'failed' when it cannot (the message is
  // shown), 'superseded' when a later load took over (a file it fetched
  // is still provided, for the session). kind is "preset" or "text", as
  // for dpsim.dataNeeds.
  async function ensureData(kind, arg) {
    const token = ++dataToken;
    const needs = dataNeeds(kind, arg);
    if (needs.error) { showDataError(needs.error); return 'failed'; }
    // Files of the user's the scenario names: asked for, read locally (public/userdata.js).
    const own = window.dpsimUserData ? await window.dpsimUserData.ensure(kind, arg) : 'ok';
    if (own !== 'ok') return token === dataToken ? own : 'superseded';
    const files = needs.need || [];
    if (files.length === 0) return 'ok';
    const total = files.reduce((t, f) => t + f.bytes, 0);
    let done = 0;
    dataBox.hidden = false;
    dataBox.dataset.state = 'loading';
    dataBox.classList.remove('error');
    dataError.hidden = true;
    dataTitle.textContent = 'Fetching ' + files.map((f) => `${f.title} (${f.split})`).join(', ');
    const notes = [...new Set(files.map((f) => f.note).filter(Boolean))];
    dataNote.hidden = notes.length === 0;
    dataNote.textContent = notes.join(' ');
    dataBar.hidden = false;
    dataBar.max = total;
    beginPending(kind, arg, files);
    const report = (n) => {
      dataBar.value = Math.min(n, total);
      dataSize.textContent = `${mb(n)} of ${mb(total)} MB`;
      dataBox.dataset.loaded = String(n);
      if (token === dataToken) showPendingProgress(n, total);
    };
    report(0);
    for (const f of files) {
      let bytes;
      try {
        bytes = await fetchDataFile(f, (n) => { if (token === dataToken) report(done + n); });
      } catch (e) {
        if (token !== dataToken) return 'superseded';
        showDataError(e.message);
        return 'failed';
      }
      done += bytes.byteLength;
      if (token === dataToken) {
        dataSize.textContent = `${mb(done)} of ${mb(total)} MB · checking and decoding…`;
        // Let the bar paint before Go decodes on this thread.
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      }
      const res = call('provideData', f.file, bytes);
      if (!res || !res.ok) {
        if (token !== dataToken) return 'superseded';
        showDataError(res ? res.error : 'the simulation is not running');
        return 'failed';
      }
      dataBox.dataset.decodeMs = String(res.ms);
      console.info(`dpsim: ${f.file}: ${bytes.byteLength} bytes checked and decoded in ${res.ms} ms`);
    }
    return token === dataToken ? 'ok' : 'superseded';
  }

  // While a scenario's datasets are fetched (MNIST, 6.1 MB, takes many
  // seconds on a slow link) the scenario before it stays loaded: the
  // page pauses it, takes Play and the other transport controls away,
  // titles the head and the picture with the scenario being loaded (its
  // poster, when it is a preset) and shows the download's progress over
  // the picture, where it is on screen; the plot and the readout are
  // dimmed as the previous scenario's. endPending gives the page back.
  const transport = ['play', 'step', 'slow', 'fast', 'reset'].map($);
  let pendingPoster = null;
  function pendingTitle(kind, arg) {
    if (kind === 'preset') {
      const o = [...presetSel.options].find((x) => x.value === arg && !x.dataset.custom);
      return { title: o ? o.textContent : arg, desc: '', name: arg };
    }
    try {
      const v = JSON.parse(arg);
      return { title: v.title || v.name || 'the scenario', desc: v.description || '', name: v.name || '' };
    } catch (e) { return { title: 'the scenario', desc: '', name: '' }; }
  }
  function beginPending(kind, arg, files) {
    const t = pendingTitle(kind, arg);
    const what = files.map((f) => `${f.title} (${f.split})`).join(', ');
    const total = files.reduce((n, f) => n + f.bytes, 0);
    pending = { title: t.title, what, total };
    call('pause');
    for (const b of transport) b.disabled = true;
    $('plot').closest('.card').classList.add('stale');
    writeHead(`Loading: ${t.title}`, `Fetching ${what}, ${mb(total)} MB; the picture, the plot and Play belong to this scenario once it is loaded.`, t.name);
    if (pendingPoster) pendingPoster.remove();
    pendingPoster = null;
    if (kind === 'preset') {
      const img = document.createElement('img');
      img.className = 'poster pending';
      img.alt = '';
      img.addEventListener('error', () => img.remove());
      img.src = 'posters/' + encodeURIComponent(t.name) + '.svg';
      view.insertBefore(img, viewMsg);
      pendingPoster = img;
      view.classList.add('has-poster');
    }
    showViewMessage(`Loading ${t.title}`, '', { progress: true });
    viewMsg.classList.add('pending');
    showPendingProgress(0, total);
    renderReadout(lastState || {}, ro.eps.textContent, '');
  }
  function showPendingProgress(n, total) {
    if (!pending) return;
    progress.max = total;
    progress.value = Math.min(n, total);
    viewMsgDetail.textContent = `Fetching ${pending.what}: ${mb(n)} of ${mb(total)} MB`;
  }
  function endPending() {
    if (!pending) return;
    pending = null;
    for (const b of transport) b.disabled = false;
    $('plot').closest('.card').classList.remove('stale');
    if (pendingPoster) pendingPoster.remove();
    pendingPoster = null;
    view.classList.remove('has-poster');
    viewMsg.classList.remove('pending');
    hideViewMessage();
    headSig = null;
    if (window.dpsimState) { renderScenarioHead(window.dpsimState); renderEpsilon(window.dpsimState); }
  }

  // loadWithData fetches a scenario's datasets, then loads it with
  // dpsim[fn](arg); resolves to its {ok, …} result, null when the data
  // could not be had (the message is shown; nothing changed), or
  // undefined when a later load took over (nothing to say).
  async function loadWithData(kind, arg, fn) {
    const got = await ensureData(kind, arg);
    if (got === 'superseded') return undefined;
    endPending();
    if (got !== 'ok') return null;
    const res = call(fn, arg);
    if (res && res.ok) showDataUses(dataNeeds(kind, arg).uses);
    else if (dataBox.dataset.state === 'loading') showDataUses(dataNeeds('text', call('scenario') || '').uses);
    return res;
  }

  // ------------------------------------------------------------- controls

  function onBridgeError(e) {
    const msg = e && e.message ? e.message : String(e);
    if (/already exited/.test(msg)) {
      goExited(null);
    } else {
      addMessage('error', 'bridge call failed: ' + msg);
    }
  }
  function call(name, ...args) {
    if (!ready || dead) return undefined;
    const fn = window.dpsim && window.dpsim[name];
    if (typeof fn !== 'function') {
      addMessage('error', `dpsim.${name} is not available`);
      return undefined;
    }
    try { return fn.apply(window.dpsim, args); } catch (e) { onBridgeError(e); return undefined; }
  }
  // showResult reports a {ok, error, warnings} result; returns ok.
  function showResult(res, where, okText) {
    if (!res) return false;
    const warnings = Array.isArray(res.warnings) ? res.warnings : (res.warnings ? [...res.warnings] : []);
    for (const w of warnings) addMessage('warn', w);
    if (!res.ok) {
      const err = res.error || 'failed';
      addMessage('error', err);
      if (where) { where.textContent = err; where.className = where.className.replace(/\b(ok|warn|error)\b/g, '').trim() + ' error'; }
      return false;
    }
    if (okText) announceScenario();
    if (where) {
      where.textContent = warnings.length ? `${okText} (${warnings.length} warning${warnings.length > 1 ? 's' : ''})` : okText;
      where.className = where.className.replace(/\b(ok|warn|error)\b/g, '').trim() + (warnings.length ? ' warn' : ' ok');
    }
    return true;
  }

  function togglePlay() {
    const s = window.dpsimState;
    if (s && s.running) call('pause'); else call('play');
  }
  function doStep() { call('step'); }
  // Fast-forward runs as many iterations as fit between frames, ignoring
  // the speed slider, and starts playing.
  function toggleFast() {
    const on = !(lastState && lastState.fast);
    call('setFast', on);
    if (on && !(lastState && lastState.running)) call('play');
  }
  function doReset() { call('reset'); plotClear(); closeInspector(); }
  // Slow motion: one sender (or round) at a time, 1.5 s each; it slows
  // the run right down, so it also starts playing when paused.
  function toggleSlow() {
    // The freshest state, as togglePlay reads: lastState is a frame old,
    // so two presses within one frame both read "off".
    const s = window.dpsimState || lastState;
    const on = !(s && s.slow);
    call('setSlow', on);
    if (on && !(s && s.running)) call('play');
  }
  slowBtn.addEventListener('click', toggleSlow);

  playBtn.addEventListener('click', togglePlay);
  stepBtn.addEventListener('click', doStep);
  fastBtn.addEventListener('click', toggleFast);
  resetBtn.addEventListener('click', doReset);

  speedIn.addEventListener('input', () => {
    const v = sliderToSpeed(Number(speedIn.value));
    speedOut.textContent = fmtSpeed(v);
    speedSynced = true;
    call('setSpeed', v);
  });

  function applySeed() {
    seedErr.textContent = '';
    const text = seedIn.value.trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n)) {
      seedErr.textContent = 'enter a whole number';
      return;
    }
    const res = call('setSeed', n);
    if (!res) return;
    if (!res.ok) {
      seedErr.textContent = res.error || 'invalid seed';
      return;
    }
    announceScenario();
    seedDirty = false;
    plotClear();
  }
  seedIn.addEventListener('input', () => { seedDirty = true; seedErr.textContent = ''; });
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); applySeed(); } });
  seedApply.addEventListener('click', applySeed);

  // Workers: how many threads a heavy run's gradients split over
  // (ui/farm.go): auto (the cores but one, up to ui.MaxWorkers, once an
  // iteration is long enough to gain), 1 (the run's Worker alone, as before), or a count up to
  // ui.MaxWorkers (dpsim.workersMax()) and the machine's cores; kept in
  // this browser. A kept value the menu does not offer (edited by hand,
  // or kept on a machine with more cores) is dropped with one line.
  const workersSel = $('workers');
  const WORKERS_KEY = 'dpsim.workers';
  function fillWorkers() { // once ready: the bridge says the maximum
    const hc = navigator.hardwareConcurrency;
    const known = Number.isInteger(hc) && hc >= 1 ? hc : 1;
    const most = Math.max(2, Math.min(known, call('workersMax') || 2));
    // Auto takes the cores but one, up to ui.MaxWorkers (ui/workers.go).
    workersSel.options[0].textContent = `auto (${Math.max(1, Math.min(known - 1, call('workersMax') || 1))} of ${known} cores)`;
    for (let n = 2; n <= most; n++) workersSel.add(new Option(String(n), String(n)));
    let kept = null;
    try { kept = localStorage.getItem(WORKERS_KEY); } catch (e) { /* none kept */ }
    if (kept !== null && [...workersSel.options].some((o) => o.value === kept)) workersSel.value = kept;
    else if (kept !== null) {
      try { localStorage.removeItem(WORKERS_KEY); } catch (e) { /* not kept */ }
      const shown = kept.length > 40 ? kept.slice(0, 40) + '…' : kept;
      addMessage('warn', `workers: the value kept in this browser, ${JSON.stringify(shown)}, is not one this machine offers (auto, 1 … ${most}): auto is used`, { keep: true });
    }
  }
  function applyWorkers() {
    const res = call('setWorkers', Number(workersSel.value));
    if (res && !res.ok) addMessage('error', res.error);
  }
  workersSel.addEventListener('change', () => {
    try { localStorage.setItem(WORKERS_KEY, workersSel.value); } catch (e) { /* not kept */ }
    applyWorkers();
  });

  presetSel.addEventListener('change', async () => {
    const name = presetSel.value;
    if (!name) return;
    const res = await loadWithData('preset', name, 'loadPreset');
    if (res === undefined) return;
    if (!res) {
      // Show the scenario that is still loaded, not the one that failed.
      syncedPreset = undefined;
      syncPreset(lastState && lastState.scenario);
      return;
    }
    if (showResult(res, null, 'loaded')) {
      plotClear();
      seedDirty = false;
      seedErr.textContent = '';
      scenarioMsg.textContent = '';
      if (scenarioBox.open) fillScenario();
    }
  });

  function fillScenario() {
    const text = call('scenario');
    if (typeof text === 'string') scenarioText.value = text;
  }

  // The editor's text survives a reload or a closed tab: what the user
  // types or pastes is kept in this browser (localStorage) as it is
  // typed, and the editor reopens with it and says so. "Show current"
  // replaces it with the loaded scenario and forgets it.
  const DRAFT_KEY = 'dpsim.scenarioDraft';
  const MAX_DRAFT = 4 << 20; // characters; larger texts are not kept
  function saveDraft() {
    try {
      const text = scenarioText.value;
      if (text.trim() === '' || text.length > MAX_DRAFT) localStorage.removeItem(DRAFT_KEY);
      else localStorage.setItem(DRAFT_KEY, JSON.stringify({ text, at: Date.now() }));
    } catch (e) { /* storage disabled or full: the editor works without it */ }
  }
  function readDraft() {
    try {
      const d = JSON.parse(localStorage.getItem(DRAFT_KEY) || 'null');
      return d && typeof d.text === 'string' && Number.isFinite(d.at) ? d : null;
    } catch (e) { return null; }
  }
  function forgetDraft() {
    try { localStorage.removeItem(DRAFT_KEY); } catch (e) { /* nothing kept */ }
  }
  const draftAtStart = readDraft();
  if (draftAtStart) {
    addMessage('info', `Your scenario edit of ${new Date(draftAtStart.at).toLocaleString()} is kept in this browser: open "Scenario (JSON)" to continue it.`, { keep: true });
  }
  let draftTimer = 0;
  scenarioText.addEventListener('input', () => {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(saveDraft, 300);
  });
  window.addEventListener('pagehide', () => { if (draftTimer) { clearTimeout(draftTimer); saveDraft(); } });

  scenarioBox.addEventListener('toggle', () => {
    if (!scenarioBox.open || scenarioText.value.trim() !== '') return;
    const d = readDraft();
    if (d) {
      // no need to wait for the solver: the text is the browser's
      scenarioText.value = d.text;
      scenarioMsg.textContent = `your edit of ${new Date(d.at).toLocaleString()}, kept in this browser (Load to run it; Show current for the loaded scenario)`;
    } else if (ready) {
      fillScenario();
    }
  });
  scenarioCurrent.addEventListener('click', () => {
    clearTimeout(draftTimer);
    draftTimer = 0;
    forgetDraft();
    fillScenario();
    scenarioMsg.textContent = '';
  });
  scenarioLoad.addEventListener('click', async () => {
    const res = await loadWithData('text', scenarioText.value, 'load');
    if (res === undefined) return;
    if (!res) {
      scenarioMsg.textContent = 'not loaded: its dataset could not be fetched (see above)';
      scenarioMsg.className = scenarioMsg.className.replace(/\b(ok|warn|error)\b/g, '').trim() + ' error';
      return;
    }
    if (showResult(res, scenarioMsg, 'loaded')) {
      plotClear();
      seedDirty = false;
      seedErr.textContent = '';
    }
  });

  // Export JSON and Export CSV are streamed by public/export.js.

  // builtResult is res once a Web Worker has built what it started (a
  // heavy scenario's load returns {ok, pending} at once: ui/remote.go):
  // ok with the warnings when the run on show was replaced (dpsimState.
  // loads moved on from loads), else the error that kept it — so a file
  // that breaks the build (the user's data, a dropped export) is reported
  // to its caller, not called loaded.
  function builtResult(res, loads) {
    if (!res || !res.pending) return Promise.resolve(res);
    return new Promise((resolve) => {
      const poll = () => {
        const s = window.dpsimState;
        if (s && s.remote && s.remote.phase === 'building') { setTimeout(poll, 50); return; }
        if (s && s.loads !== loads) resolve({ ok: true, warnings: s.warnings ? [...s.warnings] : [] });
        else resolve({ ok: false, error: (s && s.error) || 'not loaded: its build was cancelled' });
      };
      poll();
    });
  }

  // loadScenarioText loads a scenario's JSON text as the editor's Load
  // does (its datasets fetched first, the same validation, the error in
  // the messages and in where); a broken text leaves the current run.
  // public/export.js loads a dropped file with it.
  async function loadScenarioText(text, where) {
    const loads = window.dpsimState ? window.dpsimState.loads : -1;
    const res = await builtResult(await loadWithData('text', text, 'load'), loads);
    if (res === undefined) return undefined;
    if (!res) return { ok: false, error: 'not loaded: its dataset could not be fetched (see the messages)' };
    if (showResult(res, where, 'loaded')) {
      plotClear();
      seedDirty = false;
      seedErr.textContent = '';
      if (scenarioBox.open) fillScenario();
    }
    return res;
  }
  window.dpsimPage = Object.assign(window.dpsimPage || {}, { loadScenarioText });

  // Keyboard shortcuts: keys.js holds their one table (listed on `?`).
  if (window.dpsimKeys) window.dpsimKeys.attach({ ready: () => ready && !dead && !pending, togglePlay, doStep, doReset, toggleFast, toggleSlow, closeInspector });

  // ------------------------------------------------------------ bridge up

  // fillPresets fills the preset menu grouped by paper, the paper's own
  // algorithm first (Go's scenario.PresetMenu, from the plug-ins' words:
  // no list is kept here).
  function fillPresets() {
    let groups = [];
    try { groups = JSON.parse(call('presetMenu') || '[]'); } catch (e) { groups = []; }
    presetSel.replaceChildren();
    if (groups.length === 0) {
      const o = document.createElement('option');
      o.value = ''; o.textContent = '(no presets)';
      presetSel.append(o);
      return;
    }
    for (const g of groups) {
      const og = document.createElement('optgroup');
      og.label = g.label;
      og.dataset.paper = g.paper;
      for (const p of g.presets) {
        const o = document.createElement('option');
        o.value = p.name;
        o.textContent = p.title || p.name;
        o.title = p.name;
        o.dataset.algorithm = p.algorithm;
        og.append(o);
      }
      presetSel.append(og);
    }
    presetsFilled = true;
    syncedPreset = null;
    syncPreset(window.dpsimState && window.dpsimState.scenario);
  }

  // syncPreset shows the current scenario in the preset list, or a
  // "(custom: name)" entry when it is not one of the presets — nor a
  // preset edited but for its seed and target ε (its link then carries
  // the whole scenario, ui.LinkParams): an edited ring of 8 built with
  // 12 agents is not the preset it was made from.
  let presetsFilled = false;
  let syncedPreset = null;
  let editedOf = null, editedWas = false; // isEdited's last answer and what it was for
  function isEdited(name) {
    const k = `${name}|${generation}`;
    if (k !== editedOf) {
      editedOf = k;
      const link = name ? call('shareLink', '{}') : '';
      editedWas = typeof link === 'string' && link.startsWith('?scenario=');
    }
    return editedWas;
  }
  function syncPreset(name) {
    const edited = isEdited(name);
    const key = `${name}|${edited}`;
    if (key === syncedPreset) return;
    syncedPreset = key;
    let custom = presetSel.querySelector('option[data-custom]');
    if (name && !edited && [...presetSel.options].some((o) => o.value === name && !o.dataset.custom)) {
      presetSel.value = name;
      if (custom) custom.remove();
      return;
    }
    if (!custom) {
      custom = document.createElement('option');
      custom.dataset.custom = '1';
      custom.value = '';
      presetSel.prepend(custom);
    }
    custom.textContent = name ? `(custom: ${name}${edited ? ', edited' : ''})` : '(custom)';
    presetSel.value = '';
  }

  // ------------------------------------------------- equal privacy, theory

  const targetIn = document.getElementById('target-eps');
  const targetApply = document.getElementById('target-apply');
  const targetErr = document.getElementById('target-error');
  const th = {
    cal: document.getElementById('th-cal'), rhowo: document.getElementById('th-rhowo'),
    rhow: document.getElementById('th-rhow'), measured: document.getElementById('th-measured'),
    pred: document.getElementById('th-pred'), inf: document.getElementById('th-inf'),
    conv: document.getElementById('th-conv'), src: document.getElementById('th-src'),
    assume: document.getElementById('th-assume-list'),
  };
  const metricsFoot = document.getElementById('metrics-foot');
  let theoryAt = 0, theoryKey = '', theoryTimer = 0;
  let targetDirty = false;

  // refreshTheory fills the theory card from window.dpsim.theory(): the
  // calibration, ρ(W_o), ρ_w, the measured steady-state error beside the
  // predicted one, the infinite-horizon budget, the convergence case and
  // the source with its confidence. Throttled: the measured error moves
  // while the run plays.
  function refreshTheory(s, force) {
    if (!window.dpsim || typeof window.dpsim.theory !== 'function') return;
    const key = `${s && s.scenario}|${s && s.seed}|${s && s.iter}|${s && s.outcome}`;
    const now = performance.now();
    if (!force && key === theoryKey) return;
    if (!force && now - theoryAt < 400) {
      // A trailing refresh, so the card shows the run's last iteration.
      if (!theoryTimer) theoryTimer = setTimeout(() => { theoryTimer = 0; refreshTheory(window.dpsimState, false); }, 400);
      return;
    }
    theoryAt = now; theoryKey = key;
    let v;
    try { v = JSON.parse(window.dpsim.theory() || 'null'); } catch (e) { return; }
    if (!v) return;
    const c = v.calibration;
    th.cal.textContent = c
      ? `ε = ${fmtNum(c.target_epsilon)} after ${c.iterations} ${c.unit || 'iterations'}: noise scales ×${fmtNum(c.factor)} (${c.method})` +
        (c.field ? ` — asked by ${c.field}${c.horizon_field ? ' at ' + c.horizon_field : ''}` : '')
      : 'none (the scenario\'s own noise scales)';
    th.rhowo.textContent = v.rho_wo == null ? 'n/a' : fmtNum(v.rho_wo);
    th.rhow.textContent = v.rho_w == null ? 'n/a' : fmtNum(v.rho_w);
    const st = v.steady_state || {};
    th.measured.textContent = Number.isFinite(st.measured)
      ? `${fmtNum(st.measured)} (mean of ${v.optimality_metric} from iteration ${st.from_iteration})` : '—';
    if (v.optimality_metric) {
      metricsFoot.textContent = `Optimality = ${v.optimality_metric}; consensus = ${v.consensus_metric}.` +
        (v.metric_note ? ` ${v.metric_note}.` : '');
    }
    const t = v.theory || {};
    const pe = t.predicted_error;
    if (!pe) th.pred.textContent = 'the source gives none';
    else if (pe.available) th.pred.textContent = `≤ ${fmtNum(pe.per_agent)} (ρ(A) = ${fmtNum(pe.rate)}; ${pe.source})`;
    else th.pred.textContent = `unavailable: ${pe.reason}`;
    const ih = t.infinite_horizon;
    if (!ih) th.inf.textContent = '—';
    else if (ih.available) th.inf.textContent = `${ih.epsilon.text} (${ih.source})`;
    else th.inf.textContent = `unavailable: ${ih.reason}`;
    renderConvergence(t.convergence, v);
    th.src.textContent = v.paper || '—';
    if (!targetDirty && document.activeElement !== targetIn) {
      targetIn.value = v.target_epsilon > 0 ? String(v.target_epsilon) : '';
    }
  }

  // renderConvergence writes the source's convergence claim with what
  // this run says of it: the claim holds only under the assumptions the
  // plug-in declares, each listed with its verdict for this run, and a
  // run that ended (or is diverging) above its start contradicts it.
  const VERDICT_MARK = { holds: '✓', fails: '✗', unknown: '?' };
  function renderConvergence(claim, v) {
    const as = v.assumptions || [];
    const fails = as.filter((a) => a.verdict === 'fails');
    let text = claim || '—';
    if (v.outcome && !claim) {
      text = `The source states no convergence result for this run; in it, ${v.outcome_text}.`;
    } else if (v.outcome) {
      text = `This run contradicts the claim: ${v.outcome_text}. The source claims: ${text}`;
    } else if (claim && fails.length) {
      text = `Only if every assumption below holds, and ${fails.length} fail${fails.length === 1 ? 's' : ''} here: ${text}`;
    }
    th.conv.textContent = text;
    th.conv.dataset.outcome = v.outcome || '';
    const sig = JSON.stringify(as);
    if (th.assume.dataset.sig === sig) return;
    th.assume.dataset.sig = sig;
    th.assume.replaceChildren();
    for (const a of as) {
      const li = document.createElement('li');
      li.dataset.verdict = a.verdict;
      const mark = document.createElement('span');
      mark.className = 'assume-mark';
      mark.textContent = VERDICT_MARK[a.verdict] || '?';
      mark.setAttribute('aria-label', a.verdict);
      li.append(mark, ` ${a.name} (${a.source}) ${a.verdict}${a.detail ? ': ' + a.detail : ''}`);
      th.assume.append(li);
    }
    if (!as.length) {
      const li = document.createElement('li');
      li.textContent = 'the algorithm declares none';
      th.assume.append(li);
    }
  }

  // Before a calibration that multiplies the noise by more than 100×,
  // the page shows the predicted noise and error (dpsim.calibratePreview:
  // the factor, the scales, a short trial run of both) and asks.
  function applyTarget() {
    targetErr.textContent = '';
    const text = targetIn.value.trim();
    const n = text === '' ? 0 : Number(text);
    if (!Number.isFinite(n) || n < 0) {
      targetErr.textContent = 'enter ε > 0, or leave empty for none';
      return;
    }
    if (n > 0 && window.dpsim && typeof window.dpsim.calibratePreview === 'function') {
      let p = null;
      try { p = JSON.parse(call('calibratePreview', n) || 'null'); } catch (e) { p = null; }
      if (p && p.error) { targetErr.textContent = p.error; addMessage('error', p.error); return; }
      if (p && p.large) { askCalibration(n, p); return; }
    }
    doCalibrate(n);
  }
  const calConfirm = $('cal-confirm');
  let calPending = null;
  function askCalibration(n, p) {
    calPending = n;
    const scales = (p.channels || []).map((c) => `${c.channel}: ${fmtNum(c.before[0])} → ${fmtNum(c.after[0])}`).join(', ');
    $('cal-confirm-title').textContent = `ε = ${fmtNum(n)} multiplies every noise scale by ${fmtNum(p.factor)}.`;
    const t = p.trial || {};
    const trial = t.iteration > 0
      ? ` A trial of the first ${t.iteration} iterations ends with error ${fmtNum(t.then)} instead of ${fmtNum(t.now)} (${fmtNum(t.then / t.now)}× worse).` : '';
    const pred = p.predicted_error ? ` The paper's prediction: error ≤ ${fmtNum(p.predicted_error.per_agent)}.` : '';
    $('cal-confirm-body').textContent = `Noise scales ${scales || '×' + fmtNum(p.factor)}; ε now ${p.epsilon_before.text} → ${p.epsilon_after.text} after ${p.iterations} ${p.unit || 'iterations'}.${trial}${pred} The noise will swamp the messages.`;
    calConfirm.hidden = false;
    calConfirm.dataset.factor = String(p.factor);
  }
  $('cal-confirm-yes').addEventListener('click', () => { calConfirm.hidden = true; if (calPending != null) doCalibrate(calPending); calPending = null; });
  $('cal-confirm-no').addEventListener('click', () => { calConfirm.hidden = true; calPending = null; targetDirty = false; refreshTheory(window.dpsimState, true); });
  function doCalibrate(n) {
    const res = call('calibrate', n);
    if (!res) return;
    if (!showResult(res, null, 'calibrated')) {
      targetErr.textContent = res.error || 'cannot calibrate';
      return;
    }
    targetDirty = false;
    plotClear();
    refreshTheory(window.dpsimState, true);
  }
  targetIn.addEventListener('input', () => { targetDirty = true; targetErr.textContent = ''; });
  targetIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); applyTarget(); } });
  targetApply.addEventListener('click', applyTarget);

  function onReady() {
    if (ready || dead) return;
    if (!window.dpsim) {
      fatal('The simulation started without its page interface (window.dpsim).');
      return;
    }
    ready = true;
    performance.mark('dpsim-ready');
    fillWorkers();
    applyWorkers();
    controls.disabled = false;
    targetIn.disabled = false;
    targetApply.disabled = false;
    fillPresets();
    if (!speedSynced) speedOut.textContent = fmtSpeed(sliderToSpeed(Number(speedIn.value)));
    showViewMessage('Starting…', '', { progress: false });
    if (boot.firstFrameShown) hideViewMessage();
    // Go announces readiness before it reads the URL (ApplyQuery), within
    // the same run of its main: ask for a deferred preset once it yields.
    setTimeout(loadDeferred, 0);
    setTimeout(announceScenario, 0);
  }

  // A URL's ?preset= whose datasets must be fetched first: Go left it to
  // the page (dpsim.deferredQuery), with its seed.
  async function loadDeferred() {
    const text = call('deferredQuery');
    if (!text) return;
    let q;
    try { q = JSON.parse(text); } catch (e) { return; }
    // A whole scenario (?scenario=) or a preset, then its seed and its
    // target ε, in the URL's order (docs/url.md).
    const res = q.scenario
      ? await loadWithData('text', q.scenario, 'load')
      : await loadWithData('preset', q.preset, 'loadPreset');
    if (!res || !showResult(res, null, 'loaded')) return;
    plotClear();
    if (q.seed !== undefined) showResult(call('setSeed', q.seed), null, 'seed');
    if (q.epsilon !== undefined) showResult(call('calibrate', q.epsilon), null, 'calibrated');
  }

  // -------------------------------------------------------------- loading

  function goExited(code) {
    if (dead) return;
    const tail = goTail();
    fatal(code === null || code === undefined
      ? 'The simulation stopped: the Go program has exited.'
      : `The simulation stopped: the Go program exited with code ${code}.`, tail);
  }

  // goTail is the end of the Go programs' output (boot.js keeps it).
  const goTail = () => boot.stderr().trim().split('\n').slice(-12).join('\n');

  // softwareGL: WebGL is drawn by the CPU (SwiftShader, llvmpipe), where
  // every canvas pixel costs; only there is a large network drawn at
  // LARGE_CANVAS_SCALE. index.html's head has looked (boot.gl).
  const softwareGL = boot.gl.ok && /swiftshader|llvmpipe|softpipe|software/i.test(boot.gl.renderer || '');

  // fetchWithProgress returns a Response whose body reports progress as it
  // streams, so compileStreaming can still compile while downloading.
  async function fetchWithProgress(url) {
    const res = await fetch(url);
    if (!res.ok) {
      const hint = res.status === 404 ? ' (build it with ./build.sh)' : '';
      throw new Error(`${url}: HTTP ${res.status} ${res.statusText}`.trim() + hint);
    }
    const type = res.headers.get('Content-Type') || '';
    if (!type.startsWith('application/wasm')) {
      throw new Error(`${url} was served as "${type}", not application/wasm (use go run ./serve)`);
    }
    // With Content-Encoding the length is the compressed size, while the
    // body yields decompressed bytes: the total is then unknown.
    const encoded = !!res.headers.get('Content-Encoding');
    const total = encoded ? 0 : Number(res.headers.get('Content-Length')) || 0;
    if (!res.body || typeof ReadableStream === 'undefined') return res;
    let loaded = 0;
    const reader = res.body.getReader();
    const report = () => {
      const mb = (loaded / 1048576).toFixed(1);
      if (total > 0) {
        progress.max = total;
        progress.value = loaded;
        viewMsgDetail.textContent = `${mb} of ${(total / 1048576).toFixed(1)} MB`;
      } else {
        progress.removeAttribute('value');
        viewMsgDetail.textContent = `${mb} MB`;
      }
    };
    const stream = new ReadableStream({
      async pull(ctrl) {
        const { done, value } = await reader.read();
        if (done) { report(); ctrl.close(); return; }
        loaded += value.byteLength;
        report();
        ctrl.enqueue(value);
      },
      cancel(reason) { return reader.cancel(reason); },
    });
    return new Response(stream, { headers: { 'Content-Type': 'application/wasm' } });
  }

  async function start() {
    if (!boot.gl.ok) {
      dead = true;
      showViewMessage(
        'This page needs WebGL2, which this browser has turned off or lacks.',
        'Turn on hardware acceleration (or WebGL) in the browser settings, or open the page in a current Firefox, Chrome, Edge or Safari.',
        { error: true });
      addMessage('error', 'WebGL2 is not available, so the simulation cannot start.');
      setStatus('error');
      controls.disabled = true;
      loadLateScripts();
      return;
    }
    if (typeof window.Go !== 'function') {
      fatal('Could not load wasm_exec.js.', 'Build the site first: ./build.sh');
      return;
    }
    if (typeof WebAssembly !== 'object') {
      fatal('This browser lacks WebAssembly.');
      return;
    }

    window.addEventListener('dpsim-ready', onReady);
    window.addEventListener('error', (e) => {
      if (dead) return;
      const msg = e.error && e.error.message ? e.error.message : e.message;
      if (msg) addMessage('error', msg);
    });
    window.addEventListener('unhandledrejection', (e) => {
      if (dead) return;
      const r = e.reason;
      addMessage('error', r && r.message ? r.message : String(r));
    });

    if (!boot.firstFrameShown) showViewMessage('Loading the simulation…', '', { progress: true });
    // The simulator streams and compiles from now on, while the view
    // starts and the panels' scripts load; startSimulator runs it.
    compileSimulator();
    // Two Go programs: the view (view.wasm, ebiten: it draws), which
    // boot.js started, and the simulator (dpsim.wasm: the run, the
    // bridge), which hands the view its pictures (docs/bridge.md).
    try {
      await boot.view;
    } catch (e) {
      fatal('Could not load the view (view.wasm).', e && e.message ? e.message : String(e));
      return;
    }
    boot.viewRun.then(
      (code) => goExited(code),
      (e) => fatal('The view crashed.', [e && e.message ? e.message : String(e), goTail()].filter(Boolean).join('\n')),
    );
    requestAnimationFrame(frame);
    // boot.js loaded this script after the view's first frame (or when
    // none was coming); the panels' scripts run before the simulator
    // starts, so that they see it start.
    await loadLateScripts();
    await startSimulator();
  }

  // loadLateScripts runs the panels' scripts (index.html's
  // #late-scripts), in their order; it resolves when all have run (or
  // failed to load, which each reports itself by its absence).
  let lateScripts = null;
  function loadLateScripts() {
    if (lateScripts) return lateScripts;
    const tpl = $('late-scripts');
    const list = tpl ? [...tpl.content.querySelectorAll('script[src]')] : [];
    lateScripts = Promise.all(list.map((old) => new Promise((resolve) => {
      const el = document.createElement('script');
      el.src = old.getAttribute('src');
      el.async = false; // in order, as if in the page
      el.onload = resolve;
      el.onerror = () => { addMessage('error', `Could not load ${el.src}.`, { keep: true }); resolve(); };
      document.body.append(el);
    })));
    return lateScripts;
  }

  // compileSimulator fetches and compiles dpsim.wasm, the simulator, as
  // it streams, once; startSimulator awaits the module.
  let simModule = null;
  function compileSimulator() {
    if (!simModule) {
      simModule = fetchWithProgress(WASM_URL).then((res) => WebAssembly.compileStreaming(res));
      simModule.catch(() => {}); // startSimulator reports it
    }
    return simModule;
  }

  // startSimulator runs dpsim.wasm, the simulator (compileSimulator
  // fetched and compiled it).
  async function startSimulator() {
    if (dead) return;
    const go = new window.Go();
    // simd.js links simd.wasm (the SIMD kernels, public/simd.js); without it
    // every import answers 0 ("not done") and Go does the work, same bits.
    if (window.dpsimSIMD) window.dpsimSIMD.prepare(go);
    else go.importObject.dpsimsimd = new Proxy({}, { get: () => () => 0 });
    go.exit = (code) => {
      if (code !== 0) console.warn('exit code:', code);
      goExited(code);
    };
    let instance;
    try {
      const module = await compileSimulator();
      instance = await WebAssembly.instantiate(module, go.importObject);
      // The compiled simulator, which a heavy scenario's Web Worker runs
      // too (ui/remote.go, public/run-worker.js): compiled once.
      window.dpsimSimModule = module;
      performance.mark('dpsim-instantiated');
    } catch (e) {
      fatal('Could not load the simulation (dpsim.wasm).', e && e.message ? e.message : String(e));
      return;
    }
    if (!boot.firstFrameShown) showViewMessage('Starting…', '', { progress: false });
    go.run(instance).then(
      () => goExited(null),
      (e) => fatal('The simulation crashed.', [e && e.message ? e.message : String(e), goTail()].filter(Boolean).join('\n')),
    );
    if (window.dpsimReady) onReady();
  }

  drawPlot(null);
  start();
})();
