// docview.js: the docs served with the page (public/docs/, copied by
// build.sh), rendered as HTML, and the place that explains an experiment's
// claim found and highlighted. A verdict's "why?" link opens
//
//   doc.html?experiment=NAME[&fig=Fig. N][&f=FILE.md]
//
// FILE defaults to the paper's doc (docs/<prefix>-paper.md, the prefix
// being the experiment name's first word), then docs/<prefix>.md (the
// tour's frontiers: tour.md), then docs/experiments.md. The
// explanation is the first block that names the experiment, else the
// first that opens with the figure ("Fig. 3" as a table row or a bold
// lead), else the first that names the experiment's family (recal-fig3
// for recal-fig3-mnist). ?f=FILE.md alone shows a whole doc.
//
// The markdown is the subset docs/ uses: headings, paragraphs, lists,
// pipe tables, fenced code, inline code, bold, italics and links. Every
// text is escaped before markup is added.
(() => {
  'use strict';

  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

  // inline renders code spans, links, bold and italics of one line. Code
  // spans are set aside first (bold may wrap them: **`n`**) and put back
  // escaped at the end.
  function inline(text) {
    const codes = [];
    let h = esc(String(text).replace(/`([^`]*)`/g, (m, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; }));
    h = h.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, label, href) => {
      // Only relative links and http(s): no javascript: URLs from a doc.
      const ok = /^(https?:\/\/|[A-Za-z0-9_.\-/#]+$)/.test(href) && !/^javascript:/i.test(href);
      const to = /^[A-Za-z0-9_.\-]+\.md(#.*)?$/.test(href) ? `doc.html?f=${href.replace('#', '&h=')}` : href;
      return ok ? `<a href="${to}">${label}</a>` : label;
    });
    h = h.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
    h = h.replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:]|$)/g, '$1<em>$2</em>');
    h = h.replace(/(^|[\s(])_([^_\s][^_]*)_(?=[\s).,;:]|$)/g, '$1<em>$2</em>');
    return h.replace(/\u0000(\d+)\u0000/g, (m, k) => `<code>${esc(codes[Number(k)])}</code>`);
  }

  const slug = (t) => t.toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');

  // render turns markdown into a list of block elements, each with its
  // source text (for the search).
  function render(md) {
    const lines = md.replace(/\r\n?/g, '\n').split('\n');
    const blocks = [];
    const add = (tag, html, src, extra = {}) => {
      const el = document.createElement(tag);
      el.innerHTML = html;
      Object.assign(el, extra);
      el.dataset.src = src;
      blocks.push(el);
      return el;
    };
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (/^\s*$/.test(line)) { i++; continue; }
      let m;
      if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
        const el = add('h' + m[1].length, inline(m[2]), m[2]);
        el.id = slug(m[2]);
        i++;
        continue;
      }
      if (/^```/.test(line)) {
        const body = [];
        i++;
        while (i < lines.length && !/^```/.test(lines[i])) body.push(lines[i++]);
        i++;
        add('pre', `<code>${esc(body.join('\n'))}</code>`, body.join('\n'));
        continue;
      }
      if (/^\s*\|/.test(line)) {
        const rows = [];
        while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
        const cells = (r) => r.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
        const sep = rows.length > 1 && /^[\s|:-]+$/.test(rows[1]);
        const head = sep ? cells(rows[0]) : null;
        const body = rows.slice(sep ? 2 : 0);
        const table = document.createElement('table');
        if (head) table.innerHTML = `<thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead>`;
        const tb = document.createElement('tbody');
        for (const r of body) {
          const tr = document.createElement('tr');
          tr.innerHTML = cells(r).map((c) => `<td>${inline(c)}</td>`).join('');
          tr.dataset.src = r;
          tb.append(tr);
        }
        table.append(tb);
        table.dataset.src = rows.join('\n');
        blocks.push(table);
        continue;
      }
      if ((m = /^(\s*)([-*]|\d+\.)\s+/.exec(line))) {
        const ordered = /\d/.test(m[2]);
        const list = document.createElement(ordered ? 'ol' : 'ul');
        const src = [];
        let stack = [{ el: list, indent: m[1].length }];
        let li = null;
        while (i < lines.length) {
          const l = lines[i];
          const im = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(l);
          if (im) {
            const ind = im[1].length;
            while (stack.length > 1 && ind < stack[stack.length - 1].indent) stack.pop();
            if (ind > stack[stack.length - 1].indent && li) {
              const sub = document.createElement(/\d/.test(im[2]) ? 'ol' : 'ul');
              li.append(sub);
              stack.push({ el: sub, indent: ind });
            }
            li = document.createElement('li');
            li.dataset.src = im[3];
            // The item's text in its own span, rendered whole again when a
            // continuation line comes (bold may span lines); sublists
            // follow the span.
            li.append(document.createElement('span'));
            li.firstChild.innerHTML = inline(im[3]);
            stack[stack.length - 1].el.append(li);
          } else if (/^\s+\S/.test(l) && li) {
            li.dataset.src += ' ' + l.trim();
            li.firstChild.innerHTML = inline(li.dataset.src);
          } else break;
          src.push(l);
          i++;
        }
        list.dataset.src = src.join('\n');
        blocks.push(list);
        continue;
      }
      const para = [];
      while (i < lines.length && !/^\s*$/.test(lines[i]) && !/^(#{1,6}\s|```|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
      add('p', inline(para.join(' ')), para.join(' '));
    }
    return blocks;
  }

  // candidates lists the elements a search may land on, smallest first
  // within each block: list items and table rows before their list.
  function candidates(root) {
    return [...root.querySelectorAll('li, tr, p, h1, h2, h3, h4, h5, h6, pre')].filter((e) => e.dataset.src !== undefined);
  }

  // find returns the element that explains the experiment, or null.
  function find(root, name, fig) {
    const els = candidates(root);
    const has = (e, needle) => e.dataset.src.includes(needle);
    const named = els.filter((e) => has(e, name) && e.tagName !== 'H1');
    // A block that names the experiment and is not only a list of presets
    // (docs open with "the presets a, b, c").
    const own = named.find((e) => (e.dataset.src.match(/`[a-z0-9]+(-[a-z0-9{},]+)+`/g) || []).length <= 2);
    if (own) return own;
    if (fig) {
      const f = fig.replace(/\s*\(.*\)$/, '');
      const re = new RegExp('^\\s*(\\|\\s*)?(\\*\\*)?' + f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\b');
      const byFig = els.find((e) => re.test(e.dataset.src));
      if (byFig) return byFig;
    }
    if (named.length) return named[0];
    const fam = name.split('-').slice(0, 2).join('-');
    return els.find((e) => has(e, fam)) || null;
  }

  async function load(file) {
    if (!/^[A-Za-z0-9_.-]+\.md$/.test(file)) throw new Error(`doc: the file must be a docs/ markdown name like gtdp-paper.md (got ${JSON.stringify(file).slice(0, 80)})`);
    const r = await fetch('docs/' + file);
    if (!r.ok) return null;
    return r.text();
  }

  const main = document.getElementById('doc');
  const note = document.getElementById('doc-note');
  const state = { status: 'loading', file: '', found: '' };
  window.dpsimDocState = state;

  function show(md, file) {
    main.replaceChildren(...render(md));
    document.title = `${(main.querySelector('h1') || { textContent: file }).textContent} — dpsim docs`;
    state.file = file;
  }

  async function run() {
    const q = new URLSearchParams(location.search);
    const name = q.get('experiment') || '';
    const fig = q.get('fig') || '';
    let file = q.get('f') || '';
    if (name && !/^[a-z0-9][a-z0-9.-]{0,80}$/.test(name)) throw new Error(`doc: experiment must be an experiment name (got ${JSON.stringify(name).slice(0, 80)})`);
    const prefix = name.split('-')[0];
    const tries = file ? [file] : [prefix + '-paper.md', prefix + '.md', 'experiments.md'];
    let hit = null;
    for (const f of tries) {
      const md = await load(f);
      if (md === null) continue;
      show(md, f);
      if (!name) break;
      hit = find(main, name, fig);
      if (hit) break;
    }
    if (!state.file) throw new Error(`doc: no such doc (${tries.join(', ')})`);
    const h = q.get('h');
    if (!hit && h) hit = document.getElementById(h.replace(/^#/, ''));
    if (hit) {
      hit.classList.add('doc-hit');
      hit.setAttribute('tabindex', '-1');
      state.found = hit.dataset.src || hit.textContent;
      if (name) {
        note.innerHTML = `Why the verdict of <code>${esc(name)}</code>${fig ? ` (${esc(fig)})` : ''}: the highlighted passage of <a href="doc.html?f=${esc(state.file)}">${esc(state.file)}</a>.`;
        note.hidden = false;
      }
      hit.scrollIntoView({ block: 'center' });
      hit.focus({ preventScroll: true });
    } else if (name) {
      note.textContent = `${state.file} does not name ${name}: the whole doc is shown.`;
      note.hidden = false;
    }
    state.status = 'ready';
  }

  run().catch((e) => {
    state.status = 'error';
    state.error = String(e && e.message || e);
    note.textContent = state.error;
    note.classList.add('doc-error');
    note.hidden = false;
  });
})();
