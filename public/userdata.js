// Your own data in the page (docs/data.md, "Your own data"): a scenario
// whose learning problem names a file of yours ("data": {"train":
// {"file": "train.csv"}}) asks for it before it is built; you pick it or
// drop it, the page reads it here with the File API and hands its bytes
// to the simulator (dpsim.provideUserFile), which checks the sha256 the
// scenario pins and keeps the file in memory for the session. Nothing is
// uploaded and nothing is stored: a reload asks again.
//
// page.js calls window.dpsimUserData.ensure(kind, arg) before it builds a
// scenario. A data file dropped on the page (.csv, .svm, .libsvm,
// .svmlight, .npy, .npz) comes here, not to the scenario drop of
// export.js; with no scenario waiting for it, it is kept and the current
// learning problem can be trained on it.
(function () {
  'use strict';

  const MAX = 256 * 1024 * 1024; // core/data.MaxUserFileBytes
  const EXT = /\.(csv|svm|libsvm|svmlight|npy|npz)$/i;
  const ACCEPT = '.csv,.svm,.libsvm,.svmlight,.npy,.npz';

  const state = { provided: 0, lastError: '', waiting: false };
  let pending = null; // {needs, resolve}: a scenario waiting for files

  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else if (v === true) e.setAttribute(k, '');
      else if (v !== false && v != null) e.setAttribute(k, v);
    }
    for (const k of kids) if (k) e.append(k);
    return e;
  };
  const base = (p) => String(p).split(/[\\/]/).pop();
  const short = (sha) => (sha ? sha.slice(0, 12) + '…' : '');
  const mb = (n) => (n / 1048576).toFixed(n < 1048576 ? 3 : 1);
  function call(name, ...args) {
    const fn = window.dpsim && window.dpsim[name];
    if (typeof fn !== 'function') return undefined;
    try { return fn.apply(window.dpsim, args); } catch (e) { return undefined; }
  }

  // ----------------------------------------------------------- the panel

  const input = el('input', { type: 'file', id: 'userdata-input', multiple: true, accept: ACCEPT, class: 'ud-input' });
  const list = el('ul', { class: 'ud-files', id: 'userdata-files' });
  const err = el('p', { class: 'ud-error', id: 'userdata-error', role: 'alert', hidden: true });
  const note = el('p', { class: 'ud-note', id: 'userdata-note' });
  const cancel = el('button', { type: 'button', class: 'ud-cancel', id: 'userdata-cancel', text: 'Cancel' });
  const train = el('button', { type: 'button', class: 'ud-train', id: 'userdata-train', hidden: true });
  const drop = el('div', { class: 'ud-drop', id: 'userdata-drop' },
    el('span', { text: 'Drop your files here, or ' }),
    el('label', { for: 'userdata-input', class: 'ud-pick', text: 'choose them…' }), input);
  const title = el('h2', { id: 'userdata-title', class: 'ud-title', text: 'Your data' });
  const box = el('section', { id: 'userdata', class: 'userdata', 'aria-labelledby': 'userdata-title', hidden: true },
    title, note, list, drop, err, el('div', { class: 'ud-buttons' }, train, cancel));
  const anchor = document.getElementById('data-load');
  if (anchor && anchor.parentNode) anchor.after(box); else document.body.append(box);

  function showError(text) {
    state.lastError = text;
    err.hidden = !text;
    err.textContent = text;
  }

  // render draws the files the waiting scenario names, or the files the
  // session holds.
  function render() {
    list.replaceChildren();
    if (pending) {
      for (const f of pending.needs) {
        const got = f.have ? 'ready' : 'needed';
        list.append(el('li', { 'data-file': f.file, 'data-state': got },
          el('span', { class: 'ud-name mono', text: f.file }),
          f.sha256 ? el('span', { class: 'ud-sha mono', title: 'sha256 ' + f.sha256, text: 'sha256 ' + short(f.sha256) }) : null,
          el('span', { class: 'ud-state', text: got })));
      }
    } else {
      for (const f of held) {
        list.append(el('li', { 'data-file': f.name, 'data-state': 'ready' },
          el('span', { class: 'ud-name mono', text: f.name }),
          el('span', { class: 'ud-sha mono', title: 'sha256 ' + f.sha256, text: 'sha256 ' + short(f.sha256) }),
          el('span', { class: 'ud-state', text: `${mb(f.bytes)} MB` })));
      }
    }
  }

  const held = []; // files provided this session, latest last

  // provide reads a File and hands it to the simulator as name (checked
  // against pin when the scenario pins a sha256); returns true when kept.
  async function provide(file, name, pin) {
    if (file.size > MAX) {
      showError(`${file.name}: ${file.size} bytes: a data file may have at most ${MAX} (256 MiB); nothing was read`);
      return false;
    }
    let bytes;
    try { bytes = new Uint8Array(await file.arrayBuffer()); } catch (e) {
      showError(`${file.name}: could not be read (${e.message || e})`);
      return false;
    }
    const res = call('provideUserFile', name, bytes, pin || '');
    if (!res || !res.ok) {
      showError(res ? res.error : 'the simulator is not running');
      return false;
    }
    const i = held.findIndex((f) => f.name === name);
    if (i >= 0) held.splice(i, 1);
    held.push({ name, sha256: res.sha256, bytes: res.bytes });
    state.provided++;
    console.info(`dpsim: ${name}: ${res.bytes} bytes kept for the session (sha256 ${res.sha256}), read locally`);
    return true;
  }

  // take handles files picked or dropped: for a waiting scenario, each
  // goes to the need of the same file name (or, when one need is left,
  // to it); otherwise each is kept under its own name.
  async function take(files) {
    showError('');
    if (!pending) {
      for (const f of files) {
        if (await provide(f, f.name, '')) offerTraining(f.name);
      }
      box.hidden = held.length === 0;
      render();
      return;
    }
    for (const f of files) {
      const open = pending.needs.filter((n) => !n.have);
      let need = open.find((n) => base(n.file) === f.name) || open.find((n) => base(n.file).toLowerCase() === f.name.toLowerCase());
      if (!need && open.length === 1) need = open[0];
      if (!need) {
        showError(`${f.name}: the scenario does not name it (it needs ${open.map((n) => n.file).join(', ')})`);
        continue;
      }
      if (await provide(f, need.file, need.sha256)) need.have = true;
    }
    render();
    if (pending.needs.every((n) => n.have)) finish('ok');
  }

  function finish(result) {
    const p = pending;
    pending = null;
    state.waiting = false;
    box.classList.remove('waiting');
    cancel.hidden = true;
    box.hidden = held.length === 0 || result !== 'ok';
    note.textContent = 'Read in this tab and kept in memory until you reload; never uploaded.';
    render();
    if (p) p.resolve(result);
  }

  // offerTraining offers to train the current scenario's learning
  // problem on a file kept with no scenario waiting for it.
  function offerTraining(name) {
    const s = window.dpsimState || {};
    train.hidden = false;
    train.textContent = `Train ${s.title ? '“' + s.title + '”' : 'the current scenario'} on ${name}`;
    train.dataset.file = name;
    note.textContent = `${name} is ready: read in this tab and kept in memory until you reload; never uploaded. A scenario naming "file": "${name}" in its problem's data trains on it.`;
  }
  train.addEventListener('click', async () => {
    const name = train.dataset.file;
    const res = call('trainOn', name);
    if (!res || !res.ok) { showError(res ? res.error : 'the simulator is not running'); return; }
    const page = window.dpsimPage;
    if (!page || typeof page.loadScenarioText !== 'function') { showError('the page is still loading'); return; }
    const out = await page.loadScenarioText(res.text, null);
    if (out && out.ok) { train.hidden = true; showError(''); } else if (out) showError(out.error || 'not loaded');
  });

  // A second picker stays in the controls card, for data no scenario
  // has asked for yet.
  const add = el('input', { type: 'file', id: 'userdata-add', multiple: true, accept: ACCEPT, class: 'ud-input' });
  const more = document.getElementById('more-controls');
  if (more) {
    more.append(el('div', { class: 'row ud-row' },
      el('span', { class: 'ud-label', text: 'Your data' }),
      el('label', { for: 'userdata-add', class: 'ud-pick', text: 'Choose a data file…' }), add,
      el('span', { class: 'ud-hint', text: 'LIBSVM, CSV with a header, .npy or .npz; read in this tab, never uploaded (or drop it on the page)' })));
  }
  for (const inp of [input, add]) {
    inp.addEventListener('change', () => {
      const files = Array.from(inp.files || []);
      inp.value = '';
      if (files.length) take(files);
    });
  }
  cancel.addEventListener('click', () => {
    showError('');
    finish('failed');
  });

  // Dropping: on the panel, or anywhere on the page while a scenario
  // waits, and any data file anywhere; before export.js sees it (capture).
  const dataFiles = (e) => Array.from((e.dataTransfer && e.dataTransfer.files) || []).filter((f) => EXT.test(f.name));
  const dragsFiles = (e) => !!(e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files'));
  drop.addEventListener('dragover', (e) => { if (dragsFiles(e)) { e.preventDefault(); drop.classList.add('over'); } });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  window.addEventListener('drop', (e) => {
    drop.classList.remove('over');
    const files = dataFiles(e);
    if (files.length === 0 && !(pending && drop.contains(e.target))) return;
    e.preventDefault();
    e.stopPropagation();
    const hint = document.getElementById('drop-hint');
    if (hint) hint.hidden = true;
    if (files.length) take(files);
  }, true);

  // ----------------------------------------------------- for page.js

  // ensure resolves 'ok' once every file the scenario (kind "preset" or
  // "text", as dpsim.dataNeeds) names is at hand, 'failed' when the user
  // cancels, 'superseded' when another load took over.
  function ensure(kind, arg) {
    let r = {};
    try { r = JSON.parse(call('userNeeds', kind, arg) || '{}'); } catch (e) { r = {}; }
    const n = (r.need || []).length;
    return ask(r.files || [], `This scenario trains on ${n === 1 ? 'a file' : n + ' files'} of yours: pick or drop ${n === 1 ? 'it' : 'them'}. ` +
      'The page reads them in this tab and keeps them in memory until you reload; nothing is uploaded. A pinned sha256 must match.');
  }

  // ask shows the panel waiting for the files of needs ({file, sha256,
  // have}: userNeeds's list) that are not at hand, with the note text,
  // and resolves as ensure does; the Experiments panel asks for an
  // experiment's files with it (public/experiments.js). With opts.scroll
  // false the page stays where it is (the asker says where to give them).
  function ask(needs, text, opts = {}) {
    if (pending) { const p = pending; pending = null; p.resolve('superseded'); }
    if (!needs.some((f) => !f.have)) return Promise.resolve('ok');
    showError('');
    train.hidden = true;
    return new Promise((resolve) => {
      pending = { needs: needs.map((f) => ({ ...f })), resolve };
      state.waiting = true;
      box.hidden = false;
      box.classList.add('waiting');
      cancel.hidden = false;
      note.textContent = text;
      render();
      if (opts.scroll !== false) box.scrollIntoView({ block: 'nearest' });
    });
  }

  window.dpsimUserData = { ensure, ask, state, held };
})();
