/**
 * The characters of an export.xml, decoded piece by piece as it is read. The Health app writes
 * UTF-8; a file saved again by a Windows tool (Notepad's "Unicode", PowerShell's `Out-File`) is
 * UTF-16 with a byte order mark, which read as UTF-8 would be no XML at all. The encoding is told
 * once, by the file's first bytes (a UTF-8 byte order mark is left to the parser, which skips it).
 */
import { StringDecoder } from 'node:string_decoder';

/** Turns bytes into text; a character cut between two pieces is kept for the next one. */
export interface PieceDecoder {
  /** The text of `bytes` (and of what was held back from the piece before). */
  write(bytes: Buffer): string;
  /** What was held back, at the end of the file. */
  end(): string;
}

/** Decodes UTF-16 in byte order `label` (the byte order mark is dropped). */
function utf16(label: 'utf-16le' | 'utf-16be'): PieceDecoder {
  const decoder = new TextDecoder(label);
  return {
    write: (bytes) => decoder.decode(bytes, { stream: true }),
    end: () => decoder.decode(),
  };
}

/** The decoder for a file whose first bytes are `head`: UTF-16 after its byte order mark, else UTF-8. */
export function decoderFor(head: Buffer): PieceDecoder {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return utf16('utf-16le');
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return utf16('utf-16be');
  return new StringDecoder('utf8');
}
