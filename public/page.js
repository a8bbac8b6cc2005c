// page.js — the dpsim page: loads dpsim.wasm, hosts ebiten's canvas in #view,
// drives the controls and draws the live error plot.
//
// The only names shared with the Go program are the ones in docs/bridge.md:
// window.dpsim (functions), window.dpsimState (state object),
// window.dpsimReady and the "dpsim-ready" event. This file defines no globals.
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
  const exportJSON = $('export-json');
  const exportCSV = $('export-csv');
  const plotCanvas = $('plot');
  const viewLabels = $('view-labels');
  const viewKeyText = $('view-key-text');
  const viewNote = $('view-note');
  const keyDefault = viewKeyText.innerHTML;
  const messages = $('messages');
  const stat = {
    iter: $('stat-iter'), opt: $('stat-opt'), cons: $('stat-cons'),
    eps: $('stat-eps'), rate: $('stat-rate'), status: $('stat-status'),
  };

  const WASM_URL = 'dpsim.wasm';

  let ready = false;   // the Go bridge is up
  let dead = false;    // loading failed or the Go program exited
  let goStderr = '';   // tail of the Go program's output, shown if it dies

  // ---------------------------------------------------------------- messages

  function addMessage(kind, text) {
    const empty = messages.querySelector('li.empty');
    if (empty) empty.remove();
    // Do not repeat the message that is already on top.
    const first = messages.firstElementChild;
    if (first && first.dataset.text === text && first.classList.contains(kind)) return;
    const li = document.createElement('li');
    li.className = kind;
    li.dataset.text = text;
    li.textContent = text;
    messages.prepend(li);
    while (messages.children.length > 30) messages.lastElementChild.remove();
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
    controls.disabled = true;
    showViewMessage(title, detail || '', { error: true, trace: true });
    addMessage('error', detail ? `${title}\n${detail}` : title);
    setStatus('error');
  }

  function setStatus(s) {
    stat.status.textContent = s;
    stat.status.className = 'badge s-' + s;
  }

  // ------------------------------------------------------- ebiten's canvas

  // Ebitengine sizes its canvas and its Layout from document.body.clientWidth
  // and clientHeight. Point those at #view so the game renders at the view's
  // own size instead of the whole page's.
  function viewSizeToEbiten() {
    try {
      Object.defineProperty(document.body, 'clientWidth', {
        configurable: true, get: () => view.clientWidth,
      });
      Object.defineProperty(document.body, 'clientHeight', {
        configurable: true, get: () => view.clientHeight,
      });
    } catch (e) {
      console.warn('dpsim: cannot redirect body size to #view:', e);
    }
  }

  // Undo the inline styles ebiten puts on <html> and <body> (style.css also
  // overrides them with !important).
  function resetPageStyles() {
    for (const el of [document.documentElement, document.body]) {
      el.style.removeProperty('background-color');
      el.style.removeProperty('height');
    }
  }

  let gameCanvas = null;
  function adoptCanvas(c) {
    if (c === gameCanvas) return;
    gameCanvas = c;
    c.setAttribute('tabindex', '-1');
    c.style.pointerEvents = 'none';
    c.style.outline = 'none';
    c.setAttribute('aria-hidden', 'true');
    c.id = c.id || 'game';
    // Clicks cannot reach it (pointer-events), but keep keyboard focus off it
    // whatever ebiten does.
    c.addEventListener('focus', () => c.blur());
    view.insertBefore(c, viewMsg);
    if (document.activeElement === c) c.blur();
    resetPageStyles();
    // Ebiten re-reads the size on resize.
    window.dispatchEvent(new Event('resize'));
  }
  function adoptFromBody() {
    for (const el of document.body.children) {
      if (el.tagName === 'CANVAS') { adoptCanvas(el); return; }
    }
  }
  const bodyObserver = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && n.tagName === 'CANVAS' && n.parentNode === document.body) adoptCanvas(n);
      }
    }
  });

  // ------------------------------------------------------------ formatting

  function fmtNum(x) {
    if (typeof x !== 'number') return '—';
    if (Number.isNaN(x)) return 'NaN';
    if (x === Infinity) return '∞';
    if (x === -Infinity) return '−∞';
    if (x === 0) return '0';
    const a = Math.abs(x);
    if (a >= 1e-3 && a < 1e4) return x.toPrecision(4);
    return x.toExponential(3);
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

  const plot = {
    ctx: plotCanvas.getContext('2d'),
    iter: [], opt: [], cons: [],
    rev: -1,          // history revision drawn
    dirty: true,
    cssW: 0, cssH: 0, dpr: 0,
    xMax: 0,
  };
  const MAX_DECADES = 18;
  const COLORS = { opt: '#2f6fdd', cons: '#e4572e', axis: '#98a2b3', grid: '#edf0f4', text: '#475467', bg: '#ffffff' };

  function plotClear() {
    plot.iter = []; plot.opt = []; plot.cons = [];
    plot.rev = -1;
    plot.dirty = true;
    plotCanvas.dataset.points = '0';
  }

  // pollMetrics fetches the decimated history (Go keeps at most about two
  // thousand points per series, however long the run) when it changed.
  function pollMetrics(state) {
    if (!window.dpsim || typeof window.dpsim.history !== 'function' || !state) return;
    if (state.historyRev === plot.rev) return;
    let m;
    try { m = window.dpsim.history(); } catch (e) { onBridgeError(e); return; }
    if (!m || !m.iter) return;
    plot.iter = m.iter; plot.opt = m.optimality; plot.cons = m.consensus;
    plot.rev = typeof m.rev === 'number' ? m.rev : state.historyRev;
    plot.dirty = true;
    plotCanvas.dataset.points = String(plot.iter.length);
  }

  function resizePlot() {
    const r = plotCanvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width)), h = Math.max(1, Math.round(r.height));
    if (w === plot.cssW && h === plot.cssH && dpr === plot.dpr) return;
    plot.cssW = w; plot.cssH = h; plot.dpr = dpr;
    plotCanvas.width = Math.round(w * dpr);
    plotCanvas.height = Math.round(h * dpr);
    plot.dirty = true;
  }

  function niceStep(range, target) {
    const raw = range / Math.max(1, target);
    const p = 10 ** Math.floor(Math.log10(raw));
    const f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  }
  function fmtIter(x) {
    if (x >= 1e6) return (x / 1e6) + 'M';
    if (x >= 1e4) return (x / 1e3) + 'k';
    return String(x);
  }

  function drawPlot(state) {
    resizePlot();
    const K = state && state.iterations > 0 ? state.iterations : 0;
    const lastIter = plot.iter.length ? plot.iter[plot.iter.length - 1] : 0;
    const xMax = Math.max(K, lastIter, 10);
    if (xMax !== plot.xMax) { plot.xMax = xMax; plot.dirty = true; }
    if (!plot.dirty) return;
    plot.dirty = false;

    const { ctx, cssW: W, cssH: H, dpr } = plot;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = COLORS.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

    const L = 46, R = 12, T = 26, B = 30;
    const pw = W - L - R, ph = H - T - B;
    if (pw < 20 || ph < 20) return;

    // y range in decades, over positive finite values of both series.
    let lo = Infinity, hi = -Infinity;
    for (const s of [plot.opt, plot.cons]) {
      for (let i = 0; i < s.length; i++) {
        const v = s[i];
        if (v > 0 && v < Infinity) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
    }
    let dLo, dHi;
    if (lo === Infinity) { dLo = -4; dHi = 1; } else {
      dLo = Math.floor(Math.log10(lo));
      dHi = Math.ceil(Math.log10(hi));
      if (dHi - dLo < 1) dHi = dLo + 1;
      // Below ~1e-18 of the top it is rounding noise: do not squash the
      // interesting part of the plot for it.
      if (dHi - dLo > MAX_DECADES) dLo = dHi - MAX_DECADES;
    }
    const xOf = (x) => L + (x / xMax) * pw;
    const yOfLog = (lv) => T + (1 - (lv - dLo) / (dHi - dLo)) * ph;

    // Grid and decade labels.
    const decades = dHi - dLo;
    const every = Math.max(1, Math.ceil(decades / 6));
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let d = dHi; d >= dLo; d -= every) {
      const y = Math.round(yOfLog(d)) + 0.5;
      ctx.strokeStyle = COLORS.grid;
      ctx.beginPath(); ctx.moveTo(L, y); ctx.lineTo(L + pw, y); ctx.stroke();
      ctx.fillStyle = COLORS.text;
      ctx.fillText('1e' + d, L - 6, y);
    }
    // x ticks.
    const step = niceStep(xMax, 5);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let x = 0; x <= xMax + 1e-9; x += step) {
      const px = Math.round(xOf(x)) + 0.5;
      ctx.strokeStyle = COLORS.grid;
      ctx.beginPath(); ctx.moveTo(px, T); ctx.lineTo(px, T + ph); ctx.stroke();
      ctx.fillStyle = COLORS.text;
      const label = fmtIter(Math.round(x));
      const half = ctx.measureText(label).width / 2;
      ctx.textAlign = px + half > W - 1 ? 'right' : 'center';
      ctx.fillText(label, ctx.textAlign === 'right' ? W - 1 : px, T + ph + 5);
    }
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = 'right';
    ctx.fillText('iteration', L + pw, T + ph + 17);
    // Axes.
    ctx.strokeStyle = COLORS.axis;
    ctx.beginPath();
    ctx.moveTo(L + 0.5, T); ctx.lineTo(L + 0.5, T + ph + 0.5); ctx.lineTo(L + pw, T + ph + 0.5);
    ctx.stroke();

    // Series, clipped to the plot area. Non-finite or non-positive values
    // break the line.
    ctx.save();
    ctx.beginPath(); ctx.rect(L, T - 1, pw + 1, ph + 2); ctx.clip();
    ctx.lineWidth = 1.6;
    ctx.lineJoin = 'round';
    for (const [s, color] of [[plot.cons, COLORS.cons], [plot.opt, COLORS.opt]]) {
      ctx.strokeStyle = color;
      ctx.beginPath();
      let pen = false;
      // Draw at most about two points per pixel column: keep the min and max
      // of each column, so long runs stay cheap to redraw.
      const n = s.length;
      const decimate = n > 2 * pw;
      let col = -1, cMin = 0, cMax = 0, cFirst = 0, cLast = 0;
      const flush = () => {
        if (col < 0) return;
        const x = L + col;
        const a = yOfLog(Math.log10(cFirst)), b = yOfLog(Math.log10(cMin));
        const c = yOfLog(Math.log10(cMax)), d = yOfLog(Math.log10(cLast));
        if (!pen) { ctx.moveTo(x, a); pen = true; } else ctx.lineTo(x, a);
        ctx.lineTo(x, b); ctx.lineTo(x, c); ctx.lineTo(x, d);
      };
      for (let i = 0; i < n; i++) {
        const v = s[i];
        if (!(v > 0 && v < Infinity)) {
          if (decimate) { flush(); col = -1; }
          pen = false;
          continue;
        }
        const x = xOf(plot.iter[i]);
        if (!decimate) {
          const y = yOfLog(Math.log10(v));
          if (!pen) { ctx.moveTo(x, y); pen = true; } else ctx.lineTo(x, y);
          continue;
        }
        const c = Math.floor(x - L);
        if (c !== col) {
          flush();
          col = c; cMin = cMax = cFirst = cLast = v;
        } else {
          if (v < cMin) cMin = v;
          if (v > cMax) cMax = v;
          cLast = v;
        }
      }
      if (decimate) flush();
      ctx.stroke();
      // A single point would draw nothing: mark it.
      if (n === 1 && s[0] > 0 && s[0] < Infinity) {
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.arc(xOf(plot.iter[0]), yOfLog(Math.log10(s[0])), 2.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();

    // Legend.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    let lx = L + 4;
    for (const [label, color] of [['optimality', COLORS.opt], ['consensus', COLORS.cons]]) {
      ctx.strokeStyle = color;
      ctx.lineWidth = 2.5;
      ctx.beginPath(); ctx.moveTo(lx, 12); ctx.lineTo(lx + 16, 12); ctx.stroke();
      ctx.fillStyle = COLORS.text;
      ctx.fillText(label, lx + 21, 12);
      lx += 21 + ctx.measureText(label).width + 16;
    }
  }

  // ----------------------------------------------------------------- state

  let lastState = null;
  let seedDirty = false;    // the user edited the seed field and did not apply
  let speedSynced = false;

  function renderState(s) {
    if (!s) return;
    const K = s.iterations > 0 ? s.iterations : '—';
    stat.iter.textContent = `${typeof s.iter === 'number' ? s.iter : '—'} / ${K}`;
    stat.opt.textContent = fmtNum(s.optimality);
    stat.cons.textContent = fmtNum(s.consensus);
    stat.eps.textContent = s.epsilon === Infinity ? '∞ (no noise)' : fmtNum(s.epsilon);
    const epsInf = $('stat-epsinf');
    epsInf.hidden = $('stat-epsinf-dt').hidden = !s.epsilonNote;
    epsInf.textContent = s.epsilonNote || '';
    stat.rate.textContent = s.running && s.rate > 0 ? fmtSpeed(s.rate) : '—';
    if (!dead) setStatus(s.status || (s.running ? 'running' : 'paused'));

    const running = !!s.running;
    playBtn.setAttribute('aria-pressed', String(running));
    fastBtn.setAttribute('aria-pressed', String(!!s.fast));
    playBtn.querySelector('.lbl').textContent = running ? 'Pause' : 'Play';

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
    if (s.status === 'diverged' && (!lastState || lastState.status !== 'diverged')) {
      addMessage('warn', 'The run diverged: the iterates are no longer finite.');
    }
    if (presetsFilled) syncPreset(s.scenario);
  }

  // ------------------------------------------------------ canvas labels

  // The scene places text labels (node names and values, the allocation
  // panel's captions); they are written here, over the canvas, as DOM text.
  let labelsSig = '';
  function renderLabels(s) {
    const list = s && s.labels ? Array.from(s.labels) : [];
    const w = view.clientWidth, h = view.clientHeight;
    const sig = w + 'x' + h + ':' + list.map((l) => l.text + '@' + l.x.toFixed(4) + ',' + l.y.toFixed(4)).join('|');
    if (sig === labelsSig) return;
    labelsSig = sig;
    while (viewLabels.children.length > list.length) viewLabels.lastElementChild.remove();
    while (viewLabels.children.length < list.length) viewLabels.append(document.createElement('span'));
    list.forEach((l, i) => {
      const el = viewLabels.children[i];
      el.textContent = l.text;
      el.className = l.cls || '';
      el.style.left = (l.x * w).toFixed(1) + 'px';
      el.style.top = (l.y * h).toFixed(1) + 'px';
      el.style.fontSize = Math.max(8, l.size).toFixed(1) + 'px';
      const tx = l.align === 'center' ? '-50%' : l.align === 'right' ? '-100%' : '0';
      const ty = l.valign === 'middle' ? '-50%' : l.valign === 'bottom' ? '-100%' : '0';
      el.style.transform = `translate(${tx}, ${ty})`;
    });
  }

  // The key under the view follows the scenario: which channels are sent or
  // pulled, and for resource allocation the shapes and the edge reading.
  let keySig = null;
  function renderKey(s) {
    const sig = [s.key, s.allocation, s.reading].join('|');
    if (sig === keySig) return;
    keySig = sig;
    if (!s.allocation) {
      viewKeyText.innerHTML = keyDefault;
    } else {
      viewKeyText.textContent = 'Each packet is one message; its colour and size show noise ÷ signal. ' +
        (s.key ? 'Channels: ' + s.key + '. ' : '') +
        'Squares: generator buses, labelled output / optimum*; discs: load buses, labelled with their demand. ' +
        'Right panel: total generation against demand, each generator\'s output (bar) against its optimum (tick), every bus\'s price converging to λ*.';
    }
    const notes = [];
    if (s.reading) notes.push('Directed links: arrows point from sender to receiver; ' + s.reading + '.');
    if (s.allocation) notes.push('Error plot: optimality = ‖w − w*‖² (the paper\'s error), consensus = disagreement of the buses\' prices.');
    viewNote.hidden = notes.length === 0;
    viewNote.textContent = notes.join(' ');
  }

  let firstFrameShown = false;
  function frame() {
    if (dead) return;
    const s = window.dpsimState;
    if (s && s !== lastState) {
      renderState(s);
      renderLabels(s);
      renderKey(s);
      lastState = s;
    }
    if (!firstFrameShown && s && (s.ready || s.draws > 0)) {
      firstFrameShown = true;
      hideViewMessage();
      resetPageStyles();
    }
    if (ready) pollMetrics(s);
    drawPlot(s);
    requestAnimationFrame(frame);
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
  function doReset() { call('reset'); plotClear(); }

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
    seedDirty = false;
    plotClear();
  }
  seedIn.addEventListener('input', () => { seedDirty = true; seedErr.textContent = ''; });
  seedIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); applySeed(); } });
  seedApply.addEventListener('click', applySeed);

  presetSel.addEventListener('change', () => {
    const name = presetSel.value;
    if (!name) return;
    const res = call('loadPreset', name);
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
  scenarioBox.addEventListener('toggle', () => {
    if (scenarioBox.open && ready && scenarioText.value.trim() === '') fillScenario();
  });
  scenarioCurrent.addEventListener('click', () => {
    fillScenario();
    scenarioMsg.textContent = '';
  });
  scenarioLoad.addEventListener('click', () => {
    const res = call('load', scenarioText.value);
    if (showResult(res, scenarioMsg, 'loaded')) {
      plotClear();
      seedDirty = false;
      seedErr.textContent = '';
    }
  });

  exportJSON.addEventListener('click', () => call('exportJSON'));
  exportCSV.addEventListener('click', () => call('exportCSV'));

  // Keyboard shortcuts, ignored while typing in a field.
  function isTyping(el) {
    if (!el) return false;
    const tag = el.tagName;
    return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
  }
  let swallowSpaceUp = false;
  document.addEventListener('keydown', (e) => {
    if (!ready || dead || e.ctrlKey || e.metaKey || e.altKey) return;
    if (isTyping(e.target) || isTyping(document.activeElement)) return;
    const k = e.key;
    if (k === ' ' || k === 'Spacebar') {
      // Also keeps a focused button from being "clicked" by the space bar.
      e.preventDefault();
      swallowSpaceUp = true;
      if (!e.repeat) togglePlay();
    } else if (k === 'ArrowRight' || k === 's' || k === 'S') {
      e.preventDefault();
      doStep();
    } else if (k === 'r' || k === 'R') {
      e.preventDefault();
      if (!e.repeat) doReset();
    } else if (k === 'f' || k === 'F') {
      e.preventDefault();
      if (!e.repeat) toggleFast();
    }
  });
  document.addEventListener('keyup', (e) => {
    if ((e.key === ' ' || e.key === 'Spacebar') && swallowSpaceUp) {
      swallowSpaceUp = false;
      e.preventDefault();
    }
  });

  // ------------------------------------------------------------ bridge up

  function fillPresets() {
    const list = call('presets');
    presetSel.replaceChildren();
    const arr = list ? Array.from(list) : [];
    if (arr.length === 0) {
      const o = document.createElement('option');
      o.value = ''; o.textContent = '(no presets)';
      presetSel.append(o);
      return;
    }
    for (const p of arr) {
      const o = document.createElement('option');
      o.value = p.name;
      o.textContent = p.title || p.name;
      o.title = p.name;
      presetSel.append(o);
    }
    presetsFilled = true;
    syncedPreset = null;
    syncPreset(window.dpsimState && window.dpsimState.scenario);
  }

  // syncPreset shows the current scenario in the preset list, or a
  // "(custom: name)" entry when it is not one of the presets.
  let presetsFilled = false;
  let syncedPreset = null;
  function syncPreset(name) {
    if (name === syncedPreset) return;
    syncedPreset = name;
    let custom = presetSel.querySelector('option[data-custom]');
    if (name && [...presetSel.options].some((o) => o.value === name && !o.dataset.custom)) {
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
    custom.textContent = name ? `(custom: ${name})` : '(custom)';
    presetSel.value = '';
  }

  function onReady() {
    if (ready || dead) return;
    if (!window.dpsim) {
      fatal('The simulation started without its page interface (window.dpsim).');
      return;
    }
    ready = true;
    controls.disabled = false;
    fillPresets();
    if (!speedSynced) speedOut.textContent = fmtSpeed(sliderToSpeed(Number(speedIn.value)));
    showViewMessage('Starting…', '', { progress: false });
    if (firstFrameShown) hideViewMessage();
  }

  // -------------------------------------------------------------- loading

  function goExited(code) {
    if (dead) return;
    const tail = goStderr.trim().split('\n').slice(-12).join('\n');
    fatal(code === null || code === undefined
      ? 'The simulation stopped: the Go program has exited.'
      : `The simulation stopped: the Go program exited with code ${code}.`, tail);
  }

  function hasWebGL2() {
    try {
      const c = document.createElement('canvas');
      const gl = c.getContext('webgl2');
      if (!gl) return false;
      const lose = gl.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext();
      return true;
    } catch (e) {
      return false;
    }
  }

  // fetchWithProgress returns a Response whose body reports progress as it
  // streams, so instantiateStreaming can still compile while downloading.
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
    if (!hasWebGL2()) {
      dead = true;
      showViewMessage(
        'This page needs WebGL2, which this browser has turned off or lacks.',
        'Turn on hardware acceleration (or WebGL) in the browser settings, or open the page in a current Firefox, Chrome, Edge or Safari.',
        { error: true });
      addMessage('error', 'WebGL2 is not available, so the simulation cannot start.');
      setStatus('error');
      controls.disabled = true;
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

    viewSizeToEbiten();
    adoptFromBody();
    bodyObserver.observe(document.body, { childList: true });

    // Keep the tail of the Go program's output (stdout and stderr both
    // arrive here) to show if it dies; it still goes to the console too.
    const gfs = globalThis.fs;
    if (gfs && typeof gfs.writeSync === 'function') {
      const orig = gfs.writeSync;
      const dec = new TextDecoder('utf-8');
      gfs.writeSync = function (fd, buf) {
        try { goStderr = (goStderr + dec.decode(buf, { stream: true })).slice(-8000); } catch (e) { /* ignore */ }
        return orig.call(this, fd, buf);
      };
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

    showViewMessage('Loading the simulation…', '', { progress: true });
    const go = new window.Go();
    go.exit = (code) => {
      if (code !== 0) console.warn('exit code:', code);
      goExited(code);
    };
    let instance;
    try {
      const res = await fetchWithProgress(WASM_URL);
      const result = await WebAssembly.instantiateStreaming(res, go.importObject);
      instance = result.instance;
    } catch (e) {
      fatal('Could not load the simulation (dpsim.wasm).', e && e.message ? e.message : String(e));
      return;
    }
    showViewMessage('Starting…', '', { progress: false });
    requestAnimationFrame(frame);
    go.run(instance).then(
      () => goExited(null),
      (e) => fatal('The simulation crashed.', [e && e.message ? e.message : String(e), goStderr.trim().split('\n').slice(-12).join('\n')].filter(Boolean).join('\n')),
    );
    if (window.dpsimReady) onReady();
  }

  drawPlot(null);
  start();
})();
