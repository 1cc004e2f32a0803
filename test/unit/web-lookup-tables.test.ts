import { describe, expect, it } from 'vitest';
import { statusLine } from '../../web/chat/status-line.js';
import { importProblemText } from '../../web/views/import-problem.js';

// Names the web app reads from the server or the model (a tool name, an error code) that are
// also names of Object's own members are unknown names, shown with the generic words.
describe("the web app's lookup tables", () => {
  it('a tool named like a member of Object gets the generic status line', () => {
    for (const tool of ['constructor', 'toString', '__proto__']) {
      expect(statusLine({ phase: 'tool', tool }, () => undefined)).toBe('Working…');
      expect(statusLine({ phase: 'tool', tool, id: 'weight' }, () => 'Weight')).toBe('Working…');
    }
  });

  it("an import refusal coded like a member of Object shows the server's message", () => {
    expect(importProblemText('constructor', 'the file is not a Klebb export')).toBe(
      'The file is not a Klebb export',
    );
  });
});
