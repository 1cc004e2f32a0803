import { describe, expect, it } from 'vitest';
import { dryRunValidate } from '../../cards/validate-manifest.js';
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

  it('has exactly one bullet per registered tool in the tools section, and none for unknown tools', () => {
    const bullets = [...section('Tools and when to use each').matchAll(/^- `([a-z_]+)`:/gm)].map((m) => m[1]);
    expect([...bullets].sort()).toEqual(ALL_TOOLS.map((t) => t.name).sort());
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
      'Approve and Decline',
      'APPROVAL_REQUIRED',
    ]) {
      expect(s).toContain(needle);
    }
  });

  it('carries no year, so it never anchors the model on one', () => {
    expect(prompt).not.toMatch(/\b(19|20)\d\d\b/);
  });

  it('is 12-20 kB', () => {
    const bytes = Buffer.byteLength(prompt, 'utf8');
    expect(bytes).toBeGreaterThanOrEqual(12_000);
    expect(bytes).toBeLessThanOrEqual(20_000);
  });

  it('its worked manifests pass validate_manifest', () => {
    const examples = [...prompt.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]));
    expect(examples.map((e) => e.meta.view.component)).toEqual(['generic-card', 'list-card']);
    for (const e of examples) {
      expect(dryRunValidate(e)).toEqual({ ok: true });
      expect(typeof e.meta.view.display).toBe('object');
      const keys = e.meta.writeable.inputs.map((i: { key: string }) => i.key);
      expect(keys.length).toBeGreaterThan(0);
    }
  });

  it('is deterministic', () => {
    expect(DEFAULT_BASE_PROMPT('Ava', 'Klebb Home')).toBe(prompt);
  });

  it('describes the Lab results card as a valid manifest, filled through the row tools', () => {
    const text = section('Reports and lab results');
    expect(text).toContain('append_row');
    expect(text).toContain('read_manifest_rows');
    expect(text).toContain('withheld pending OCR verification');
    const line = text.split('\n').find((l) => l.startsWith('- The card: ')) ?? '';
    const manifest = JSON.parse(line.slice(line.indexOf('`') + 1, line.lastIndexOf('`')));
    expect(manifest.meta.id).toBe('lab-results');
    expect(dryRunValidate(manifest)).toEqual({ ok: true });
  });
});
