/**
 * The chat panel's tool status line stays readable: at least TOOL_STATUS_MIN_MS after the tool,
 * and, for a card the panel learns the label of only after the tool ran (the agent just made
 * it), again that long once the line can name it by its label.
 */
import { describe, expect, it } from 'vitest';
import {
  holdEndsAt,
  holdTool,
  labelsLearned,
  shownPhase,
  TOOL_LABEL_WAIT_MS,
  TOOL_STATUS_MIN_MS,
} from '../../web/chat/tool-status-hold.js';

const thinking = { phase: 'thinking' } as const;
const append = { phase: 'tool', tool: 'append_row', id: 'migraine' } as const;
const none = () => false;
const all = () => true;

describe('tool status hold', () => {
  it("holds a known card's line for the minimum, then shows thinking", () => {
    const held = holdTool(append, 1_000, all);
    expect(shownPhase(thinking, held, 1_000 + TOOL_STATUS_MIN_MS - 1)).toBe(append);
    expect(shownPhase(thinking, held, 1_000 + TOOL_STATUS_MIN_MS)).toBe(thinking);
  });

  it("waits for an unknown card's label, then holds the named line for the minimum again", () => {
    let held = holdTool(append, 1_000, none);
    expect(shownPhase(thinking, held, 1_000 + TOOL_STATUS_MIN_MS + 100)).toBe(append);
    held = labelsLearned(held, 3_000, all);
    expect(held.namedAt).toBe(3_000);
    expect(holdEndsAt(held)).toBe(3_000 + TOOL_STATUS_MIN_MS);
    expect(shownPhase(thinking, held, 3_000 + TOOL_STATUS_MIN_MS - 1)).toBe(append);
    expect(shownPhase(thinking, held, 3_000 + TOOL_STATUS_MIN_MS)).toBe(thinking);
    // learning again changes nothing
    expect(labelsLearned(held, 3_500, all)).toBe(held);
  });

  it('gives up on a label that never comes, and does not bring the line back for one that comes late', () => {
    const held = holdTool(append, 1_000, none);
    expect(shownPhase(thinking, held, 1_000 + TOOL_LABEL_WAIT_MS)).toBe(thinking);
    const late = labelsLearned(held, 1_000 + TOOL_LABEL_WAIT_MS + 1, all);
    expect(late).toBe(held);
    expect(shownPhase(thinking, late, 1_000 + TOOL_LABEL_WAIT_MS + 2)).toBe(thinking);
  });

  it('a tool without a card is held the minimum; other phases and no hold pass through', () => {
    const list = { phase: 'tool', tool: 'list_manifests' } as const;
    const held = holdTool(list, 0, none);
    expect(shownPhase(thinking, held, TOOL_STATUS_MIN_MS - 1)).toBe(list);
    expect(shownPhase(thinking, held, TOOL_STATUS_MIN_MS)).toBe(thinking);
    expect(shownPhase(append, held, 10)).toBe(append);
    expect(shownPhase(thinking, null, 10)).toBe(thinking);
    expect(shownPhase(null, held, 10)).toBe(null);
  });
});
