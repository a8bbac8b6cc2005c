// glossary.js — what every symbol and word the page prints means, in
// plain words: each element with data-term="key" gets the entry as its
// hover text (and a dotted underline), and the "Symbols?" side panel
// lists them all. Defines window.dpsimGlossary = {terms, attach, open}.
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
    'epsilon-inf': ['ε∞, ε for K → ∞', 'The budget the paper proves for a run that never stops (Corollary 3 of GT-DP; (31)/(37) of DP-DGT), when the noise grows fast enough for the sum to converge.'],
    'target-epsilon': ['Target ε', 'Equal-privacy calibration: every noise scale is multiplied by one factor so that the accountant reports this ε at the end of the run. A small ε needs much more noise, and the error grows with it.'],
    'calibration': ['calibration', 'The factor the noise scales were multiplied by to reach the target ε, and how it was found (closed form or bisection).'],
    'noise-ratio': ['noise ÷ signal', 'For each message, ‖noise‖ / ‖message − noise‖: how large the privacy noise is next to the value the agent actually wanted to send. Teal: the signal dominates; amber: equal; red: the noise dominates.'],
    'rho-wo': ['ρ(W_o)', 'The spectral radius of the off-diagonal part W_o of the weight matrix W (how strongly agents listen to their neighbours). The GT-DP paper\'s Figs. 3–4 and Theorem 3 use it.'],
    'rho-w': ['ρ_w', 'ρ_w = ‖W − (1/n)·11ᵀ‖: how slowly averaging over the network mixes the agents\' values (0: one round of mixing agrees; close to 1: a slow, poorly connected network).'],
    'rho-a': ['ρ(A)', 'The linear rate Theorem 3 of GT-DP proves: the error shrinks like ρ(A)^k until it reaches the noise floor.'],
    'measured-error': ['measured error', 'The mean of the optimality error over the last part of the run (its steady state), to compare with the predicted one.'],
    'predicted-error': ['predicted error', 'The steady-state error a theorem of the source paper predicts for these parameters (GT-DP Theorem 3, eq. (30)), or why it does not apply.'],
    'convergence': ['convergence', 'Which of the paper\'s convergence results applies to these step sizes and noise decays.'],
    'source': ['source', 'The paper (and theorem) the algorithm and its privacy account come from; for baselines rebuilt from a short description, how confident the reconstruction is.'],
    'messages': ['messages / activations', 'Per-link messages sent so far, and how many times the most active agent computed (relay algorithms wake one agent per iteration).'],
    'rate': ['measured speed', 'Iterations per second over about the last second.'],
    'status': ['status', 'ready (iteration 0), running, paused, done (every planned iteration ran), stopped (a stop rule ended it early) or diverged (the estimates stopped being finite).'],
    'ghost': ['noise-free (faint curve)', 'The same scenario, same seed, with every noise scale set to zero: the gap between it and the noisy curve is what privacy costs.'],
    'x-star': ['x*', 'The optimum: the minimiser of the sum of every agent\'s objective, known in closed form for rendezvous and ridge regression.'],
    'x-bar': ['x̄', 'The average of the agents\' estimates.'],
    'alpha': ['α, γ_k', 'Step sizes: how far each agent moves along its gradient per iteration (γ_k, when it decays with k).'],
    'beta': ['β_k, b_η, b_ξ', 'GT-DP\'s noise: Laplace noise of scale b·β_k on the two messages s (η) and x (ξ); β_k decays or grows with k.'],
    'theta': ['θ_k, λ*', 'DP-DGT (resource allocation): θ_k is the noise scale, λ* the optimal price every bus converges to.'],
    'signal': ['signal, noise', 'In the inspector: a message is signal + noise; the signal is what the agent computed, the noise what it added for privacy.'],
  };

  function attach(root) {
    for (const el of (root || document).querySelectorAll('[data-term]')) {
      const t = TERMS[el.dataset.term];
      if (!t) continue;
      el.title = `${t[0]}: ${t[1]}`;
      el.classList.add('has-term');
    }
  }

  function fill() {
    const list = document.getElementById('glossary-list');
    if (!list || list.children.length) return;
    for (const [key, [sym, text]] of Object.entries(TERMS)) {
      const dt = document.createElement('dt');
      dt.textContent = sym;
      dt.id = 'term-' + key;
      const dd = document.createElement('dd');
      dd.textContent = text;
      list.append(dt, dd);
    }
  }

  function open(show = true) {
    const g = document.getElementById('glossary');
    if (!g) return;
    fill();
    g.hidden = !show;
    if (show) g.scrollIntoView({ block: 'nearest' });
  }

  function init() {
    attach(document);
    const o = document.getElementById('glossary-open');
    if (o) o.addEventListener('click', () => open(document.getElementById('glossary').hidden));
    const c = document.getElementById('glossary-close');
    if (c) c.addEventListener('click', () => open(false));
    // A click on a term opens the panel at it.
    document.addEventListener('click', (e) => {
      const el = e.target.closest && e.target.closest('.has-term');
      if (!el || el.tagName === 'LABEL') return;
      open(true);
      const d = document.getElementById('term-' + el.dataset.term);
      if (d) d.scrollIntoView({ block: 'nearest' });
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();

  window.dpsimGlossary = { terms: TERMS, attach, open };
})();
