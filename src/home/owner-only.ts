/**
 * Health data is its owner's alone, whichever Klebb program writes it: the server, `npm run mcp`
 * (a desktop assistant may start it before the server ever ran, and so make the home), the
 * export, import, backups and Apple Health import commands. Each calls this once at start, so
 * the folders it creates are 0700 and its files 0600 (the home, data/, db/, the SQLite file and
 * its -wal/-shm, card files, snapshots, an exported archive), whatever the umask of the shell or
 * the desktop app that started it (usually 022, which makes everything readable by every user of
 * the machine). Only for a program's entry point: it changes the whole process.
 */
export function keepNewFilesOwnerOnly(): void {
  process.umask(0o077);
}
