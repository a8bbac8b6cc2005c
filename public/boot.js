// boot.js — the page's start (docs/performance.md, start-up). It runs the
// view program (view.wasm, compiled while it streams since index.html's
// head) as soon as it is compiled, with what the view needs around it:
// the view's box sized to the window, ebiten's canvas moved into it, the
// poster, the scenario's snapshot and the labels over the picture. The
// page's own scripts (#page-scripts: page.js and the others) are loaded
// only once the view has drawn the scenario's first frame, so that until
// then the main thread does little but compile and start the view; they
// load at once when no such frame is coming (no WebGL2, no snapshot for
// this URL, a view that failed).
//
// Defines window.dpsimBoot, which page.js takes over (see its start()):
//   gl             {ok, renderer} from the head's WebGL2 probe
//   view           a promise of {go, instance} once the view runs
//   viewRun        a promise settled when the view exits (its exit code)
//   firstFrame     a promise resolved when the first frame is on screen
//   showFirstFrame the poster goes, the first frame is marked (idempotent)
//   renderLabels   writes a picture's labels over the canvas
//   stderr         the tail of the Go programs' output
//   urlView        the view part of the URL (?hide=, ?classroom, …)
//   takeHead       page.js writes the scenario's title from now on
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const view = $('view');
  const viewMsg = $('view-msg');
  const poster = $('poster');
  const viewLabels = $('view-labels');
  const scnTitle = $('scn-title');
  const scnDesc = $('scn-desc');

  // DEFAULT_PRESET is scenario.DefaultPreset.
  const DEFAULT_PRESET = 'tour-recal';
  // How long the page's scripts wait for the view to draw the snapshot
  // before they load anyway (a view that cannot draw it).
  const SNAPSHOT_WAIT_MS = 3000;

  // ------------------------------------------------- the URL's view part

  // Read at once, before the page is first shown, so that a classroom
  // page never shows what it hides. Go parses the same URL (ui/query) and
  // share.js reports its errors once the simulator is up.
  const params = new URLSearchParams(location.search);
  const partNames = [...new Set([...document.querySelectorAll('[data-part]')].map((el) => el.dataset.part))];
  const classroom = params.has('classroom');
  const hide = (params.get('hide') || '').split(',').map((s) => s.trim()).filter((s) => partNames.includes(s));
  const urlSpeed = params.has('speed') && Number.isFinite(Number(params.get('speed'))) ? Number(params.get('speed')) : null;
  const urlView = { speed: urlSpeed, hide: [...new Set(hide)], classroom, experiment: params.get('experiment') || '' };

  // applyHide removes the hidden parts from the layout and the tab order
  // (display: none), and lets the view take their room: a column whose
  // parts are all gone goes too.
  // ?classroom hides every part but what is marked data-classroom (Slow,
  // the readout).
  function applyHide() {
    const gone = new Set(classroom ? partNames : urlView.hide);
    for (const el of document.querySelectorAll('[data-part]')) {
      if (gone.has(el.dataset.part) && !(classroom && el.hasAttribute('data-classroom'))) el.setAttribute('data-gone', '');
      else el.removeAttribute('data-gone');
    }
    // The view leaves room for the key under it only when it is shown.
    document.documentElement.style.setProperty('--key-room', gone.has('key') ? '12px' : '44px');
    document.documentElement.classList.toggle('classroom', classroom);
    document.documentElement.classList.toggle('parts-hidden', gone.size > 0);
    for (const col of document.querySelectorAll('.layout > section')) {
      const kids = [...col.children].filter((c) => !c.hidden && c.tagName !== 'ASIDE');
      const empty = kids.length > 0 && kids.every((c) => c.hasAttribute('data-gone'));
      col.toggleAttribute('data-gone', empty);
    }
    const layout = document.querySelector('.layout');
    if (layout) layout.classList.toggle('one-column', [...layout.children].some((c) => c.hasAttribute('data-gone')));
    // The view is sized to the window below what is above it.
    window.dispatchEvent(new Event('resize'));
  }

  // ------------------------------------------------------- the view's box

  // The view takes the window's height below the controls and the
  // scenario's title (--above-view), so it fills and follows the window.
  function layoutView() {
    const top = view.getBoundingClientRect().top + window.scrollY;
    document.documentElement.style.setProperty('--above-view', Math.round(top) + 'px');
  }
  window.addEventListener('resize', layoutView);
  if (urlView.hide.length || classroom) applyHide();
  layoutView();
  // … and follows what is above it when that changes height (a note
  // under the toolbar, the readout in one column).
  if (typeof ResizeObserver === 'function') {
    const above = new ResizeObserver(layoutView);
    for (const sel of ['.top', '#controls', '#share-note', '#readout', '.scn-head']) {
      const el = document.querySelector(sel);
      if (el) above.observe(el);
    }
  }

  // Ebitengine sizes its canvas and its Layout from document.body.clientWidth
  // and clientHeight: point those at #view, times the canvas scale page.js
  // sets for a large network on a software GPU (window.dpsimCanvasScale).
  const scale = () => window.dpsimCanvasScale || 1;
  try {
    Object.defineProperty(document.body, 'clientWidth', {
      configurable: true, get: () => Math.max(1, Math.round(view.clientWidth * scale())),
    });
    Object.defineProperty(document.body, 'clientHeight', {
      configurable: true, get: () => Math.max(1, Math.round(view.clientHeight * scale())),
    });
  } catch (e) {
    console.warn('dpsim: cannot redirect body size to #view:', e);
  }

  // Undo the inline styles ebiten puts on <html> and <body> (style.css also
  // overrides them with !important).
  function resetPageStyles() {
    for (const el of [document.documentElement, document.body]) {
      el.style.removeProperty('background-color');
      el.style.removeProperty('height');
    }
  }

  // Ebiten appends its canvas to <body>: it moves into #view.
  function adoptCanvas(c) {
    if (c.parentNode === view) return;
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
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && n.tagName === 'CANVAS' && n.parentNode === document.body) adoptCanvas(n);
      }
    }
  }).observe(document.body, { childList: true });

  // ebiten asks for a multisampled WebGL2 canvas with a depth buffer,
  // then copies its finished picture onto it in one pixel-aligned pass
  // that needs neither: a software GPU would clear and resolve four
  // samples a pixel every frame for nothing (docs/performance.md).
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, attr) {
    if (kind === 'webgl2' && attr && typeof attr === 'object') attr = Object.assign({}, attr, { antialias: false, depth: false });
    return getContext.call(this, kind, attr);
  };

  // Keep the tail of the Go programs' output (stdout and stderr both
  // arrive here) to show if one dies; it still goes to the console too.
  let goOutput = '';
  const gfs = globalThis.fs;
  if (gfs && typeof gfs.writeSync === 'function') {
    const orig = gfs.writeSync;
    const dec = new TextDecoder('utf-8');
    gfs.writeSync = function (fd, buf) {
      try { goOutput = (goOutput + dec.decode(buf, { stream: true })).slice(-8000); } catch (e) { /* ignore */ }
      return orig.call(this, fd, buf);
    };
  }

  // ------------------------------------------------------------ labels

  // The scene places text labels (node names and values, the allocation
  // panel's captions); they are written here, over the canvas, as DOM text.
  let labelsSig = '';
  function renderLabels(labels) {
    const list = labels ? Array.from(labels) : [];
    const w = view.clientWidth, h = view.clientHeight;
    const sig = w + 'x' + h + '@' + scale() + ':' + list.map((l) => l.text + '@' + l.x.toFixed(4) + ',' + l.y.toFixed(4)).join('|');
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
    if (list.length <= 200) separateLabels();
  }

  // separateLabels moves a label that would overlap one already placed up
  // or down by part of its height (nearest free spot first, at most a few
  // steps), so that a small view — DP-DGT's 14 buses on a phone — stays
  // readable. The labels' boxes come from the DOM: only it knows the font.
  function separateLabels() {
    const els = [...viewLabels.children];
    const base = els.map((el) => { el.style.marginTop = '0px'; return el.getBoundingClientRect(); });
    const order = els.map((_, i) => i).sort((a, b) => base[a].top - base[b].top);
    const placed = [];
    const hits = (r, dy) => placed.some((q) => r.left < q.right - 1 && r.right > q.left + 1 && r.top + dy < q.bottom - 1 && r.bottom + dy > q.top + 1);
    for (const i of order) {
      const r = base[i];
      if (r.width === 0) continue;
      const step = Math.max(2, r.height * 0.5);
      let dy = 0;
      for (const k of [0, 1, -1, 2, -2, 3, -3, 4, -4]) {
        if (!hits(r, k * step)) { dy = k * step; break; }
      }
      if (dy) els[i].style.marginTop = dy.toFixed(1) + 'px';
      placed.push({ left: r.left, right: r.right, top: r.top + dy, bottom: r.bottom + dy });
    }
  }

  // ------------------------------------------- poster, snapshot, title

  // The poster: the scenario's first frame, rendered at build time by the
  // same scene code (cmd/mkposter → posters/<preset>.svg), shown at once
  // in place of the canvas and removed at the first frame.
  let name = DEFAULT_PRESET;
  const q = params.get('preset');
  if (q && /^[a-z0-9][a-z0-9._-]{0,80}$/.test(q)) name = q;
  poster.addEventListener('load', () => {
    if (!poster.isConnected) return;
    poster.hidden = false;
    view.classList.add('has-poster');
    performance.mark('dpsim-poster');
  });
  poster.addEventListener('error', () => { poster.remove(); });
  poster.src = 'posters/' + name + '.svg';
  // The snapshot of the same first frame (posters/<preset>.snap), which
  // the view program draws at the canvas's size before the simulator is
  // loaded. Only for a preset alone in the URL: a seed, a scenario or a
  // comparison draws another picture, which only the simulator knows.
  const plain = [...params.keys()].every((k) => k === 'preset');
  const gl = window.dpsimGL || { ok: false };
  const snapshotReady = !plain || !gl.ok ? Promise.resolve(false) : fetch('posters/' + name + '.snap')
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .then((b) => {
      if (!b || b.byteLength === 0) return false;
      window.dpsimSnapshot = new Uint8Array(b);
      return true;
    })
    .catch(() => false);
  // Its title and description too, until the simulator says them.
  let headTaken = false;
  fetch('posters/index.json').then((r) => (r.ok ? r.json() : null)).then((idx) => {
    const h = idx && Object.hasOwn(idx, name) ? idx[name] : null;
    if (!h || headTaken) return;
    scnTitle.textContent = h.title || name;
    scnDesc.textContent = h.description || '';
    scnDesc.title = h.description || '';
  }).catch(() => {});

  // ------------------------------------------------------ the first frame

  // The page's first frame is the view's first picture of the scenario:
  // from its snapshot (before the simulator is loaded) or from the
  // simulator. The view calls dpsimViewDrew on its first picture of each
  // kind (wasm/view); page.js calls showFirstFrame when the simulator's
  // picture is up without one.
  let firstFrameShown = false;
  let firstFrameSeen;
  const firstFrame = new Promise((resolve) => { firstFrameSeen = resolve; });
  function showFirstFrame() {
    if (firstFrameShown) return;
    firstFrameShown = true;
    if (poster.isConnected) {
      poster.remove();
      view.classList.remove('has-poster');
    }
    performance.mark('dpsim-first-frame');
    viewMsg.hidden = true;
    resetPageStyles();
    firstFrameSeen();
    requestAnimationFrame(() => setTimeout(() => {
      window.dpsimFirstFrame = true;
      window.dispatchEvent(new Event('dpsim-first-frame'));
    }, 0));
  }
  window.dpsimViewDrew = (kind, buildMs) => {
    if (kind === 'snapshot' && typeof buildMs === 'number') window.dpsimSnapshotBuildMs = buildMs;
    showFirstFrame();
    // The snapshot's labels (render.SnapshotSource writes them), until
    // page.js has loaded and writes them itself.
    if (kind === 'snapshot') {
      const tick = () => {
        if (window.dpsimPage) return;
        renderLabels(window.dpsimSnapshotLabels);
        requestAnimationFrame(tick);
      };
      tick();
    }
  };
  // The view calls dpsimViewNoSnapshot when the snapshot's bytes do not
  // decode (a damaged file, a host answering missing files with a page):
  // the page then loads at once rather than after SNAPSHOT_WAIT_MS.
  let snapshotGaveUp;
  const snapshotRefused = new Promise((resolve) => { snapshotGaveUp = resolve; });
  window.dpsimViewNoSnapshot = () => { window.dpsimSnapshotRefused = true; snapshotGaveUp(); };

  // ---------------------------------------------------------- the view

  let viewExit = null;
  const viewGo = typeof window.Go === 'function' ? new window.Go() : null;
  const viewStart = (async () => {
    if (!gl.ok) throw new Error('WebGL2 is not available');
    if (!viewGo) throw new Error('wasm_exec.js did not load (build the site with ./build.sh)');
    if (typeof WebAssembly !== 'object') throw new Error('this browser lacks WebAssembly');
    // Compiled as it streamed since the head; without compileStreaming,
    // fetched, then compiled.
    const module = window.dpsimViewModule || fetch('view.wasm').then((r) => {
      if (!r.ok) throw new Error(`view.wasm: HTTP ${r.status} ${r.statusText}`.trim() + (r.status === 404 ? ' (build it with ./build.sh)' : ''));
      return r.arrayBuffer();
    }).then((b) => WebAssembly.compile(b));
    const instance = await WebAssembly.instantiate(await module, viewGo.importObject);
    performance.mark('dpsim-view-instantiated');
    return instance;
  })();
  const viewReady = viewStart.then((instance) => {
    viewGo.exit = (code) => {
      viewExit = code;
      if (code !== 0) console.warn('view exit code:', code);
    };
    // The simulator writes each picture straight into the view's memory.
    window.dpsimViewMemory = instance.exports.mem;
    return { go: viewGo, instance, run: viewGo.run(instance).then(() => viewExit) };
  });
  viewReady.catch(() => {}); // page.js reports it
  const viewRun = viewReady.then((v) => v.run);
  viewRun.catch(() => {});

  // ------------------------------------------------- the page's scripts

  // #page-scripts (index.html) hold the page's scripts and the panels'
  // styles, in their order; they load once the first frame is on screen,
  // or as soon as none is coming.
  let pageLoading = false;
  // failed says in the view's box that a script of the page is missing:
  // without it the page cannot start.
  function failed(src) {
    console.error(`dpsim: could not load ${src}`);
    viewMsg.hidden = false;
    viewMsg.classList.add('error');
    $('view-msg-text').textContent = `Could not load ${src}, so the page cannot start.`;
    $('view-msg-detail').textContent = 'Reload the page; if it stays, the site is incomplete (build it with ./build.sh and publish all of public/).';
    $('load-progress').hidden = true;
  }
  function loadPage() {
    if (pageLoading) return;
    pageLoading = true;
    const tpl = $('page-scripts');
    for (const old of tpl ? tpl.content.children : []) {
      if (old.tagName === 'LINK') {
        const el = document.createElement('link');
        el.rel = 'stylesheet';
        el.href = old.getAttribute('href');
        document.head.append(el);
      } else if (old.tagName === 'SCRIPT') {
        const el = document.createElement('script');
        el.src = old.getAttribute('src');
        el.async = false; // in order, as if in the page
        el.onerror = () => failed(el.getAttribute('src'));
        document.body.append(el);
      }
    }
  }
  snapshotReady.then((snap) => {
    if (!snap) { loadPage(); return; }
    const settled = viewRun.then(() => {}, () => {});
    Promise.race([firstFrame, snapshotRefused, settled, viewReady.then(() => new Promise(() => {}), () => {}),
      new Promise((r) => setTimeout(r, SNAPSHOT_WAIT_MS))]).then(loadPage);
  });

  window.dpsimBoot = {
    gl,
    view: viewReady,
    viewRun,
    firstFrame,
    showFirstFrame,
    get firstFrameShown() { return firstFrameShown; },
    renderLabels,
    stderr: () => goOutput,
    urlView,
    takeHead() { headTaken = true; },
  };
})();
