/**
 * A test server wired to its own scripted gateway (the model's stand-in), for chat tests:
 * `const chat = chatServers({CHAT_ITER_TIMEOUT_MS: '1000'})`, then `await chat.boot()` in a test
 * and `afterEach(() => chat.closeAll())`. Each boot gets a fresh gateway and HEALTH_HOME.
 */
import { type ScriptedGateway, startScriptedGateway } from './scripted-gateway.js';
import { startServer, type TestServer } from './server.js';

/** Boots and tracks server + gateway pairs; `defaults` are merged under each boot's `env`. */
export function chatServers(defaults: Record<string, string> = {}) {
  const opened: { gw: ScriptedGateway; s: TestServer }[] = [];
  return {
    async boot(env: Record<string, string> = {}): Promise<{ gw: ScriptedGateway; s: TestServer }> {
      const gw = await startScriptedGateway();
      const s = await startServer({
        env: {
          CHAT_ENDPOINT_URL: gw.url,
          CHAT_API_KEY: 'sk-test',
          CHAT_MODEL: 'test-model',
          ...defaults,
          ...env,
        },
      });
      opened.push({ gw, s });
      return { gw, s };
    },
    /** Closes every pair booted so far; `each` runs first on each (e.g. to assert the script was used up). */
    async closeAll(each?: (pair: { gw: ScriptedGateway; s: TestServer }) => void): Promise<void> {
      for (const pair of opened.splice(0)) {
        each?.(pair);
        await pair.s.close();
        await pair.gw.close();
      }
    },
  };
}
