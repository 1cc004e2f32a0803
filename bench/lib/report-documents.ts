/**
 * Realistic documents for the report tests and the benchmark, generated on the spot (nothing
 * read from outside the repository): a two-page lab panel PDF with a table of values, units and
 * ranges; the same panel as a "phone photo" (rendered with pdftoppm, rotated a few degrees and
 * noised here, written as a PNG); a German letter from a doctor; a DOCX lab letter; and the
 * hostile files (a PDF of 10 000 pages, a 20 000 × 20 000 pixel PNG, a zip renamed .docx).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import yazl from 'yazl';

/** The person the documents belong to (their identifiers must not reach a stored summary). */
export const PATIENT = { name: 'Jane Example', dob: '14.05.1971', insurance: 'AB123456789' };

/** The lab values of the panel: test, result, unit, reference range. */
export const LAB_ROWS: [string, string, string, string][] = [
  ['Haemoglobin', '13.2', 'g/dL', '12.0 - 16.0'],
  ['Leukocytes', '6.8', '10^9/L', '4.0 - 10.0'],
  ['Platelets', '245', '10^9/L', '150 - 400'],
  ['LDL cholesterol', '3.4', 'mmol/L', '< 3.0'],
  ['HDL cholesterol', '1.6', 'mmol/L', '> 1.2'],
  ['Triglycerides', '1.1', 'mmol/L', '< 1.7'],
  ['HbA1c', '5.9', '%', '4.0 - 5.6'],
  ['TSH', '2.1', 'mIU/L', '0.4 - 4.0'],
];

/** Second-page values (kidney panel). */
export const LAB_ROWS_PAGE2: [string, string, string, string][] = [
  ['Creatinine', '78', 'umol/L', '45 - 90'],
  ['eGFR', '84', 'mL/min', '> 60'],
  ['Potassium', '4.3', 'mmol/L', '3.5 - 5.1'],
];

function pdfBuffer(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: 'Report', CreationDate: new Date('2026-03-05T10:00:00Z') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return done;
}

function table(doc: PDFKit.PDFDocument, rows: string[][]) {
  let y = doc.y + 6;
  for (const [i, r] of rows.entries()) {
    doc.font(i === 0 ? 'Helvetica-Bold' : 'Helvetica');
    for (const [c, x] of [60, 230, 310, 400].entries()) doc.text(r[c], x, y, { lineBreak: false });
    y += 20;
  }
  doc.font('Helvetica').text('', 50, y + 10);
}

/** A two-page lab panel: header with the patient's identifiers, a table per page. */
export function labPanelPdf(): Promise<Buffer> {
  return pdfBuffer((doc) => {
    doc.fontSize(18).text('Riverside Medical Laboratory');
    doc.fontSize(11).text(`Patient: ${PATIENT.name}    Date of birth: ${PATIENT.dob}`);
    doc.text(`Insurance number: ${PATIENT.insurance}`);
    doc.text('Sample collected: 2026-03-02');
    doc.moveDown();
    table(doc, [['Test', 'Result', 'Unit', 'Reference range'], ...LAB_ROWS]);
    doc.text('Values outside the reference range: LDL cholesterol, HbA1c.');
    doc.addPage();
    doc.fontSize(14).text('Kidney function and electrolytes');
    doc.fontSize(11);
    table(doc, [['Test', 'Result', 'Unit', 'Reference range'], ...LAB_ROWS_PAGE2]);
    doc.text('Validated by Dr. A. Smith, clinical chemist.');
  });
}

/** A digital PDF of `pages` pages of lab tables (the benchmark's 10-page report). */
export function longLabPdf(pages: number): Promise<Buffer> {
  return pdfBuffer((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.fontSize(14).text(`Laboratory report, page ${p} of ${pages}`);
      doc.fontSize(11);
      table(doc, [['Test', 'Result', 'Unit', 'Reference range'], ...LAB_ROWS, ...LAB_ROWS_PAGE2]);
    }
  });
}

/** Text of the German letter (for assertions). */
export const GERMAN_LETTER = {
  title: 'Arztbrief',
  lines: [
    'Praxis Dr. med. Müller, Innere Medizin, Hauptstraße 5, 10115 Berlin',
    `Patientin: ${PATIENT.name}, geb. ${PATIENT.dob}`,
    'Berlin, den 12. März 2026',
    'Sehr geehrte Kollegin, sehr geehrter Kollege,',
    'wir berichten über Ihre Patientin, die sich am 10.03.2026 in unserer Praxis vorstellte.',
    'Diagnose: Hypercholesterinämie. Der LDL-Wert lag bei 3,4 mmol/l, der Blutdruck bei 142/88 mmHg.',
    'Wir empfehlen eine Kontrolle in 3 Monaten und Atorvastatin 20 mg einmal täglich.',
    'Mit freundlichen Grüßen, Dr. med. K. Müller',
  ],
};

