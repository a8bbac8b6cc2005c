// datafetch.js — fetching the committed dataset files a scenario or an
// experiment trains on (public/data/<name>-<split>.gz), shared by the main
// page (page.js) and the Experiments panel (experiments.js): the same
// streaming with progress and the same one-line errors. Which files, and
// the checks on their content, are Go's (ui/datafiles, core/data):
// dataNeeds and provideData on either side; the size and sha256 are
// checked here too, as the bytes arrive (verify).
(() => {
  'use strict';

  const DATA_DIR = 'data/';
  const mb = (n) => (n / 1048576).toFixed(2);

  // fetchFile streams one file, calling onBytes(n) as bytes arrive;
  // it throws an Error whose message is one line for the user.
  async function fetchFile(f, onBytes) {
    const url = DATA_DIR + f.file;
    let res;
    try {
      res = await fetch(url, { cache: 'no-store' });
    } catch (e) {
      throw new Error(`Cannot fetch the dataset ${f.dataset}/${f.split} (${url}): the network is unreachable (offline?).`);
    }
    if (!res.ok) {
      const why = res.status === 404 ? 'the file is not on the server (build the site with ./build.sh)' : `HTTP ${res.status} ${res.statusText}`.trim();
      throw new Error(`Cannot fetch the dataset ${f.dataset}/${f.split} (${url}): ${why}.`);
    }
    const enc = res.headers.get('Content-Encoding');
    if (enc && enc !== 'identity') {
      throw new Error(`The dataset ${url} was served with Content-Encoding: ${enc}, so the browser changed its bytes: serve it as is (go run ./serve).`);
    }
    const chunks = [];
    let got = 0;
    try {
      if (res.body && res.body.getReader) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          got += value.byteLength;
          onBytes(got);
        }
      } else {
        const b = new Uint8Array(await res.arrayBuffer());
        chunks.push(b);
        got = b.byteLength;
        onBytes(got);
      }
    } catch (e) {
      throw new Error(`The download of the dataset ${f.dataset}/${f.split} (${url}) broke off after ${mb(got)} MB: the network failed (offline?).`);
    }
    const out = new Uint8Array(got);
    let at = 0;
    for (const c of chunks) { out.set(c, at); at += c.byteLength; }
    await verify(f, out);
    return out;
  }

  // verify checks the bytes' size and sha256 against the manifest, with
  // core/data's messages, before anything decodes them: the hash in
  // WebCrypto, off the page's thread (the main page keeps the bytes
  // undecoded for the Worker of its heavy runs, ui/remote.go; the Worker,
  // and the Experiments panel's workers, check them again as they decode
  // them). Without WebCrypto (a page not served from a secure origin) the
  // size is checked here and the rest there.
  async function verify(f, b) {
    const what = `dataset ${f.dataset}/${f.split}`;
    if (f.bytes && b.byteLength !== f.bytes) {
      throw new Error(`${what}: file ${f.file} has ${b.byteLength} bytes: the manifest says ${f.bytes} (truncated or replaced)`);
    }
    const subtle = window.crypto && window.crypto.subtle;
    if (!subtle || !f.sha256) return;
    const sum = new Uint8Array(await subtle.digest('SHA-256', b));
    const hex = Array.from(sum, (x) => x.toString(16).padStart(2, '0')).join('');
    if (hex !== f.sha256) {
      throw new Error(`${what}: file ${f.file} has sha256 ${hex}: the manifest says ${f.sha256} (corrupted or replaced)`);
    }
  }

  window.dpsimData = { DIR: DATA_DIR, mb, fetchFile };
})();
