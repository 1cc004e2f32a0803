/**
 * The end of a file stream an unpacking step writes, when the step fails. A write stream opens its
 * file while the data starts to flow; when the data fails first (a damaged archive failing at its
 * first bytes), the file is made after the failure, so removing it at once would leave it behind.
 */
import type fs from 'node:fs';

/** Stops `file` (a write stream) and resolves once its file is closed (at once when it is). */
export function closedFile(file: fs.WriteStream): Promise<void> {
  if (file.closed) return Promise.resolve();
  return new Promise((resolve) => {
    file.once('close', () => resolve());
    file.destroy();
  });
}
