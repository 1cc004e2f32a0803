/**
 * The `markdown-doc` renderer in Debian's Chromium against the real server ("a card
 * containing `<img src=x onerror=...>` or a `javascript:` link runs nothing"):
 * - the markdown cards (the getting-started template, the welcome card) render as headings, lists, bold and
 *   code, with no console error;
 * - a card holding every XSS payload below runs nothing: no dialog, no handler (each payload sets
 *   a window flag), no script, iframe, svg, math, style or details element, no `on…` or `style`
 *   attribute, no `javascript:`/`data:` link in any spelling (entity-encoded, mixed case, with
 *   whitespace), even when every link in it is clicked; links keep `rel="noopener noreferrer"`;
 * - a note whose data is not `{markdown}` shows a calm note, not a blank card;
 * - the pipeline (marked + DOMPurify) is not part of the first page's JavaScript: its chunk loads
 *   when a note is drawn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { welcomeManifest } from '../../src/home/welcome-card.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { templatesDir } from '../helpers/templates.js';
import {
  launchBrowser,
  PHONE,
  scrollsSideways,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';

const XSS = [
  '## Safe heading',
  '',
  'Some **bold** text and a [safe link](https://example.org/page) and [a day](/day/2026-04-20).',
  '',
  '<img src=x onerror="window.__xss=1">',
  '',
  '[js 1](javascript:window.__xss=2)',
  '[js 2](&#106;avascript:window.__xss=3)',
  '[js 3](JaVaScRiPt:window.__xss=4)',
  '[js 4]( javascript:window.__xss=5 )',
  '[js 5](<java\tscript:window.__xss=6>)',
  '[js 6](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;window.__xss=7)',
  '[js 7][ref]',
  '[js 8](data:text/html,<script>window.__xss=8</script>)',
  '[js 9](vbscript:window.__xss=9)',
  '![js 10](javascript:window.__xss=10)',
  '',
  '[ref]: javascript:window.__xss=11',
  '',
  '<script>window.__xss=12</script>',
  '',
  '<iframe srcdoc="<script>parent.__xss=13</script>"></iframe>',
  '',
  '<svg onload="window.__xss=14"><animate onbegin="window.__xss=15" attributeName="x" dur="1s"/></svg>',
  '',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=16">',
  '',
  '<details open ontoggle="window.__xss=17"><summary>s</summary></details>',
  '',
  '<a href="/day/2026-04-20" style="position:fixed;inset:0">Open day</a>',
  '',
  '<div style="background:url(javascript:window.__xss=18)" class="chat-slot">styled</div>',
  '',
  '<style>body { display: none }</style>',
  '',
  '<a href="jav&#x09;ascript:alert(19)">js 11</a> <a href="javascript&colon;alert(20)">js 12</a>',
  '',
  '<form action="javascript:alert(21)"><button>js 13</button></form>',
  '',
  '- [x] a ticked task',
  '- [ ] an open task',
].join('\n');

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
const dialogs: string[] = [];
let s: TestServer;

async function open(url: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  w.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  pages.push(w);
  await w.page.goto(url);
  await settled(w.page);
  return w;
}

function copyTemplate(dataDir: string, id: string): void {
  fs.copyFileSync(path.join(templatesDir, `${id}.json`), path.join(dataDir, `${id}.json`));
}

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: 'Pacific/Auckland' });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      copyTemplate(dataDir, 'getting-started');
      fs.writeFileSync(path.join(dataDir, 'welcome.json'), JSON.stringify(welcomeManifest(), null, 2));
    },
  });
  const card = (id: string, label: string, data: unknown, order: number) => ({
    $schema: 'klebb.datafile.v1',
    meta: { id, label, order, view: { enabled: true, component: 'markdown-doc' } },
    data,
  });
  for (const [id, label, data, order] of [
    ['xss', 'Tricky note', { markdown: XSS }, 10],
    ['odd-note', 'Odd note', [{ date: '2026-04-20', kg: 80 }], 20],
    ['empty-note', 'Empty note', { markdown: '' }, 30],
  ] as const) {
    const r = await s.api('/api/manifests', { json: card(id, label, data, order) });
    expect(r.status, r.text).toBe(201);
  }
});

afterEach(async () => {
  const problems = pages.flatMap((w) => w.problems);
  for (const w of pages.splice(0)) await w.page.close();
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  expect(dialogs.splice(0), 'dialogs').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('markdown-doc', { timeout: 60_000 }, () => {
  it('renders the markdown cards (the getting-started template, the welcome card): headings, lists, bold, code', async () => {
    // creating the other cards switched the welcome card off: switch it back on
    await s.api('/api/settings/cards/welcome/enable', { method: 'POST' });
    const { page } = await open(`${s.url}/`);
    const howTo = page.locator('.card[data-card-id="getting-started"] .markdown-body');
    await howTo.waitFor();
    expect(await howTo.locator('h4').textContent()).toBe('Add your first card');
    expect(await howTo.locator('h5').allTextContents()).toEqual(['Tips', 'Removing a card']);
    expect(await howTo.locator('ol > li').count()).toBe(3);
    expect(await howTo.locator('ul > li').count()).toBe(3);
    expect(await howTo.locator('strong').first().textContent()).toBe('Pick one from the gallery');
    expect(await howTo.locator('em').allTextContents()).toContain('"make me a card for my morning weight"');
    // written for people: no routes, folders or variables of the server
    expect(await howTo.textContent()).not.toMatch(/\/api\/|HEALTH_HOME|\.json|docs\//);
    const welcome = page.locator('.card[data-card-id="welcome"] .markdown-body');
    await welcome.waitFor();
    expect(await welcome.locator('h4').textContent()).toBe('Welcome 👋');
    expect(await welcome.locator('ul > li').count()).toBe(3);
    expect(await welcome.locator('strong').first().textContent()).toBe('Add a card:');
    expect(await page.locator('[data-unknown-renderer="markdown-doc"]').count()).toBe(0);
  });

  it('runs nothing from a card full of XSS payloads, even when its links are clicked', async () => {
    const { page } = await open(`${s.url}/`);
    const body = page.locator('.card[data-card-id="xss"] .markdown-body');
    await body.waitFor();
    // the legitimate content is there
    expect(await body.locator('h4').textContent()).toBe('Safe heading');
    expect(await body.locator('strong').first().textContent()).toBe('bold');
    const safe = body.locator('a', { hasText: 'safe link' });
    expect(await safe.getAttribute('href')).toBe('https://example.org/page');
    expect(await safe.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await safe.getAttribute('target')).toBe('_blank');
    const day = body.locator('a', { hasText: 'a day' });
    expect(await day.getAttribute('href')).toBe('/day/2026-04-20');
    expect(await day.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await day.getAttribute('target')).toBeNull();
    expect(await body.locator('input[type="checkbox"]').count()).toBe(2);
    expect(await body.locator('input[type="checkbox"]:not([disabled])').count()).toBe(0);
    // raw HTML is shown as text, not as markup
    expect(await body.textContent()).toContain('<script>window.__xss=12</script>');

    const found = await page.evaluate(() => {
      const root = document.querySelector('.card[data-card-id="xss"] .markdown-body') as HTMLElement;
      const all = [...root.querySelectorAll('*')];
      return {
        tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].sort(),
        handlerOrStyle: all.flatMap((e) =>
          [...e.attributes]
            .filter((a) => /^on|^style$|^class$|^id$|^srcdoc$/i.test(a.name))
            .map((a) => `${e.tagName}@${a.name}`),
        ),
        // what each link would open: relative leftovers like "java%09script:" are paths on this site
        protocols: [...root.querySelectorAll('a[href]')].map(
          (a) => new URL(a.getAttribute('href') ?? '', location.href).protocol,
        ),
        srcs: [...root.querySelectorAll('[src]')].map((e) => e.getAttribute('src')),
        scriptsInPage: document.querySelectorAll('script:not([src])').length,
        framesInPage: document.querySelectorAll('iframe, object, embed').length,
      };
    });
    for (const t of found.tags) {
      expect([
        'a',
        'blockquote',
        'br',
        'code',
        'del',
        'em',
        'h4',
        'hr',
        'input',
        'li',
        'p',
        'pre',
        'strong',
        'ul',
      ]).toContain(t);
    }
    expect(found.handlerOrStyle).toEqual([]);
    for (const p of found.protocols) expect(['http:', 'https:']).toContain(p);
    expect(found.srcs).toEqual([]);
    expect(found.scriptsInPage).toBe(0);
    expect(found.framesInPage).toBe(0);

    // click every payload link: a surviving javascript: href would run now (a link left as a
    // harmless relative path moves the app to another page: come back for the next one)
    const links = body.locator('a', { hasText: /^js / });
    const n = await links.count();
    expect(n).toBeGreaterThanOrEqual(9);
    for (let i = 0; i < n; i++) {
      if (page.url() !== `${s.url}/`) {
        await page.goBack();
        await body.waitFor();
      }
      await links.nth(i).click();
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    }
    // the page itself is untouched: the chat slot keeps its place, the body is visible
    expect(await page.evaluate(() => getComputedStyle(document.body).display)).not.toBe('none');
    expect(await page.locator('.chat-slot').count()).toBe(1);
  });

  it('loads the markdown pipeline only when a note is drawn', async () => {
    const { page } = await open(`${s.url}/settings`);
    const chunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => /\/assets\/markdown-[^/]*\.js$/.test(n)),
      );
    expect(await chunks()).toEqual([]);
    await page.getByRole('link', { name: 'Today' }).click();
    await page.locator('.card[data-card-id="xss"] .markdown-body').waitFor();
    expect(await chunks()).toHaveLength(1);
  });

  it('shows a calm note for data in the wrong shape and for an empty note, and fits a phone', async () => {
    const { page } = await open(`${s.url}/`, PHONE);
    const odd = page.locator('.card[data-card-id="odd-note"] [data-renderer-note]');
    await odd.waitFor();
    expect(await odd.textContent()).toMatch(/not in the shape it needs/);
    expect(await page.locator('.card[data-card-id="empty-note"] [data-renderer-note]').textContent()).toBe(
      'This note is empty.',
    );
    expect(await scrollsSideways(page)).toBe(false);
  });
});
