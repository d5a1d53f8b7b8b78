/**
 * The status message is a view of the record (issue 22): the request it names is the one stored
 * in `facts.request` when the record was made; rendering never runs the change to describe it.
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/operations/index.js';
import type { AnyOperation } from '../../../src/operations/types.js';
import { renderStatus, storedRequest, withStoredRequest } from '../../../src/views/status-message.js';
import { record } from './record-fixtures.js';
import { shownJson as shown } from './reply-checks.js';

/** The real rename entry, except that running it (to describe it, or to send it) is counted. */
function countedRename() {
  const real = catalog.byId('server.rename')!;
  const runs: unknown[] = [];
  const op = { ...real, run: (ctx, args) => (runs.push(args), real.run(ctx, args)) } as AnyOperation;
  return { op, runs };
}

const RENAME = { method: 'PATCH', path: '/servers/101/rename', body: { name: 'web-9' } } as const;
const args = { server: '101', name: 'web-9' };

describe('renderStatus', () => {
  it('rendered twice, runs nothing and names the stored request', () => {
    const { op, runs } = countedRename();
    const r = record({ args, facts: withStoredRequest({}, RENAME), status: 'succeeded', finishedAt: 1, result: { text: 'Renamed.' } });
    const first = renderStatus(op, r, 0);
    const second = renderStatus(op, r, 0);
    expect(runs).toEqual([]);
    expect(second).toStrictEqual(first);
    expect(shown(first)).toContain('sent `PATCH /servers/101/rename`');
  });

  it('a record without a stored request (made by an older bot) has no "sent" line, and still runs nothing', () => {
    const { op, runs } = countedRename();
    const text = shown(renderStatus(op, record({ args, status: 'succeeded', finishedAt: 1 }), 0));
    expect(text).toContain('done');
    expect(text).not.toContain('sent');
    expect(runs).toEqual([]);
  });
});

describe('storedRequest', () => {
  it('reads what withStoredRequest stored, and nothing that is not a change request', () => {
    expect(storedRequest({ facts: withStoredRequest({ hostname: 'web-1' }, RENAME) })).toStrictEqual(RENAME);
    expect(storedRequest({ facts: {} })).toBeUndefined();
    expect(storedRequest({ facts: { request: 'POST /x' } })).toBeUndefined();
    expect(storedRequest({ facts: { request: { method: 'GET', path: '/servers' } } })).toBeUndefined();
    expect(storedRequest({ facts: { request: { method: 'POST', path: 7 } } })).toBeUndefined();
    expect(storedRequest({ facts: { request: { method: 'DELETE', path: '/ssh-keys/12', body: [1] } } })).toStrictEqual({ method: 'DELETE', path: '/ssh-keys/12' });
  });
});
