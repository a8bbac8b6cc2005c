// share.js — the page as a link (docs/url.md): the current scenario (or
// comparison) kept in the URL as it changes, a "Copy link" button, the
// parts of the page a URL hides (?hide=…, ?classroom: boot.js hides them
// before the page is first shown), the privacy slider,
// and the view's state kept in this browser across a reload.
//
// It talks to Go through window.dpsim.shareLink, shareErrors, sharePending,
// restoreTo (ui/share.go) and listens to the page's 'dpsim-scenario' event
// (page.js: announceScenario). It defines no globals.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const note = $('share-note');
  const copyBtn = $('share-copy');
  const urlField = $('share-url');
  const copyStatus = $('share-status');
  const slider = $('privacy-slider');
  const sliderOut = $('privacy-value');
  const sliderErr = $('privacy-error');
  const floorWhy = $('privacy-floor-why');
  const floorNote = $('privacy-floor');
  const targetIn = $('target-eps');
  const targetApply = $('target-apply');
  const targetErr = $('target-error');
  const speedIn = $('speed');
  const dataBox = $('data-load');

  // ------------------------------------------------------------- notes

  // say shows a line under the toolbar (never inside a part a URL can
  // hide); kind is 'info' or 'error'. Lines of one topic replace each
  // other.
  function say(topic, kind, text) {
    let li = note.querySelector(`[data-topic="${topic}"]`);
    if (!text) { if (li) li.remove(); note.hidden = note.childElementCount === 0; return; }
    if (!li) { li = document.createElement('li'); li.dataset.topic = topic; note.append(li); }
    li.className = kind;
    li.textContent = text;
    note.hidden = false;
  }

  // ------------------------------------------------- the URL's view part

  // boot.js read it (?hide=, ?classroom, ?speed=, ?experiment=) and hid
  // the parts before the page was first shown.
  const view = window.dpsimBoot.urlView;

  // --------------------------------------------------- the link, live

  let ready = false;
  let hold = false;        // keep the URL as opened (it had errors) until the user changes the run
  let userActed = false;
  let timer = 0;
  let runLink = null;      // the current run's link without the view part
  for (const type of ['pointerdown', 'keydown', 'change']) {
    document.addEventListener(type, (e) => { if (e.isTrusted) userActed = true; }, true);
  }

  function call(name, ...args) {
    const fn = window.dpsim && window.dpsim[name];
    if (typeof fn !== 'function') return undefined;
    try { return fn.apply(window.dpsim, args); } catch (e) { return undefined; }
  }

  function comparison() {
    const c = call('comparisonJSON');
    return typeof c === 'string' ? c : '';
  }

  // update writes the current run into the URL (replaceState: no history
  // entry per edit) and the read-only field.
  function update() {
    clearTimeout(timer);
    timer = 0;
    if (!ready) return;
    const q = call('shareLink', JSON.stringify({ compare: comparison(), speed: view.speed, hide: view.hide, classroom: view.classroom, experiment: view.experiment }));
    const run = call('shareLink', '{}');
    if (typeof q !== 'string' || typeof run !== 'string') return;
    runLink = run;
    // While the URL's datasets are being fetched (or could not be), the
    // page still shows the scenario before: keep the URL as it was.
    const busy = dataBox && (dataBox.dataset.state === 'loading' || dataBox.dataset.state === 'error');
    if (!busy && !hold) {
      const next = location.pathname + q + location.hash;
      if (next !== location.pathname + location.search + location.hash) {
        try { history.replaceState(history.state, '', next); } catch (e) { say('link', 'error', 'The link could not be put in the address bar: ' + e.message); }
      }
    }
    urlField.value = location.href;
    restoreOnce(busy);
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, 300);
  }

  window.addEventListener('dpsim-scenario', () => {
    if (hold && userActed) { hold = false; say('url', '', ''); }
    schedule();
  });
  window.addEventListener('dpsim-comparison', schedule);

  // ------------------------------------------------------------- copy

  let copyTimer = 0;
  function copied(text, ok) {
    copyStatus.textContent = text;
    copyStatus.className = 'share-status ' + (ok ? 'ok' : 'warn');
    clearTimeout(copyTimer);
    copyTimer = setTimeout(() => { copyStatus.textContent = ''; }, 4000);
  }
  copyBtn.addEventListener('click', async () => {
    update();
    const link = location.href;
    urlField.value = link;
    try {
      await navigator.clipboard.writeText(link);
      copied('Link copied', true);
      return;
    } catch (e) { /* no clipboard permission: select the field instead */ }
    urlField.classList.add('shown');
    urlField.focus();
    urlField.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    copied(ok ? 'Link copied' : 'Select the link and copy it (Ctrl+C)', ok);
  });
  urlField.addEventListener('focus', () => urlField.select());

  // --------------------------------------------------- privacy slider

  // A log scale over the target ε the scenario's own accountant can reach
  // by calibration (dpsim.privacyRange: from the smallest ε the largest
  // allowed noise gives, to a decade above the scenario's own ε), with a
  // tick and a number at every decade and a mark at the scenario's own
  // ε. Without a target its thumb stands at that own ε ("own noise");
  // releasing it calibrates through the Target ε box (its checks and its
  // question before a calibration that swamps the messages). A scenario
  // that cannot be calibrated turns it off, saying why.
  const ownBtn = $('privacy-own');
  const ticksBox = $('privacy-ticks');
  const STEPS_PER_DECADE = 20;
  let range = null; // {lo, hi} as log10, from dpsim.privacyRange
  const sup = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  // decade writes 10^k as people read it: 0.01 … 1000 in full, else 10ᵏ.
  const decade = (k) => (k >= -2 && k <= 3 ? String(10 ** k >= 1 ? 10 ** k : Number((10 ** k).toFixed(-k))) : '10' + String(k).replace(/./g, (c) => sup[c]));
  // epsText writes an ε with two significant digits, large ones as 4.0·10⁷.
  const epsText = (e) => {
    if (!(e > 0)) return String(e);
    if (e >= 1e-3 && e < 1e5) return String(Number(e.toPrecision(2)));
    const k = Math.floor(Math.log10(e));
    return (e / 10 ** k).toFixed(1) + '·' + decade(k);
  };
  // toEps reads a thumb position as a target ε, two significant digits,
  // a decade exactly when the thumb is on its tick.
  const toEps = (t) => {
    const l = range.lo + (t / Number(slider.max)) * (range.hi - range.lo);
    const k = Math.round(l);
    return Number((10 ** (Math.abs(l - k) < 0.5 / STEPS_PER_DECADE ? k : l)).toPrecision(2));
  };
  const toPos = (e) => Math.round(((Math.log10(e) - range.lo) / (range.hi - range.lo)) * Number(slider.max));
  const at = (l) => (l - range.lo) / (range.hi - range.lo); // a log10 as a fraction of the track
  // place sets a tick's left edge over the thumb's travel (8 px in from each end).
  const place = (el, f) => { el.style.left = `calc(8px + (100% - 16px) * ${Math.min(1, Math.max(0, f)).toFixed(5)})`; };

  function showEps(text, valuetext) {
    sliderOut.textContent = text;
    slider.setAttribute('aria-valuetext', valuetext);
  }
  slider.addEventListener('input', () => {
    if (!range) return;
    const e = toEps(Number(slider.value));
    showEps(`ε = ${epsText(e)}`, `target ε = ${e}`);
    sliderErr.textContent = '';
  });
  // A release of the pointer calibrates at once; the arrow keys, which
  // fire a change per press, once they rest (KEY_REST_MS): one
  // calibration, and one question, for a walk across decades.
  const KEY_REST_MS = 600;
  let pointer = false, restTimer = 0;
  slider.addEventListener('pointerdown', () => { pointer = true; });
  function calibrateTo() {
    clearTimeout(restTimer);
    if (!range) return;
    const e = toEps(Number(slider.value));
    targetIn.value = String(e);
    targetIn.dispatchEvent(new Event('input'));
    targetApply.click();
  }
  slider.addEventListener('change', () => {
    clearTimeout(restTimer);
    if (pointer) { pointer = false; calibrateTo(); return; }
    restTimer = setTimeout(calibrateTo, KEY_REST_MS);
  });
  // "why not lower?" opens the floor's words under the bar, and closes them.
  floorWhy.addEventListener('click', () => {
    floorNote.hidden = !floorNote.hidden;
    floorWhy.setAttribute('aria-expanded', String(!floorNote.hidden));
  });
  // showFloor says why the slider stops at its lowest ε, when that is not
  // meaningful privacy (privacyRange's floor; '' hides it).
  function showFloor(r) {
    const why = r && r.ok && r.floor ? r.floor : '';
    floorWhy.hidden = !why;
    floorNote.textContent = why;
    if (!why) {
      floorNote.hidden = true;
      floorWhy.setAttribute('aria-expanded', 'false');
      return;
    }
    floorWhy.textContent = 'why not lower?';
    floorWhy.title = why;
  }

  // "own noise" removes the calibration (an empty Target ε).
  ownBtn.addEventListener('click', () => {
    targetIn.value = '';
    targetIn.dispatchEvent(new Event('input'));
    targetApply.click();
  });
  // The Target ε box's error is the slider's too.
  new MutationObserver(() => { sliderErr.textContent = targetErr.textContent ? 'target ε: ' + targetErr.textContent : ''; })
    .observe(targetErr, { childList: true, characterData: true, subtree: true });

  // drawTicks writes a tick at every decade of the range, numbered; when
  // the track is too short for every number, every other one keeps it.
  function drawTicks(own) {
    const lo = Math.ceil(range.lo - 1e-9), hi = Math.floor(range.hi + 1e-9);
    const marks = [];
    for (let k = lo; k <= hi; k++) {
      const t = document.createElement('span');
      t.textContent = decade(k);
      t.dataset.decade = String(k);
      place(t, at(k));
      marks.push(t);
    }
    const o = document.createElement('span');
    o.className = 'own';
    o.textContent = own.log10 > range.hi ? 'own ▸' : 'own';
    o.title = `the scenario's own noise: ε = ${own.text}`;
    place(o, at(Math.min(own.log10, range.hi)));
    ticksBox.replaceChildren(...marks, o);
    // Thin the numbers out if they would touch: every other one, or
    // fewer, as the widest number and the track's length need (a phone
    // shows 1000 and 10⁻³ in large type).
    const w = ticksBox.clientWidth;
    const widest = Math.max(0, ...marks.map((m) => m.getBoundingClientRect().width));
    const gap = marks.length > 1 ? ((w - 16) / (range.hi - range.lo)) : Infinity;
    const every = w > 0 && gap > 0 ? Math.max(1, Math.ceil((widest + 6) / gap)) : 1;
    marks.forEach((m, i) => m.classList.toggle('bare', ((i + ((lo % every) + every) % every) % every) !== 0));
    ticksBox.dataset.decades = String(marks.length);
  }

  function syncSlider() {
    let r = null;
    try { r = JSON.parse(call('privacyRange') || 'null'); } catch (e) { r = null; }
    showFloor(r);
    if (!r || !r.ok) {
      range = null;
      slider.disabled = true;
      ticksBox.replaceChildren();
      ownBtn.hidden = true;
      const why = r && r.reason ? r.reason : 'the simulation has not started';
      showEps('off', 'off: ' + why);
      slider.title = 'Calibration is off: ' + why;
      sliderOut.title = slider.title;
      return;
    }
    range = { lo: Math.log10(r.min), hi: Math.log10(r.max) };
    slider.disabled = false;
    slider.max = String(Math.max(10, Math.round((range.hi - range.lo) * STEPS_PER_DECADE)));
    slider.title = `Target ε on a log scale from ${epsText(r.min)} (the most noise allowed) to ${epsText(r.max)}: smaller is more private (more noise); releasing it calibrates the run` +
      (r.floor ? `. ${r.floor}` : '');
    sliderOut.title = '';
    const own = { log10: r.own.log10 !== undefined ? r.own.log10 : Math.log10(r.own.value), text: r.own.text };
    drawTicks(own);
    const d = r.delta > 0 ? `, δ = ${r.delta}` : '';
    if (r.target > 0) {
      slider.value = String(toPos(Math.min(r.max, Math.max(r.min, r.target))));
      showEps(`ε = ${epsText(r.target)}`, `target ε = ${r.target}${d}, calibrated (the scenario's own noise gives ε = ${own.text})`);
      ownBtn.hidden = false;
    } else {
      slider.value = String(toPos(10 ** Math.min(own.log10, range.hi)));
      const beyond = own.log10 > range.hi;
      showEps(`own ${epsText(10 ** own.log10)}${beyond ? ' ▸' : ''}`,
        `no target: the scenario's own noise, ε = ${own.text}${d} after ${r.iterations} iterations${beyond ? ', beyond this scale' : ''}`);
      ownBtn.hidden = true;
    }
    slider.dataset.min = String(r.min);
    slider.dataset.max = String(r.max);
  }
  window.addEventListener('dpsim-scenario', () => syncSlider());
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (range) syncSlider(); }, 200);
  });
  showEps('…', 'loading');

  // ---------------------------------------- the state across a reload

  // Kept in this browser: the speed, slow motion, which boxes are open,
  // the iteration reached — and the run they belong to (its link), so
  // that another run does not take them.
  const KEY = 'dpsim.session';
  function readSaved() {
    let raw = null;
    try { raw = localStorage.getItem(KEY); } catch (e) { return null; }
    if (raw === null) return null;
    try {
      const s = JSON.parse(raw);
      const ok = s && s.v === 1 && typeof s.run === 'string' && Number.isInteger(s.iter) && s.iter >= 0 &&
        (s.speed === null || (Number.isFinite(s.speed) && s.speed >= 0 && s.speed <= 1000)) &&
        typeof s.slow === 'boolean' && s.open && typeof s.open === 'object';
      if (!ok) throw new Error('it is not the page\'s format');
      return s;
    } catch (e) {
      try { localStorage.removeItem(KEY); } catch (e2) { /* nothing kept */ }
      say('restore', 'info', `The page state kept in this browser could not be read (${e.message}); it was ignored.`);
      return null;
    }
  }
  let saved = readSaved();
  // The open boxes come back on a reload of the same link only (another
  // link, e.g. ?experiment=, opens its own).
  if (saved && saved.search === location.search) {
    for (const [id, open] of Object.entries(saved.open)) {
      const d = document.getElementById(id);
      if (d && d.tagName === 'DETAILS' && typeof open === 'boolean') d.open = open;
    }
  }

  function save() {
    if (!ready || runLink === null || runLink.length > (1 << 20)) return;
    const s = window.dpsimState || {};
    const open = {};
    for (const d of document.querySelectorAll('details[id]')) open[d.id] = d.open;
    const v = { v: 1, run: runLink, search: location.search, iter: Number.isInteger(s.iter) ? s.iter : 0, speed: speedIn ? Number(speedIn.value) : null, slow: !!s.slow, open, at: Date.now() };
    try { localStorage.setItem(KEY, JSON.stringify(v)); } catch (e) { /* storage off or full: nothing kept */ }
  }
  setInterval(() => { if (saved === null) save(); }, 1000);
  window.addEventListener('pagehide', () => { if (saved === null) save(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden' && saved === null) save(); });

  // restoreOnce brings the saved state back on the first scenario the
  // page settles on, if it is the saved one: the speed, slow motion, and
  // the run replayed (paused) to the iteration reached.
  function restoreOnce(busy) {
    if (!saved || busy) return;
    const s = saved;
    saved = null;
    if (s.run !== runLink) return;
    if (view.speed === null && s.speed !== null && speedIn) {
      speedIn.value = String(s.speed);
      speedIn.dispatchEvent(new Event('input'));
    }
    if (s.slow) call('setSlow', true);
    if (s.iter > 0) {
      const t0 = performance.now();
      let r = null;
      try { r = JSON.parse(call('restoreTo', s.iter, 5000) || 'null'); } catch (e) { r = null; }
      if (!r) { say('restore', 'info', 'The run could not be replayed to where it was.'); return; }
      const ms = Math.round(performance.now() - t0);
      let text = `Restored to iteration ${r.iter}: the run was replayed from its seeds in ${ms} ms.`;
      if (r.iter < s.iter) {
        text = r.timeout
          ? `Restored to iteration ${r.iter} of ${s.iter}: replaying stopped after 5 s (press Play to go on).`
          : `Restored to iteration ${r.iter} of ${s.iter}: the run ended there (${r.ended}).`;
      }
      say('restore', 'info', text);
      note.dataset.restored = String(r.iter);
    }
  }

  // ----------------------------------------------------------- start

  function showURLErrors() {
    let errs = [];
    try { errs = JSON.parse(call('shareErrors') || '[]'); } catch (e) { errs = []; }
    if (errs.length) {
      hold = true;
      say('url', 'error', errs.join(' · ') + ' — the page shows what it could; the address keeps the link as opened until you change the run.');
    }
    const c = call('sharePending');
    if (c) {
      if (typeof (window.dpsim && window.dpsim.loadComparison) !== 'function') {
        hold = true;
        say('compare', 'error', 'URL parameter compare: this page cannot show a comparison (it has no dpsim.loadComparison); the scenario alone is shown.');
      } else {
        let res = call('loadComparison', c);
        if (typeof res === 'string') { try { res = JSON.parse(res); } catch (e) { res = { ok: false, error: res }; } }
        if (res && res.ok === false) { hold = true; say('compare', 'error', 'URL parameter compare: ' + (res.error || 'could not be loaded')); }
      }
    }
  }
  function onReady() {
    if (ready) return;
    ready = true;
    // After page.js's own start (it asks for a deferred preset the same way).
    setTimeout(() => { showURLErrors(); update(); }, 0);
  }
  window.addEventListener('dpsim-ready', onReady);
  if (window.dpsimReady) onReady();
})();
