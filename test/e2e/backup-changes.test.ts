/**
 * Backup changes end to end: create (flags, the form, the cloud's refusals) and delete (refused
 * before asking when unknown or locked; one DELETE after Confirm).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

const LOCKED = '7f71a755-9cf3-4136-a7f7-d41686fbb1c5';

let rig: BotRig;
const { text, latest, until, buttons } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const sent = (from: number) => rig.mutations(from).map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));
const changeForm = (block: string) =>
  waitFor(() => {
    const v = rig.slack.views.latest();
    // An open form: the previous test's form, submitted and closed, is not this one.
    return v && rig.slack.views.isOpen(v.id) && v.view.callback_id === 'cloud_change' && JSON.stringify(v.view).includes(`"block_id":"${block}"`) ? v : undefined;
  }, { timeoutMs: 5000 });

describe('backup create', () => {
  it('with flags: no confirmation, the spec defaults in the body, name and uuid in the channel', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('backup create 101 --name before-upgrade');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    const done = await until(msg, '— done');
    expect(sent(from)).toEqual([
      { method: 'POST', path: '/v2/servers/101/backups', body: { name: 'before-upgrade', mode: 'snapshot', compression_type: 'zstd' } },
    ]);
    const made = rig.sandbox.state.backups[101]!.find((b) => b.name === 'before-upgrade')!;
    expect(text(done)).toContain('Back up server `101` as `before-upgrade`');
    expect(text(done)).toContain(`Backup \`before-upgrade\` (\`${made.uuid}\`) of server \`101\` is being taken`);
    expect(text(done)).toContain('sent `POST /servers/101/backups`');
    expect(buttons(done)).toEqual([]);
  });

  it('with no flags: a form prefilled with the defaults; submitting sends exactly what it shows', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('backup create 104');
    const form = await changeForm('compression');
    const shown = JSON.stringify(form.view);
    expect(shown).toContain('"block_id":"name"');
    expect(shown).toContain('"max_length":40');
    const initial = (block: string) =>
      (form.view.blocks as { block_id?: string; element?: { initial_option?: { value: string } } }[]).find((b) => b.block_id === block)?.element?.initial_option?.value;
    expect(initial('mode')).toBe('snapshot');
    expect(initial('compression')).toBe('zstd');
    expect(rig.sandbox.requests.length).toBe(from); // nothing asked of the cloud to show the form

    const res = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { name: 'pre-upgrade', mode: 'suspend' }, userId: ALICE.id }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await until(msg, '— done');
    expect(sent(from)).toEqual([
      { method: 'POST', path: '/v2/servers/104/backups', body: { name: 'pre-upgrade', mode: 'suspend', compression_type: 'zstd' } },
    ]);
  });

  it('a name over 40 characters stays on the form with the error under it; nothing is sent', async () => {
    await rig.sendCommand('backup create 104');
    const form = await changeForm('compression');
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { name: 'n'.repeat(41) }, userId: ALICE.id }));
    expect(res.json).toEqual({ response_action: 'errors', errors: { name: 'must be at most 40 characters' } });
    expect(rig.sandbox.requests.length).toBe(from);
  });

  it('a server that is installing is refused before anything is posted (precheck of its status)', async () => {
    const before = Date.now();
    const r = await rig.command('backup create 103 --name first');
    expect(visibleText(r.final)).toContain('was not sent');
    expect(visibleText(r.final)).toContain('Server `103` is `installing` right now, so it cannot be backed up');
    expect(r.cloudRequests.map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/servers/103/status']);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt > before)).toEqual([]);
  });

  it('a server at its plan’s backup limit: one POST, the limit in words in the status message', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('backup create 102 --compression gzip');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    const failed = await until(msg, '— failed');
    expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/servers/102/backups', body: { mode: 'snapshot', compression_type: 'gzip' } }]);
    expect(text(failed)).toContain('An account limit stops this: `The plan allows 3 backups and the server has 3; delete one first.`');
    expect(text(failed)).toContain('`RESOURCE_LIMIT_EXCEEDED`');
    expect(buttons(failed)).toEqual([]);
    expect(rig.sandbox.state.backups[102]).toHaveLength(3);
  });

  it('the cloud’s SERVER_STATUS_CONFLICT (the server turned busy after the look) is in the status message', async () => {
    // The precheck saw a free server; the cloud refuses the POST itself.
    rig.sandbox.addFault({ method: 'POST', path: '/servers/104/backups', status: 409, code: 'SERVER_STATUS_CONFLICT', message: 'Cannot create a backup while the server is restoring.' });
    try {
      const from = rig.sandbox.requests.length;
      const before = Date.now();
      await rig.sendCommand('backup create 104 --mode kill');
      const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
      const failed = await until(msg, '— failed');
      expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/servers/104/backups', body: { mode: 'kill', compression_type: 'zstd' } }]);
      expect(text(failed)).toContain('The server is busy (installing, restoring or reinstalling) and cannot do that now.');
      expect(text(failed)).toContain('`SERVER_STATUS_CONFLICT`');
    } finally {
      rig.sandbox.clearFaults();
    }
  });

  it('a bad mode is refused before any request', async () => {
    const r = await rig.command('backup create 101 --mode live');
    expect(visibleText(r.final)).toContain('`--mode`: must be one of snapshot, suspend, kill');
    expect(r.cloudRequests).toEqual([]);
  });
});

describe('backup delete', () => {
  it('a locked backup is refused before anyone is asked; no DELETE', async () => {
    const before = Date.now();
    const r = await rig.command(`backup delete 101 ${LOCKED}`);
    expect(visibleText(r.final)).toMatch(/Backup `web-1-daily-[\d-]+` of server `101` is locked, and locked backups cannot be deleted/);
    // The locked one is the oldest: on page 2 of the list.
    expect(r.cloudRequests.map((q) => `${q.method} ${q.rawPath}?${new URLSearchParams(q.query).toString()}`)).toEqual([
      'GET /v2/servers/101/backups?page=1',
      'GET /v2/servers/101/backups?page=2',
    ]);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt > before)).toEqual([]);
  });

  it('an unknown backup uuid is refused', async () => {
    const r = await rig.command('backup delete 101 00000000-0000-4000-8000-000000000000');
    expect(visibleText(r.final)).toContain('Server `101` has no backup `00000000-0000-4000-8000-000000000000`');
    expect(r.cloudRequests.every((q) => q.method === 'GET')).toBe(true);
  });

  it('says what is lost, waits for Confirm, then sends one DELETE', async () => {
    const target = rig.sandbox.state.backups[101]!.filter((b) => b.name.startsWith('web-1-daily-') && !b.isLocked).sort((x, y) => x.createdAt - y.createdAt)[0]!; // the oldest
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand(`backup delete 101 ${target.uuid.toUpperCase()}`);
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toMatch(new RegExp(`Permanently delete backup \`${target.name}\` \\(\\d+(\\.\\d)? GB, taken \\d+ days ago\\) of server \`101\`\\* — awaiting confirmation`));
    expect(text(msg)).toContain('gone for good');
    expect(buttons(msg)).toEqual(['"action_id":"op_confirm"', '"action_id":"op_cancel"']);
    expect(rig.mutations(from)).toEqual([]);

    await rig.click(msg, 'op_confirm', ALICE.id);
    const done = await until(msg, '— done');
    expect(sent(from)).toEqual([{ method: 'DELETE', path: `/v2/servers/101/backups/${target.uuid}`, body: undefined }]);
    expect(text(done)).toContain('is deleted');
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === target.uuid)).toBe(false);
  });
});
