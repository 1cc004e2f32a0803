import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { BareAmpersands, MAX_XML_CHARS_WITHOUT_TAG, notXml, TagWatch } from './xml-repair.js';

/** The `sourceName` of every `<Record>` saxes reads from `chunks` once repaired. */
function sourcesRead(chunks: string[]): { sources: string[]; errors: string[]; count: number } {
  const repair = new BareAmpersands();
  const parser = new SaxesParser({ xmlns: false });
  const sources: string[] = [];
  const errors: string[] = [];
  parser.on('opentag', (t) => {
    if (t.name === 'Record') sources.push(String(t.attributes.sourceName));
  });
  parser.on('error', (e) => errors.push(e.message));
  for (const c of chunks) parser.write(repair.fix(c));
  parser.write(repair.end());
  parser.close();
  return { sources, errors, count: repair.count };
}

/** Every way of cutting `text` in two. */
function allCuts(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

const XML = [
  '<HealthData>',
  '<Record sourceName="Tom &amp; Jerry"/>',
  '<Record sourceName="Fish & Chips"/>',
  '<Record sourceName="&lt;&lt;HKDevice&gt; &#38; &#x26; &amp"/>',
  '<Record sourceName="R&D;x"/>',
  '<Record sourceName="last &"/>',
  '</HealthData>',
].join('');

describe('BareAmpersands', () => {
  it('reads a bare & as itself and keeps every reference, however the text is cut', () => {
    const expected = ['Tom & Jerry', 'Fish & Chips', '<<HKDevice> & & &amp', 'R&D;x', 'last &'];
    for (const cut of [[XML], ...allCuts(XML)]) {
      const r = sourcesRead(cut);
      expect(r.sources, JSON.stringify(cut)).toEqual(expected);
      expect(r.errors).toEqual([]);
      // "Fish & Chips", "&amp" without its ";", "R&D;" (an entity XML does not define), "last &"
      expect(r.count).toBe(4);
    }
  });

  it('without the repair, saxes loses the records after a bare & up to the next ;', () => {
    const parser = new SaxesParser({ xmlns: false });
    const sources: string[] = [];
    parser.on('opentag', (t) => {
      if (t.name === 'Record') sources.push(String(t.attributes.sourceName));
    });
    parser.on('error', () => {});
    parser.write(XML);
    parser.close();
    expect(sources[1]).toMatch(/^Fish & Chips"\/><Record sourceName=/);
    expect(sources).not.toContain('last &');
  });

  it('gives text without & back unchanged', () => {
    const repair = new BareAmpersands();
    const text = '<Record value="1"/>'.repeat(100);
    expect(repair.fix(text)).toBe(text);
    expect(repair.end()).toBe('');
    expect(repair.count).toBe(0);
  });
});

describe('TagWatch', () => {
  it('says stuck only after MAX_XML_CHARS_WITHOUT_TAG characters with no tag ending', () => {
    const watch = new TagWatch();
    const chunk = 256 * 1024;
    let read = 0;
    let tags = 5;
    expect(watch.read(chunk, tags)).toBe(false);
    // a tag ended: the count starts again
    tags++;
    expect(watch.read(chunk, tags)).toBe(false);
    while (read + chunk <= MAX_XML_CHARS_WITHOUT_TAG) {
      expect(watch.read(chunk, tags)).toBe(false);
      read += chunk;
    }
    expect(watch.read(chunk, tags)).toBe(true);
  });
});

describe('notXml', () => {
  it('tells random bytes from a damaged export by the rate of XML problems saxes reports', () => {
    const problems = (text: string) => {
      const parser = new SaxesParser({ xmlns: false });
      let n = 0;
      parser.on('error', () => n++);
      parser.write('<HealthData>');
      parser.write(text);
      return n;
    };
    const junk = Buffer.from(Array.from({ length: 32_768 }, (_, i) => (i * 7919 + 13) % 256)).toString(
      'latin1',
    );
    expect(notXml(junk.length, problems(junk))).toBe(true);
    // a stray control character in every record (as Apple once wrote them) is still XML
    const records = '<Record type="A" sourceName="Watch\u000b" value="1"/>\n'.repeat(600);
    const p = problems(records);
    expect(p).toBeGreaterThanOrEqual(600);
    expect(notXml(records.length, p)).toBe(false);
  });
});
