/**
 * Typed confirmation (the hostname) and the sealed root password of a reinstall: sealed at
 * rest, sent once, told to the requester only, erased when the request ends.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MASK } from '../../src/access/secrets.js';
import {
  ALICE, OPS, TTL, PASSWORD, shown, rig, dbPath, slack, logLines, flow, watches, sealer, request, sent, posted, get, audits, lastUpdate, useChangeFlowRig, makeFlow, setFlow,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('typed confirmation and secrets (reinstall)', () => {
  const reinstall = (template = 'debian-12') => request('server.reinstall', { server: '101', template, password: PASSWORD });

  /** Every byte SQLite wrote (database and write-ahead log). */
  const onDisk = () => [dbPath, `${dbPath}-wal`].filter(existsSync).map((p) => readFileSync(p).toString('latin1')).join('');

  it('the password is sealed at rest, never in plain in the record, the message, the audit or the files', async () => {
    const record = await posted(reinstall());
    const stored = await get(record.id);
    expect(stored.args).toEqual({ server: '101', template: 'debian-12' });
    // The request it will send is stored with it too, the password masked (issue 22).
    expect(stored.facts).toEqual({
      hostname: 'web-1.example.net',
      givenSecrets: ['password'],
      request: { method: 'POST', path: '/servers/101/reinstall', body: { template_slug: 'debian-12', password: MASK } },
    });
    expect(stored.sealedSecrets).toMatch(/^v1\./);
    expect(sealer.open(stored.sealedSecrets!)).toEqual({ password: PASSWORD });
    expect(onDisk()).not.toContain(PASSWORD);
    expect(shown(slack.posts()[0]!)).toContain('It gets the root password given in the form.');
    expect(shown(slack.posts()[0]!)).toContain('Confirming asks you to type `web-1.example.net`.');
    expect(JSON.stringify(slack.calls)).not.toContain(PASSWORD);
    expect(JSON.stringify(await audits())).not.toContain(PASSWORD);
  });

  it('Confirm first asks for the hostname; a mismatch leaves it pending and sends nothing', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'type-to-confirm', expected: 'web-1.example.net', what: 'Reinstall server `101` (`web-1.example.net`) with `debian-12`' });
    expect(await flow.confirm(record.id, ALICE, 'web-1')).toEqual({ kind: 'tell', text: 'That is not `web-1.example.net`. Nothing was done; the request still waits.' });
    expect(await flow.confirm(record.id, ALICE, ' ')).toEqual({ kind: 'tell', text: 'That is not `web-1.example.net`. Nothing was done; the request still waits.' });
    const still = await get(record.id);
    expect(still.status).toBe('pending');
    expect(still.sealedSecrets).not.toBeNull();
    expect(sent()).toEqual([]);
    expect(slack.updates()).toEqual([]);
  });

  it('the hostname is matched ignoring case, as hostnames are (issue 14)', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE, 'WEB-1.Example.NET')).toEqual({ kind: 'done' });
    expect(sent()).toHaveLength(1);
  });

  it('the right hostname sends the reinstall with the password once; then the secret is erased and the password goes to the requester only', async () => {
    const record = await posted(reinstall());
    expect(await flow.confirm(record.id, ALICE, '  web-1.example.net ')).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', body: { template_slug: 'debian-12', password: PASSWORD } }]);

    const done = await get(record.id);
    expect(done).toMatchObject({ status: 'succeeded', sealedSecrets: null });
    expect(onDisk()).not.toContain(PASSWORD);
    expect(shown(lastUpdate())).toContain('Server `101` is `reinstalling` with `debian-12`. The root password was sent privately to the requester.');
    expect(shown(lastUpdate())).toContain('sent `POST /servers/101/reinstall`');

    const privately = slack.calls.filter((c) => c.method === 'postEphemeral');
    expect(privately.map((c) => [c.args.channel, (c.args as { user: string }).user])).toEqual([[OPS, ALICE]]);
    expect(shown(privately[0]!.args)).toContain(`New root password of server \`101\`: \`${PASSWORD}\``);
    // Nothing that others can see carries it: channel posts, edits, audit entries, log lines.
    expect(JSON.stringify(slack.calls.filter((c) => c.method !== 'postEphemeral'))).not.toContain(PASSWORD);
    expect(JSON.stringify(await audits())).not.toContain(PASSWORD);
    expect(logLines.join('\n')).not.toContain(PASSWORD);
    expect((await audits()).at(-1)!.args).toMatchObject({ server: '101', template: 'debian-12' });

    expect(watches).toEqual([{ kind: 'server', resource: '101', account: null, channelId: OPS, threadTs: record.messageTs, requestedBy: ALICE, operationId: record.id, held: true }]);
  });

  it('the watch is stored before the Slack calls that follow the send, and begun only after the final edit', async () => {
    // A stop during those calls (a deploy past its shutdown bound, a crash) must not lose it.
    const order: string[] = [];
    const seen = () => slack.calls.map((c) => (c.method === 'update' && shown(c.args).includes('— installing') ? 'final edit' : c.method));
    setFlow(
      makeFlow({
        startWatch: async () => {
          order.push(`watch stored after [${seen().join(', ')}]`);
          return { id: 'w1' };
        },
        beginWatch: async (id) => void order.push(`${id} begun after [${seen().join(', ')}]`),
      }),
    );
    const record = await posted(reinstall());
    const before = seen().length;
    expect(await flow.confirm(record.id, ALICE, 'web-1.example.net')).toEqual({ kind: 'done' });
    const after = seen().slice(before);
    expect(after).toContain('final edit');
    expect(order).toHaveLength(2);
    // Stored with no final edit or private reply yet; begun once both were through.
    expect(order[0]).not.toMatch(/final edit|postEphemeral/);
    expect(order[1]).toMatch(/^w1 begun after \[.*final edit.*postEphemeral.*\]$/);
  });

  it('the dedupe digest of a form’s arguments takes the password only keyed: a corrected password is a new request, a database copy guesses nothing', () => {
    const { op, args } = reinstall();
    const withPassword = { ...args, password: PASSWORD };
    const digest = flow.argsDigest(op, withPassword);
    expect(flow.argsDigest(op, { ...withPassword })).toBe(digest);
    expect(flow.argsDigest(op, { ...withPassword, password: `${PASSWORD}2` })).not.toBe(digest);
    expect(digest).not.toBe(createHash('sha256').update(JSON.stringify(withPassword)).digest('hex'));
  });

  it('cancel and expiry erase the sealed password too', async () => {
    const cancelled = await posted(reinstall());
    await flow.cancel(cancelled.id, ALICE);
    const expiring = await posted(reinstall());
    await rig.clock.advance(TTL);
    expect(await flow.expireDue()).toBe(1);
    expect((await get(cancelled.id)).sealedSecrets).toBeNull();
    expect((await get(expiring.id)).sealedSecrets).toBeNull();
    expect(sent()).toEqual([]);
  });
});
