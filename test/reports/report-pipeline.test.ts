/**
 * The report pipeline end to end on the real server, with real pdftotext, pdftoppm, tesseract
 * and mammoth, and the scripted gateway as the model: a two-page lab panel PDF, the same panel as
 * a rotated, noisy phone photo, a German letter, a DOCX. What is extracted, what the model is
 * sent, the numeric fidelity gate, the states and what `read_report` gives the agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchToolCall } from '../../src/chat/tools/registry.js';
import type { ToolContext } from '../../src/chat/tools/tool.js';
import { listReports } from '../../src/reports/report-catalogue.js';
import { chatServers } from '../helpers/chat-server.js';
import {
  GERMAN_LETTER,
  germanLetterPdf,
  LAB_ROWS,
  LAB_ROWS_PAGE2,
  labDocx,
  labPanelPdf,
  PATIENT,
  phonePhotoPng,
  scannedPdf,
} from '../helpers/report-documents.js';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { entry, modelAnswer, reportFile, settled, upload, uploadAndRead } from './report-support.js';

// tesseract only here: the chat model's reading of pictures has its own test (report-vision)
const servers = chatServers({ KLEBB_OCR_MODE: 'local' });
let s: TestServer;
let gw: ScriptedGateway;
let lab: Buffer;
let photo: Buffer;

const LAB_SUMMARY = {
  title: 'Blood panel and kidney function',
  date: '2026-03-02',
  bullets: [
    'LDL cholesterol 3.4 mmol/L is above the range (< 3.0)',
    'HbA1c 5.9 % is above the range (4.0 - 5.6)',
  ],
  body: `Patient: ${PATIENT.name}\n\n| Test | Result | Unit | Range |\n|---|---|---|---|\n| Haemoglobin | 13.2 | g/dL | 12.0 - 16.0 |\n| Creatinine | 78 | umol/L | 45 - 90 |`,
  identifiers: [PATIENT.name, PATIENT.dob, PATIENT.insurance],
};

/** A summary of the photo: only what its first page shows. */
const PHOTO_SUMMARY = {
  title: 'Blood panel',
  date: '2026-03-02',
  bullets: ['Haemoglobin 13.2 g/dL', 'TSH 2.1 mIU/L'],
  body: 'Haemoglobin 13.2 g/dL (12.0 - 16.0), platelets 245.',
  identifiers: [PATIENT.name, PATIENT.dob, PATIENT.insurance],
};

async function readReportTool(name: string) {
  const ctx: ToolContext = {
    cards: s.inst.cards,
    config: s.inst.config,
    layout: s.inst.layout,
    actor: 'chat:test',
    touch: () => {},
  };
  const r = await dispatchToolCall('read_report', { name }, ctx);
  return { ok: r.ok, json: JSON.parse(r.content) };
}

/** The document text the model was sent in its last understanding call. */
function lastDocumentSent(): string {
  const body = gw.requests[gw.requests.length - 1].body;
  return body.messages.find((m: { role: string }) => m.role === 'user').content;
}

beforeAll(async () => {
  ({ s, gw } = await servers.boot());
  lab = await labPanelPdf();
  photo = phonePhotoPng(lab, { degrees: 3 });
}, 60_000);
afterAll(() => servers.closeAll());

