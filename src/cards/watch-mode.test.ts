import { describe, expect, it } from 'vitest';
import { watchModeFor } from './watch-mode.js';

const on = (type: number | bigint) => () => ({ type });

describe('watchModeFor', () => {
  it.each([
    [0x6969, 'NFS'],
    [0xff534d42, 'SMB (cifs)'],
    [0xff534d42 | 0, 'SMB (cifs)'], // the same type read as a signed number
    [0xfe534d42, 'SMB 2'],
    [0x65735546, 'FUSE'],
    [0x01021997, '9p'],
    [0x786f4256, 'VirtualBox'],
  ])('auto polls a folder on a shared file system (type %s: %s)', (type, name) => {
    const mode = watchModeFor('/data', 'auto', on(type), 'linux');
    expect(mode.poll).toBe(true);
    expect(mode.why).toContain(name);
  });

  it.each([
    [0xef53, 'ext4'],
    [0x58465342, 'XFS'],
    [0x9123683e, 'Btrfs'],
    [0x01021994, 'tmpfs'],
    [0x794c7630, 'overlay'],
  ])('auto keeps notices on a local file system (type %s: %s)', (type) => {
    expect(watchModeFor('/data', 'auto', on(type), 'linux').poll).toBe(false);
  });

  it('on and off decide for every folder', () => {
    expect(watchModeFor('/data', true, on(0xef53), 'linux')).toEqual({
      poll: true,
      why: 'HEALTH_WATCH_POLL is on',
    });
    expect(watchModeFor('/data', false, on(0x6969), 'linux').poll).toBe(false);
  });

  it('auto keeps notices where the type cannot be told: another system, or a query that fails', () => {
    expect(watchModeFor('/data', 'auto', on(0x6969), 'darwin').poll).toBe(false);
    const failing = () => {
      throw Object.assign(new Error('ENOSYS'), { code: 'ENOSYS' });
    };
    expect(watchModeFor('/data', 'auto', failing, 'linux').poll).toBe(false);
  });
});
