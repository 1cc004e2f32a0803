/**
 * The server's port, checked before anything of the home is opened or printed: a port already
 * in use (another Klebb, another program) stops the start with a sentence naming the port and
 * the PORT variable, instead of a set-up link that would not work followed by a listen error.
 */
import net from 'node:net';

/** The sentence for a port that is taken (`EADDRINUSE` kept in it: what people search for). */
export function portInUseMessage(host: string, port: number): string {
  return `port ${port} on ${host} is already in use (EADDRINUSE): stop the program using it, or set PORT to a free port`;
}

/**
 * Why the server cannot listen on `host`:`port`, or null when it can: listens there for a moment
 * and closes again. Port 0 (any free port) is always free.
 * @returns portInUseMessage for a taken port; another listen error's own message otherwise.
 */
export function portProblem(host: string, port: number): Promise<string | null> {
  if (port === 0) return Promise.resolve(null);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      resolve(
        err.code === 'EADDRINUSE'
          ? portInUseMessage(host, port)
          : `cannot listen on ${host}:${port}: ${err.message}`,
      );
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
