// keys.js — the page's keyboard shortcuts, from ONE table (SHORTCUTS) that
// both drives the key handler and writes the list the `?` key shows, so
// the list cannot drift from what the keys do. It also keeps the page's
// panels usable from the keyboard: Escape closes whichever dialog is
// open (the shortcut list, the calibration question, the inspector, the
// symbols), the calibration question keeps Tab inside it, and the view
// (ebiten's canvas, invisible to a screen reader) gets a text
// alternative that follows the run.
//
// Defines window.dpsimKeys = {shortcuts, attach, open, close, handle}.
// page.js calls attach(actions) once with its own functions; until then
// (and on experiments.html, which has no simulation) only the shortcuts
// that need none of them are listed and taken.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  let actions = null; // page.js's functions and ready(), once attached

  // sim reports whether the simulation can take a command.
  const sim = () => !!(actions && actions.ready());

  // openDetails opens a <details> (and the ones around it), scrolls to it
  // and focuses el.
  function reveal(el) {
    if (!el) return false;
    for (let d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
    el.scrollIntoView({ block: 'nearest' });
    el.focus();
    return true;
  }

  // SHORTCUTS: keys (KeyboardEvent.key values, case-sensitive; letters
  // list both cases), how the list prints them, what they do, and:
  //   needs  — 'sim' (page.js attached and the simulation running) or an
  //            element id the page must have; the shortcut is listed and
  //            taken only then;
  //   repeat — whether holding the key repeats it;
  //   run    — the action; returns false when it did nothing, so that the
  //            key keeps its ordinary meaning.
  const SHORTCUTS = [
    { keys: [' ', 'Spacebar'], label: ['Space'], does: 'play / pause (a focused control outside the main bar takes Space as a press)', needs: 'sim', when: spaceIsPlay, run: () => actions.togglePlay() },
    { keys: ['ArrowRight', 's', 'S'], label: ['→', 'S'], does: 'advance one iteration', needs: 'sim', repeat: true, run: () => actions.doStep() },
    { keys: ['m', 'M'], label: ['M'], does: 'slow motion on / off (one agent\'s messages at a time)', needs: 'sim', run: () => actions.toggleSlow() },
    { keys: ['f', 'F'], label: ['F'], does: 'fast-forward on / off', needs: 'sim', run: () => actions.toggleFast() },
    { keys: ['r', 'R'], label: ['R'], does: 'reset to iteration 0', needs: 'sim', run: () => actions.doReset() },
    { keys: ['p', 'P'], label: ['P'], does: 'choose a preset (focus the preset list)', needs: 'preset', run: () => !$('preset').disabled && reveal($('preset')) },
    { keys: ['t', 'T'], label: ['T'], does: 'set a target ε (focus its field)', needs: 'target-eps', run: () => !$('target-eps').disabled && reveal($('target-eps')) },
    { keys: ['j', 'J'], label: ['J'], does: 'edit the scenario as JSON (open the editor)', needs: 'scenario-text', run: () => reveal($('scenario-text')) },
    { keys: ['g', 'G'], label: ['G'], does: 'symbols and words: open / close the list', needs: 'glossary', run: toggleGlossary },
    { keys: ['a', 'A'], label: ['A'], does: 'the agents: focus the network (then ← → move from agent to agent, Enter inspects, Esc closes)', needs: 'view-agents', run: focusAgents },
    { keys: ['e', 'E'], label: ['E'], does: 'experiments: open the panel and focus its list', needs: 'exp-box', run: openExperiments },
    { keys: ['?'], label: ['?'], does: 'list these shortcuts', run: () => open() },
    { keys: ['Escape'], label: ['Esc'], does: 'close the open dialog (this list, the calibration question, a symbol\'s entry, the inspector, the symbols)', run: closeTop },
  ];

  // spaceIsPlay: Space plays and pauses from anywhere on the page and on
  // the main bar's own buttons (like a video player's), but a focused
  // control elsewhere (Run sweep, a link, a <summary>) takes it as a press.
  function spaceIsPlay() {
    const a = document.activeElement;
    if (!a || a === document.body || a.closest('#controls')) return true;
    return !a.matches('button, a[href], summary, [role="button"], [tabindex]');
  }

  function available(sc) {
    if (!sc.needs) return true;
    if (sc.needs === 'sim') return !!actions;
    return !!$(sc.needs);
  }

  function toggleGlossary() {
    const g = $('glossary');
    if (!g) return false;
    if (g.hidden) {
      if (window.dpsimGlossary) window.dpsimGlossary.open(true); else g.hidden = false;
      const c = $('glossary-close');
      if (c) c.focus();
    } else {
      closeGlossary();
    }
    return true;
  }
  function closeGlossary() {
    const g = $('glossary');
    if (!g || g.hidden) return false;
    g.hidden = true;
    const o = $('glossary-open');
    if (o && g.contains(document.activeElement)) o.focus();
    return true;
  }

  function focusAgents() {
    const a = $('view-agents');
    if (!a || a.hidden) return false;
    a.focus();
    return true;
  }

  function openExperiments() {
    const box = $('exp-box');
    if (!box) return false;
    box.open = true; // experiments.js loads the solver on 'toggle'
    const sel = $('exp-preset');
    box.scrollIntoView({ block: 'start' });
    if (sel && !sel.disabled) sel.focus();
    else box.querySelector('summary').focus();
    return true;
  }

  // closeTop closes the topmost open dialog, one per press.
  function closeTop() {
    const d = $('keys-dialog');
    if (d && d.open) { close(); return true; }
    const cal = $('cal-confirm');
    if (cal && !cal.hidden) { $('cal-confirm-no').click(); return true; }
    if (window.dpsimGlossary && window.dpsimGlossary.hide && window.dpsimGlossary.hide()) return true;
    const ins = $('inspector');
    if (ins && !ins.hidden) {
      if (actions) actions.closeInspector(); else ins.hidden = true;
      return true;
    }
    return closeGlossary();
  }

  // ---------------------------------------------------------- the handler

  function isTyping(el) {
    if (!el) return false;
    const tag = el.tagName;
    return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
  }

  let swallowSpaceUp = false;
  // handle runs the shortcut of a keydown, if any; it reports whether one
  // ran. Keys typed into a field, or with Ctrl, Alt or Meta, are the
  // browser's; so is every key but Escape and ? while the list is open.
  function handle(e) {
    // A control that took the key itself (the agents' list takes the
    // arrow keys, Enter and Space) keeps it.
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
    const typing = isTyping(e.target) || isTyping(document.activeElement);
    if (typing && e.key !== 'Escape') return false;
    const d = $('keys-dialog');
    if (d && d.open && e.key !== 'Escape' && e.key !== '?') return false;
    const sc = SHORTCUTS.find((s) => s.keys.includes(e.key) && available(s));
    if (!sc) return false;
    // Escape in a field leaves the field alone unless a dialog is open.
    if (typing && !anyDialogOpen()) return false;
    if (sc.needs === 'sim' && !sim()) return false;
    if (sc.when && !sc.when()) return false;
    if (sc.keys.includes(' ')) {
      // Also keeps a focused button from being "clicked" by the space bar.
      e.preventDefault();
      swallowSpaceUp = true;
    }
    if (e.repeat && !sc.repeat) { e.preventDefault(); return true; }
    if (sc.run() === false) return false;
    e.preventDefault();
    return true;
  }
  function anyDialogOpen() {
    const d = $('keys-dialog');
    return !!((d && d.open) || ($('cal-confirm') && !$('cal-confirm').hidden) || ($('term-pop') && !$('term-pop').hidden) ||
      ($('inspector') && !$('inspector').hidden) || ($('glossary') && !$('glossary').hidden));
  }
  document.addEventListener('keydown', handle);
  document.addEventListener('keyup', (e) => {
    if ((e.key === ' ' || e.key === 'Spacebar') && swallowSpaceUp) {
      swallowSpaceUp = false;
      e.preventDefault();
    }
  });

  // ------------------------------------------------------- the `?` dialog

  // A native modal <dialog>: the browser keeps focus inside it, makes the
  // page behind it inert, and closes it on Escape.
  let opener = null;
  function dialog() {
    let d = $('keys-dialog');
    if (d) return d;
    d = document.createElement('dialog');
    d.id = 'keys-dialog';
    d.className = 'keys-dialog';
    d.setAttribute('aria-labelledby', 'keys-title');
    d.innerHTML = `<div class="keys-head"><h2 id="keys-title">Keyboard shortcuts</h2>
      <button type="button" id="keys-close" class="link" aria-label="Close the list of shortcuts">close</button></div>
      <p class="muted keys-note">Not while typing in a field. Tab and Shift+Tab move between controls; Enter presses the focused one (so does Space, outside the main bar).</p>
      <table class="keys-table" id="keys-table"><thead><tr><th scope="col">Key</th><th scope="col">Does</th></tr></thead><tbody></tbody></table>`;
    document.body.append(d);
    $('keys-close').addEventListener('click', close);
    d.addEventListener('close', restoreFocus); // closed by the browser (Escape)
    // A click on the backdrop (outside the box) closes it too.
    d.addEventListener('click', (e) => { if (e.target === d) close(); });
    d.addEventListener('keydown', (e) => trapTab(d, e));
    return d;
  }

  // fillList writes one row per available shortcut, from SHORTCUTS.
  function fillList(body) {
    body.replaceChildren();
    for (const sc of SHORTCUTS) {
      if (!available(sc)) continue;
      const tr = document.createElement('tr');
      tr.dataset.keys = sc.keys.join(' ');
      const th = document.createElement('th');
      th.scope = 'row';
      sc.label.forEach((l, i) => {
        if (i) th.append(' or ');
        const k = document.createElement('kbd');
        k.textContent = l;
        th.append(k);
      });
      const td = document.createElement('td');
      td.textContent = sc.does;
      tr.append(th, td);
      body.append(tr);
    }
  }

  function open() {
    const d = dialog();
    fillList(d.querySelector('tbody'));
    if (!d.open) {
      opener = document.activeElement;
      d.showModal();
      $('keys-close').focus();
    }
    return true;
  }
  function close() {
    const d = $('keys-dialog');
    if (d && d.open) { d.close(); restoreFocus(); }
  }
  // restoreFocus gives focus back to what had it before the list opened
  // (at once: the browser's 'close' event comes a task later, after the
  // next key may have gone to the closed dialog's button).
  function restoreFocus() {
    const d = $('keys-dialog');
    if (!d || d.open) return;
    if (opener && opener.isConnected && opener !== document.body) opener.focus();
    else if (d.contains(document.activeElement)) document.activeElement.blur();
    opener = null;
  }

  // The hint line under the controls names the same keys.
  function fillHint() {
    const hint = $('keys-hint');
    if (!hint) return;
    const parts = SHORTCUTS.filter((s) => available(s) && s.needs === 'sim')
      .map((s) => `<kbd>${s.label.join('</kbd> or <kbd>')}</kbd> ${s.does.replace(/ \(.*\)$/, '')}`);
    hint.innerHTML = 'Keys: ' + parts.join(' · ') +
      ' · <button type="button" class="link" id="keys-more">all shortcuts (<kbd>?</kbd>)</button>';
    $('keys-more').addEventListener('click', open);
  }

  // ------------------------------------------- keyboard use of the panels

  // The calibration question (role=alertdialog): focus goes to its safe
  // answer when it appears and Tab stays inside it until it is answered.
  function watchCalibration() {
    const cal = $('cal-confirm');
    if (!cal) return;
    let before = null;
    new MutationObserver(() => {
      if (!cal.hidden) {
        if (!cal.contains(document.activeElement)) before = document.activeElement;
        $('cal-confirm-no').focus();
      } else if (cal.contains(document.activeElement) || document.activeElement === document.body) {
        if (before && before.isConnected) before.focus();
        before = null;
      }
    }).observe(cal, { attributes: true, attributeFilter: ['hidden'] });
    cal.addEventListener('keydown', (e) => trapTab(cal, e));
  }

  // trapTab keeps Tab and Shift+Tab among the controls of box (a modal
  // <dialog> alone would let Tab leave for the browser's own controls).
  function trapTab(box, e) {
    if (e.key !== 'Tab') return;
    const f = [...box.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter((b) => !b.disabled);
    if (!f.length) return;
    const i = f.indexOf(document.activeElement);
    const j = e.shiftKey ? (i <= 0 ? f.length - 1 : i - 1) : (i === f.length - 1 ? 0 : i + 1);
    e.preventDefault();
    f[j].focus();
  }

  // The symbols panel: opened by its button, focus moves into it.
  function watchGlossary() {
    const o = $('glossary-open');
    if (o) o.addEventListener('click', () => setTimeout(() => { const c = $('glossary-close'); if (c && !$('glossary').hidden) c.focus(); }, 0));
    const c = $('glossary-close');
    if (c) c.addEventListener('click', () => { if (o) o.focus(); });
  }

  // The view's text alternative: ebiten's canvas is hidden from assistive
  // technology, so the view's label says what it shows (iteration, error,
  // ε), from the numbers the state card prints, at most once a second;
  // a polite live region says when the run starts, pauses or ends, not
  // every iteration.
  // liveRegion makes a polite live region, hidden from sight, after the
  // view (page.js says what the keyboard reaches on the picture in one).
  function liveRegion(id) {
    const live = document.createElement('p');
    live.id = id;
    live.className = 'visually-hidden';
    live.setAttribute('role', 'status');
    live.setAttribute('aria-live', 'polite');
    $('view').after(live);
    return live;
  }

  function watchView() {
    const view = $('view');
    if (!view) return;
    const live = liveRegion('view-live');
    const text = (id) => { const el = $(id); return el ? el.textContent.trim() : ''; };
    let lastLabel = '', lastStatus = '';
    setInterval(() => {
      const title = text('scn-title');
      const status = text('stat-status');
      const label = `Network animation${title ? ' of ' + title : ''}: iteration ${text('stat-iter')}, ` +
        `${text('stat-opt-dt') || 'optimality'} ${text('stat-opt')}, consensus ${text('stat-cons')}, ε spent ${text('stat-eps')}, ${status}`;
      if (label !== lastLabel) { view.setAttribute('aria-label', label); lastLabel = label; }
      if (status && status !== lastStatus && status !== 'loading') {
        lastStatus = status;
        live.textContent = `${status}: iteration ${text('stat-iter')}, ${text('stat-opt-dt') || 'optimality'} ${text('stat-opt')}, ε spent ${text('stat-eps')}`;
      }
    }, 1000);
  }

  // attach takes page.js's functions: togglePlay, doStep, doReset,
  // toggleFast, toggleSlow, closeInspector, and ready() (whether the
  // simulation takes commands).
  function attach(a) {
    actions = a;
    fillHint();
  }

  function init() {
    for (const b of document.querySelectorAll('[data-keys-open]')) b.addEventListener('click', open);
    watchCalibration();
    watchGlossary();
    watchView();
    fillHint();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();

  window.dpsimKeys = { shortcuts: SHORTCUTS, attach, open, close, handle, available, liveRegion };
})();
