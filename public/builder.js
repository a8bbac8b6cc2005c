'use strict';
// builder.js — the scenario builder (docs/builder.md): a form drawn from
// what the plug-ins declare (window.dpsim.builderCatalog(), the Go side's
// scenario.Form()), so that a new algorithm or problem appears with no
// change here. Every error and warning of the scenario is shown beside
// its field at once (dpsim.validate, scenario.CheckAll), a few
// milliseconds after an edit. The form and the "Scenario (JSON)" editor
// follow each other both ways; "Build" applies the scenario through the
// editor's own Load, so a broken scenario never replaces the current run.
//
// Hooks: listens to 'dpsim-scenario' (page.js announceScenario) to follow
// the loaded scenario while the form holds no unbuilt edit; dispatches
// 'dpsim-builder-edit' {detail: {json}} after each edit of the form.
(() => {
  const $ = (id) => document.getElementById(id);
  const root = $('builder');
  const editor = $('scenario-text');
  const loadBtn = $('scenario-load');
  if (!root || !editor || !loadBtn) return;

  const VALIDATE_MS = 120; // debounce of validation after an edit
  const JSON_MS = 250;     // debounce of the form following the editor
  const LIST_INLINE = 40;  // longer lists are edited in the JSON editor

  let catalog = null;
  let model = null;    // the scenario being edited, as a JS object
  let loaded = null;   // the scenario the page had loaded when the form took it
  let dirty = false;   // edited since the last scenario the page loaded
  let validateTimer = 0;
  let jsonTimer = 0;
  let lastReport = null;
  let uid = 0;

  // ------------------------------------------------------------ helpers

  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'for' || k === 'role') e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const c of kids) if (c) e.append(c);
    return e;
  };
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const split = (path) => path.split('.');
  function get(obj, path) {
    let v = obj;
    for (const k of split(path)) {
      if (!isObj(v)) return undefined;
      v = v[k];
    }
    return v;
  }
  function set(obj, path, value) {
    const ks = split(path);
    let v = obj;
    for (const k of ks.slice(0, -1)) {
      if (!isObj(v[k])) v[k] = {};
      v = v[k];
    }
    v[ks[ks.length - 1]] = value;
  }
  // unset removes path and any object it leaves empty.
  function unset(obj, path) {
    const ks = split(path);
    const chain = [obj];
    for (const k of ks.slice(0, -1)) {
      const next = chain[chain.length - 1][k];
      if (!isObj(next)) return;
      chain.push(next);
    }
    delete chain[chain.length - 1][ks[ks.length - 1]];
    for (let i = chain.length - 1; i > 0; i--) {
      if (Object.keys(chain[i]).length > 0) break;
      delete chain[i - 1][ks[i - 1]];
    }
  }

  // The editor shows the scenario's keys in the order of docs/scenario.md.
  const ORDER = ['name', 'title', 'description', 'seed', 'seeds', 'graph', 'weights', 'problem',
    'algorithm', 'noise', 'init', 'iterations', 'record', 'samples', 'stop', 'calibrate'];
  function ordered(v, top) {
    if (Array.isArray(v)) return v.map((x) => ordered(x, false));
    if (!isObj(v)) return v;
    const keys = Object.keys(v);
    const rank = (k) => {
      if (top) { const i = ORDER.indexOf(k); return i < 0 ? ORDER.length : i; }
      return k === 'kind' ? -1 : 0;
    };
    const out = {};
    for (const k of keys.slice().sort((a, b) => rank(a) - rank(b))) out[k] = ordered(v[k], false);
    return out;
  }
  const text = () => JSON.stringify(ordered(model, true), null, 2);

  function bridge(name, ...args) {
    const fn = window.dpsim && window.dpsim[name];
    if (typeof fn !== 'function') return undefined;
    try { return fn.apply(window.dpsim, args); } catch (e) { return undefined; }
  }

  const fmtNum = (x) => String(x);
  // rangeText writes a range tag for people: "(0, inf)" → "(0, ∞)".
  const rangeText = (r) => r.replace(/\binf\b/g, '∞').replace(/9007199254740992/g, '2⁵³');

  // ------------------------------------------------------------- fields

  // A field's row: label, input, unit and range, its help text, and the
  // slot where its errors and warnings appear (data-path).
  function fieldRow(path, f, value, onChange, opts = {}) {
    const id = 'bf-' + path.replace(/[^A-Za-z0-9_-]/g, '-') + '-' + (++uid);
    const msgId = id + '-msg';
    const given = value !== undefined;
    const shown = given ? value : f.default;
    let input;
    const meta = [];
    if (f.unit) meta.push(f.unit);
    if (f.range) meta.push(rangeText(f.range));
    // An emptied number field means the default: say which, beside it.
    if ((f.kind === 'number' || f.kind === 'integer') && f.default !== null && f.default !== undefined) meta.push('default ' + fmtNum(f.default));
    switch (f.kind) {
      case 'bool':
        input = el('input', { type: 'checkbox', id, checked: !!shown });
        input.addEventListener('change', () => onChange(input.checked, input.checked === !!f.default && !opts.required));
        break;
      case 'string':
        if (f.options && f.options.length) {
          input = el('select', { id });
          for (const o of f.options) input.append(el('option', { value: o, text: o === '' ? '(default)' : o }));
          if (shown !== undefined && shown !== null && !f.options.includes(shown)) input.append(el('option', { value: shown, text: String(shown) }));
          input.value = shown == null ? '' : shown;
          input.addEventListener('change', () => onChange(input.value, input.value === (f.default == null ? '' : f.default) && !opts.required));
        } else {
          input = el('input', { type: 'text', id, value: shown == null ? '' : shown, spellcheck: false });
          input.addEventListener('input', () => onChange(input.value, input.value === (f.default == null ? '' : f.default) && !opts.required));
        }
        break;
      case 'number':
      case 'integer': {
        input = el('input', { type: 'text', id, inputMode: f.kind === 'integer' ? 'numeric' : 'decimal', class: 'mono num',
          value: shown === undefined || shown === null ? '' : fmtNum(shown), spellcheck: false });
        input.addEventListener('input', () => {
          const s = input.value.trim();
          if (s === '') { onChange(undefined, true); return; }
          const x = Number(s);
          // A value that is not a number goes into the scenario as the
          // text typed, so that the check names it beside this field.
          onChange(Number.isFinite(x) && /^[-+]?(\d|\.\d)/.test(s) ? x : s, false);
        });
        break;
      }
      default: { // list, or anything else: JSON text
        const long = Array.isArray(shown) && shown.length > LIST_INLINE;
        input = el('input', { type: 'text', id, class: 'mono', spellcheck: false, readOnly: long,
          value: long ? `${shown.length} entries: edit them in the JSON` : (shown === undefined || shown === null ? '' : JSON.stringify(shown)),
          title: 'JSON, e.g. [1, 2]' });
        if (!long) {
          input.addEventListener('input', () => {
            const s = input.value.trim();
            if (s === '') { onChange(undefined, true); return; }
            try { onChange(JSON.parse(s), false); input.removeAttribute('aria-invalid'); } catch (e) {
              showLocal(msgId, `${path}: must be JSON, e.g. [1, 2] (got ${s.slice(0, 40)})`);
            }
          });
        }
      }
    }
    input.setAttribute('aria-describedby', msgId + ' ' + id + '-doc');
    input.dataset.path = path;
    if (given) input.classList.add('given');
    const label = el('label', { for: id, class: 'bf-label', text: f.name });
    const row = el('div', { class: 'bf-field' + (f.kind === 'bool' ? ' bf-bool' : ''), 'data-field': path },
      label, input,
      meta.length ? el('span', { class: 'bf-meta', text: meta.join(' · ') }) : null,
      el('span', { class: 'bf-doc', id: id + '-doc', text: f.doc || '' }),
      el('span', { class: 'bf-msg', id: msgId, 'data-path': path, role: 'status' }));
    return row;
  }
  function showLocal(msgId, msg) {
    const slot = $(msgId);
    if (slot) { slot.replaceChildren(el('span', { class: 'bf-error', text: msg })); }
  }

  // fields draws a list of param.Field under prefix, reading and writing
  // model at prefix.name (objects nest).
  function fields(prefix, list, required = []) {
    const out = [];
    for (const f of list || []) {
      const path = prefix ? prefix + '.' + f.name : f.name;
      if (f.kind === 'object' && f.fields) {
        const fs = el('fieldset', { class: 'bf-object', 'data-field': path },
          el('legend', { text: f.name }),
          f.doc ? el('span', { class: 'bf-doc', text: f.doc }) : null,
          el('span', { class: 'bf-msg', 'data-path': path, role: 'status' }));
        for (const r of fields(path, f.fields)) fs.append(r);
        out.push(fs);
        continue;
      }
      const req = required.includes(f.name);
      out.push(fieldRow(path, f, get(model, path), (v, isDefault) => {
        if (v === undefined || (isDefault && !req)) unset(model, path); else set(model, path, v);
        edited();
      }, { required: req }));
    }
    return out;
  }

  // kindSelect is a section's kind chooser; picking a kind asks the Go
  // side (scenario.Choose) for the section with that kind's defaults.
  function kindSelect(section, plugins, current, label) {
    const id = 'bf-' + section.replace(/\./g, '-') + '-kind';
    const sel = el('select', { id, class: 'bf-kind', 'data-section': section });
    if (!current) sel.append(el('option', { value: '', text: '(choose)' }));
    for (const p of plugins) sel.append(el('option', { value: p.name, text: p.title ? `${p.name} — ${p.title}` : p.name, title: p.doc || '' }));
    if (current && !plugins.some((p) => p.name === current)) sel.append(el('option', { value: current, text: current + ' (unknown)' }));
    sel.value = current || '';
    sel.addEventListener('change', () => choose(section, sel.value));
    const p = plugins.find((q) => q.name === current);
    return el('div', { class: 'bf-field bf-kindrow', 'data-field': section + '.kind' },
      el('label', { for: id, class: 'bf-label', text: label || 'kind' }), sel,
      el('span', { class: 'bf-doc', text: p ? p.doc : '' }),
      el('span', { class: 'bf-msg', 'data-path': section + '.kind', role: 'status' }));
  }

  function choose(section, kind) {
    if (!kind) return;
    const raw = bridge('builderChoose', JSON.stringify(model), section, kind);
    let res = null;
    try { res = JSON.parse(raw); } catch (e) { res = { error: 'the page could not switch the kind' }; }
    if (res.error) {
      setSummary(res.error, 'error');
      return;
    }
    model = res.json;
    edited({ redraw: true });
  }

  function section(title, path, ...kids) {
    return el('fieldset', { class: 'bf-section', 'data-field': path },
      el('legend', { text: title }),
      el('span', { class: 'bf-msg', 'data-path': path, role: 'status' }),
      ...kids);
  }
  const pluginParams = (p) => (p ? p.params : []);
  const find = (list, name) => (list || []).find((p) => p.name === name);

  function draw() {
    if (!catalog || !isObj(model)) return;
    const focus = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.path : null;
    uid = 0;
    const alg = find(catalog.algorithms, get(model, 'algorithm.kind'));
    const prob = find(catalog.problems, get(model, 'problem.kind'));
    const graph = find(catalog.graphs, get(model, 'graph.kind'));
    const parts = [];

    parts.push(section('Scenario', '', ...fields('', catalog.scenario.filter((f) => f.kind !== 'object'))));

    parts.push(section('Graph', 'graph', kindSelect('graph', catalog.graphs, get(model, 'graph.kind')),
      ...fields('graph', pluginParams(graph), graph ? graph.required || [] : [])));

    const wsec = [];
    if (alg && alg.roles && alg.roles.length) {
      for (const r of alg.roles) {
        const wk = get(model, `weights.${r.role}.kind`);
        const w = find(catalog.weights, wk);
        wsec.push(el('fieldset', { class: 'bf-object', 'data-field': 'weights.' + r.role },
          el('legend', { text: `${r.role} (default ${r.default})` }),
          el('span', { class: 'bf-doc', text: r.doc }),
          el('span', { class: 'bf-msg', 'data-path': 'weights.' + r.role, role: 'status' }),
          kindSelect('weights.' + r.role, catalog.weights, wk),
          ...fields('weights.' + r.role, pluginParams(w), w ? w.required || [] : [])));
      }
    } else {
      const w = find(catalog.weights, get(model, 'weights.kind'));
      wsec.push(kindSelect('weights', catalog.weights, get(model, 'weights.kind')),
        ...fields('weights', pluginParams(w), w ? w.required || [] : []));
    }
    parts.push(section('Weights', 'weights', ...wsec));

    parts.push(section('Problem', 'problem', kindSelect('problem', catalog.problems, get(model, 'problem.kind')),
      ...fields('problem.params', pluginParams(prob))));

    parts.push(section('Algorithm', 'algorithm', kindSelect('algorithm', catalog.algorithms, get(model, 'algorithm.kind')),
      alg ? el('p', { class: 'bf-doc', text: `solves a ${alg.solves} problem` + (alg.preset ? ` · starts from preset ${alg.preset}` : '') }) : null,
      ...fields('algorithm.params', pluginParams(alg))));

    const nsec = [];
    for (const ch of (alg ? alg.channels : [])) {
      const base = 'noise.' + ch.name;
      const fs = catalog.noise.filter((f) => f.name !== 'dist');
      nsec.push(el('fieldset', { class: 'bf-object', 'data-field': base },
        el('legend', { text: `${ch.name} · ${ch.dist}` }),
        el('span', { class: 'bf-doc', text: ch.doc }),
        el('span', { class: 'bf-msg', 'data-path': base, role: 'status' }),
        ...fields(base, fs)));
    }
    parts.push(section('Noise', 'noise', ...nsec));

    parts.push(section('Run', 'run', ...fields('', catalog.scenario.filter((f) => f.kind === 'object'))));

    root.querySelector('.bf-form').replaceChildren(...parts);
    if (focus) {
      const again = root.querySelector(`[data-path="${CSS.escape(focus)}"]:is(input, select)`);
      if (again) again.focus();
    }
    showReport(lastReport);
  }

  // ------------------------------------------------------- validation

  function setSummary(msg, cls) {
    const s = root.querySelector('.bf-summary');
    s.textContent = msg;
    s.className = 'bf-summary' + (cls ? ' ' + cls : '');
  }

  // slotFor returns the message slot of path, or of its nearest drawn
  // ancestor ("noise.eta.decays[3]" → "noise.eta"), or the general one.
  function slotFor(path) {
    let p = path || '';
    for (;;) {
      if (p === '') return root.querySelector('.bf-general');
      const slot = root.querySelector(`.bf-form .bf-msg[data-path="${CSS.escape(p)}"]`);
      if (slot) return slot;
      p = p.replace(/\[\d+\]$/, '');
      const i = p.lastIndexOf('.');
      const j = p.lastIndexOf('[');
      p = p.slice(0, Math.max(i, j, 0));
    }
  }

  function showReport(r) {
    for (const s of root.querySelectorAll('.bf-msg')) s.replaceChildren();
    root.querySelector('.bf-general').replaceChildren();
    for (const f of root.querySelectorAll('.bf-field.has-error, .bf-field.has-warn')) f.classList.remove('has-error', 'has-warn');
    for (const i of root.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
    if (!r) return;
    const put = (e, cls) => {
      const slot = slotFor(e.path);
      // The message names its field, its rule and the value (house rule),
      // even beside the field's own input.
      const shown = e.path ? `${e.path}: ${e.msg}` : e.msg;
      slot.append(el('span', { class: cls, 'data-for': e.path, text: shown }));
      const row = slot.closest('.bf-field');
      if (row) {
        row.classList.add(cls === 'bf-error' ? 'has-error' : 'has-warn');
        if (cls === 'bf-error') { const inp = row.querySelector('input, select'); if (inp) inp.setAttribute('aria-invalid', 'true'); }
      }
    };
    for (const e of r.errors || []) put(e, 'bf-error');
    for (const w of r.warnings || []) put(w, 'bf-warn');
    const ne = (r.errors || []).length;
    const nw = (r.warnings || []).length;
    if (ne) setSummary(`${ne} error${ne > 1 ? 's' : ''}${nw ? `, ${nw} warning${nw > 1 ? 's' : ''}` : ''}, shown beside ${ne + nw > 1 ? 'their fields' : 'its field'}`, 'error');
    else if (r.note) setSummary(`no error found; not built yet: ${r.note} (Build fetches it)`, 'ok');
    else setSummary(nw ? `valid, with ${nw} warning${nw > 1 ? 's' : ''} beside their fields` : 'valid: Build runs it', nw ? 'warn' : 'ok');
  }

  function validateNow(t) {
    const raw = bridge('validate', t === undefined ? text() : t);
    if (typeof raw !== 'string') return null;
    try { lastReport = JSON.parse(raw); } catch (e) { lastReport = null; }
    root.dataset.validated = String(Date.now());
    return lastReport;
  }
  function scheduleValidate() {
    clearTimeout(validateTimer);
    root.dataset.pending = '1';
    validateTimer = setTimeout(() => {
      validateNow();
      showReport(lastReport);
      delete root.dataset.pending;
    }, VALIDATE_MS);
  }

  // ------------------------------------------------------------- sync

  function jsonMsg(msg, cls) {
    const m = $('builder-json-msg');
    if (!m) return;
    m.textContent = msg || '';
    m.className = 'bf-json-msg' + (cls ? ' ' + cls : '');
  }

  // edited: the form changed model; the editor follows and the checks run.
  function edited({ redraw = false } = {}) {
    dirty = true;
    const t = text();
    editor.value = t;
    jsonMsg('');
    if (redraw) draw();
    scheduleValidate();
    window.dispatchEvent(new CustomEvent('dpsim-builder-edit', { detail: { json: t } }));
  }

  // The editor changed: valid JSON redraws the form; invalid JSON shows
  // its parse error with line and column and leaves the form as it was.
  function editorEdited() {
    const t = editor.value;
    if (t.trim() === '') return;
    let v;
    try { v = JSON.parse(t); } catch (e) {
      const r = validateNow(t);
      const err = r && r.errors && r.errors[0];
      jsonMsg('not valid JSON, the form is unchanged: ' + (err ? err.msg : e.message), 'error');
      root.dataset.jsonState = 'invalid';
      return;
    }
    if (!isObj(v)) {
      jsonMsg('the scenario must be a JSON object {…}; the form is unchanged', 'error');
      root.dataset.jsonState = 'invalid';
      return;
    }
    jsonMsg('');
    root.dataset.jsonState = 'valid';
    model = v;
    dirty = true;
    validateNow(t);
    draw();
  }

  // follow takes the page's loaded scenario into the form (unless the
  // form holds edits not built yet: then it offers to).
  function follow(json, force) {
    if (typeof json !== 'string' || json === '') return;
    if (dirty && !force) {
      const n = root.querySelector('.bf-newer');
      n.hidden = false;
      n.dataset.json = json;
      return;
    }
    try { model = JSON.parse(json); } catch (e) { return; }
    loaded = JSON.parse(json);
    dirty = false;
    root.querySelector('.bf-newer').hidden = true;
    // The page has just built it: no need to build it again here (a CNN
    // takes a second); its warnings are in the page's messages.
    lastReport = null;
    draw();
    setSummary('the loaded scenario: edit a field, or pick a kind', '');
  }

  // ------------------------------------------------ titles follow edits

  // leaves lists the leaf values of v by dotted path.
  function leaves(v, path = '', out = new Map()) {
    if (isObj(v)) { for (const [k, x] of Object.entries(v)) leaves(x, path ? path + '.' + k : k, out); return out; }
    out.set(path, JSON.stringify(v));
    return out;
  }
  // OWN_WORDS are the fields that name and describe a scenario, and those
  // that leave it the same run for its link (seed, target ε).
  const OWN_WORDS = /^(name|title|description|seed|seeds|calibrate)(\.|$)/;
  // changes lists what the form changed in the loaded scenario, field by
  // field ("graph.n 8 → 12").
  function changes(from, to) {
    const a = leaves(from), b = leaves(to);
    const out = [];
    for (const k of new Set([...a.keys(), ...b.keys()])) {
      if (OWN_WORDS.test(k) || a.get(k) === b.get(k)) continue;
      const short = (x) => (x === undefined ? 'default' : x.length > 24 ? x.slice(0, 21) + '…' : x);
      out.push(`${k} ${short(a.get(k))} → ${short(b.get(k))}`);
    }
    return out;
  }
  const bare = (t) => String(t || '').replace(/\s*\(.*$/, '').replace(/:.*$/, '').trim();
  // titleOf says what the scenario is from what it holds, in its
  // plug-ins' own titles: "GT-DP on a ring of 12: Rendezvous".
  function titleOf(m) {
    const alg = find(catalog.algorithms, get(m, 'algorithm.kind'));
    const prob = find(catalog.problems, get(m, 'problem.kind'));
    const g = find(catalog.graphs, get(m, 'graph.kind'));
    let graph = g ? bare(g.title).toLowerCase() : String(get(m, 'graph.kind') || 'network');
    const param = (name) => { const v = get(m, 'graph.' + name); if (v !== undefined) return v; const f = g && g.params.find((q) => q.name === name); return f ? f.default : undefined; };
    if (param('n') !== undefined && param('n') !== null) graph += ` of ${param('n')}`;
    else if (param('rows') !== undefined) graph += ` of ${param('rows')}×${param('cols')}`;
    return `${alg ? bare(alg.title) : get(m, 'algorithm.kind')} on a ${graph}: ${prob ? bare(prob.title) : get(m, 'problem.kind')}`;
  }
  // retitle: a scenario built from the loaded one with other contents
  // under the same name and title is not that scenario any more: it gets
  // a title from what it holds, a name of its own, and a description
  // saying what changed — so that the head and the preset menu follow
  // what runs (a user's own name or title stays).
  function retitle() {
    if (!loaded || !isObj(model) || model.name !== loaded.name || model.title !== loaded.title) return;
    const ch = changes(loaded, model);
    if (!ch.length) return;
    const base = String(loaded.name || 'scenario').replace(/-edited$/, '');
    model.name = base.slice(0, 57) + '-edited';
    model.title = titleOf(model);
    const from = loaded.title ? `"${loaded.title}"` : loaded.name;
    model.description = `Built in the scenario builder from ${from}, changed: ${ch.slice(0, 4).join('; ')}${ch.length > 4 ? `; and ${ch.length - 4} more` : ''}.`;
  }

  function build() {
    // The same path as the editor's Load: dataset fetching, messages,
    // and a refusal that leaves the current run alone.
    clearTimeout(jsonTimer);
    editor.value = text();
    const r = validateNow();
    showReport(r);
    if (r && r.errors && r.errors.length) {
      const first = root.querySelector('.bf-field.has-error input, .bf-field.has-error select');
      if (first) first.focus();
      return;
    }
    retitle();
    editor.value = text();
    dirty = false;
    loadBtn.click();
  }

  function init() {
    if (catalog) return;
    const raw = bridge('builderCatalog');
    try { catalog = JSON.parse(raw); } catch (e) { return; }
    root.replaceChildren(
      el('div', { class: 'bf-bar' },
        el('button', { type: 'button', id: 'builder-build', class: 'primary', text: 'Build', title: 'Load this scenario (as the editor\'s Load does)' }),
        el('button', { type: 'button', id: 'builder-current', text: 'Reset to loaded', title: 'Drop the form\'s edits and show the loaded scenario' }),
        el('span', { class: 'bf-summary', role: 'status', 'aria-live': 'polite' })),
      el('p', { class: 'bf-newer', hidden: true },
        'Another scenario was loaded. ',
        el('button', { type: 'button', class: 'link', text: 'Show it in the form', onclick: (e) => follow(e.target.parentElement.dataset.json, true) })),
      el('div', { class: 'bf-general', role: 'status' }),
      el('div', { class: 'bf-form' }));
    $('builder-build').addEventListener('click', build);
    $('builder-current').addEventListener('click', () => follow(bridge('scenario'), true));
    const cur = bridge('scenario');
    try { model = cur ? JSON.parse(cur) : { name: 'my-scenario', seed: 1, iterations: 200 }; } catch (e) { model = {}; }
    try { loaded = cur ? JSON.parse(cur) : null; } catch (e) { loaded = null; }
    draw();
    if (cur) setSummary('the loaded scenario: edit a field, or pick a kind', '');
    else scheduleValidate();
    root.dataset.ready = '1';
  }

  editor.addEventListener('input', () => {
    clearTimeout(jsonTimer);
    jsonTimer = setTimeout(editorEdited, JSON_MS);
  });
  window.addEventListener('dpsim-scenario', (e) => {
    if (!catalog) { if (window.dpsimSimReady) init(); return; }
    follow(e.detail && e.detail.json);
  });
  // The form (every plug-in's fields) is drawn once the simulator's first
  // frame is on screen (page.js: "dpsim-sim-ready"), not before it; init
  // reads the scenario then current.
  if (window.dpsimSimReady) setTimeout(init, 0);
  else window.addEventListener('dpsim-sim-ready', () => setTimeout(init, 0), { once: true });

  // For tests and other panels: the builder's scenario and a way to wait
  // for its checks.
  window.dpsimBuilder = {
    json: () => (model ? text() : ''),
    validate: () => { validateNow(); showReport(lastReport); return lastReport; },
  };
})();
