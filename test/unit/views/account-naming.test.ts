/**
 * Naming the account (issue 12): replies, status messages, dry runs, watch messages, audit
 * lines and help say which account they are about when given one — and nothing changes when
 * not. A hostile name stays an inert value everywhere, and no reply grows past 50 blocks.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/domain/audit-entry.js';
import type { OperationRecord } from '../../../src/store/types.js';
import type { Reply } from '../../../src/views/types.js';
import { buildAccountNote, withAccount } from '../../../src/views/account-label.js';
import { buildAuditLine, buildAuditList } from '../../../src/views/audit-views.js';
import { context, section } from '../../../src/views/blocks.js';
import { buildHelp } from '../../../src/views/help-views.js';
import { md } from '../../../src/views/mrkdwn.js';
import { buildDryRun, buildStatusMessage, type StatusInput } from '../../../src/views/status-views.js';
import { buildFinalReply, buildWatchList, buildWatchMessage, buildWatchStarting } from '../../../src/views/watch-views.js';
import { catalog } from '../../../src/operations/index.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

const USERS = ['U0ALICE', 'U0BOB'];
const shown = (r: Reply) => JSON.stringify(r.blocks);
const valid = (r: Reply): Reply => {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  expect(checkPayload({ text: r.text, blocks: r.blocks }, { users: USERS, channels: ['C0OPS'], url: () => false, marker: HOSTILE_MARKER }, 'view')).toEqual([]);
  return r;
};

import { record, watch } from './record-fixtures.js';
import { fullEntry } from '../../audit/helpers.js';

const entry = (over: Partial<AuditEntry> = {}) => fullEntry({ userId: 'U0ALICE', channelId: 'C0OPS', ...over });

const reply = (n: number, last = section(md`last`)): Reply => ({ text: md`hello`, blocks: [...Array.from({ length: n - 1 }, (_, i) => section(md`line ${i}`)), last] });

describe('withAccount / buildAccountNote', () => {
  it('returns the reply itself when there is no account to name', () => {
    const r = reply(3);
    expect(withAccount(r, undefined)).toBe(r);
  });

  it('appends the note and names the account in the text', () => {
    const r = valid(withAccount(reply(3), 'prod'));
    expect(r.text).toBe('hello (account `prod`)');
    expect(r.blocks).toHaveLength(4);
    expect(r.blocks[3]).toEqual(buildAccountNote('prod'));
    expect(shown({ text: r.text, blocks: [buildAccountNote('prod')] })).toContain('Account: `prod`');
  });

  it('at 50 blocks, joins a closing context line, else keeps the last block and gives up the one before', () => {
    const ctx = valid(withAccount(reply(50, context(md`footer`)), 'prod'));
    expect(ctx.blocks).toHaveLength(50);
    expect(JSON.stringify(ctx.blocks[49])).toContain('footer');
    expect(JSON.stringify(ctx.blocks[49])).toContain('Account: `prod`');
    const full = valid(withAccount(reply(50), 'prod'));
    expect(full.blocks).toHaveLength(50);
    expect(full.blocks[48]).toEqual(buildAccountNote('prod'));
    expect(JSON.stringify(full.blocks[49])).toContain('last');
  });

  it('keeps a long text within Slack\'s 4000 characters', () => {
    const long = withAccount({ text: md`${'x'.repeat(3990) as never}`, blocks: [] }, 'prod');
    expect(long.text.length).toBeLessThanOrEqual(4000);
    expect(long.text.endsWith('(account `prod`)')).toBe(true);
  });
});

describe('status message and dry run', () => {
  const input = (over: Partial<StatusInput> = {}): StatusInput => ({
    record: record(),
    title: md`Rename server \`web-1\``,
    lines: [],
    request: { method: 'PATCH', path: '/servers/1' },
    needsConfirm: true,
    now: 0,
    ...over,
  });

  it('names the account in every state when given, and not otherwise', () => {
    const statuses: OperationRecord['status'][] = ['pending', 'confirmed', 'running', 'succeeded', 'failed', 'cancelled', 'expired'];
    for (const status of statuses) {
      const r = valid(buildStatusMessage(input({ record: record({ status, finishedAt: 1, errorMessage: 'boom' }), account: 'prod' })));
      expect(shown(r)).toContain('account `prod`');
      expect(r.text).toContain('(account `prod`)');
      expect(shown(buildStatusMessage(input({ record: record({ status }) })))).not.toContain('account `');
    }
  });

  it('dry run says which account it would send to', () => {
    const r = valid(buildDryRun(md`Rename`, { method: 'PATCH', path: '/servers/1' }, 'prod'));
    expect(shown(r)).toContain('would send to account `prod`:');
    expect(r.text).toBe('Dry run: Rename (account `prod`)');
    expect(buildDryRun(md`Rename`, { method: 'PATCH', path: '/servers/1' }).text).toBe('Dry run: Rename');
  });
});

describe('watch messages', () => {
  it('the starting message, the watch message and the final word name the account when given', () => {
    expect(valid(buildWatchStarting(md`worker \`api\``, 'U0ALICE', 'prod')).text).toBe('Watching worker `api` (account `prod`)');
    expect(buildWatchStarting(md`worker \`api\``, 'U0ALICE').text).toBe('Watching worker `api`');
    const msg = valid(buildWatchMessage(watch(), md`Worker \`api\``, md`building`, 1000, 'prod'));
    expect(shown(msg)).toContain('Worker `api` (account `prod`) — building');
    expect(msg.text).toContain('(account `prod`)');
    expect(shown(buildWatchMessage(watch(), md`Worker \`api\``, md`building`, 1000))).not.toContain('account');
    const fin = valid(buildFinalReply(watch(), { said: md`Worker \`api\` is live` }, 'succeeded', 60_000, 'prod'));
    expect(fin.text).toBe('Worker `api` is live on account `prod` (after 1 minute).');
    expect(buildFinalReply(watch(), { said: md`Worker \`api\` is live` }, 'succeeded', 60_000).text).toBe('Worker `api` is live (after 1 minute).');
  });

  it('the list names each watch\'s account only when asked', () => {
    const list = [watch({ account: 'prod' }), watch({ id: 'w_BBBBBBBB', account: null })];
    const named = shown(valid(buildWatchList(list, 1000, { showAccounts: true, defaultAccount: 'staging' })));
    expect(named).toContain('`uuid-1` on `prod` ·');
    expect(named).toContain('`uuid-1` on `staging` ·');
    expect(shown(buildWatchList(list, 1000, { showAccounts: true }))).toContain('on the default account');
    expect(shown(buildWatchList(list, 1000))).not.toContain(' on ');
  });
});

describe('audit', () => {
  it('shows the account of an entry that has one, in the line, its text and the list', () => {
    const line = valid(buildAuditLine(entry({ account: 'prod' })));
    expect(shown(line)).toContain('_destroy_ on `prod` —');
    expect(line.text).toContain('`/cloud server reinstall` on `prod` — succeeded');
    expect(shown(valid(buildAuditList([entry({ account: 'prod' })], 1000)))).toContain(' on `prod` —');
    expect(shown(buildAuditLine(entry()))).not.toContain(' on `');
  });
});

describe('help', () => {
  it('says which account this channel drives and how --account chooses another', () => {
    const ops = [...catalog.operations];
    const r = valid(buildHelp(catalog, ops, undefined, { account: 'prod', accounts: ['prod', 'staging', 'dev'] }));
    expect(shown(r)).toContain('Commands here act on account `prod`. `--account NAME` chooses another: `staging` and `dev`.');
    const one = shown(buildHelp(catalog, ops, undefined, { account: 'prod', accounts: ['prod'] }));
    expect(one).toContain('Commands here act on account `prod`.');
    expect(one).not.toContain('--account NAME');
    expect(shown(buildHelp(catalog, ops))).not.toContain('act on account');
    const server = valid(buildHelp(catalog, ops, 'server', { account: 'prod', accounts: ['prod', 'staging'] }));
    expect(shown(server)).toContain('chooses another: `staging`');
  });
});

describe('hostile account names', () => {
  it('stay inert in every view that names an account', () => {
    for (const h of HOSTILE_SAMPLES) {
      valid(withAccount(reply(2), h));
      valid(withAccount(reply(50, context(md`footer`)), h));
      valid(buildStatusMessage({ record: record({ status: 'succeeded', finishedAt: 1 }), title: md`t`, lines: [], request: { method: 'POST', path: '/' }, needsConfirm: false, account: h, now: 0 }));
      valid(buildDryRun(md`t`, { method: 'POST', path: '/' }, h));
      valid(buildWatchStarting(md`w`, 'U0ALICE', h));
      valid(buildWatchMessage(watch(), md`w`, md`l`, 0, h));
      valid(buildFinalReply(watch(), { said: md`done` }, 'failed', 0, h));
      valid(buildWatchList([watch({ account: h })], 0, { showAccounts: true, defaultAccount: h }));
      valid(buildAuditLine(entry({ account: h })));
      valid(buildAuditList([entry({ account: h })], 0));
      valid(buildHelp(catalog, [...catalog.operations], undefined, { account: h, accounts: [h, `${h}2`] }));
    }
  });
});
