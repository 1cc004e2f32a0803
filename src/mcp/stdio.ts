/**
 * `npm run mcp`: the MCP server over stdio for a desktop assistant that starts Klebb itself
 * (docs/MCP.md). Opens HEALTH_HOME like the server does (a running server beside it is fine:
 * SQLite in WAL mode, and manifest files are watched) and serves until stdin closes, then answers the requests still open
 * before it exits (stdio-pending.ts). Nothing
 * but MCP messages goes to stdout; problems go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { readCommandLine } from '../command-line.js';
import { loadConfig } from '../config.js';
import { homeFileProblem } from '../home/home-files.js';
import { homeFolderProblem } from '../home/home-folders.js';
import { keepNewFilesOwnerOnly } from '../home/owner-only.js';
import { openInstance } from '../instance.js';
import { createMcpServer } from './mcp-server.js';
import { numberCheckedLines } from './number-refusal.js';
import { trackPendingRequests } from './stdio-pending.js';

async function main(): Promise<void> {
  // --help, or an argument meant as a setting: answered at once, not by waiting for MCP on stdin
  const line = readCommandLine('mcp', process.argv.slice(2));
  if (!line.run) {
    (line.code === 0 ? process.stdout : process.stderr).write(`${line.text}\n`);
    process.exit(line.code);
  }
  keepNewFilesOwnerOnly();
  const config = loadConfig(process.env);
  // a home that is a file or may not be written: the sentence the server gives, not a raw ENOTDIR
  const folders = homeFolderProblem(config.home, config.dataDir);
  if (folders) {
    process.stderr.write(`klebb mcp: cannot start: ${folders}\n`);
    process.exit(2);
  }
  const homeFiles = homeFileProblem(config.home, config.dataDir);
  if (homeFiles) {
    process.stderr.write(`klebb mcp: cannot start: ${homeFiles}\n`);
    process.exit(2);
  }
  const log = {
    info: () => {},
    warn: (obj: object, msg?: string) => process.stderr.write(`${msg ?? ''} ${JSON.stringify(obj)}\n`),
  };
  const inst = await openInstance(config, { log });
  const server = createMcpServer(
    { cards: inst.cards, config: inst.config, layout: inst.layout, timeZone: () => inst.user.timeZone() },
    { actor: 'mcp:stdio', readOnly: false },
  );
  // numbers are checked on the request text, before the SDK parses it (./number-refusal.ts)
  // a line past the SDK's buffer, or past the body limit of /mcp, is answered, not dropped
  const maxLine = Math.min(inst.config.bodyLimitBytes, STDIO_DEFAULT_MAX_BUFFER_SIZE - 1);
  const stdin = process.stdin.pipe(numberCheckedLines((line) => process.stdout.write(line), maxLine));
  const transport = new StdioServerTransport(stdin, process.stdout);
  const pending = trackPendingRequests(transport);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await inst.close();
      process.exit(0);
    })();
    return stopping;
  };
  transport.onclose = () => void stop();
  // stdin closed right after the last request: each open request is answered first
  stdin.on('end', () => void pending.settled().then(stop));
  await server.connect(transport);
}

main().catch((err) => {
  process.stderr.write(`klebb mcp: ${(err as Error).message}\n`);
  process.exit(1);
});
