/**
 * Voice mode (docs/CHAT-AGENT.md "System prompt structure" voice paragraph and "Voice
 * envelope"): the instruction that makes the model answer with one JSON
 * object `{speak, display}`, and the parser that gets those two strings back out of whatever the
 * model actually wrote.
 */

/**
 * The voice-mode instruction, placed in front of the static prompt text (voice turns get their own cache entry because of it). Its rules: one JSON object; speak = 1-3 sentences, at most 40 words, plain words only;
 * display = the full markdown answer; small talk allowed; no invented UI-state phrases.
 */
export const VOICE_ENVELOPE = `VOICE MODE. This conversation is spoken aloud. Whatever the instructions below say about formatting, your final reply must be exactly one JSON object and nothing else:
{"speak": "...", "display": "..."}
- "speak" is what the voice says: one to three short sentences, 40 words at most. Plain spoken language only: no markdown, no emoji, no links, no file paths or card ids, no symbols meant to be read as characters. Write abbreviations and units out in full ("milligrams", "blood pressure", "beats per minute").
- "display" is the complete answer exactly as you would write it in text chat, markdown allowed. It is shown on screen below the spoken part.
- Tool calls work as usual; only your final reply takes this shape.
- Small talk is fine: thanks, greetings, goodbyes and "okay" get a short natural reply in both fields, such as {"speak": "You're welcome.", "display": "You're welcome."}.
- Never fill either field with status or placeholder text such as "No response", "Loading", "Processing" or "...". If there is nothing to report, say so in a plain sentence.
- Escape quotation marks and line breaks inside the strings as JSON requires.
Original system prompt follows.`;

/** What a voice turn returns to the client. */
export interface VoiceReply {
  speak: string;
  display: string;
}

/** A raw control character as a JSON escape: `\n`, `\r`, `\t`, else `\u00XX`. */
function escapeControl(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Input: text and the index of a `{`. Output: the balanced object starting there, with raw
 * control characters inside string literals escaped so JSON.parse accepts it, and the index just
 * past its closing brace; null when the braces never balance. Strings (double quotes only) and
 * their backslash escapes are tracked so braces inside strings do not count.
 */
export function scanObject(text: string, start: number): { json: string; end: number } | null {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let out = '';
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      const control = ch.charCodeAt(0) < 0x20;
      if (escaped) {
        escaped = false;
        // a backslash before a raw control character: keep one escape, not a literal backslash
        out = control ? out.slice(0, -1) + escapeControl(ch) : out + ch;
      } else if (ch === '\\') {
        escaped = true;
        out += ch;
      } else if (ch === '"') {
        inString = false;
        out += ch;
      } else {
        out += control ? escapeControl(ch) : ch;
      }
      continue;
    }
    out += ch;
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return { json: out, end: i + 1 };
    }
  }
  return null;
}

/** The speak/display strings of a parsed value, or null when it is not an envelope. */
function envelopeOf(value: unknown): { speak?: string; display?: string } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const speak = typeof o.speak === 'string' ? o.speak : undefined;
  const display = typeof o.display === 'string' ? o.display : undefined;
  return speak === undefined && display === undefined ? null : { speak, display };
}

/**
 * Input: model text. Output: the last top-level balanced `{...}` in it whose `speak` or `display`
 * is a string, or null. An envelope's inner objects are not candidates; a non-envelope object is
 * searched inside, and an unbalanced `{` in prose is skipped. Source:
 */
export function findVoiceEnvelope(text: string): { speak?: string; display?: string } | null {
  let found: { speak?: string; display?: string } | null = null;
  let i = text.indexOf('{');
  while (i !== -1) {
    const obj = scanObject(text, i);
    let next = i + 1;
    if (obj) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(obj.json);
      } catch {
        parsed = undefined;
      }
      const env = envelopeOf(parsed);
      if (env) {
        found = env;
        next = obj.end;
      }
    }
    i = text.indexOf('{', next);
  }
  return found;
}

/** Pictographic emoji and the joiners, variation selectors, skin tones, keycaps and flag letters that build them. */
const EMOJI_RE =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0E|\uFE0F|\u20E3/gu;

/**
 * Input: markdown text. Output: the same text for a voice to read: emoji removed, markdown
 * markers (headings, list bullets, quotes, emphasis, code ticks, link syntax) removed, whitespace
 * collapsed to single spaces (none left before punctuation). Source: docs/CHAT-AGENT.md "Voice envelope" (no envelope: speak is
 * the reply with pictographic emoji stripped); markers are stripped too so they are not read out.
 */
export function speakableText(text: string): string {
  return text
    .replace(EMOJI_RE, '')
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^[ \t]*[-*+][ \t]+/gm, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2')
    .replace(/~~([^~\n]+)~~/g, '$1')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([!?.,;:])/g, '$1')
    .trim();
}

/**
 * Input: the model's final text in a voice turn. Output: `{speak, display}`. With an envelope
 * (findVoiceEnvelope): each field trimmed, then speak = speak || speakableText(display) (the
 * markers and emoji are stripped so they are not read out)
 * and display = display || speak. Without one: display = the text (trimmed), speak = speakableText(text).
 * Source: docs/CHAT-AGENT.md "Voice envelope" (literal newlines in strings).
 */
export function parseVoiceReply(text: string): VoiceReply {
  const env = findVoiceEnvelope(text);
  if (env) {
    const speak = (env.speak ?? '').trim();
    const display = (env.display ?? '').trim();
    // a display-only envelope is read aloud without its markdown or emoji
    return { speak: speak || speakableText(display), display: display || speak };
  }
  return { speak: speakableText(text), display: text.trim() };
}
