import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserSettings } from './user-settings.js';

const homes: string[] = [];
function home(userJson?: object): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-user-settings-'));
  homes.push(dir);
  if (userJson) fs.writeFileSync(path.join(dir, 'user.json'), JSON.stringify(userJson));
  return dir;
}

afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('user settings: the time zone read from user.json (checked on first use)', () => {
  it('keeps a known zone', () => {
    expect(new UserSettings(home({ tz: 'Europe/Berlin' })).timeZone()).toBe('Europe/Berlin');
  });

  it('reads a stored offset (from a newer runtime, or by hand) as its zone', () => {
    expect(new UserSettings(home({ tz: '+05:45' })).timeZone()).toBe('Asia/Kathmandu');
    expect(new UserSettings(home({ tz: '-0700' })).timeZone()).toBe('Etc/GMT+7');
    expect(new UserSettings(home({ tz: '-03:30' })).timeZone()).toBeUndefined();
  });

  it('counts a zone the runtime does not know, or no file, as none', () => {
    expect(new UserSettings(home({ tz: 'Mars/Olympus_Mons' })).timeZone()).toBeUndefined();
    expect(new UserSettings(home({ tz: 42 })).timeZone()).toBeUndefined();
    expect(new UserSettings(home()).timeZone()).toBeUndefined();
  });

  it('replaces an unknown stored zone, and reports no change for the zone already set', () => {
    const dir = home({ tz: 'Mars/Olympus_Mons' });
    const settings = new UserSettings(dir);
    expect(settings.setTimeZone('europe/berlin')).toBe(true);
    expect(settings.timeZone()).toBe('Europe/Berlin');
    expect(settings.setTimeZone('Europe/Berlin')).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'user.json'), 'utf8'))).toEqual({ tz: 'Europe/Berlin' });
    expect(new UserSettings(home({ tz: 'Europe/Berlin' })).setTimeZone('Europe/Berlin')).toBe(false);
  });
});
