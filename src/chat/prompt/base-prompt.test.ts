import { describe, expect, it } from 'vitest';
import { ALL_TOOLS } from '../tools/registry.js';
import { DEFAULT_BASE_PROMPT } from './base-prompt.js';

const prompt = DEFAULT_BASE_PROMPT('Ava', 'Klebb Home');

/** The text of one `## ` section, up to the next. */
function section(title: string): string {
  const start = prompt.indexOf(`\n## ${title}\n`);
  expect(start, `section ${title}`).toBeGreaterThan(-1);
  const end = prompt.indexOf('\n## ', start + 4);
  return prompt.slice(start, end === -1 ? undefined : end);
}

describe('DEFAULT_BASE_PROMPT', () => {
  it('opens with the agent and instance names', () => {
    expect(prompt.split('\n')[0]).toMatch(/^You are Ava, the assistant inside Klebb Home/);
    expect(prompt.split('\n')[0]).toMatch(/every card is one manifest file/);
  });

  it('mentions every tool of ALL_TOOLS', () => {
    for (const t of ALL_TOOLS) expect(prompt, t.name).toContain(`\`${t.name}\``);
  });

  it('names every registered tool exactly once in the tools section, and no unknown tool', () => {
    const named = [...section('Tools').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect([...named].sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
  });

  it('has the sections the brief asks for', () => {
    for (const s of [
      'Stance',
      'How card data is stored',
      'Read before you write',
      'Validate before you write',
      'Confirmation',
      'Reminder copy',
      'Reading intent and acting',
      'When no tool fits',
      'Creating cards',
      'Check the docs when unsure',
      'Dates',
      'Replies',
    ]) {
      section(s);
    }
  });

  it('states the refusal shape and logs the gap as a feature request', () => {
    const s = section('When no tool fits');
    expect(s).toContain("I can't do that in one step right now: <one-line reason>. <closest workaround>");
    expect(s).toContain('`note_feedback` with `kind: "feature"`');
    expect(s).toMatch(/Unsupported:/);
    expect(s).toMatch(/Just needs a question:/);
  });

  it('states the cases the person approves in the app', () => {
    const s = section('Confirmation');
    for (const needle of [
      'delete_manifest',
      'hide_card',
      'remove_row',
      'meta.writeable.inputs',
      'fromWebapp',
      'remove_notification',
      'Approve or Decline',
      'APPROVAL_REQUIRED',
    ]) {
      expect(s).toContain(needle);
    }
  });

  it('carries no year, so it never anchors the model on one', () => {
    expect(prompt).not.toMatch(/\b(19|20)\d\d\b/);
  });

  it('is at most 7 kB: what is needed now and then lives in docs/CHAT-HANDBOOK.md, which it points to', () => {
    expect(Buffer.byteLength(prompt, 'utf8')).toBeLessThanOrEqual(7_000);
    for (const anchor of ['#tools-in-detail', '#lab-results-card', '#creating-cards'])
      expect(prompt).toContain(`docs/CHAT-HANDBOOK.md${anchor}`);
  });

  it('is deterministic', () => {
    expect(DEFAULT_BASE_PROMPT('Ava', 'Klebb Home')).toBe(prompt);
  });

  it('sends the Lab results work to the row tools and keeps withheld reports closed', () => {
    const text = section('Reports and lab results');
    expect(text).toContain('append_row');
    expect(text).toContain('read_manifest_rows');
    expect(text).toMatch(/withheld pending OCR verification/i);
    expect(text).toContain('docs/CHAT-HANDBOOK.md#lab-results-card');
  });
});
