/**
 * The read views with hostile cloud values in every text field: a mention, a user mention, a
 * forged link, a line break with a forged "*Approved*", a right-to-left override. Each must
 * reach Slack inert — inside a code span, on one line — in the notification text as well as
 * in the blocks.
 */
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/views/types.js';
import { buildInvoices, buildUsage } from '../../../src/views/account-views.js';
import { buildBackupList } from '../../../src/views/backup-views.js';
import { ago, slackDate } from '../../../src/views/format.js';
import { buildSubnets } from '../../../src/views/ip-views.js';
import { buildPlans } from '../../../src/views/plan-views.js';
import { buildCredentials, buildServerIps, buildServerStatus } from '../../../src/views/server-views.js';
import { buildSecurityGroup } from '../../../src/views/sg-views.js';
import { buildSshKeys } from '../../../src/views/ssh-key-views.js';
import { buildLocations, buildTemplates, buildWorkerStatus } from '../../../src/views/worker-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES, NOTHING_LIVE } from '../../rig/hostile-strings.js';
import { checkMrkdwn, checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

const MARK = HOSTILE_MARKER;
const HOSTILE = HOSTILE_SAMPLES;
const LIVE = ['<!channel>', '<@U1>', '<http://x|y>', '\u202E'];
const now = Date.parse('2026-11-22T12:00:00Z');
const allow = NOTHING_LIVE;

/** Every mrkdwn string of a reply: the text, then each mrkdwn text object. */
function mrkdwnTexts(r: Reply): string[] {
  const out = [r.text as string];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text);
      else Object.values(o).forEach(walk);
    }
  };
  walk(r.blocks);
  return out;
}

function inert(r: Reply, shown = true): void {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  expect(checkPayload({ text: r.text, blocks: r.blocks }, allow, 'reply')).toEqual([]);
  // plain_text (headers) is never parsed, so markup there is inert; a bidi override is not.
  const json = JSON.stringify(r);
  expect(json).not.toContain('\u202E');
  for (const t of mrkdwnTexts(r)) {
    for (const live of LIVE) expect(t).not.toContain(live);
    // A code block (a worker's last error) keeps its lines, and nothing in it is live.
    expect(t.replace(/```[\s\S]*?```/g, '')).not.toMatch(/\n\*Approved\*/);
  }
  // The value was shown, not dropped (the test would pass on an empty reply otherwise).
  if (shown) expect(json).toContain(MARK);
}

describe.each(HOSTILE)('read views with the cloud value %j', (h) => {
  it('server status, credentials and addresses', () => {
    inert(buildServerStatus(h, { state: h, server_status: h, power_task: { action: h, status: h, message: h, updated_at: h } }, { now }));
    inert(buildServerStatus('101', { state: h, server_status: 'installing' }, { now }));
    inert(buildCredentials(h, { username: h, root_password: h, password_status: 'ready', ipv4: h, ipv6: h }));
    inert(buildCredentials(h, { username: null, root_password: null, password_status: h }));
    inert(buildServerIps(h, [{ address: h, type: h, gateway: h, rdns: h, reserved: true }]));
    inert(buildServerIps(h, []));
  });

  it('workers: locations, templates, status (the fqdn is linked only when it is a host name)', () => {
    inert(buildLocations([{ id: 1, short_code: h, name: h, out_of_stock: true }]));
    inert(buildTemplates([{ id: h, name: h, type: h, description: h }]));
    const r = buildWorkerStatus(
      {
        uuid: h, name: h, status: h, last_deployment_status: h, last_deployment_at: h, runtime_status: h, runtime_status_at: h, fqdn: h,
        git_source: h, git_repository: h, git_branch: h, location: { id: 1, short_code: h }, suspended_at: h, suspension_reason: h, last_error: h,
      } as never,
      { now },
    );
    inert(r);
  });

  it('account, plans, subnets, SSH keys, backups, security groups', () => {
    inert(buildUsage({ servers: 1, ip_used: 1, ip_limit: 2 }), false);
    inert(buildInvoices({ data: [{ id: 9, status: h, type: h, total: 1, amount_due: 1, created_at: h }], meta: { current_page: 1, last_page: 1 } }, { now }, []));
    inert(buildPlans({ data: [{ id: 1, name: h, monthly_price: 1, hourly_price: 0.01 }], meta: { current_page: 1, last_page: 1 } }, 3, []));
    inert(buildSubnets([{ id: h, subnet: h, type: h, location: { id: 1, short_code: h }, location_id: 1, available: 0, total: 8 }]));
    inert(buildSshKeys([{ id: 1, name: h, public_key: `ssh-ed25519 ${h}`, created_at: h }], { now }));
    inert(buildBackupList(h, { data: [{ uuid: h, name: h, size: 1, created_at: h, is_locked: true }], meta: { current_page: 1, last_page: 1 } }, { now }, []));
    inert(buildBackupList(h, { data: [], meta: { current_page: 1, last_page: 1 } }, { now }, []));
    inert(
      buildSecurityGroup({
        id: 7, name: h, description: h,
        rules: [{ id: 1, type: h, action: h, protocol: h, source: h, destination: h, source_port: h, destination_port: h, comment: h, priority: 1 }],
        servers: [{ uuid: h, uuid_short: h, name: h }],
      }),
    );
  });

  it('an unreadable timestamp is shown as a value', () => {
    for (const m of [ago(h, now), slackDate(h, now)]) {
      expect(checkMrkdwn(m, allow, 'date')).toEqual([]);
      expect(m.startsWith('`')).toBe(true);
    }
  });
});

describe('what stays live is only what the bot means', () => {
  it('a worker with a real host name gets a link to it, and nothing else', () => {
    const r = buildWorkerStatus({ uuid: 'w', name: 'api', status: 'active', fqdn: 'api-1.workers.example.net' }, { now });
    expect(JSON.stringify(r.blocks)).toContain('<https://api-1.workers.example.net/|api-1.workers.example.net>');
    expect(checkPayload({ text: r.text, blocks: r.blocks }, { ...allow, url: (u) => u === 'https://api-1.workers.example.net/' }, 'r')).toEqual([]);
  });

  it('a date is Slack’s date token with the distance as fallback', () => {
    expect(slackDate('2026-11-22T09:00:00Z', now)).toBe('<!date^1795338000^{date_short_pretty} {time}|about 3 hours ago>');
  });

  it('names read as values in the notification text', () => {
    expect(buildServerStatus('<!here>', { state: 'running' }, { now }).text).toBe('Server `&lt;!here&gt;`: running');
    expect(buildWorkerStatus({ uuid: 'u', name: 'a\n*b*', status: 'active' }, { now }).text).toBe('Worker `a *b*`: `active`');
  });
});
