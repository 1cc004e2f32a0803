/**
 * The card a fresh HEALTH_HOME starts with ("created on first boot with a welcome card").
 * It hides itself once the first other card is created (docs/MANIFEST-SCHEMA.md `meta.welcome`).
 */

/** The welcome manifest, data included, in the klebb.datafile.v1 format. */
export function welcomeManifest(): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'welcome',
      label: 'Welcome to Klebb',
      emoji: '👋',
      order: -100,
      view: { enabled: true, component: 'markdown-doc', slot: 'top' },
    },
    description:
      'Shown on a new dashboard. It hides itself when you add your first card; delete it any time.',
    data: {
      markdown: [
        '## Welcome 👋',
        '',
        'Every card on this dashboard is one JSON file in the `data/` folder of your Klebb home.',
        '',
        '- **Add a card:** drop a manifest file into `data/`, ask the chat agent, or `POST /api/manifests`.',
        "- **Log an entry:** use the card's form, the chat, or the REST API (`docs/API.md`).",
        '- **Hide a card:** switch it off in Settings. **Remove it:** delete its file.',
        '',
        'The manifest format is described in `docs/MANIFEST-SCHEMA.md`.',
      ].join('\n'),
    },
  };
}