describe('a digital lab panel PDF', () => {
  let name: string;
  it('is accepted with 202, read off the request path, and ends ready', async () => {
    gw.script(modelAnswer(LAB_SUMMARY));
    const res = await upload(s, 'Lab results March.pdf', lab);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ accepted: true, used: 1, max: 20 });
    name = res.body.filename;
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-lab-results-march$/);
    await settled(s);
    const e = await entry(s, name);
    expect(e).toMatchObject({
      status: 'ready',
      title: LAB_SUMMARY.title,
      documentDate: '2026-03-02',
      sourceFormat: 'pdf',
      sourceFile: 'Lab results March.pdf',
      bullets: LAB_SUMMARY.bullets,
      needsVerify: false,
    });
  });

  it('sends the model the text of both pages with every value, unit and range in its row', () => {
    const sent = lastDocumentSent();
    for (const [test, value, unit, range] of [...LAB_ROWS, ...LAB_ROWS_PAGE2]) {
      expect(sent).toMatch(
        new RegExp(
          `${test}\\s+${value.replace('.', '\\.')}\\s+${unit.replace(/[/^]/g, '\\$&')}\\s+${range.replace(/[.]/g, '\\.')}`,
        ),
      );
    }
    expect(gw.requests[gw.requests.length - 1].body.stream).toBe(false);
  });

  it("stores no identifier of the person, even where the model's body repeated one", () => {
    const md = reportFile(s, name);
    expect(md).toContain('| Haemoglobin | 13.2 | g/dL |');
    for (const id of [PATIENT.name, PATIENT.dob, PATIENT.insurance]) expect(md).not.toContain(id);
    expect(md).toContain('[removed]');
  });

  it('keeps the extracted text beside the original (GET text, GET source)', async () => {
    const text = await s.api(`/api/reports/${name}/text`);
    expect(text.status).toBe(200);
    expect(text.text).toContain('Creatinine');
    const src = await s.api(`/api/reports/${name}/source`);
    expect(src.status).toBe(200);
    expect(src.headers.get('content-type')).toBe('application/pdf');
    expect(src.headers.get('cache-control')).toBe('private, no-store');
  });

  it('read_report gives the agent the summary', async () => {
    const r = await readReportTool(name);
    expect(r.ok).toBe(true);
    expect(r.json).toMatchObject({ name, sourceFormat: 'pdf', truncated: false });
    expect(r.json.content).toContain('LDL cholesterol 3.4 mmol/L');
    expect(r.json.content).not.toContain(PATIENT.name);
  });

  it('GET /report/<name> renders it as a page with a strict policy', async () => {
    const page = await s.api(`/report/${name}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'none'");
    expect(csp).not.toMatch(/script-src/);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toContain('<td dir="auto">13.2</td>');
    expect(page.text).not.toMatch(/<script|<form/i);
  });
});

describe('the numeric fidelity gate', () => {
  const changed = { ...LAB_SUMMARY, bullets: ['LDL cholesterol 3.8 mmol/L is above the range'] };

  it('refuses a summary with a changed number, asks once more, and keeps the raw text when it is wrong again', async () => {
    gw.script(modelAnswer(changed), modelAnswer({ ...changed, body: 'Creatinine 78 mmol/L' }));
    const e = await uploadAndRead(s, 'panel.pdf', lab);
    expect(e.status).toBe('raw');
    expect(e.reason).toContain('78 mmol/L');
    const retry = gw.requests[gw.requests.length - 1].body.messages;
    expect(retry[retry.length - 1].content).toContain('3.8 mmol/L');
    const md = reportFile(s, e.name);
    expect(md).toContain('Not summarised');
    expect(md.split('```text')[1]).not.toContain('3.8');
    expect(md).toContain('Haemoglobin');
    // the identifiers the model named are still removed from the raw text
    expect(md).not.toContain(PATIENT.insurance);
    const r = await readReportTool(e.name);
    expect(r.ok).toBe(true);
    expect(r.json.content).toContain('Not summarised');
  });

  it('accepts the second answer when it copies the numbers', async () => {
    gw.script(modelAnswer(changed), modelAnswer(LAB_SUMMARY));
    // a name of its own: the same file under the same name is the report it already is
    const e = await uploadAndRead(s, 'panel 2.pdf', lab);
    expect(e.status).toBe('ready');
    expect(e.name).toMatch(/-panel-2$/);
  });

  it('refuses a unit the document does not give the value', async () => {
    const wrongUnit = { ...LAB_SUMMARY, bullets: ['Haemoglobin 13.2 mmol/L'] };
    gw.script(modelAnswer(wrongUnit), modelAnswer(wrongUnit));
    const e = await uploadAndRead(s, 'panel 3.pdf', lab);
    expect(e.status).toBe('raw');
    expect(e.reason).toMatch(/13\.2 mmol\/l/i);
  });

  it('refuses a document date the document does not carry', async () => {
    const wrongDate = { ...LAB_SUMMARY, date: '2026-03-03' };
    gw.script(modelAnswer(wrongDate), modelAnswer(wrongDate));
    const e = await uploadAndRead(s, 'panel 4.pdf', lab);
    expect(e.status).toBe('raw');
    expect(e.reason).toContain('2026-03-03');
  });
});

