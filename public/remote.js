// remote.js — what the page says while a Web Worker builds or runs a
// heavy scenario (ui/remote.go; docs/bridge.md, "Heavy scenarios in a
// Worker"), and the Cancel / Stop that interrupts it at once: a box under
// the dataset box with what is being built or computed, for how long and
// why, and a button (also Escape) that calls dpsim.remoteCancel(). It
// reads window.dpsimState.remote, a few times a second.
(() => {
  'use strict';

  const anchor = document.getElementById('data-load');
  if (!anchor) return;
  const box = document.createElement('div');
  box.id = 'remote-box';
  box.className = 'data-load remote-box';
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  box.hidden = true;
  box.innerHTML = '<div class="data-head"><span class="data-title" id="remote-text"></span>' +
    '<button type="button" id="remote-cancel" class="remote-cancel"></button></div>' +
    '<p class="data-note" id="remote-note" hidden></p>';
  anchor.after(box);
  const style = document.createElement('style');
  // While a build or a long iteration is under way the box floats at the
  // bottom of the window, wherever the page has scrolled, so that what is
  // happening and its Cancel are always in sight.
  style.textContent = '.remote-box .data-head { align-items: center; gap: 8px; }' +
    ' .remote-box .remote-cancel { margin-left: auto; white-space: nowrap; }' +
    ' .remote-box.quiet { border-style: dashed; }' +
    ' .remote-box.quiet .data-title { font-weight: normal; }' +
    ' .remote-box.busy { position: fixed; z-index: 50; left: 50%; bottom: 12px; transform: translateX(-50%);' +
    ' width: min(44rem, calc(100vw - 24px)); margin: 0; background: #fff; box-shadow: 0 4px 18px rgba(16, 24, 40, .22); }';
  document.head.append(style);
  const text = document.getElementById('remote-text');
  const note = document.getElementById('remote-note');
  const btn = document.getElementById('remote-cancel');

  const secs = (s) => (s < 10 ? s.toFixed(1) : Math.round(s)) + ' s';
  // interruptible: a build, or an iteration that takes a while.
  const interruptible = (r) => r && (r.phase === 'building' || (r.phase === 'computing' && r.seconds > 0.3));

  function cancel() {
    const d = window.dpsim;
    if (!d || typeof d.remoteCancel !== 'function') return '';
    const what = d.remoteCancel();
    update();
    return what;
  }
  btn.addEventListener('click', cancel);
  // Escape interrupts too, unless something else (a dialog) took it.
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    if (!interruptible(window.dpsimState && window.dpsimState.remote)) return;
    if (cancel()) e.preventDefault();
  });

  function update() {
    const s = window.dpsimState;
    const r = s && s.remote;
    if (!r || (!r.phase && !r.active)) { box.hidden = true; return; }
    box.hidden = false;
    box.classList.remove('quiet');
    box.classList.toggle('busy', interruptible(r));
    btn.style.display = interruptible(r) ? '' : 'none'; // the page's button style would override [hidden]
    note.hidden = true;
    box.dataset.phase = r.phase || 'idle';
    if (r.phase === 'building') {
      text.textContent = `Building “${r.what}” in a background thread (${secs(r.seconds)}): ${r.why}. The run on show stays until it is built.`;
      btn.textContent = 'Cancel (Esc)';
    } else if (r.phase === 'computing' && r.seconds > 0.3) {
      text.textContent = `Computing iteration ${r.iter + 1} in a background thread (${secs(r.seconds)}) — ${r.why}.`;
      btn.textContent = 'Stop (Esc)';
    } else if (r.phase === 'stopped') {
      text.textContent = `Stopped at iteration ${s.iter}: Play or Step computes on (the run is replayed from its seeds in a background thread).`;
    } else if (r.phase === 'failed') {
      text.textContent = 'The background thread stopped: ' + (s.error || 'see the messages') + '.';
    } else {
      box.classList.add('quiet');
      const on = r.workers > 1 ? `, its gradients split over ${r.workers} threads` : '';
      text.textContent = `This run is computed in a background thread (${r.why}${r.buildMs > 0 ? `; built there in ${secs(r.buildMs / 1000)}` : ''}${on}): the page stays responsive.`;
    }
    // A farm of helper threads given up: one line, the run goes on.
    if (r.workersNote) {
      note.hidden = false;
      note.textContent = r.workersNote;
    }
  }
  setInterval(update, 200);
  window.addEventListener('dpsim-ready', update);
})();
