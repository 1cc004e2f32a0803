/**
 * Uploading documents in Debian's Chromium against the real server, with the scripted gateway as
 * the model: on Reports a lab panel PDF goes from Processing to Ready with its bullets; a phone
 * photo of it ends Needs checking, its OCR text is compared in "Check the text" and "Looks right"
 * makes it Ready; an unreadable file's refusal is shown; the chat panel's paperclip uploads a
 * document and starts a message about it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { labPanelPdf, PATIENT, phonePhotoPng } from '../helpers/report-documents.js';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { modelAnswer } from '../reports/report-support.js';
import { chatBrowser, openPanel } from './chat-support.js';

// the refused upload answers 400 on purpose: Chromium logs that response as a console error
const b = chatBrowser({ allow: [/Failed to load resource: the server responded with a status of 400/] });
const servers = chatServers({ KLEBB_OCR_MODE: 'local' });
let s: TestServer;
let gw: ScriptedGateway;
let lab: Buffer;

const SUMMARY = {
  title: 'Blood panel',
  date: '2026-03-02',
  bullets: ['Haemoglobin 13.2 g/dL', 'TSH 2.1 mIU/L'],
  body: 'Haemoglobin 13.2 g/dL (12.0 - 16.0).',
  identifiers: [PATIENT.name, PATIENT.dob, PATIENT.insurance],
};

beforeAll(async () => {
  ({ s, gw } = await servers.boot());
  lab = await labPanelPdf();
}, 60_000);
afterAll(() => servers.closeAll());

const item = (page: Page, sourceFile: string) =>
  page.locator('.report-item', { has: page.locator('.report-meta', { hasText: sourceFile }) });

async function pick(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.locator('.report-upload input[type=file]').setInputFiles({ name, mimeType, buffer });
}

describe('Reports: uploaded documents', { timeout: 90_000 }, () => {
  it('a PDF goes from processing to ready, with its bullets and a page to open', async () => {
    gw.script({ ...modelAnswer(SUMMARY), headersDelayMs: 400 });
    const { page } = await b.open(`${s.url}/reports`);
    await page.locator('#uploaded-reports-title').waitFor();
    await pick(page, 'March labs.pdf', 'application/pdf', lab);
    await item(page, 'March labs.pdf').locator('[data-status="processing"]').waitFor();
    await item(page, 'March labs.pdf').locator('[data-status="ready"]').waitFor({ timeout: 20_000 });
    const it = item(page, 'March labs.pdf');
    expect(await it.locator('.report-title').textContent()).toBe('Blood panel');
    expect(await it.locator('.report-bullets li').allTextContents()).toEqual(SUMMARY.bullets);
    expect(await it.locator('a', { hasText: 'Open' }).getAttribute('href')).toMatch(
      /^\/report\/\d{4}-\d{2}-\d{2}-march-labs$/,
    );
  });

  it('a phone photo needs checking; "Looks right" after comparing makes it ready', async () => {
    gw.script(modelAnswer(SUMMARY));
    const { page } = await b.open(`${s.url}/reports`);
    await page.locator('#uploaded-reports-title').waitFor();
    await pick(page, 'photo.png', 'image/png', phonePhotoPng(lab));
    const it = item(page, 'photo.png');
    await it.locator('[data-status="needs checking"]').waitFor({ timeout: 30_000 });
    expect(await it.locator('.report-badge').textContent()).toBe('Needs checking');
    await it.getByRole('button', { name: 'Check the text' }).click();
    await it.locator('.report-text').filter({ hasText: 'Haemoglobin' }).waitFor();
    expect(await it.locator('.report-text').textContent()).toMatch(/Haemoglobin 13\.2 g\/dL/);
    expect(await it.getByRole('link', { name: 'Open the original' }).getAttribute('href')).toMatch(
      /\/source$/,
    );
    await it.getByRole('button', { name: 'Looks right' }).click();
    await it.locator('[data-status="ready"]').waitFor();
  });

  it('a refused file says why', async () => {
    const { page } = await b.open(`${s.url}/reports`);
    await page.locator('#uploaded-reports-title').waitFor();
    await pick(page, 'page.pdf', 'application/pdf', Buffer.from('<html>not a pdf</html>'));
    const notice = page.locator('.uploaded-reports .notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'page.pdf: the file is called .pdf but its content is plain text',
    );
  });
});

describe('several documents at once', { timeout: 90_000 }, () => {
  it('a refused file does not keep the others out, and each refusal is named', async () => {
    gw.script(modelAnswer({ title: 'Note one', bullets: ['TSH 2.1 mIU/L'], body: 'TSH 2.1 mIU/L.' }));
    gw.script(modelAnswer({ title: 'Note two', bullets: ['TSH 2.2 mIU/L'], body: 'TSH 2.2 mIU/L.' }));
    const { page } = await b.open(`${s.url}/reports`);
    await page.locator('#uploaded-reports-title').waitFor();
    await page.locator('.report-upload input[type=file]').setInputFiles([
      { name: 'fake one.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html>not a pdf</html>') },
      { name: 'note one.txt', mimeType: 'text/plain', buffer: Buffer.from('TSH 2.1 mIU/L\n') },
      { name: 'fake two.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain words') },
      { name: 'note two.txt', mimeType: 'text/plain', buffer: Buffer.from('TSH 2.2 mIU/L\n') },
    ]);
    const notice = page.locator('.uploaded-reports .notice', { hasText: '2 files were not uploaded' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/fake one\.pdf: .*fake two\.pdf: /);
    await item(page, 'note two.txt').waitFor();
    await s.inst.reports.idle();
    const names = (await s.api('/api/reports')).body.reports.map((r: { sourceFile: string }) => r.sourceFile);
    expect(names).toEqual(expect.arrayContaining(['note one.txt', 'note two.txt']));
    expect(names).not.toContain('fake one.pdf');
    expect(names).not.toContain('fake two.pdf');
  });
});

describe('the chat panel', { timeout: 90_000 }, () => {
  it('the paperclip uploads a document and starts a message about it', async () => {
    gw.script(
      modelAnswer({ title: 'Letter', bullets: ['Haemoglobin 13.2 g/dL'], body: 'Haemoglobin 13.2 g/dL.' }),
    );
    const { page } = await b.open(`${s.url}/`);
    await openPanel(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /Attach a document/ }).click();
    await (await chooser).setFiles({
      name: 'letter.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Haemoglobin 13.2 g/dL\n'),
    });
    await page.locator('[data-chat-attach]', { hasText: 'is being read' }).waitFor();
    expect(await page.locator('#chat-input').inputValue()).toMatch(
      /^I uploaded letter\.txt \(report \d{4}-\d{2}-\d{2}-letter\)\. $/,
    );
    await s.inst.reports.idle();
    const list = (await s.api('/api/reports')).body;
    expect(list.reports.find((r: { sourceFile: string }) => r.sourceFile === 'letter.txt')?.status).toBe(
      'ready',
    );
  });
});
