import { describe, expect, it } from 'vitest';
import { DEFAULT_VAPID_SUBJECT, vapidSubject } from './vapid-subject.js';

describe('vapidSubject', () => {
  it('defaults to a contact push services accept', () => {
    expect(vapidSubject(undefined)).toBe(DEFAULT_VAPID_SUBJECT);
    expect(vapidSubject('  ')).toBe('mailto:noreply@klebb.app');
  });

  it('turns an address into a mailto: URL and keeps https: URLs', () => {
    expect(vapidSubject('ops@example.org')).toBe('mailto:ops@example.org');
    expect(vapidSubject('mailto:ops@example.org')).toBe('mailto:ops@example.org');
    expect(vapidSubject('https://health.example.org/contact')).toBe('https://health.example.org/contact');
    expect(vapidSubject('mailto: ops@example.org')).toBe('mailto:ops@example.org');
    expect(vapidSubject('ops@mail.home.example.org')).toBe('mailto:ops@mail.home.example.org');
  });

  it.each([
    'me@localhost',
    'https://localhost/contact',
    'root@127.0.0.1',
    'https://192.168.1.2/',
    'me@box',
    'root@nas.lan',
    'root@localhost.localdomain',
    'admin@klebb.internal',
    'me@server.home.arpa',
    'me@printer.local',
    'https://health.test/contact',
    'me@x.invalid',
    'not an address',
  ])('refuses %s, which push services (Apple) reject', (v) => {
    expect(() => vapidSubject(v)).toThrow();
  });
});
