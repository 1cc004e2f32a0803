/**
 * Draws the app icons of the installable web app (web/public/icons/) from the logo's geometry
 * (the heartbeat line of web/app.tsx on a green square) and writes them as PNGs, so no image
 * editor or image library is needed:
 * - icon-192.png, icon-512.png: rounded square, transparent corners (`purpose: any`);
 * - maskable-512.png: full-bleed background, the line inside the central 80 % safe zone;
 * - apple-touch-icon.png (180 px): full square, no transparency (iOS rounds it itself).
 * Run after changing the logo: `npm run build && node dist/scripts/make-icons.js`; the PNGs are
 * committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { projectRoot } from '../src/home/project-root.js';

const ACCENT = [0x2f, 0x8f, 0x6f];
/** The logo's line in its 32-unit box (web/app.tsx). */
const LINE: [number, number][] = [
  [6, 17],
  [11, 17],
  [13.5, 11],
  [17.5, 22],
  [20.5, 14],
  [22, 17],
  [26, 17],
];
const STROKE = 2.4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA image as PNG bytes. */
function png(size: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function distToSegment(
  px: number,
  py: number,
  [ax, ay]: [number, number],
  [bx, by]: [number, number],
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function inRoundedSquare(x: number, y: number, r: number): boolean {
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

/**
 * Draws one icon. `radius` of the square's corners in logo units (0: full square); `scale` of the
 * line about the centre (maskable icons keep it in the safe zone).
 */
function draw(size: number, radius: number, scale: number): Buffer {
  const out = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let bg = 0;
      let line = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const u = ((x + (sx + 0.5) / n) / size) * 32;
          const v = ((y + (sy + 0.5) / n) / size) * 32;
          if (radius === 0 || inRoundedSquare(u, v, radius)) bg++;
          const lu = 16 + (u - 16) / scale;
          const lv = 16 + (v - 16) / scale;
          let d = Number.POSITIVE_INFINITY;
          for (let i = 0; i + 1 < LINE.length; i++)
            d = Math.min(d, distToSegment(lu, lv, LINE[i], LINE[i + 1]));
          if (d <= STROKE / 2) line++;
        }
      }
      const a = bg / (n * n);
      const w = Math.min(line, bg) / (n * n);
      const i = (y * size + x) * 4;
      // white over the accent colour, both weighted by coverage
      const cover = a > 0 ? w / a : 0;
      out[i] = Math.round(ACCENT[0] + (255 - ACCENT[0]) * cover);
      out[i + 1] = Math.round(ACCENT[1] + (255 - ACCENT[1]) * cover);
      out[i + 2] = Math.round(ACCENT[2] + (255 - ACCENT[2]) * cover);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return png(size, out);
}

const dir = path.join(projectRoot(), 'web', 'public', 'icons');
fs.mkdirSync(dir, { recursive: true });
const icons: [string, Buffer][] = [
  ['icon-192.png', draw(192, 9, 1)],
  ['icon-512.png', draw(512, 9, 1)],
  ['maskable-512.png', draw(512, 0, 0.8)],
  ['apple-touch-icon.png', draw(180, 0, 0.9)],
];
for (const [name, bytes] of icons) {
  fs.writeFileSync(path.join(dir, name), bytes);
  process.stdout.write(`${name}: ${bytes.length} bytes\n`);
}
