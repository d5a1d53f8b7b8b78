/**
 * The reinstall's channel summary says where the new root password went only when it went:
 * sent to the requester, withheld (they may not read credentials here), unchecked, or — an
 * answer without a password — nowhere.
 */
import { describe, expect, it } from 'vitest';
import { serverReinstall } from '../../../src/operations/entries/server-changes.js';

const summarize = serverReinstall.change!.summarize as (r: unknown, a: unknown, told?: unknown) => { text: string };
const args = { server: '101', template: 'debian-12' };

describe('server reinstall summary', () => {
  it('sent: says so', () => {
    expect(summarize({ status: 'reinstalling', password: 'x'.repeat(12) }, args, { secret: 'sent' }).text).toContain('The root password was sent privately to the requester.');
  });

  it('withheld or unchecked: says it was not sent, and where it can be read', () => {
    for (const secret of ['withheld', 'unchecked']) {
      const t = summarize({ status: 'reinstalling', password: 'x'.repeat(12) }, args, { secret }).text;
      expect(t).toContain('root password was not sent to the requester');
      expect(t).toContain('`/cloud server credentials 101`');
    }
  });

  it('an answer without a password: never claims one was sent', () => {
    const t = summarize({ status: 'reinstalling', password: null }, args).text;
    expect(t).not.toContain('sent privately');
    expect(t).toContain('held no root password, so none was sent');
    expect(t).toContain('`/cloud server credentials 101`');
  });
});
