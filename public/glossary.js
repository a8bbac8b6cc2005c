// glossary.js — what every symbol and word the page prints means, in
// plain words: each element with data-term="key" shows its entry by
// keyboard, touch and mouse (a popover; a description for screen
// readers), and the "Symbols?" panel lists them all. Defines
// window.dpsimGlossary = {terms, attach, open, add, show, hide, refresh}.
(() => {
  'use strict';

  // key: [the symbol or word as printed, what it means]
  const TERMS = {
    'iteration': ['iteration k', 'One round of the algorithm: every active agent computes, then sends its messages to its neighbours. "k / K" is the iteration done out of the K planned.'],
    'optimality': ['optimality (1/n)·Σ_i ‖x_i − x*‖²', 'How far the agents\' estimates x_i are from the true optimum x* of the sum of all objectives, averaged over the n agents. Smaller is better; it is 0 when every agent has found x*.'],
    'stationarity': ['stationarity ‖(1/n)·Σ_i ∇f_i(x_i)‖²', 'For a problem without a known optimum (a nonconvex loss): how far the average gradient is from zero. Smaller is better.'],
    'consensus': ['consensus (1/n)·Σ_i ‖x_i − x̄‖²', 'How much the agents disagree: the spread of their estimates x_i around their average x̄. It shrinks as they agree.'],
    'epsilon': ['ε (epsilon), ε spent', 'The privacy budget spent so far by the most exposed agent, as the algorithm\'s own accountant computes it. If one agent\'s private data changed, any output of the run could become at most e^ε times more (or less) likely. Small ε (≤ 1) is strong privacy; ε of 10 allows a factor of 22,000; ε in the thousands or millions promises nothing useful.'],
    'e-epsilon': ['e^ε', 'The factor by which one agent\'s data can change the probability of any output: e^1 ≈ 2.7, e^5 ≈ 150, e^10 ≈ 22,000.'],
    'epsilon-paper': ['paper\'s bound', 'The ε the algorithm\'s own paper proves for this run, as its accountant computes it: usually the sum of every message\'s share (basic composition). It is an upper bound on what an eavesdropper can learn, if the paper\'s analysis is right.'],
    'epsilon-tight': ['tight bound', 'The same messages the paper\'s bound charges, with the same noise and sensitivities, composed exactly (privacy loss distributions, at the δ shown): the smallest ε those releases allow, from above, within the error shown. Far below the paper\'s bound means the paper\'s sum was loose, not that the algorithm leaks less than its analysis assumes; it inherits the analysis\'s sensitivities.'],
    'epsilon-inf': ['ε∞, ε for K → ∞', 'The budget the algorithm\'s paper proves for a run that never stops, when it gives one: the noise then grows (or the steps shrink) fast enough for the sum to converge.'],
    'target-epsilon': ['Target ε', 'Equal-privacy calibration: every noise scale is multiplied by one factor so that the accountant reports this ε at the end of the run. A small ε needs much more noise, and the error grows with it.'],
    'calibration': ['calibration', 'The factor the noise scales were multiplied by to reach the target ε, and how it was found (closed form or bisection).'],
    'noise-ratio': ['noise ÷ signal', 'For each message, how much of it is privacy noise. Where the page runs the same scenario without noise beside it (the legend says so), ‖message − noise-free message‖ / ‖noise-free message‖: all the noise the message carries, including what earlier noise left in the sender\'s state. Otherwise (fast-forward, large or heavy problems) ‖noise‖ / ‖message − noise‖, the noise added now against the rest. Teal: the signal dominates; amber: equal; red: the noise dominates.'],
    'rho-wo': ['ρ(W_o)', 'The spectral radius of the off-diagonal part W_o of the weight matrix W: how strongly agents listen to their neighbours (n/a for matrices without one).'],
    'rho-w': ['ρ_w', 'ρ_w = ‖W − (1/n)·11ᵀ‖: how slowly averaging over the network mixes the agents\' values (0: one round of mixing agrees; close to 1: a slow, poorly connected network).'],
    'measured-error': ['measured error', 'The mean of the optimality error over the last part of the run (its steady state), to compare with the predicted one.'],
    'predicted-error': ['predicted error', 'The steady-state error a theorem of the algorithm\'s paper predicts for these parameters, or why it does not apply (the algorithm\'s own glossary names the theorem).'],
    'convergence': ['convergence', 'Which of the paper\'s convergence results applies to these step sizes and noise decays. It is a claim under assumptions: the card lists them with whether each holds for this run, and says so when the run contradicts the claim.'],
    'assumptions': ['assumptions', 'What the paper\'s convergence result assumes (step sizes, noise that shrinks, bounded gradients…), each checked against this run: ✓ holds, ✗ fails, ? the run does not say (a constant the problem does not state).'],
    'source': ['source', 'The paper (and theorem) the algorithm and its privacy account come from; for baselines rebuilt from a short description, how confident the reconstruction is.'],
    'messages': ['messages / activations', 'Per-link messages sent so far, and how many times the most active agent computed (relay algorithms wake one agent per iteration).'],
    'rate': ['measured speed', 'Iterations per second over about the last second.'],
    'status': ['status', 'ready (iteration 0), running, paused, done (every planned iteration ran and the error ended below its start), worse than its start (the run ended with a larger error than it started with), stopped (a stop rule ended it early) or diverged (the estimates stopped being finite, or the error grew more than a million-fold).'],
    'ghost': ['noise-free (faint curve)', 'The same scenario, same seed, with every noise scale set to zero: the gap between it and the noisy curve is what privacy costs. Once it reaches floating-point rounding (about 10⁻²³ of its start) it is compared with nothing.'],
    'x-star': ['x*', 'The optimum: the minimiser of the sum of every agent\'s objective, computed centrally where the problem knows it (the problem\'s glossary says how).'],
    'x-bar': ['x̄', 'The average of the agents\' estimates.'],
    'signal': ['signal, noise', 'In the inspector: a message is signal + noise; the signal is what the agent computed, the noise what it added for privacy.'],
  };

  // ------------------------------------------------------- the mechanism
  //
  // Every element marked data-term="key" whose key has an entry is a
  // term: dotted, in the tab order, described by its entry (a hidden
  // element each, for screen readers: aria-describedby), and its entry
  // shows in a small popover when the term is focused (keyboard), tapped
  // (touch) or clicked, or after a short hover (mouse) — never in a title
  // tooltip, which neither touch nor keyboard can open. The popover's
  // "all symbols" opens the panel at the entry; Escape closes it
  // (keys.js). A label names its control: its entry describes the control.
  // Entries can come from anywhere (add: the plug-ins' descriptions).

  const $ = (id) => document.getElementById(id);
  let pop = null;
  let popFor = null;   // the term the popover shows
  let hoverTimer = 0;

  function descId(key) { return 'gloss-' + key.replace(/[^A-Za-z0-9_-]/g, '_'); }
  // descriptions keeps one hidden element per entry for aria-describedby.
  function description(key) {
    let box = $('gloss-descs');
    if (!box) {
      box = document.createElement('div');
      box.id = 'gloss-descs';
      box.hidden = true;
      document.body.append(box);
    }
    const id = descId(key);
    let d = $(id);
    if (!d) { d = document.createElement('span'); d.id = id; box.append(d); }
    const [sym, text] = TERMS[key];
    d.textContent = `${sym}: ${text}`;
    return id;
  }
  function describe(el, id) {
    const ids = new Set((el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean));
    ids.add(id);
    el.setAttribute('aria-describedby', [...ids].join(' '));
  }

  function attach(root) {
    for (const el of (root || document).querySelectorAll('[data-term]')) {
      const key = el.dataset.term;
      if (!Object.hasOwn(TERMS, key)) continue;
      el.classList.add('has-term');
      el.removeAttribute('title');
      const id = description(key);
      if (el.tagName === 'LABEL') {
        const c = el.control;
        if (c) describe(c, id);
        continue;
      }
      describe(el, id);
      if (!el.matches('a[href], button, input, select, textarea, [tabindex]')) el.tabIndex = 0;
    }
  }

  function popover() {
    if (pop) return pop;
    pop = document.createElement('div');
    pop.id = 'term-pop';
    pop.className = 'term-pop';
    // What it says reaches screen readers as each term's description.
    pop.setAttribute('aria-hidden', 'true');
    pop.hidden = true;
    pop.innerHTML = '<button type="button" class="link term-pop-close" aria-label="Close this entry" tabindex="-1">×</button>' +
      '<h3 id="term-pop-title"></h3><p id="term-pop-text"></p>' +
      '<button type="button" class="link" id="term-pop-all" tabindex="-1">all symbols and words</button>';
    document.body.append(pop);
    pop.querySelector('.term-pop-close').addEventListener('click', () => hide());
    $('term-pop-all').addEventListener('click', () => {
      const key = pop.dataset.term;
      hide();
      open(true);
      const d = $('term-' + key);
      if (d) d.scrollIntoView({ block: 'nearest' });
    });
    pop.addEventListener('mouseenter', () => clearTimeout(hoverTimer));
    pop.addEventListener('mouseleave', () => { if (popFor && popFor !== document.activeElement) hide(); });
    return pop;
  }

  // show puts term el's entry in the popover, under the term (above it
  // when there is no room below), inside the window.
  function show(el) {
    const key = el.dataset.term;
    if (!Object.hasOwn(TERMS, key)) return;
    const p = popover();
    const [sym, text] = TERMS[key];
    $('term-pop-title').textContent = sym;
    $('term-pop-text').textContent = text;
    p.dataset.term = key;
    p.hidden = false;
    popFor = el;
    el.setAttribute('aria-expanded', 'true');
    const r = el.getBoundingClientRect();
    const w = p.offsetWidth, h = p.offsetHeight;
    const x = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - w - 8));
    const below = r.bottom + 6 + h <= window.innerHeight || r.top - 6 - h < 0;
    p.style.left = (x + window.scrollX) + 'px';
    p.style.top = ((below ? r.bottom + 6 : r.top - 6 - h) + window.scrollY) + 'px';
  }
  function hide() {
    clearTimeout(hoverTimer);
    if (!pop || pop.hidden) return false;
    pop.hidden = true;
    if (popFor) popFor.removeAttribute('aria-expanded');
    popFor = null;
    return true;
  }
  const termOf = (e) => (e.target && e.target.closest ? e.target.closest('.has-term') : null);

  // The page's own words above; every symbol of an algorithm or a problem
  // comes from its plug-in (window.dpsim.glossary(): method.Words and
  // objective.Words), the run's own first, so that a new plug-in brings
  // its glossary and inherits none.
  let filledFor = null;
  function fill() {
    const list = document.getElementById('glossary-list');
    if (!list) return;
    let groups = [];
    try { groups = window.dpsim && window.dpsim.glossary ? JSON.parse(window.dpsim.glossary() || '[]') : []; } catch (e) { groups = []; }
    const sig = Object.keys(TERMS).length + '|' + groups.map((g) => g.title + (g.current ? '*' : '')).join('|');
    if (list.children.length && sig === filledFor) return;
    filledFor = sig;
    list.replaceChildren();
    const entry = (sym, text, id) => {
      const dt = document.createElement('dt');
      dt.textContent = sym;
      if (id) dt.id = id;
      const dd = document.createElement('dd');
      dd.textContent = text;
      list.append(dt, dd);
    };
    for (const [key, [sym, text]] of Object.entries(TERMS)) entry(sym, text, 'term-' + key);
    for (const g of groups) {
      const h = document.createElement('dt');
      h.className = 'glossary-group';
      h.dataset.role = g.role;
      h.textContent = g.title;
      const hd = document.createElement('dd');
      hd.className = 'glossary-group';
      hd.textContent = g.current ? `This run's ${g.role}: the symbols it prints.` : `The symbols this ${g.role} prints.`;
      list.append(h, hd);
      for (const t of g.terms) entry(t.symbol, t.meaning);
    }
  }

  // add takes more entries ({key: [symbol, meaning]}, e.g. from the
  // plug-ins' descriptions): the page's terms and the panel follow.
  function add(entries) {
    for (const [key, v] of Object.entries(entries || {})) {
      if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') TERMS[key] = v;
    }
    attach(document);
    if (!document.getElementById('glossary').hidden) fill();
  }

  // open shows or hides the panel; fixed at the side of the window (a
  // sheet on a phone), it never scrolls the page.
  function open(show = true) {
    const g = document.getElementById('glossary');
    if (!g) return;
    fill();
    g.hidden = !show;
    if (show) hide();
  }

  function init() {
    attach(document);
    const o = document.getElementById('glossary-open');
    if (o) o.addEventListener('click', () => open(document.getElementById('glossary').hidden));
    const c = document.getElementById('glossary-close');
    if (c) c.addEventListener('click', () => open(false));
    // Focus (keyboard), a tap or a click shows a term's entry; a hover
    // too, after a moment.
    document.addEventListener('focusin', (e) => { const t = termOf(e); if (t && t.tagName !== 'LABEL') show(t); else if (pop && !pop.contains(e.target)) hide(); });
    document.addEventListener('focusout', (e) => { if (termOf(e) === popFor) setTimeout(() => { if (popFor && document.activeElement !== popFor && !(pop && pop.matches(':hover'))) hide(); }, 0); });
    document.addEventListener('click', (e) => {
      const t = termOf(e);
      if (t) { if (t.tagName !== 'LABEL' || !t.control) show(t); return; }
      if (pop && !pop.hidden && !pop.contains(e.target)) hide();
    });
    document.addEventListener('mouseover', (e) => {
      const t = termOf(e);
      if (!t || t === popFor) return;
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(() => show(t), 350);
    });
    document.addEventListener('mouseout', (e) => {
      const t = termOf(e);
      if (!t) return;
      clearTimeout(hoverTimer);
      if (t === popFor && document.activeElement !== t) hoverTimer = setTimeout(() => { if (!(pop && pop.matches(':hover'))) hide(); }, 250);
    });
    window.addEventListener('scroll', () => { if (popFor && document.activeElement !== popFor) hide(); }, { passive: true });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();

  window.dpsimGlossary = { terms: TERMS, attach, open, add, show, hide, refresh: () => { const g = document.getElementById('glossary'); if (g && !g.hidden) fill(); } };
})();
