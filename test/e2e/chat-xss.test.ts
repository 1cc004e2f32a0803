/**
 * Model text is untrusted (web/lib/markdown.ts): in Debian's Chromium against the real
 * server, a reply streamed piece by piece with raw HTML, `javascript:` links (plain, entity-encoded,
 * with a tab inside, as an autolink) and HTML split across streamed chunks runs nothing, at any
 * moment of the stream and after: no script-bearing element ever enters the panel, no handler or
 * dialog fires, the raw HTML is shown as text, and links to other sites open safely
 * (`target="_blank"`, `rel="noopener noreferrer"`). The page's CSP would also refuse inline code,
 * and any such refusal is a console error, which fails the test on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { answers, chatBrowser, openPanel, PANEL, sendText, turnOver } from './chat-support.js';

const browser = chatBrowser();
const chat = chatServers();
afterEach(() => chat.closeAll());

/** The reply, in the pieces the gateway streams (cut inside tags and attributes on purpose). */
const CHUNKS = [
  'Here is what I found. ',
  '<img src=x on',
  'error="window.__xss=1">',
  ' and <scr',
  'ipt>window.__xss=2</script>',
  '\n\n<iframe src="javascript:window.__xss=3"></iframe>\n\n',
  '[plain](javascript:window.__xss=4) ',
  '[encoded](&#106;avascript:window.__xss=5) ',
  '[tabbed](jav&#x09;ascript:window.__xss=6) ',
  '<javascript:window.__xss=7> ',
  '<a href="javascript:window.__xss=8">raw link</a> ',
  '<svg onload="window.__xss=9"></svg>',
  '\n\nRead [the docs](https://example.org/docs) or go [to Today](/).',
];

describe('model text in the chat', { timeout: 90_000 }, () => {
  it('runs nothing from raw HTML, javascript: links or markup split across chunks', async () => {
    const { gw, s } = await chat.boot();
    gw.script({ kind: 'reply', chunks: CHUNKS, chunkDelayMs: 40 }, { kind: 'reply', text: 'Odd markup' });
    const { page } = await browser.open(`${s.url}/`);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await openPanel(page);
    // watch every element of model text that enters the panel while the answer streams
    await page.evaluate(() => {
      const bad: string[] = [];
      (window as unknown as { __bad: string[] }).__bad = bad;
      const panel = document.querySelector('[data-chat-panel]') as Element;
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (!(n instanceof Element)) continue;
            for (const el of [n, ...n.querySelectorAll('*')]) {
              if (!el.closest('.chat-md')) continue; // model text only (the panel's own icons are SVG)
              const tag = el.tagName.toLowerCase();
              if (['script', 'img', 'iframe', 'svg', 'object', 'embed', 'style', 'form'].includes(tag))
                bad.push(tag);
              for (const a of el.getAttributeNames())
                if (a.startsWith('on') || a === 'style') bad.push(`${tag}[${a}]`);
              const href = el.getAttribute('href') ?? el.getAttribute('src') ?? '';
              if (/^\s*javascript:/i.test(href)) bad.push(`${tag} ${href}`);
            }
          }
        }
      }).observe(panel, { subtree: true, childList: true });
    });
    await sendText(page, 'Show me something odd');
    await turnOver(page);

    const [answer] = await answers(page);
    expect(answer).toContain('<img src=x onerror="window.__xss=1">');
    expect(answer).toContain('<script>window.__xss=2</script>');
    expect(await page.evaluate(() => (window as unknown as { __bad: string[] }).__bad)).toEqual([]);
    const bubble = page.locator(`${PANEL} .chat-msg[data-role="assistant"] .chat-md`);
    expect(await bubble.locator('script, img, iframe, svg, object, embed, style').count()).toBe(0);

    const links = await bubble.locator('a').evaluateAll((as) =>
      as.map((a) => ({
        text: a.textContent,
        href: a.getAttribute('href'),
        target: a.getAttribute('target'),
        rel: a.getAttribute('rel'),
      })),
    );
    for (const l of links) expect(l.href ?? '', l.text ?? '').not.toMatch(/^\s*javascript:/i);
    const docs = links.find((l) => l.text === 'the docs');
    expect(docs).toMatchObject({ href: 'https://example.org/docs', target: '_blank' });
    expect(docs?.rel?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(links.find((l) => l.text === 'to Today')).toMatchObject({ href: '/', target: null });

    // clicking what is left of the dangerous links runs nothing either
    for (const name of ['plain', 'encoded', 'tabbed']) {
      const link = bubble.getByText(name, { exact: true });
      if (await link.count()) await link.click();
    }
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