describe('a phone photo of the panel (rotated, noisy PNG)', () => {
  let name: string;
  it('is read by OCR and needs checking; the agent is refused its text', async () => {
    gw.script(modelAnswer(PHOTO_SUMMARY));
    const e = await uploadAndRead(s, 'photo.png', photo);
    name = e.name;
    expect(e).toMatchObject({
      status: 'needs checking',
      sourceFormat: 'image-ocr',
      needsVerify: true,
      ocrAttempts: 1,
      ocrPsm: 4,
    });
    const text = (await s.api(`/api/reports/${name}/text`)).text;
    for (const [test, value] of [
      ['Haemoglobin', '13.2'],
      ['Platelets', '245'],
      ['TSH', '2.1'],
      ['LDL', '3.4'],
    ]) {
      expect(text).toMatch(new RegExp(`${test}[^\\n]*${value.replace('.', '\\.')}`));
    }
    const r = await readReportTool(name);
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('FORBIDDEN');
    expect(JSON.stringify(r.json)).not.toContain('13.2');
    expect(listReports(s.inst.layout.reportsDir).find((x) => x.name === name)?.withheld).toBe(true);
  });

  it('re-running OCR moves to the next page segmentation mode and asks for a check again', async () => {
    gw.script(modelAnswer(PHOTO_SUMMARY));
    const res = await s.api(`/api/reports/${name}/reprocess`, { method: 'POST', json: { rerunOcr: true } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true, name, psm: 6 });
    await settled(s);
    expect(await entry(s, name)).toMatchObject({ status: 'needs checking', ocrAttempts: 2, ocrPsm: 6 });
  });

  it('once a person confirms it, it is ready and the agent may read it', async () => {
    const v = await s.api(`/api/reports/${name}/verify`, { method: 'POST' });
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('ready');
    const r = await readReportTool(name);
    expect(r.ok).toBe(true);
    expect(r.json.content).toContain('13.2');
    const again = await s.api(`/api/reports/${name}/verify`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOTHING_TO_VERIFY');
  });
});

describe('a scanned PDF (pages that are pictures, no text layer)', () => {
  it('is rendered page by page and read by OCR, and needs checking', async () => {
    gw.script(modelAnswer(PHOTO_SUMMARY));
    const e = await uploadAndRead(
      s,
      'scan.pdf',
      await scannedPdf(phonePhotoPng(lab, { dpi: 300, degrees: 0.5, noise: 16, speckles: 0.0002 })),
    );
    expect(e).toMatchObject({ status: 'needs checking', sourceFormat: 'pdf-ocr', ocrPsm: 4 });
    const text = (await s.api(`/api/reports/${e.name}/text`)).text;
    expect(text).toMatch(/Haemoglobin[^\n]*13\.2[^\n]*g\/dL/);
    expect(text).toMatch(/Platelets[^\n]*245/);
    expect(text).toMatch(/LDL cholesterol[^\n]*3\.4[^\n]*mmol\/L/);
  });
});

describe('a German letter and a DOCX', () => {
  it('reads the German letter with its umlauts and accepts 3,4 mmol/l summarised as 3.4 mmol/L', async () => {
    gw.script(
      modelAnswer({
        title: 'Arztbrief: Hypercholesterinämie',
        date: '2026-03-12',
        bullets: [
          'LDL 3.4 mmol/L',
          'Blutdruck 142/88 mmHg',
          'Kontrolle in 3 Monaten',
          'Atorvastatin 20 mg täglich',
        ],
        body: 'Vorstellung am 10. März 2026. Diagnose: Hypercholesterinämie.',
        identifiers: [PATIENT.name, PATIENT.dob],
      }),
    );
    const e = await uploadAndRead(s, 'Arztbrief Müller.pdf', await germanLetterPdf());
    expect(e.status).toBe('ready');
    expect(e.name).toMatch(/-arztbrief-muller$/);
    const sent = lastDocumentSent();
    expect(sent).toContain('Der LDL-Wert lag bei 3,4 mmol/l');
    expect(sent).toContain('Grüßen');
    expect(sent).toContain(GERMAN_LETTER.lines[0]);
  });

  it('reads a DOCX with its table', async () => {
    gw.script(
      modelAnswer({
        title: 'Thyroid follow-up',
        date: '2026-02-20',
        bullets: ['TSH 2.1 mIU/L, Free T4 15.3 pmol/L: normal'],
        body: 'Thyroid function is within the normal range.',
      }),
    );
    const e = await uploadAndRead(s, 'thyroid.docx', await labDocx());
    expect(e).toMatchObject({ status: 'ready', sourceFormat: 'docx', documentDate: '2026-02-20' });
    const text = (await s.api(`/api/reports/${e.name}/text`)).text;
    expect(text).toMatch(/Free T4\s+15\.3\s+pmol\/L/);
  });

  it('a document the model says is not about health is rejected, and can be retried', async () => {
    gw.script(modelAnswer({ title: 'A pizza menu', body: 'Margherita 9.50', health: false }));
    const e = await uploadAndRead(s, 'menu.txt', Buffer.from('Margherita 9.50\nFunghi 11.00\n'));
    expect(e.status).toBe('rejected');
    expect(e.reason).toContain('not look like a health document');
    expect(e.hasOriginal).toBe(true);
    const r = await readReportTool(e.name);
    expect(r.json.content ?? '').not.toContain('Funghi');
    gw.script(modelAnswer({ title: 'Menu', body: 'Margherita 9.50' }));
    expect((await s.api(`/api/reports/${e.name}/reprocess`, { method: 'POST' })).status).toBe(202);
    await settled(s);
    expect((await entry(s, e.name)).status).toBe('ready');
  });

  it('deleting a report frees its slot and removes its files', async () => {
    const before = (await s.api('/api/reports')).body.quota.used;
    const list = (await s.api('/api/reports')).body.reports;
    const victim = list[0].name;
    const del = await s.api(`/api/reports/${victim}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body.quota.used).toBe(before - 1);
    expect((await s.api(`/api/reports/${victim}/text`)).status).toBe(404);
    expect((await s.api(`/report/${victim}`)).status).toBe(404);
  });
});

describe('without a language model', () => {
  it('keeps the extracted text as raw, saying why', async () => {
    const pair = await servers.boot({ CHAT_ENDPOINT_URL: '' });
    const e = await uploadAndRead(pair.s, 'labs.pdf', lab);
    expect(e.status).toBe('raw');
    expect(e.reason).toContain('no language model');
    expect(reportFile(pair.s, e.name)).toContain('Haemoglobin');
  });
});

describe('the catalogue the agent sees', () => {
  it('marks a report still being read, and read_report refuses it until it is done', async () => {
    gw.script({ ...modelAnswer(LAB_SUMMARY), headersDelayMs: 500 });
    const res = await upload(s, 'slow.pdf', lab);
    const name = res.body.filename;
    // the extraction takes a moment and the model answers late: the report is in processing meanwhile
    await new Promise((r) => setTimeout(r, 100));
    const info = listReports(s.inst.layout.reportsDir).find((x) => x.name === name);
    expect(info?.status).toBe('processing');
    const r = await readReportTool(name);
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('REPORT_BUSY');
    await settled(s);
    expect((await readReportTool(name)).ok).toBe(true);
  });
});
