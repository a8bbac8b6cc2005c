'use strict';
// A tiny PNG decoder for the screenshots the e2e test takes: 8-bit
// greyscale, grey+alpha, RGB or RGBA, non-interlaced. Uses only node:zlib.
const zlib = require('node:zlib');

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 };

// decodePNG returns { width, height, data } with data as RGBA bytes.
function decodePNG(buf) {
  if (!Buffer.isBuffer(buf) || buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) {
    throw new Error('not a PNG');
  }
  let pos = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0;
  const idat = [];
  while (pos + 8 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    pos += 12 + len;
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8];
      ctype = body[9];
      interlace = body[12];
    } else if (type === 'IDAT') {
      idat.push(body);
    } else if (type === 'IEND') {
      break;
    }
  }
  const ch = CHANNELS[ctype];
  if (depth !== 8 || !ch || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${depth}, colour type ${ctype}, interlace ${interlace}`);
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * ch;
  if (raw.length < height * (stride + 1)) throw new Error('PNG data too short');
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = px.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? px.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= ch ? out[i - ch] : 0;
      const b = prev ? prev[i] : 0;
      const c = prev && i >= ch ? prev[i - ch] : 0;
      let v = src[i];
      switch (f) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad PNG filter ${f} on row ${y}`);
      }
      out[i] = v & 0xff;
    }
  }
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += ch) {
    const o = i * 4;
    if (ch === 1 || ch === 2) {
      data[o] = data[o + 1] = data[o + 2] = px[j];
      data[o + 3] = ch === 2 ? px[j + 1] : 255;
    } else {
      data[o] = px[j]; data[o + 1] = px[j + 1]; data[o + 2] = px[j + 2];
      data[o + 3] = ch === 4 ? px[j + 3] : 255;
    }
  }
  return { width, height, data };
}

// pixelStats counts distinct colours and the pixels that differ from the
// most common colour (the background) by more than tol (sum of |dR|+|dG|+|dB|).
function pixelStats(img, tol = 30) {
  const { data } = img;
  const n = data.length / 4;
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const k = (data[4 * i] << 16) | (data[4 * i + 1] << 8) | data[4 * i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  let bg = 0, best = -1;
  for (const [k, c] of counts) if (c > best) { best = c; bg = k; }
  const br = bg >> 16, bgG = (bg >> 8) & 255, bb = bg & 255;
  let fg = 0, dark = 0;
  for (let i = 0; i < n; i++) {
    const r = data[4 * i], g = data[4 * i + 1], b = data[4 * i + 2];
    if (Math.abs(r - br) + Math.abs(g - bgG) + Math.abs(b - bb) > tol) fg++;
    if (r + g + b < 60) dark++;
  }
  return {
    pixels: n,
    colours: counts.size,
    background: [br, bgG, bb],
    foreground: fg,
    foregroundFraction: n ? fg / n : 0,
    darkFraction: n ? dark / n : 0,
  };
}

module.exports = { decodePNG, pixelStats };
