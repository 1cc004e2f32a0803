/**
 * A local push service for the Web Push tests, speaking the real protocol over HTTPS: it takes
 * what `web-push` sends (RFC 8030 POST to the subscription's endpoint), checks the VAPID
 * authorisation (RFC 8292: an ES256 JWT whose `aud` is this origin, `exp` within 24 h, `sub` a
 * mailto: or https: contact, signed by the key in `k=`), and decrypts the aes128gcm body
 * (RFC 8291 / RFC 8188) with the private key of the browser subscription it made up. Tests read
 * the decrypted messages: what the phone would show. Answers can be scripted per subscription
 * (429 with Retry-After, 410, 503 ...). A `Topic` header must be at most 32 characters of the
 * base64url alphabet (RFC 8030 §5.4), else the message is refused. A subscription can be taken
 * offline: the stand-in then holds its messages as a push service does, a newer message with the
 * same topic replacing the pending one, and hands over what is left when it comes back. Test
 * code only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures', 'push');
const CERT = fs.readFileSync(path.join(fixtures, 'stand-in-cert.pem'));
const KEY = fs.readFileSync(path.join(fixtures, 'stand-in-key.pem'));

/** A browser subscription the stand-in made, with the private half a real browser keeps. */
export interface StandInSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: crypto.ECDH;
  authSecret: Buffer;
}

/** One message as received: headers, VAPID claims, encrypted size and the decrypted payload. */
export interface Received {
  subId: string;
  at: number;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  contentEncoding: string | undefined;
  claims: { aud: string; exp: number; sub: string };
  vapidKey: string;
  bodyBytes: number;
  text: string;
  payload: any;
  /** The status the stand-in answered. */
  status: number;
}

function b64urlJson(part: string): any {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/**
 * Checks `Authorization: vapid t=<jwt>, k=<key>` against RFC 8292.
 * @throws Error saying what is wrong.
 */
export function verifyVapid(header: string | undefined, origin: string, now = Date.now()) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a vapid authorization: ${header}`);
  const [, jwt, k] = m;
  const [h, c, s] = jwt.split('.');
  const head = b64urlJson(h);
  if (head.alg !== 'ES256' || head.typ !== 'JWT') throw new Error(`bad JWT header ${JSON.stringify(head)}`);
  const claims = b64urlJson(c);
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  const exp = Number(claims.exp) * 1000;
  if (!(exp > now) || exp - now > 24 * 3600_000) throw new Error(`exp ${claims.exp} not within 24 h`);
  if (!/^(mailto:|https:)/.test(String(claims.sub)))
    throw new Error(`sub ${claims.sub} is not mailto:/https:`);
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const key = crypto.createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${h}.${c}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('JWT signature does not verify with k');
  return { claims, vapidKey: k };
}

/** Decrypts an aes128gcm Web Push body for `sub` (RFC 8291 §3.4, RFC 8188). */
export function decryptAes128gcm(body: Buffer, sub: StandInSubscription): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid length ${idlen}, expected 65`);
  if (ciphertext.length > rs) throw new Error('more than one record');
  const uaPublic = sub.ecdh.getPublicKey();
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, sub.authSecret, keyInfo, 32));
  const cek = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('last record does not end with the 0x02 delimiter');
  return padded.subarray(0, end);
}

/** One scripted answer of the stand-in: a status and the headers that go with it. */
export interface ScriptedAnswer {
  status: number;
  retryAfter?: string;
  location?: string;
  /** The answer's body (a service's reason: `{"reason":"BadJwtToken"}`), with its content type. */
  body?: string;
  contentType?: string;
}

/** The running stand-in. */
export interface PushStandIn {
  origin: string;
  /** An HTTPS agent that trusts the stand-in's certificate (hand it to the server). */
  agent: https.Agent;
  received: Received[];
  /** Refusals: requests whose VAPID or encryption did not check out. */
  rejected: { subId: string; reason: string }[];
  subscribe(): StandInSubscription;
  /** Answers the next requests for `subId` with these statuses (then 201 again); `location` for a redirect. */
  script(subId: string, answers: ScriptedAnswer[]): void;
  /** Messages received for one subscription. */
  messagesFor(subId: string): Received[];
  /** The phone of `subId` goes offline: its messages are held, one per topic, until `online`. */
  offline(subId: string): void;
  /** The phone comes back: @returns the held messages it now gets, in the order they were kept. */
  online(subId: string): Received[];
  close(): Promise<void>;
}

/** Starts a stand-in push service on 127.0.0.1 at a random port. */
export async function startPushStandIn(): Promise<PushStandIn> {
  const subs = new Map<string, StandInSubscription>();
  const scripts = new Map<string, ScriptedAnswer[]>();
  const received: Received[] = [];
  const rejected: { subId: string; reason: string }[] = [];
  // per offline subscription, the messages waiting for the phone
  const held = new Map<string, Received[]>();
  let origin = '';
  const server = https.createServer({ cert: CERT, key: KEY }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const subId = (req.url ?? '').replace(/^\/push\//, '');
      const sub = subs.get(subId);
      if (req.method !== 'POST' || !sub) {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      let claims: Received['claims'];
      let vapidKey: string;
      let text: string;
      try {
        ({ claims, vapidKey } = verifyVapid(req.headers.authorization, origin));
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const topic = req.headers.topic;
        if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(String(topic)))
          throw new Error(`topic ${topic} is not 1 to 32 base64url characters`);
        text = decryptAes128gcm(body, sub).toString('utf8');
      } catch (err) {
        rejected.push({ subId, reason: (err as Error).message });
        res.writeHead(400).end((err as Error).message);
        return;
      }
      const next = scripts.get(subId)?.shift() ?? { status: 201 };
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        payload = undefined;
      }
      const message: Received = {
        subId,
        at: Date.now(),
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
        topic: req.headers.topic as string | undefined,
        contentEncoding: req.headers['content-encoding'],
        claims,
        vapidKey,
        bodyBytes: body.length,
        text,
        payload,
        status: next.status,
      };
      received.push(message);
      const queue = held.get(subId);
      if (queue && next.status >= 200 && next.status < 300) {
        // a pending message with the same topic is replaced by the newer one
        const same = message.topic === undefined ? -1 : queue.findIndex((m) => m.topic === message.topic);
        if (same >= 0) queue.splice(same, 1);
        queue.push(message);
      }
      const headers: Record<string, string> = {};
      if (next.retryAfter !== undefined) headers['Retry-After'] = next.retryAfter;
      if (next.location !== undefined) headers.Location = next.location;
      if (next.contentType !== undefined) headers['Content-Type'] = next.contentType;
      res.writeHead(next.status, headers).end(next.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  origin = `https://127.0.0.1:${port}`;
  const agent = new https.Agent({ ca: CERT, keepAlive: false });
  return {
    origin,
    agent,
    received,
    rejected,
    subscribe() {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = crypto.randomBytes(16);
      const id = crypto.randomBytes(8).toString('hex');
      const sub: StandInSubscription = {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
        ecdh,
        authSecret,
      };
      subs.set(id, sub);
      return sub;
    },
    script(subId, answers) {
      scripts.set(subId, [...answers]);
    },
    messagesFor(subId) {
      return received.filter((r) => r.subId === subId);
    },
    offline(subId) {
      held.set(subId, []);
    },
    online(subId) {
      const queue = held.get(subId) ?? [];
      held.delete(subId);
      return queue;
    },
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
