/**
 * The card a fresh HEALTH_HOME starts with ("created on first boot with a welcome card"): a few
 * words for people and, drawn by the web app's `welcome-card` renderer, a pick-a-few step over the
 * gallery's featured cards. It hides itself once the first other card is created
 * (docs/MANIFEST-SCHEMA.md `meta.welcome`).
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
      view: { enabled: true, component: 'welcome-card', slot: 'top' },
    },
    description:
      'Shown on a new dashboard. It hides itself when you add your first card; delete it any time.',
    data: {
      markdown: [
        '## Welcome 👋',
        '',
        'Klebb keeps track of what you want to watch: sleep, weight, blood pressure, medicines, your mood. Each one is a card on this page.',
        '',
        '- **Add a card:** tick a few below, or see them all in Settings › Cards.',
        '- **Log an entry:** use the card, or tell the chat: "I slept seven hours".',
        '- **Hide a card:** switch it off in Settings. What you logged is kept.',
      ].join('\n'),
    },
  };
}
