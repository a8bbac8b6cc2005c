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
    urlField.focus();
    urlField.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    copied(ok ? 'Link copied' : 'Select the link and copy it (Ctrl+C)', ok);
  });
  urlField.addEventListener('focus', () => urlField.select());

  // --------------------------------------------------- privacy slider

  // A log scale from 0.1 to 100 for the target ε; releasing it calibrates
  // through the Target ε box (its checks and its confirmation before a
  // calibration that swamps the messages).
  const EMIN = 0.1, EMAX = 100;
  const toEps = (t) => Number((10 ** (Math.log10(EMIN) + (t / 1000) * (Math.log10(EMAX) - Math.log10(EMIN)))).toPrecision(2));
  const toPos = (e) => Math.round(((Math.log10(Math.min(EMAX, Math.max(EMIN, e))) - Math.log10(EMIN)) / (Math.log10(EMAX) - Math.log10(EMIN))) * 1000);
  function showEps(e, none) {
    sliderOut.textContent = none ? 'none' : String(e);
    slider.setAttribute('aria-valuetext', none ? 'no target: the scenario\'s own noise' : `ε = ${e}`);
    slider.classList.toggle('none', !!none);
  }
  slider.addEventListener('input', () => { showEps(toEps(Number(slider.value))); sliderErr.textContent = ''; });
  slider.addEventListener('change', () => {
    const e = toEps(Number(slider.value));
    targetIn.value = String(e);
    targetIn.dispatchEvent(new Event('input'));
    targetApply.click();
  });
  // The Target ε box's error is the slider's too.
  new MutationObserver(() => { sliderErr.textContent = targetErr.textContent ? 'target ε: ' + targetErr.textContent : ''; })
    .observe(targetErr, { childList: true, characterData: true, subtree: true });
  function syncSlider(json) {
    let eps = 0;
    try { const s = JSON.parse(json || '{}'); eps = s && s.calibrate ? Number(s.calibrate.epsilon) : 0; } catch (e) { eps = 0; }
    if (eps > 0) { slider.value = String(toPos(eps)); showEps(Number(eps.toPrecision(3))); } else showEps(0, true);
  }
  window.addEventListener('dpsim-scenario', (e) => syncSlider(e.detail && e.detail.json));
  showEps(0, true);

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
