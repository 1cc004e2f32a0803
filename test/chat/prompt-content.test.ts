// What the prompt must still tell the model after the diet (docs/CHAT-AGENT.md "Tools", "The system
// prompt and prompt caching"), read from the request bodies the model's stand-in receives: the
// refusal shape and its feedback note, validate before every create and patch, no values in a
// reminder, when to call get_recent_activity, the catalogue blocks of the static part, the card
// list and reports of the instance part, the date of the volatile part; a compact card list; and
// the moved catalogues one read_doc away inside a real turn.
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';

const servers = chatServers({});
afterEach(() => servers.closeAll(({ gw }) => expect(gw.remaining).toBe(0)));

function card(id: string, label: string, description: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id, label, emoji: '⚖️', view: { enabled: true, component: 'generic-card' } },
    description,
    data: [],
  };
}

// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function parts(body: any): { static: string; instance: string; volatile: string } {
  const [s, i, v] = body.messages[0].content;
  return { static: s.text, instance: i.text, volatile: v.text };
}

describe('the system prompt as sent', () => {
  it('carries what the chat contract requires, in the parts it names', async () => {
    const { gw, s } = await servers.boot();
    gw.script({ kind: 'reply', text: 'Hi.' });
    await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
    const p = parts(gw.requests[0].body);
    // refusal when no tool fits, and the gap logged as a feature request
    expect(p.static).toContain(
      "I can't do that in one step right now: <one-line reason>. <closest workaround>",
    );
    expect(p.static).toMatch(/`note_feedback` with `kind: "feature"`/);
    // validate before every create and patch
    expect(p.static).toContain(
      'Call `validate_manifest` before every `create_manifest` and every `patch_manifest`',
    );
    // reminders: the length limits, and no values or past entries in the text
    expect(p.static).toMatch(/`title` ≤ 30 characters, `body` ≤ 80, `label` ≤ 80/);
    expect(p.static).toContain('No numbers, values, doses or past entries in a reminder');
    // recency before tracking questions and before authoring a card (prompt and tool description)
    expect(p.static).toContain('get_recent_activity');
    const tool = gw.requests[0].body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'get_recent_activity',
    );
    expect(tool.function.description).toMatch(/how is my tracking going.*before authoring a card/);
    // static: base prompt + docs, categories, combination cards, row paths, HAE metrics
    for (const h of [
      '## Available docs',
      '## Manifest categories',
      '## Combination cards',
      '## Row paths',
      '## Health Auto Export metrics',
    ])
      expect(p.static, h).toContain(h);
    expect(p.static).toContain('- docs/CHAT-HANDBOOK.md: ');
    // instance: cards and reports; volatile: the date
    expect(p.instance).toContain('## Currently available cards');
    expect(p.instance).toContain('## Available reports');
    expect(p.volatile).toContain("## Today's date");
  });

  it('lists each card on one short line; its description stays with list_manifests', async () => {
    const { gw, s } = await servers.boot();
    const long = 'Morning weight before breakfast, one reading a day, scale in the bathroom.';
    expect((await s.api('/api/manifests', { json: card('weight', 'Weight', long) })).status).toBe(201);
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'l1', name: 'list_manifests', arguments: {} }] },
      { kind: 'reply', text: 'One card.' },
    );
    await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'my cards?' }] } });
    const { instance } = parts(gw.requests[0].body);
    expect(instance.split('\n')).toContain('- weight: Weight');
    expect(instance).not.toContain(long);
    const listed = contentText(gw.requests[1].body.messages.at(-1).content);
    expect(listed).toContain(long.slice(0, 40));
  });

  it('the Health Auto Export metrics are one read_doc away in a turn', async () => {
    const { gw, s } = await servers.boot();
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'd1', name: 'read_doc', arguments: { path: 'docs/HEALTH-AUTO-EXPORT.md#the-metrics' } },
        ],
      },
      { kind: 'reply', text: 'weight_body_mass gives {date, kg}.' },
    );
    await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'which metric is weight?' }] } });
    const p = parts(gw.requests[0].body);
    expect(p.static).toContain('docs/HEALTH-AUTO-EXPORT.md#the-metrics');
    expect(p.static).not.toContain('weight_body_mass');
    const result = JSON.parse(contentText(gw.requests[1].body.messages.at(-1).content));
    expect(result.section).toBe('the-metrics');
    expect(result.content).toMatch(/\| `weight_body_mass` \(`body_mass`\) \| body \| `\{date, kg\}` \|/);
  });
});
