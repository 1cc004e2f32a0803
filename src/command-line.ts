/**
 * The command line of the two long-running programs, the server (`npm start`) and the MCP server
 * over stdio (`npm run mcp`). Both take their settings from environment variables, none from
 * arguments; before, an argument was ignored: `npm start -- --help` or `npm start -- --port 9000`
 * started a server on port 8080 and made a new home, and `npm run mcp -- --help` sat waiting for
 * MCP messages on a terminal. Now `--help` (`-h`) prints what the program takes and exits 0, and any
 * other argument stops it before anything is made, naming the argument and the variable to use.
 */

/** What a program does with its command line: run, or print `text` and exit with `code`. */
export type CommandLine = { run: true } | { run: false; code: 0 | 2; text: string };

const SETTINGS = [
  'Settings are environment variables, not arguments; the main ones:',
  '  HEALTH_HOME      folder of all state (default ~/klebb)',
  '  PORT             TCP port (default 8080)',
  '  HOST             address to listen on (default 0.0.0.0; 127.0.0.1 for this machine only)',
  '  AGENT_API_TOKEN  bearer token for scripts and agents',
  '  HEALTH_ORIGIN    the public https:// origin behind a reverse proxy',
  '  CHAT_ENDPOINT_URL, CHAT_API_KEY, CHAT_MODEL  the chat model',
  'Every variable: README.md, Configuration.',
];

const PROGRAMS = {
  server: {
    usage: 'usage: npm start (node dist/server/main.js), e.g. HEALTH_HOME=/srv/klebb PORT=9000 npm start',
    what: 'Serves the Klebb dashboard, its REST API and MCP endpoint over HTTP.',
    prefix: 'klebb',
  },
  mcp: {
    usage: 'usage: npm run mcp (node dist/src/mcp/stdio.js), e.g. HEALTH_HOME=/srv/klebb npm run mcp',
    what: 'The MCP server over stdio for a desktop assistant: MCP messages on stdin and stdout (docs/MCP.md).',
    prefix: 'klebb mcp',
  },
} as const;

/** True when `argv` asks for help (`--help` or `-h`), which a program answers with exit 0. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--help' || a === '-h');
}

/**
 * Reads the arguments of the server or the MCP program (`argv` without node and the script).
 * @returns run: true for none; the help text (exit 0) for `--help`; for anything else a message
 *   naming the first argument, the variable it likely meant, and the usage (exit 2).
 */
export function readCommandLine(program: keyof typeof PROGRAMS, argv: readonly string[]): CommandLine {
  const p = PROGRAMS[program];
  if (argv.length === 0) return { run: true };
  if (asksForHelp(argv)) return { run: false, code: 0, text: [p.usage, p.what, '', ...SETTINGS].join('\n') };
  const first = argv[0];
  const variable = meantVariable(first);
  const hint = variable
    ? `set the environment variable ${variable} instead (e.g. ${variable}=... ${program === 'server' ? 'npm start' : 'npm run mcp'})`
    : 'settings are environment variables (--help lists them)';
  return {
    run: false,
    code: 2,
    text: `${p.prefix}: cannot start: unknown argument ${JSON.stringify(first)}: ${hint}\n${p.usage}`,
  };
}

/** The variable an option such as `--port=9000` or `--home` most likely stands for, or null. */
function meantVariable(arg: string): string | null {
  const name = arg.replace(/^-+/, '').split('=')[0].toLowerCase().replace(/-/g, '_');
  const known: Record<string, string> = {
    port: 'PORT',
    p: 'PORT',
    host: 'HOST',
    bind: 'HOST',
    home: 'HEALTH_HOME',
    health_home: 'HEALTH_HOME',
    data: 'HEALTH_DATA_DIR',
    data_dir: 'HEALTH_DATA_DIR',
    token: 'AGENT_API_TOKEN',
    origin: 'HEALTH_ORIGIN',
  };
  return known[name] ?? null;
}
