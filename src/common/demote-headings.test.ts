import { describe, expect, it } from 'vitest';
import { demoteHeadings } from './demote-headings.js';

describe('demoteHeadings', () => {
  it('moves each heading two levels down, capped at h6', () => {
    expect(demoteHeadings('<h1 id="a">Title</h1><h2>Part</h2><h5>x</h5><h6>y</h6>')).toBe(
      '<h3 id="a">Title</h3><h4>Part</h4><h6>x</h6><h6>y</h6>',
    );
  });

  it('leaves other tags and escaped text alone', () => {
    const html = '<p>&lt;h1&gt; is text, <hr> and <header>no</header></p><hgroup></hgroup>';
    expect(demoteHeadings(html)).toBe(html);
  });
});
