// Draws Lucie's icons into client/public/ (run by hand when the drawing changes; the files are
// committed): a white club on the header's green, as SVG (the favicon) and as the PNG sizes a
// web app manifest needs to be installable (192 and 512, plus a maskable 512 whose club stays
// inside the central circle that launchers keep, and Apple's 180 touch icon).
// `node scripts/draw-icons.mjs`. The PNGs are rasterised here, 4x4 samples a pixel, with no
// image library: the shapes are a rounded square, four circles and a triangle.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = fileURLToPath(new URL('../client/public', import.meta.url));
const GREEN = [0x12, 0x45, 0x2d];
const WHITE = [0xff, 0xff, 0xff];

/** The club in a 100×100 box: three leaves, a knot filling the gap between them, a flared stem. */
const LEAVES = [
  [50, 31, 16],
  [31, 56, 16],
  [69, 56, 16],
  [50, 50, 10],
];
const STEM = [
  [50, 48],
  [38, 84],
  [62, 84],
];
/** The rounded square's corner radius, in the same box. */
const CORNER = 18;

const inCircle = (x, y, [cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
function inTriangle(x, y, [a, b, c]) {
  const side = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}
function inRoundedSquare(x, y) {
  const cx = Math.min(Math.max(x, CORNER), 100 - CORNER);
  const cy = Math.min(Math.max(y, CORNER), 100 - CORNER);
  return x >= 0 && x <= 100 && y >= 0 && y <= 100 && (x - cx) ** 2 + (y - cy) ** 2 <= CORNER * CORNER;
}

/**
 * The colour at (x, y) of the 100×100 drawing, or null where it is transparent. `scale` shrinks
 * the club about the centre (maskable icons keep it inside the safe circle); `fullBleed` fills
 * the whole square with green instead of rounding its corners.
 */
function colourAt(x, y, { scale, fullBleed }) {
  const background = fullBleed ? x >= 0 && x <= 100 && y >= 0 && y <= 100 : inRoundedSquare(x, y);
  if (!background) return null;
  const u = 50 + (x - 50) / scale;
  const v = 50 + (y - 50) / scale;
  const club = LEAVES.some((leaf) => inCircle(u, v, leaf)) || inTriangle(u, v, STEM);
  return club ? WHITE : GREEN;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of the drawing at `size`×`size` pixels. */
function png(size, options) {
  const SAMPLES = 4;
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0: none
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt(((px + (sx + 0.5) / SAMPLES) * 100) / size, ((py + (sy + 0.5) / SAMPLES) * 100) / size, options);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const offset = 1 + px * 4;
      if (covered > 0) {
        row[offset] = Math.round(r / covered);
        row[offset + 1] = Math.round(g / covered);
        row[offset + 2] = Math.round(b / covered);
      }
      row[offset + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hex = ([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const svg = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
  `<rect width="100" height="100" rx="${CORNER}" fill="${hex(GREEN)}"/>`,
  `<g fill="${hex(WHITE)}">`,
  ...LEAVES.map(([cx, cy, r]) => `<circle cx="${cx}" cy="${cy}" r="${r}"/>`),
  `<path d="M${STEM.map(([x, y]) => `${x} ${y}`).join('L')}Z"/>`,
  '</g>',
  '</svg>',
  '',
].join('\n');

const plain = { scale: 1, fullBleed: false };
writeFileSync(join(OUT, 'icon.svg'), svg);
writeFileSync(join(OUT, 'icon-192.png'), png(192, plain));
writeFileSync(join(OUT, 'icon-512.png'), png(512, plain));
// The safe zone of a maskable icon is the central circle of 80 % of its width: the club, about 70
// units tall, is shrunk to fit well inside it.
writeFileSync(join(OUT, 'icon-maskable-512.png'), png(512, { scale: 0.72, fullBleed: true }));
writeFileSync(join(OUT, 'apple-touch-icon.png'), png(180, { scale: 0.85, fullBleed: true }));
console.log(`icons written to ${OUT}`);
