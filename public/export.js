// export.js — the page's files (docs/exports.md):
//
//   - Export JSON and Export CSV, streamed: the Go side writes the export a
//     chunk at a time (dpsim.exportStart / exportNext, ui/export.go) and this
//     file pulls one chunk per task, so a long run's export shows its
//     progress and never freezes the page. The bytes are those of
//     `dpsim run --out` and `dpsim run --csv` (the CSV's date line aside).
//   - Import by drag and drop: a scenario JSON dropped anywhere on the page
//     loads as the editor's Load does (same checks, same one-line errors; a
//     broken file leaves the current run); a run export loads its
//     scenario; an experiment JSON opens in the Experiments panel.
//
// Globals: window.dpsimFiles (state for tests: exports, lastName,
// lastBytes, drops, lastDrop, busy).
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const btn = { json: $('export-json'), csv: $('export-csv') };
  if (!btn.json || !btn.csv) return;
  const MAX_FILE = 64 << 20; // scenario.MaxBytes: the largest scenario file
  const mb = (n) => (n / 1048576).toFixed(n < 1048576 ? 2 : 1);

  // The progress of a streamed export, and one message line for the
  // exports and the dropped files.
  const prog = document.createElement('span');
  prog.className = 'export-progress';
  prog.hidden = true;
  const bar = document.createElement('progress');
  bar.max = 1;
  bar.setAttribute('aria-label', 'export progress');
  const barText = document.createElement('span');
  barText.className = 'mono';
  prog.append(bar, barText);
  const msg = document.createElement('span');
  msg.id = 'file-msg';
  msg.className = 'field-msg';
  msg.setAttribute('role', 'status');
  btn.csv.after(prog, msg);

  const state = { busy: false, exports: 0, lastName: '', lastBytes: 0, lastMs: 0, drops: 0, lastDrop: '' };
  window.dpsimFiles = state;

  function say(text, kind) {
    msg.textContent = text;
    msg.className = 'field-msg' + (kind ? ' ' + kind : '');
  }

  // nextTask resolves in a new task (a MessageChannel message: not
  // clamped like setTimeout), letting the browser paint and handle input.
  function nextTask() {
    return new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
      ch.port2.postMessage(0);
    });
  }

  function save(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000); // at once can cancel the download
  }

  async function streamExport(kind) {
    const d = window.dpsim;
    if (state.busy || !window.dpsimReady || !d || typeof d.exportStart !== 'function') return;
    let start;
    try { start = d.exportStart(kind); } catch (e) { say(`export: ${e.message || e}`, 'error'); return; }
    if (!start || !start.ok) { say((start && start.error) || 'export failed', 'error'); return; }
    state.busy = true;
    btn.json.disabled = btn.csv.disabled = true;
    const t0 = performance.now();
    const parts = [];
    let written = 0;
    say('');
    bar.value = 0;
    barText.textContent = '';
    // A short export is over before the bar would be seen.
    const showBar = setTimeout(() => { prog.hidden = false; }, 150);
    try {
      for (;;) {
        const r = d.exportNext();
        if (r.done) {
          if (r.error) throw new Error(r.error);
          break;
        }
        parts.push(r.bytes);
        written += r.bytes.length;
        if (r.progress >= 0) bar.value = r.progress; else bar.removeAttribute('value');
        barText.textContent = `${start.name}: ${mb(written)} MB`;
        await nextTask();
      }
      const blob = new Blob(parts, { type: start.mime });
      save(blob, start.name);
      state.exports++;
      state.lastName = start.name;
      state.lastBytes = blob.size;
      state.lastMs = performance.now() - t0;
      say(`${start.name}: ${mb(blob.size)} MB`, 'ok');
    } catch (e) {
      try { d.exportCancel(); } catch (_) { /* the program has exited */ }
      say(String(e.message || e), 'error');
    } finally {
      clearTimeout(showBar);
      prog.hidden = true;
      state.busy = false;
      btn.json.disabled = btn.csv.disabled = false;
    }
  }
  btn.json.addEventListener('click', () => streamExport('json'));
  btn.csv.addEventListener('click', () => streamExport('csv'));

  // ------------------------------------------------------- drag and drop

  const hint = document.createElement('div');
  hint.className = 'drop-hint';
  hint.id = 'drop-hint';
  hint.hidden = true;
  hint.innerHTML = '<div class="drop-hint-box"><strong>Drop the file to open it</strong>' +
    '<span>a scenario JSON loads and runs; a run export loads its scenario; an experiment JSON opens in the Experiments panel</span></div>';
  document.body.appendChild(hint);

  const hasFiles = (e) => !!(e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files'));
  let depth = 0; // dragenter/dragleave pairs, which children also fire
  window.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    hint.hidden = false;
  });
  window.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // without it the browser opens the file instead
    e.dataTransfer.dropEffect = 'copy';
    hint.hidden = false;
  });
  window.addEventListener('dragleave', (e) => {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) hint.hidden = true;
  });
  window.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    const files = Array.from(e.dataTransfer.files || []);
    if (files.length === 0) return;
    if (files.length > 1) say(`${files.length} files dropped: only the first, ${files[0].name}, is opened`, 'warn');
    importFile(files[0]);
  });

  function isExperiment(o) {
    return (typeof o.format === 'string' && o.format.startsWith('dpsim-experiment/')) ||
      (o.base !== undefined && Array.isArray(o.series) && o.x !== undefined);
  }

  // importFile opens a dropped file; it reports in the message line (and,
  // for a scenario, in the page's messages as the editor does).
  async function importFile(file) {
    state.drops++;
    const fail = (text) => { state.lastDrop = 'error: ' + text; say(text, 'error'); };
    if (file.size > MAX_FILE) {
      fail(`${file.name}: ${mb(file.size)} MB is over the 64 MB a scenario file may hold; nothing was loaded`);
      return;
    }
    let text;
    try { text = await file.text(); } catch (e) { fail(`${file.name}: could not be read (${e.message || e}); nothing was loaded`); return; }
    let o;
    try { o = JSON.parse(text); } catch (e) { fail(`${file.name}: not JSON (${e.message}); nothing was loaded`); return; }
    if (!o || typeof o !== 'object' || Array.isArray(o)) { fail(`${file.name}: a scenario or an experiment is a JSON object; nothing was loaded`); return; }
    if (isExperiment(o)) {
      const ex = window.dpsimExperiments;
      if (!ex || typeof ex.openJSON !== 'function') { fail(`${file.name}: an experiment, but the Experiments panel is not available`); return; }
      const res = await ex.openJSON(text, file.name);
      if (res && res.ok) { state.lastDrop = 'experiment: ' + (res.name || file.name); say(`${file.name}: opened in the Experiments panel`, 'ok'); } else fail(`${file.name}: ${(res && res.error) || 'not opened'}`);
      return;
    }
    let what = 'scenario';
    if (typeof o.format === 'string' && o.format.startsWith('dpsim-run/')) {
      if (!o.scenario || typeof o.scenario !== 'object') { fail(`${file.name}: a run export without its scenario; nothing was loaded`); return; }
      text = JSON.stringify(o.scenario);
      what = "run export's scenario";
    }
    const page = window.dpsimPage;
    if (!window.dpsimReady || !page || typeof page.loadScenarioText !== 'function') { fail(`${file.name}: the page is still loading; drop it again in a moment`); return; }
    const res = await page.loadScenarioText(text, null);
    if (res === undefined) return; // superseded by another load
    if (res && res.ok) {
      state.lastDrop = 'scenario: ' + file.name;
      say(`${file.name}: the ${what} is loaded`, 'ok');
    } else {
      fail(`${file.name}: ${(res && res.error) || 'not loaded'} (the current run is kept)`);
    }
  }
})();
