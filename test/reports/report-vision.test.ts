/**
 * Photos and scans read by the chat model as well as by tesseract (KLEBB_OCR_MODE=auto, the
 * default, with a model configured): each page goes alone in one request, as a JPEG downscaled
 * to a 1568 px long edge, never the original; the model's text is kept, the numbers tesseract did
 * not read the same are named for the person checking it; a model that refuses images leaves the
 * reading to tesseract and is not asked again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sizeFromBytes } from '../../src/reports/image-size.js';
import { chatServers } from '../helpers/chat-server.js';
import { labPanelPdf, PATIENT, phonePhotoPng, scannedPdf } from '../helpers/report-documents.js';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { entry, modelAnswer, reportFile, uploadAndRead } from './report-support.js';

const servers = chatServers();
let s: TestServer;
let gw: ScriptedGateway;
let photo: Buffer;

/** What the model "reads" on the photo: one value differs from the page (245 → 254). */
const PAGE_TEXT = [
  'Riverside Medical Laboratory',
  `Patient: ${PATIENT.name}  Date of birth: ${PATIENT.dob}`,
  'Test  Result  Unit  Reference range',
  'Haemoglobin  13.2  g/dL  12.0 - 16.0',
  'Platelets  254  10^9/L  150 - 400',
  'TSH  2.1  mIU/L  0.4 - 4.0',
].join('\n');

const SUMMARY = {
  title: 'Blood panel',
  bullets: ['Haemoglobin 13.2 g/dL'],
  body: 'Haemoglobin 13.2 g/dL.',
  identifiers: [PATIENT.name, PATIENT.dob],
};

/** The image of a recorded vision request: its data URL's bytes. */
function imageOf(body: { messages: { content: unknown }[] }): Buffer {
  const parts = body.messages[0].content as { type: string; image_url?: { url: string } }[];
  const url = parts.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
  expect(url).toMatch(/^data:image\/jpeg;base64,/);
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

beforeAll(async () => {
  ({ s, gw } = await servers.boot());
  photo = phonePhotoPng(await labPanelPdf(), { degrees: 3 });
}, 60_000);
afterAll(() => servers.closeAll());

describe('the chat model reads pictures too', () => {
  it('a photo goes to the model downscaled, its text is kept, and unconfirmed numbers are named', async () => {
    const before = gw.requests.length;
    gw.script({ kind: 'reply', as: 'json', text: PAGE_TEXT }, modelAnswer(SUMMARY));
    const e = await uploadAndRead(s, 'photo.png', photo);
    const sent = gw.requests.slice(before);
    expect(sent.length).toBe(2);
    const size = sizeFromBytes(imageOf(sent[0].body));
    expect(Math.max(size?.width ?? 0, size?.height ?? 0)).toBe(1568);
    expect(imageOf(sent[0].body).length).toBeLessThan(photo.length);
    expect(e).toMatchObject({ status: 'needs checking', sourceFormat: 'image-vision' });
    expect(e.notes).toContain('254');
    expect(e.notes).not.toContain('13.2');
    expect((await s.api(`/api/reports/${e.name}/text`)).text).toBe(PAGE_TEXT);
    // the understanding call reads the model's transcription
    expect(sent[1].body.messages[1].content).toContain('Platelets  254');
  });

  it('a two-page scan makes one request per page, each with one image', async () => {
    const before = gw.requests.length;
    const page = phonePhotoPng(await labPanelPdf(), { dpi: 150, degrees: 0, noise: 10, speckles: 0 });
    gw.script(
      { kind: 'reply', as: 'json', text: 'Page one' },
      { kind: 'reply', as: 'json', text: 'Page two' },
      modelAnswer({ title: 'Scan', body: 'Two pages.' }),
    );
    const e = await uploadAndRead(s, 'scan.pdf', await scannedPdf(page, page));
    const sent = gw.requests.slice(before);
    expect(sent.length).toBe(3);
    for (const r of sent.slice(0, 2)) {
      const parts = r.body.messages[0].content as { type: string }[];
      expect(parts.filter((p) => p.type === 'image_url').length).toBe(1);
    }
    expect(e).toMatchObject({ status: 'needs checking', sourceFormat: 'pdf-vision' });
    expect((await s.api(`/api/reports/${e.name}/text`)).text).toBe('Page one\n\fPage two');
  });

  it('a model that refuses images leaves the reading to tesseract, and is not asked again', async () => {
    const pair = await servers.boot();
    pair.gw.script(
      { kind: 'error', status: 400, body: { error: { message: 'this model does not support image input' } } },
      modelAnswer(SUMMARY),
    );
    const e = await uploadAndRead(pair.s, 'photo.png', photo);
    expect(e).toMatchObject({ status: 'needs checking', sourceFormat: 'image-ocr' });
    expect(e.notes).toContain('could not read page 1');
    expect((await pair.s.api(`/api/reports/${e.name}/text`)).text).toMatch(/Haemoglobin[^\n]*13\.2/);
    const before = pair.gw.requests.length;
    pair.gw.script(modelAnswer(SUMMARY));
    // a name of its own: the same file under the same name is the report it already is
    const again = await uploadAndRead(pair.s, 'photo again.png', photo);
    expect(pair.gw.requests.length - before).toBe(1);
    expect(again.sourceFormat).toBe('image-ocr');
    expect(reportFile(pair.s, again.name)).not.toContain(PATIENT.name);
  });

  it('a model whose server says it cannot take images, with 500, is asked once and not again', async () => {
    // Ollama's answer for a model without its vision part (a text-only model, or one packaged
    // without its projector): https://github.com/valentinfrlch/ha-llmvision/issues/691
    const pair = await servers.boot();
    pair.gw.script(
      {
        kind: 'error',
        status: 500,
        body: {
          error: {
            message:
              'Failed to create new sequence: failed to process inputs: this model is missing data required for image input',
            type: 'api_error',
            param: null,
            code: null,
          },
        },
      },
      modelAnswer(SUMMARY),
    );
    const e = await uploadAndRead(pair.s, 'photo.png', photo);
    expect(e).toMatchObject({ status: 'needs checking', sourceFormat: 'image-ocr' });
    // one vision request (not asked again as a passing failure) and the understanding call
    expect(pair.gw.requests.length).toBe(2);
    const before = pair.gw.requests.length;
    pair.gw.script(modelAnswer(SUMMARY));
    const again = await uploadAndRead(pair.s, 'photo again.png', photo);
    expect(pair.gw.requests.length - before).toBe(1);
    expect(again.sourceFormat).toBe('image-ocr');
  });

  it('re-reading by OCR uses tesseract alone', async () => {
    gw.script({ kind: 'reply', as: 'json', text: PAGE_TEXT }, modelAnswer(SUMMARY));
    const e = await uploadAndRead(s, 'photo to read again.png', photo);
    const before = gw.requests.length;
    gw.script(modelAnswer(SUMMARY));
    expect(
      (await s.api(`/api/reports/${e.name}/reprocess`, { method: 'POST', json: { rerunOcr: true } })).status,
    ).toBe(202);
    await s.inst.reports.idle();
    expect(gw.requests.length - before).toBe(1);
    expect(await entry(s, e.name)).toMatchObject({
      sourceFormat: 'image-ocr',
      ocrPsm: 6,
      status: 'needs checking',
    });
  });
});
