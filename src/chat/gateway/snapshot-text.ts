/**
 * The new text of each streamed piece, whether the server sends deltas (each piece adds to the
 * text) or snapshots (each piece is the whole text so far: some proxies and relays send it so).
 * Read as deltas, snapshots show every beginning again and again ("The The quick The quick
 * brown"); read as snapshots, real deltas lose text. The two are told apart by a strong signal
 * only: a piece that begins with the whole text so far and adds to it is held back, and when
 * SNAPSHOT_RUN such pieces follow one another and the text is SNAPSHOT_MIN_CHARS long, the stream
 * is taken as snapshots from then on (only what each piece adds is new). Any other piece ends the
 * run, and the pieces held are read as the deltas they were ('ha' then 'haha' stays 'hahaha').
 * Two more rules, for servers that end a stream with the whole answer once more: a piece shaped
 * like a whole message (`message`, no `delta`) is the text so far, so only what it adds is new;
 * a delta repeating the whole text so far word for word adds nothing, from RESTATEMENT_MIN_CHARS
 * on (a shorter one may be a real delta).
 */

/** Successive pieces, each beginning with the whole text before it, that make a stream of snapshots. */
const SNAPSHOT_RUN = 2;
/** How long the text must be before a run of growing pieces is taken as snapshots. */
const SNAPSHOT_MIN_CHARS = 10;
/** Text that restates everything so far is a restatement only from this length on. */
const RESTATEMENT_MIN_CHARS = 20;

/** Reads the pieces of one text channel (the answer, or the reasoning). */
export interface PieceReader {
  /** The text of one piece (`whole`: it came as a whole message); returns what it adds now ('' while held). */
  push(text: string, whole?: boolean): string;
  /** The stream ended: the text held back, to add now. */
  end(): string;
  /** True once the stream was taken as snapshots. */
  readonly snapshots: boolean;
}

/** Creates a reader for one channel. */
export function createPieceReader(): PieceReader {
  let received = ''; // the text added so far
  let held: string[] = []; // growing pieces not yet known to be snapshots or deltas
  let snapshots = false;

  const add = (text: string) => {
    received += text;
    return text;
  };
  const flush = () => {
    const text = held.join('');
    held = [];
    return add(text);
  };

  const asSnapshot = (text: string): string => {
    if (text.startsWith(received)) return add(text.slice(received.length));
    if (received.startsWith(text)) return ''; // an older snapshot again
    snapshots = false; // the server sends deltas after all
    return add(text);
  };

  return {
    get snapshots() {
      return snapshots;
    },
    push(text: string, whole = false): string {
      if (text === '') return '';
      if (snapshots) return asSnapshot(text);
      if (whole) {
        const before = flush();
        return (
          before +
          (received !== '' && text.startsWith(received) ? add(text.slice(received.length)) : add(text))
        );
      }
      if (held.length === 0 && text === received && received.length >= RESTATEMENT_MIN_CHARS) return '';
      const soFar = held.length > 0 ? held[held.length - 1] : received;
      if (soFar !== '' && text.length > soFar.length && text.startsWith(soFar)) {
        held.push(text);
        if (held.length < SNAPSHOT_RUN || text.length < SNAPSHOT_MIN_CHARS) return '';
        snapshots = true;
        held = [];
        return add(text.slice(received.length));
      }
      return flush() + add(text);
    },
    end: flush,
  };
}
