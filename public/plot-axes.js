// plot-axes.js — what the page's two uPlot figures share (the live error
// plot in page.js and the experiments panel in experiments.js): number
// formatting, and log axes split and labelled at powers of ten like the
// CLI's figures (uPlot alone also splits at 2…9 × 10^k).
window.dpsimPlot = (() => {
  'use strict';

  function fmt(v) {
    if (v == null || !isFinite(v)) return '—';
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return Number(v.toPrecision(4)).toExponential();
    return Number(v.toPrecision(4)).toString();
  }

  const isDecade = (v) => v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
  function tickLabel(v) {
    const k = Math.round(Math.log10(v));
    return k >= -3 && k <= 4 ? String(Number(v.toPrecision(1))) : '1e' + k;
  }

  // fitSize makes a y axis's size (px) room for its widest tick value —
  // at least min, the size asked — so that no value is cut at the
  // canvas's edge, whatever the numbers (1e-100, −1.234e+5) or the font.
  // uPlot calls it with the formatted values until the sizes settle.
  const TICK_ROOM = 10 + 5 + 3; // tick, gap, margin (uPlot's defaults: ticks 10, gap 5)
  let measurer = null;
  function fitSize(min) {
    return (u, values, ai) => {
      if (!values || !values.length) return min;
      const ax = u.axes[ai];
      if (ax && (ax.side === 0 || ax.side === 2)) return min; // an x axis: one line of text tall
      const pr = u.pxRatio || window.devicePixelRatio || 1;
      measurer = measurer || document.createElement('canvas').getContext('2d');
      // uPlot keeps the font it draws with, scaled by the pixel ratio.
      measurer.font = (ax && Array.isArray(ax.font) ? ax.font[0] : null) || `${12 * pr}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
      let w = 0;
      for (const v of values) if (v != null && v !== '') w = Math.max(w, measurer.measureText(String(v)).width);
      return Math.max(min, Math.ceil(w / pr + TICK_ROOM));
    };
  }

  // logAxis completes a uPlot axis: on a log scale, splits at the powers
  // of ten in range (every second or third over many decades), or the
  // range's ends when it holds fewer than two. A y axis's size grows to
  // hold its widest tick value (fitSize).
  function logAxis(axis, log) {
    if (typeof axis.size === 'number') axis = { ...axis, size: fitSize(axis.size) };
    if (!log) return { ...axis, values: (u, vals) => vals.map((v) => (v == null ? '' : fmt(v))) };
    const decades = (u, i, min, max) => {
      const k0 = Math.ceil(Math.log10(min) - 1e-9), k1 = Math.floor(Math.log10(max) + 1e-9);
      if (!(k1 - k0 >= 1)) return null;
      // At most about eight labels however many decades: a diverging
      // run spans hundreds, and crowded labels would all be dropped.
      // uPlot blanks labels closer than about 30 px: fewer splits on a
      // short axis.
      const n = k1 - k0;
      const px = u && u.bbox ? u.bbox.height / (window.devicePixelRatio || 1) : 0;
      const room = px > 0 ? Math.max(2, Math.floor(px / 34)) : 8;
      const step = Math.max(n > 24 ? Math.ceil(n / 8) : n > 12 ? 3 : n > 7 ? 2 : 1, Math.ceil(n / room));
      const out = [];
      for (let k = k0; k <= k1; k++) if (k % step === 0) out.push(Number('1e' + k));
      return out;
    };
    return {
      ...axis,
      splits: (u, i, min, max) => decades(u, i, min, max) || [min, max],
      // uPlot's own log filter keeps only its idea of round values and
      // blanks the others: ours are already the ones to label.
      filter: (u, splits) => splits,
      values: (u, vals) => vals.map((v) => (v == null ? '' : isDecade(v) ? tickLabel(v) : fmt(v))),
    };
  }

  // loadUPlot resolves once uPlot is there, loading its script (vendored
  // by build.sh) the first time: the live page asks for it after the
  // simulator's first frame, which plotting must not hold back.
  let loading = null;
  function loadUPlot() {
    if (typeof window.uPlot === 'function') return Promise.resolve(window.uPlot);
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        const sc = document.createElement('script');
        sc.src = 'vendor/uplot/uPlot.iife.min.js';
        sc.onload = () => (typeof window.uPlot === 'function' ? resolve(window.uPlot) : reject(new Error('vendor/uplot/uPlot.iife.min.js defined no uPlot')));
        sc.onerror = () => { loading = null; reject(new Error('could not load the plotting library (vendor/uplot/uPlot.iife.min.js; run ./build.sh)')); };
        document.head.append(sc);
      });
    }
    return loading;
  }

  return { fmt, logAxis, loadUPlot, fitSize };
})();