/** A one-page letter in German, with umlauts and German number formats. */
export function germanLetterPdf(): Promise<Buffer> {
  return pdfBuffer((doc) => {
    doc.fontSize(16).text(GERMAN_LETTER.title);
    doc.fontSize(11);
    for (const line of GERMAN_LETTER.lines) doc.moveDown(0.5).text(line);
  });
}

/** A lab letter as a Word document: a paragraph and a table. */
export async function labDocx(): Promise<Buffer> {
  const cell = (t: string) => new TableCell({ children: [new Paragraph(t)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun({ text: 'Thyroid follow-up', bold: true })] }),
          new Paragraph(`Patient: ${PATIENT.name}, born ${PATIENT.dob}. Sample taken 2026-02-20.`),
          new Table({
            rows: [
              new TableRow({ children: ['Test', 'Result', 'Unit', 'Range'].map(cell) }),
              new TableRow({ children: ['TSH', '2.1', 'mIU/L', '0.4 - 4.0'].map(cell) }),
              new TableRow({ children: ['Free T4', '15.3', 'pmol/L', '12 - 22'].map(cell) }),
            ],
          }),
          new Paragraph('Thyroid function is within the normal range.'),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

/** A PNG (8-bit greyscale) from raw pixels. */
export function encodePng(width: number, height: number, pixels: Uint8Array, bitDepth: 1 | 8 = 8): Buffer {
  const rowBytes = bitDepth === 8 ? width : Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (rowBytes + 1)] = 0;
    if (pixels.length) raw.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Reads a binary PGM (P5, 8-bit) as pdftoppm -gray writes it. */
function readPgm(buf: Buffer): { width: number; height: number; pixels: Uint8Array } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.toString('latin1', 0, 64));
  if (!header) throw new Error('not a PGM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return {
    width,
    height,
    pixels: new Uint8Array(buf.subarray(header[0].length, header[0].length + width * height)),
  };
}

/**
 * The first page of `pdf` as a phone photo: rendered at `dpi` (pdftoppm), rotated by `degrees`
 * (bilinear), on a slightly grey background with grain of `noise` grey levels and dark speckles
 * on a `speckles` share of the pixels (a fixed seed, so runs agree). A flatbed scan: less of both.
 */
export function phonePhotoPng(
  pdf: Buffer,
  opts: { dpi?: number; degrees?: number; noise?: number; speckles?: number } = {},
): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-photo-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      String(opts.dpi ?? 250),
      '-gray',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'in.pdf'),
      path.join(dir, 'page'),
    ]);
    const src = readPgm(fs.readFileSync(path.join(dir, 'page.pgm')));
    const a = ((opts.degrees ?? 3) * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    const { width: w, height: h } = src;
    const out = new Uint8Array(w * h);
    // mulberry32: a small generator without the stripes a plain LCG draws in an image
    let seed = 12345;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const cx = w / 2;
    const cy = h / 2;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const sx = cos * (x - cx) + sin * (y - cy) + cx;
        const sy = -sin * (x - cx) + cos * (y - cy) + cy;
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        let v = 235;
        if (x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h) {
          const fx = sx - x0;
          const fy = sy - y0;
          const p = (xx: number, yy: number) => src.pixels[yy * w + xx];
          v =
            p(x0, y0) * (1 - fx) * (1 - fy) +
            p(x0 + 1, y0) * fx * (1 - fy) +
            p(x0, y0 + 1) * (1 - fx) * fy +
            p(x0 + 1, y0 + 1) * fx * fy;
          v = v * 0.92 + 10;
        }
        v += (rand() - 0.5) * (opts.noise ?? 40);
        if (rand() < (opts.speckles ?? 0.002)) v = 40;
        out[y * w + x] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
    return encodePng(w, h, out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A PDF of `pages` empty pages (a real page tree, not just a claim). */
export function manyPagesPdf(pages: number): Promise<Buffer> {
  return pdfBuffer((doc) => {
    for (let p = 1; p < pages; p++) doc.addPage();
  });
}

/** A valid 1-bit PNG of `side` × `side` white pixels: small on disk, huge once decoded. */
export function hugePng(side: number): Buffer {
  const rowBytes = Math.ceil(side / 8);
  return encodePng(side, side, new Uint8Array(rowBytes * side).fill(0xff), 1);
}

/** A zip archive holding a text file, to be sent as `.docx`. */
export function zipArchive(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('just some notes\n'), 'notes.txt');
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A scanned PDF: one A4 page per image, holding only that image (no text layer). */
export function scannedPdf(...pngs: Buffer[]): Promise<Buffer> {
  return pdfBuffer((doc) => {
    for (const [i, png] of pngs.entries()) {
      if (i > 0) doc.addPage();
      doc.image(png, 0, 0, { width: doc.page.width, height: doc.page.height });
    }
  });
}
