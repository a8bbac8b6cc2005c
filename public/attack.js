// attack.js — the gradient-leakage attack panel (DP-RECAL, issue 18):
// eight agents on a ring each hold one training image; an eavesdropper on
// the baton recovers agent I's gradient from the two messages around its
// first activation and rebuilds the image DLG-style. The panel shows the
// true image, the reconstruction from RECAL's messages (no noise) and the
// one from DP-RECAL's (σ_1 calibrated to ε at PLF 300), with their errors.
// It runs in its own Web Worker (sweep-worker.js on solver.wasm: the same
// Go code as "dpsim attack"), so the page's thread never waits.
// window.dpsimAttackState: {status: idle|loading|running|done|error, report, error}.
'use strict';
(function () {
  const root = document.getElementById('attack-section');
  if (!root) return;
  const state = { status: 'idle', report: null, error: '' };
  window.dpsimAttackState = state;

  const css = document.createElement('style');
  css.textContent = '.attack-images{display:flex;gap:1em;flex-wrap:wrap;margin-top:.5em}' +
    '.attack-images figure{margin:0;max-width:15em}.attack-images canvas{image-rendering:pixelated;border:1px solid #888}' +
    '.attack-images figcaption{font-size:.85em}.attack-controls{display:flex;gap:1em;flex-wrap:wrap;align-items:center}' +
    '.attack-controls input{width:5em}';
  document.head.append(css);
  root.innerHTML = `
    <h2>Gradient-leakage attack on the baton (DP-RECAL)</h2>
    <p class="attack-note" id="attack-note">Eight agents on a ring each hold one training image.</p>
    <div class="attack-controls">
      <label>Images <select id="attack-dataset">
        <option value="mnist-01">MNIST 0 vs 1</option>
        <option value="fmnist-tshirt-trouser">Fashion-MNIST T-shirt vs trouser</option>
      </select></label>
      <label>Agent <input id="attack-target" type="number" min="0" max="7" step="1" value="3"></label>
      <label>ε <input id="attack-epsilon" type="number" min="0.01" step="any" value="12"></label>
      <button id="attack-run" type="button">Run the attack</button>
      <span id="attack-status" role="status"></span>
    </div>
    <div class="attack-images" id="attack-images"></div>`;
  const $ = (id) => document.getElementById(id);
  const status = $('attack-status');
  let worker = null;
  let seq = 0;
  const waiting = new Map();

  function ask(msg, transfer) {
    const id = ++seq;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage(Object.assign({ id }, msg), transfer || []);
    });
  }

  async function start() {
    if (worker) return;
    worker = new Worker('sweep-worker.js');
    worker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      if (!w || e.data.progress) return;
      waiting.delete(e.data.id);
      if (e.data.ok) w.resolve(e.data.value); else w.reject(new Error(e.data.error));
    };
    const resp = await fetch('solver.wasm');
    if (!resp.ok) throw new Error(`solver.wasm: HTTP ${resp.status} (run ./build.sh)`);
    const module = await WebAssembly.compile(await resp.arrayBuffer());
    await ask({ cmd: 'init', module });
  }

  // The training split is fetched with the page's shared code
  // (datafetch.js: one-line errors) and checked against the manifest in
  // the worker (ui/datafiles), once per session.
  const provided = new Set();
  async function provide(dataset) {
    const file = dataset + '-train.gz';
    if (provided.has(file)) return;
    const bytes = await window.dpsimData.fetchFile({ file, dataset, split: 'train' }, () => {});
    await ask({ cmd: 'provide', file, bytes }, [bytes.buffer]);
    provided.add(file);
  }

  function drawImage(pixels, width, caption) {
    const fig = document.createElement('figure');
    const c = document.createElement('canvas');
    const scale = 4;
    c.width = c.height = width * scale;
    const ctx = c.getContext('2d');
    const img = ctx.createImageData(width, width);
    for (let j = 0; j < width * width; j++) {
      const v = Math.round(255 * Math.min(1, Math.max(0, pixels[j])));
      img.data[4 * j] = img.data[4 * j + 1] = img.data[4 * j + 2] = v;
      img.data[4 * j + 3] = 255;
    }
    const tmp = document.createElement('canvas');
    tmp.width = tmp.height = width;
    tmp.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(tmp, 0, 0, c.width, c.height);
    c.setAttribute('role', 'img'); // a picture, named by its caption
    c.setAttribute('aria-label', caption);
    const cap = document.createElement('figcaption');
    cap.textContent = caption;
    fig.append(c, cap);
    return fig;
  }

  function show(rep) {
    const box = $('attack-images');
    box.textContent = '';
    const f = (x) => x.toPrecision(3);
    const r = rep.recal, d = rep.dp_recal;
    box.append(
      drawImage(r.Truth, rep.width, `true image (agent ${rep.target}, label ${r.Label > 0 ? '+1' : '−1'})`),
      drawImage(r.Reconstruction, rep.width, `from RECAL's messages: MSE ${f(r.Error)}, gradient error ${f(r.GradientError)}`),
      drawImage(d.Reconstruction, rep.width, `from DP-RECAL's messages (ε = ${rep.epsilon}, σ₁ = ${f(d.Sigma)}): MSE ${f(d.Error)}; a random guess: ${f(d.RandomGuess)}`));
  }

  // The panel stands only where the run's algorithm says the attack
  // applies (its words: dpsimState.panels lists "attack", ui.KeyOf), and
  // says what it shows in that algorithm's words (method.Words.Attack).
  let wordsFor = '';
  function syncVisible() {
    const st = window.dpsimState;
    const panels = st && st.panels ? Array.from(st.panels) : [];
    root.hidden = !panels.includes('attack');
    if (root.hidden || !st.algorithmKind || wordsFor === st.algorithmKind || !window.dpsim || !window.dpsim.plugins) return;
    try {
      const alg = JSON.parse(window.dpsim.plugins()).algorithms.find((a) => a.name === st.algorithmKind);
      if (alg && alg.words && alg.words.attack) {
        wordsFor = st.algorithmKind;
        $('attack-note').textContent = 'Eight agents on a ring each hold one training image. ' + alg.words.attack;
      }
    } catch (e) { /* the note keeps its first sentence */ }
  }
  root.hidden = true;
  window.addEventListener('dpsim-scenario', syncVisible);
  window.addEventListener('dpsim-sim-ready', syncVisible);
  syncVisible();

  $('attack-run').addEventListener('click', async () => {
    const dataset = $('attack-dataset').value;
    const target = Number($('attack-target').value);
    const epsilon = Number($('attack-epsilon').value);
    state.status = 'loading';
    state.error = '';
    status.textContent = 'Loading the solver and the images…';
    try {
      await start();
      await provide(dataset);
      state.status = 'running';
      status.textContent = 'Running RECAL and DP-RECAL and attacking both…';
      const rep = await ask({ cmd: 'attack', dataset, options: { target, epsilon, alpha: 0.5, plf: 300, steps: 400, seed: 7 } });
      state.report = rep;
      state.status = 'done';
      status.textContent = '';
      show(rep);
    } catch (e) {
      state.status = 'error';
      state.error = e.message;
      status.textContent = e.message;
    }
  });
})();
