/**
 * The words a schedule report uses for its check-offs, from the view config's `vocab`
 * (docs/MANIFEST-SCHEMA.md "adherence-report", "schedule-timeline"): a strength plan counts
 * sessions done and skipped, not doses taken and missed. Every word has a default, so a config
 * without `vocab` reads as before. Shared by the browser and the server: no Node imports.
 */

/** The words, in the case they take inside a sentence. */
export interface ScheduleVocab {
  /** One check-off: "dose". */
  noun: string;
  /** Several: "doses". */
  nouns: string;
  /** Done: "taken". */
  taken: string;
  /** Not done when due: "missed". */
  missed: string;
  /** Done when not due: "extra". */
  extra: string;
  /** Still to do: "due". */
  due: string;
  /** Nothing due: "not due". */
  notDue: string;
  /** A heading over the report, when the config gives one. */
  headline?: string;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** "Skipped" → "skipped" inside a sentence; "REM" and "BPC" stay. */
const inSentence = (s: string): string => (/^\p{Lu}\p{Ll}/u.test(s) ? s[0].toLowerCase() + s.slice(1) : s);

/** "session" → "sessions", "glass" → "glasses", "diary" → "diaries". */
function plural(noun: string): string {
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** A word given as a label that names the noun too ("Sessions done"), without the noun: "done". */
function withoutNoun(word: string, noun: string, nouns: string): string {
  const lower = word.toLowerCase();
  for (const n of [nouns, noun]) {
    if (lower.startsWith(`${n.toLowerCase()} `)) return word.slice(n.length + 1).trim();
  }
  return word;
}

/** The words of a report's view config (`config.vocab`), defaults where it gives none. */
export function scheduleVocab(config: unknown): ScheduleVocab {
  const cfg = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  const v = cfg.vocab !== null && typeof cfg.vocab === 'object' ? (cfg.vocab as Record<string, unknown>) : {};
  const noun = inSentence(text(v.noun) ?? 'dose');
  const nouns = inSentence(text(v.nouns) ?? text(v.nounPlural) ?? (text(v.noun) ? plural(noun) : 'doses'));
  const word = (keys: string[], fallback: string) => {
    for (const k of keys) {
      const w = text(v[k]);
      if (w) return inSentence(withoutNoun(w, noun, nouns));
    }
    return fallback;
  };
  const out: ScheduleVocab = {
    noun,
    nouns,
    taken: word(['done', 'taken'], 'taken'),
    missed: word(['missed', 'skipped'], 'missed'),
    extra: word(['offSchedule', 'extra'], 'extra'),
    due: word(['upcoming', 'due'], 'due'),
    notDue: word(['rest', 'notDue'], 'not due'),
  };
  const headline = text(v.headline);
  if (headline) out.headline = headline;
  return out;
}
