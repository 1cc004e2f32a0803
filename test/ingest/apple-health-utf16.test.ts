/**
 * An export.xml saved again by a Windows tool (Notepad's "Unicode", PowerShell's `Out-File`) is
 * UTF-16 with a byte order mark: uploaded as it is, or zipped, it gives the same rows as the
 * Health app's UTF-8 file, little- and big-endian alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rawZip } from '../helpers/zip-bytes.js';
import { type IngestServer, startIngestServer } from './helpers.js';
import { expectModernCards, MODERN_CARDS, modernExport } from './modern-export.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** `text` in UTF-16 with its byte order mark, little- or big-endian. */
function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

describe('an export.xml in UTF-16', () => {
  it('little-endian, with Windows line endings, is read like the UTF-8 file', async () => {
    const s = await startIngestServer({ cards: MODERN_CARDS });
    srv = s;
    const r = await s.importExport(utf16(modernExport('\r\n'), 'le'));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 27, workouts: 1, truncated: false });
    await expectModernCards(s);
  });

  it('big-endian, inside export.zip, is read too', async () => {
    const s = await startIngestServer({ cards: MODERN_CARDS });
    srv = s;
    const zip = rawZip([{ name: 'apple_health_export/export.xml', data: utf16(modernExport(), 'be') }]);
    const r = await s.api('/api/apple-health/import', {
      method: 'POST',
      body: zip,
      headers: { 'content-type': 'application/zip' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 27, workouts: 1, truncated: false });
    await expectModernCards(s);
  });
});
