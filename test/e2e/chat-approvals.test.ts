/**
 * Approvals and undo in the chat panel, in Debian's Chromium against the real server and the
 * scripted gateway: a turn that deletes a card shows what will happen with Approve and Decline;
 * Decline leaves the card, Approve deletes it, the answer names the change with Undo, and Undo
 * brings the card back with its rows. Settings › History lists the change sets with Undo.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { answers, chatBrowser, openPanel, PANEL, sendText, turnOver } from './chat-support.js';

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

const ROWS = [
  { date: '2026-04-18', kg: 80 },
  { date: '2026-04-19', kg: 81 },
];

describe('approvals in the chat panel', { timeout: 90_000 }, () => {
  it('Decline keeps the card, Approve deletes it, Undo brings it back with its rows', async () => {
    const { gw, s } = await chat.boot();
    await s.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'weight',
          label: 'Weight',
          writeable: { fromWebapp: true },
          view: { enabled: true, component: 'generic-card' },
        },
        data: ROWS,
      },
    });
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'd1', name: 'delete_manifest', arguments: { id: 'weight' } }] },
      { kind: 'reply', text: 'Kept your Weight card.' },
      { kind: 'reply', text: 'Weight' }, // the conversation's title (a side call after the turn)
      { kind: 'reply', toolCalls: [{ id: 'd2', name: 'delete_manifest', arguments: { id: 'weight' } }] },
      { kind: 'reply', text: 'Deleted the Weight card.' },
    );
    const { page } = await browser.open(`${s.url}/`);
    await openPanel(page);
    await sendText(page, 'delete my weight card');
    const box = page.locator(`${PANEL} .chat-approval`);
    await box.getByText('Delete the card “Weight” and its 2 rows.').waitFor();
    await box.getByRole('button', { name: 'Decline' }).click();
    await turnOver(page);
    expect((await answers(page)).at(-1)).toBe('Kept your Weight card.');
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(ROWS);

    await sendText(page, 'yes, delete it');
    await box.getByRole('button', { name: 'Approve' }).click();
    await turnOver(page);
    expect((await answers(page)).at(-1)).toBe('Deleted the Weight card.');
    expect((await s.api('/api/manifests/weight')).status).toBe(404);
    const change = page.locator(`${PANEL} .chat-change`).last();
    await change.getByText('Changed: Deleted Weight').waitFor();
    await change.getByRole('button', { name: 'Undo' }).click();
    await change.getByText('Undone: Deleted Weight').waitFor();
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual(ROWS);

    await page.goto(`${s.url}/settings`);
    const history = page.locator('section[aria-labelledby="settings-history"]');
    await history.getByText('Undid: deleted Weight').first().waitFor();
    await history.getByText('Deleted Weight').first().waitFor();
  });
});
