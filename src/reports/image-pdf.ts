/**
 * A photo wrapped, undecoded, into a one-page PDF, so that pdftoppm can render it downscaled
 * for the chat model (there is no image library on the server, and none is needed): a JPEG goes
 * in as it is (`DCTDecode`); a non-interlaced PNG without transparency goes in as its own zlib
 * data with the PNG predictors (`FlateDecode`, `Predictor 15`). Other images (CMYK JPEG,
 * interlaced or transparent PNG) give null: they are read by tesseract only.
 */
import fs from 'node:fs';
import { sizeFromBytes } from './image-size.js';

/** A PDF dictionary and its stream bytes. */
interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function buildPdf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(offset);
    const head = o.stream
      ? `${i + 1} 0 obj\n<<${o.dict}/Length ${o.stream.length}>>\nstream\n`
      : `${i + 1} 0 obj\n<<${o.dict}>>\n`;
    const tail = o.stream ? '\nendstream\nendobj\n' : 'endobj\n';
    const chunk = Buffer.concat([
      Buffer.from(head, 'latin1'),
      o.stream ?? Buffer.alloc(0),
      Buffer.from(tail, 'latin1'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<</Size ${objects.length + 1}/Root 1 0 R>>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

/** The image XObject of a JPEG, or null for a kind not wrapped. */
function jpegImage(b: Buffer, width: number, height: number): string | null {
  // the number of components follows the frame size in the SOFn segment
  let i = 2;
  while (i + 9 < b.length) {
    const marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const components = b[i + 9];
      const space = components === 1 ? '/DeviceGray' : components === 3 ? '/DeviceRGB' : null;
      return space
        ? `/Type/XObject/Subtype/Image/Width ${width}/Height ${height}/ColorSpace${space}/BitsPerComponent 8/Filter/DCTDecode`
        : null;
    }
    i += 2 + b.readUInt16BE(i + 2);
  }
  return null;
}

/** The image XObject and zlib data of a PNG, or null for a kind not wrapped. */
function pngImage(b: Buffer, width: number, height: number): { dict: string; data: Buffer } | null {
  const depth = b[24];
  const colour = b[25];
  const interlace = b[28];
  if (interlace !== 0 || ![0, 2, 3].includes(colour)) return null;
  const idat: Buffer[] = [];
  let palette: Buffer | null = null;
  for (let i = 8; i + 8 <= b.length; ) {
    const len = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    const data = b.subarray(i + 8, i + 8 + len);
    if (type === 'IDAT') idat.push(data);
    else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') return null;
    i += 12 + len;
  }
  if (idat.length === 0) return null;
  const colours = colour === 2 ? 3 : 1;
  let space = colour === 2 ? '/DeviceRGB' : '/DeviceGray';
  if (colour === 3) {
    if (!palette) return null;
    space = `[/Indexed/DeviceRGB ${palette.length / 3 - 1}<${palette.toString('hex')}>]`;
  }
  return {
    dict: `/Type/XObject/Subtype/Image/Width ${width}/Height ${height}/ColorSpace${space}/BitsPerComponent ${depth}/Filter/FlateDecode/DecodeParms<</Predictor 15/Colors ${colours}/BitsPerComponent ${depth}/Columns ${width}>>`,
    data: Buffer.concat(idat),
  };
}

/** A one-page PDF showing the image in `file`, or null when its kind is not wrapped. */
export function imageToPdf(file: string): Buffer | null {
  const b = fs.readFileSync(file);
  const size = sizeFromBytes(b.subarray(0, 256 * 1024));
  if (!size) return null;
  let image: PdfObject;
  if (b[0] === 0xff) {
    const dict = jpegImage(b, size.width, size.height);
    if (!dict) return null;
    image = { dict, stream: b };
  } else {
    const png = pngImage(b, size.width, size.height);
    if (!png) return null;
    image = { dict: png.dict, stream: png.data };
  }
  const { width: w, height: h } = size;
  const content = Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`, 'latin1');
  return buildPdf([
    { dict: '/Type/Catalog/Pages 2 0 R' },
    { dict: '/Type/Pages/Kids[3 0 R]/Count 1' },
    {
      dict: `/Type/Page/Parent 2 0 R/MediaBox[0 0 ${w} ${h}]/Resources<</XObject<</Im0 4 0 R>>>>/Contents 5 0 R`,
    },
    image,
    { dict: '', stream: content },
  ]);
}
