/**
 * Three faults of damaged export.xml files that would otherwise cost the whole rest of the file,
 * or the import.
 *
 * A bare `&` (one that does not start a reference such as `&amp;`, `&#38;` or `&#x26;`, e.g. a
 * source named `Tom & Jerry` written by a third-party app or an edit by hand): saxes takes it as
 * the start of an entity and reads on to the next `;`, through every record in between (up to
 * the rest of the file). `BareAmpersands` writes such an `&` as `&amp;` before
 * saxes sees it, so the record keeps its text and the records after it are read.
 *
 * A tag that never ends (a quote or `>` missing, bytes that are not XML at all): saxes keeps the
 * unfinished attribute in memory until the end of the file, which a file of gigabytes makes
 * larger than the import may hold. `TagWatch` notices when no tag has ended for
 * MAX_XML_CHARS_WITHOUT_TAG characters; the import then stops there and says where.
 *
 * Bytes that are not XML (binary data in the file): saxes reports a problem every few
 * characters and keeps something of each, so a few megabytes of them exhaust the import's
 * memory. `notXml` tells such a piece by its rate of problems; the import stops there too.
 */

/**
 * Characters per XML problem below which a piece of the file is not XML at all. Bytes that are
 * not XML (a copy that went wrong, binary data in the file) give a problem every few characters
 * (random bytes: one per 5 to 7), and saxes keeps something of each (about 40 bytes: 2 MB of
 * them exhausted the import's memory); a damaged export gives far fewer (a stray control
 * character in every record, as Apple once wrote them, is one problem per 50 characters even in
 * the shortest records).
 */
const MIN_CHARS_PER_XML_PROBLEM = 16;

/** True when `chars` characters of the file gave `problems` XML problems: they are not XML. */
export function notXml(chars: number, problems: number): boolean {
  return problems * MIN_CHARS_PER_XML_PROBLEM > chars;
}

/**
 * Longest run of the file with no tag ending in it, characters. Apple's longest tags (a record
 * with its device description) are well under 2 KB and the DTD at the top is about 10 KB, so
 * 4 Mi characters without one means the file is damaged there, long before the unfinished tag
 * could exhaust the import's memory.
 */
export const MAX_XML_CHARS_WITHOUT_TAG = 4 * 1024 * 1024;

/**
 * A reference `&` may start: one of XML's five predefined entities (an export declares no others:
 * `&nbsp;` is not XML either), a decimal or a hexadecimal character reference.
 */
const XML_REF = /&(?:amp;|lt;|gt;|quot;|apos;|#[0-9]{1,8};|#x[0-9A-Fa-f]{1,6};)/y;
/** The longest reference XML_REF accepts: a later `&` this close to a chunk's end may be cut. */
const LONGEST_REF = 11;

/**
 * `&lt;` or `&gt;` at `at`: a shortcut past the regular expression for the references an export
 * is full of (every `device` attribute holds several).
 */
function isLtOrGt(text: string, at: number): boolean {
  const c = text.charCodeAt(at + 1);
  return (c === 108 || c === 103) && text.charCodeAt(at + 2) === 116 && text.charCodeAt(at + 3) === 59;
}

/** Escapes bare `&` in a stream of text given chunk by chunk (see the module comment). */
export class BareAmpersands {
  /** Bare `&` written as `&amp;` so far. */
  count = 0;
  /** The end of the previous chunk, held back because a reference may go on in the next one. */
  private held = '';

  /** The chunk with every bare `&` escaped; the last few characters may wait for the next chunk. */
  fix(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    const lastAmp = text.lastIndexOf('&');
    if (lastAmp < 0) return text;
    if (lastAmp >= text.length - LONGEST_REF && text.indexOf(';', lastAmp) < 0) {
      this.held = text.slice(lastAmp);
      text = text.slice(0, lastAmp);
    }
    let at = text.indexOf('&');
    let out = '';
    let from = 0;
    while (at >= 0) {
      XML_REF.lastIndex = at;
      if (!isLtOrGt(text, at) && !XML_REF.test(text)) {
        out += `${text.slice(from, at)}&amp;`;
        from = at + 1;
        this.count++;
      }
      at = text.indexOf('&', at + 1);
    }
    return from === 0 ? text : out + text.slice(from);
  }

  /** What was held back, at the end of the file (escaped when it is a bare `&`). */
  end(): string {
    const rest = this.held;
    this.held = '';
    if (!rest) return '';
    XML_REF.lastIndex = 0;
    if (XML_REF.test(rest)) return rest;
    this.count++;
    return `&amp;${rest.slice(1)}`;
  }
}

/** Counts the characters read since a tag last ended (see the module comment). */
export class TagWatch {
  private since = 0;
  private tagsBefore = 0;

  /**
   * `chars` more characters were given to the parser, and `tags` tags have ended in all so far.
   * @returns true once MAX_XML_CHARS_WITHOUT_TAG characters went by without a tag ending.
   */
  read(chars: number, tags: number): boolean {
    if (tags !== this.tagsBefore) {
      this.tagsBefore = tags;
      this.since = 0;
    } else this.since += chars;
    return this.since > MAX_XML_CHARS_WITHOUT_TAG;
  }
}
