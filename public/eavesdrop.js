// eavesdrop.js — the "What an eavesdropper sees" panel: for one agent, the
// messages on its links in the current iteration (both rounds), next to
// its true x_i and ∇f_i(x_i), and — for DPP² — what a listener who knows
// η^k reconstructs from those messages alone: exactly x_i + w_i and
// ∇f_i(x_i) + e_i (the first privacy tier hides nothing more), so only the
// Laplace noise still protects, while it is large (spec §3.2,
// docs/dpp2-paper.md).
//
// It reads the bridge only: dpsim.eavesdrop(agent) taps an agent (the run
// restarts at iteration 0, since the listener rebuilds the dual variables
// from the first message; −1 removes the tap) and dpsim.eavesdropView()
// returns the last frames as JSON (docs/bridge.md). It writes its own
// markup and styles into #eavesdrop-section and touches nothing else.
// Tests read window.dpsimEavesdropState.
(() => {
  'use strict';

  const section = document.getElementById('eavesdrop-section');
  if (!section) return;

  const css = `
    .eav summary h2 { display: inline; }
    .eav-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: .75rem 1.5rem; }
    .eav-grid > div { min-width: 0; }
    .eav .eav-scroll { overflow-x: auto; }
    .eav .eav-msgs { grid-column: 1 / -1; }
    @media (max-width: 900px) { .eav-grid { grid-template-columns: minmax(0, 1fr); } }
    .eav table { border-collapse: collapse; font-size: .8rem; width: 100%; }
    .eav th, .eav td { padding: .1rem .35rem; text-align: right; white-space: nowrap; }
    .eav th { font-weight: 600; }
    .eav td.lbl, .eav th.lbl { text-align: left; }
    .eav tr.truth td { font-weight: 600; }
    .eav tr.recon td { color: #b45309; }
    .eav .eav-ok { color: #0f766e; font-weight: 600; }
    .eav .eav-warn { color: #b91c1c; font-weight: 600; }
    .eav .eav-msgs .eav-scroll { max-height: 14rem; overflow: auto; }
    .eav canvas { width: 100%; height: 120px; display: block; border-bottom: 1px solid #ddd; }
    .eav .row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
  `;
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);

  section.classList.add('eav');
  section.innerHTML = `<details id="eav-box">
    <summary><h2>What an eavesdropper sees <span class="muted">— the messages on one agent's links, beside what the agent holds</span></h2></summary>
    <div class="row">
      <label for="eav-agent">Agent</label>
      <input type="number" id="eav-agent" min="0" step="1" value="0" class="mono" style="width:5rem">
      <button type="button" id="eav-tap" class="primary">Tap its links</button>
      <button type="button" id="eav-off">Remove the tap</button>
      <span id="eav-msg" class="field-msg" role="status" aria-live="polite"></span>
    </div>
    <p id="eav-note" class="muted small"></p>
    <div class="eav-grid">
      <div>
        <h3 id="eav-iter">—</h3>
        <div class="eav-scroll"><table id="eav-table" aria-label="the agent's values and the reconstruction"></table></div>
        <p id="eav-verdict" class="small"></p>
      </div>
      <div>
        <h3>Noise ÷ signal left in the reconstruction (log scale, recent iterations)</h3>
        <canvas id="eav-shield" width="480" height="120" role="img" aria-label="the second tier's protection over time"></canvas>
        <p class="muted small">Above 1 (the dashed line) the Laplace noise still hides x_i and ∇f_i(x_i); as it decays, what the messages reveal approaches the truth.</p>
      </div>
      <div class="eav-msgs">
        <h3>Messages on the links (this iteration, in round order)</h3>
        <div class="eav-scroll"><table id="eav-msgs" aria-label="messages"></table></div>
      </div>
    </div>
  </details>`;

  const $ = (id) => document.getElementById(id);
  const state = { agent: -1, iter: -1, inverts: false, frames: 0, residual: NaN, error: '' };
  window.dpsimEavesdropState = state;

  const fmt = (v) => {
    if (v === null || v === undefined || Number.isNaN(v)) return '—';
    if (v >= 1e300) return '∞';
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
    return v.toFixed(4);
  };
  const DIMS = 6; // coordinates shown

  const row = (cls, label, xs) => {
    const cells = (xs || []).slice(0, DIMS).map((v) => `<td class="mono">${fmt(v)}</td>`).join('');
    return `<tr class="${cls}"><td class="lbl">${label}</td>${cells}</tr>`;
  };

  function drawShield(frames) {
    const cv = $('eav-shield');
    const ctx = cv.getContext('2d');
    const w = cv.width, h = cv.height;
    ctx.clearRect(0, 0, w, h);
    const pts = frames.map((f) => [f.shield_x, f.shield_grad]);
    const lo = -16, hi = 4; // log10 range drawn
    const y = (v) => {
      const l = v > 0 ? Math.log10(Math.min(v, 1e4)) : lo;
      return h - ((Math.max(l, lo) - lo) / (hi - lo)) * h;
    };
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = '#888';
    ctx.beginPath(); ctx.moveTo(0, y(1)); ctx.lineTo(w, y(1)); ctx.stroke();
    ctx.setLineDash([]);
    [['#0f766e', 0], ['#b45309', 1]].forEach(([col, k]) => {
      ctx.strokeStyle = col;
      ctx.beginPath();
      pts.forEach((p, i) => {
        const px = pts.length > 1 ? (i / (pts.length - 1)) * w : w / 2;
        if (i === 0) ctx.moveTo(px, y(p[k])); else ctx.lineTo(px, y(p[k]));
      });
      ctx.stroke();
    });
    ctx.fillStyle = '#666';
    [[1, '1'], [1e-8, '1e-8'], [1e-16, '1e-16']].forEach(([v, t]) => ctx.fillText(t, w - 34, Math.min(Math.max(y(v) - 2, 10), h - 2)));
    ctx.fillStyle = '#0f766e'; ctx.fillText('‖w‖/‖x‖', 4, 10);
    ctx.fillStyle = '#b45309'; ctx.fillText('‖e‖/‖∇f‖', 64, 10);
  }

  function render(view) {
    if (!view) {
      state.agent = -1;
      $('eav-iter').textContent = 'No tap: choose an agent and press "Tap its links".';
      $('eav-table').innerHTML = '';
      $('eav-msgs').innerHTML = '';
      $('eav-verdict').textContent = '';
      return;
    }
    state.agent = view.agent;
    state.inverts = view.inverts;
    state.frames = view.frames.length;
    $('eav-note').textContent = view.note;
    $('eav-agent').max = String(view.agents - 1);
    const f = view.frames[view.frames.length - 1];
    if (!f) {
      $('eav-iter').textContent = `Agent ${view.agent}: waiting for the first iteration (press Step or Play).`;
      return;
    }
    state.iter = f.iteration;
    state.residual = Math.max(f.residual_x, f.residual_grad);
    const more = view.dim > DIMS ? ` (first ${DIMS} of ${view.dim} coordinates)` : '';
    $('eav-iter').textContent = `Agent ${view.agent}, iteration k = ${f.iteration}${more}`;
    const head = `<tr><th class="lbl"></th>${(f.x || []).slice(0, DIMS).map((_, c) => `<th>[${c}]</th>`).join('')}</tr>`;
    const y = f.sent.find((m) => m.channel === 'y' || m.round === 0);
    const z = f.sent.find((m) => m.channel === 'z' || m.round === 1);
    let rows = head + row('truth', 'x_i (private)', f.x);
    if (y) rows += row('', `sent ${y.channel} (round ${y.round})`, y.sent);
    if (view.inverts) rows += row('recon', 'reconstructed x̂_i', f.x_hat) + row('', 'noise w_i left in it', f.noise_x);
    rows += row('truth', '∇f_i(x_i) (private)', f.grad);
    if (z) rows += row('', `sent ${z.channel} (round ${z.round})`, z.sent);
    if (view.inverts) rows += row('recon', 'reconstructed ĝ_i', f.grad_hat) + row('', 'noise e_i left in it', f.noise_grad);
    $('eav-table').innerHTML = rows;
    const v = $('eav-verdict');
    if (view.inverts) {
      const exact = state.residual <= 1e-9 * Math.max(1, ...f.x.map(Math.abs), ...f.grad.map(Math.abs));
      v.innerHTML = `Knowing ${view.knows}, the listener gets x_i + w_i and ∇f_i + e_i ` +
        (exact ? `<span class="eav-ok">exactly</span>` : `<span class="eav-warn">with an error</span>`) +
        ` (max residual ${fmt(state.residual)}): the first tier hides nothing more. ` +
        `The noise left: ‖w‖/‖x‖ = ${fmt(f.shield_x)}, ‖e‖/‖∇f‖ = ${fmt(f.shield_grad)} ` +
        (Math.min(f.shield_x, f.shield_grad) >= 1 ? '— still large: the second tier protects.' : '— small: the messages now nearly reveal the truth.');
    } else {
      v.textContent = `${view.algorithm} offers no inversion of its messages: the panel shows what travels, next to the truth.`;
    }
    const msgs = [...f.sent.map((m) => ({ ...m, dir: 'sent' })), ...f.received.map((m) => ({ ...m, dir: 'received' }))]
      .sort((a, b) => a.round - b.round);
    $('eav-msgs').innerHTML = `<tr><th class="lbl">round</th><th class="lbl">link</th><th class="lbl">channel</th><th>payload[0..2]</th><th>noise[0..2]</th></tr>` +
      msgs.map((m) => `<tr><td class="lbl">${m.round}</td><td class="lbl">${m.dir === 'sent' ? `${m.from} → ${m.to.join(', ')}` : `${m.from} → ${view.agent}`}</td>` +
        `<td class="lbl">${m.channel}</td><td class="mono">${m.sent.slice(0, 3).map(fmt).join(' ')}</td>` +
        `<td class="mono">${(m.noise || []).slice(0, 3).map(fmt).join(' ')}</td></tr>`).join('');
    drawShield(view.frames);
  }

  let lastIter = -2;
  function poll() {
    const api = window.dpsim;
    if (api && api.eavesdropView && $('eav-box').open) {
      const s = window.dpsimState;
      const it = s ? s.iter : -1;
      if (it !== lastIter || state.agent < 0) {
        lastIter = it;
        const out = api.eavesdropView();
        if (out instanceof Error) {
          state.error = out.message;
          $('eav-msg').textContent = out.message;
        } else {
          render(out ? JSON.parse(out) : null);
        }
      }
    }
    setTimeout(poll, 200);
  }

  function tap(agent) {
    const api = window.dpsim;
    if (!api || !api.eavesdrop) return;
    const out = api.eavesdrop(agent);
    const msg = out instanceof Error ? out.message : (out && out.error) || '';
    state.error = msg;
    $('eav-msg').textContent = msg || (agent >= 0 ? `tapping agent ${agent}; the run restarted at iteration 0` : 'tap removed');
    lastIter = -2;
  }

  $('eav-tap').addEventListener('click', () => {
    const v = Number($('eav-agent').value);
    if (!Number.isInteger(v) || v < 0) {
      $('eav-msg').textContent = 'the agent must be a whole number from 0';
      return;
    }
    tap(v);
  });
  $('eav-off').addEventListener('click', () => tap(-1));
  // Opening the panel on a DPP² run taps agent 0 if nothing is tapped.
  $('eav-box').addEventListener('toggle', () => {
    const s = window.dpsimState;
    if ($('eav-box').open && state.agent < 0 && s && String(s.algorithm).startsWith('DPP²')) tap(Number($('eav-agent').value) || 0);
  });
  section.hidden = false;
  poll();
})();
