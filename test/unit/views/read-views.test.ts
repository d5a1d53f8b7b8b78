import { describe, expect, it } from 'vitest';
import type { Backup, FirewallRule, Plan } from '../../../src/cloud-api/schemas.js';
import { buildInvoices, buildUsage } from '../../../src/views/account-views.js';
import { buildBackupList } from '../../../src/views/backup-views.js';
import { buildHelp } from '../../../src/views/help-views.js';
import { buildPager } from '../../../src/views/pager.js';
import { buildPlans } from '../../../src/views/plan-views.js';
import { buildCredentials, buildServerIps, buildServerStatus } from '../../../src/views/server-views.js';
import { buildSecurityGroup } from '../../../src/views/sg-views.js';
import { buildWorkerStatus } from '../../../src/views/worker-views.js';
import { bytes } from '../../../src/views/format.js';
import { catalog } from '../../../src/operations/index.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';

const now = Date.parse('2026-11-22T12:00:00Z');
const hoursAgo = (h: number) => new Date(now - h * 3600_000).toISOString();
const text = (r: { blocks: unknown[] }) => JSON.stringify(r.blocks);
const valid = <T extends { text: string; blocks: unknown[] }>(r: T): T => {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  return r;
};

describe('formatting', () => {
  it('shows sizes in GB/TB, not bytes', () => {
    expect(bytes(4 * 1024 ** 3)).toBe('4 GB');
    expect(bytes(2 * 1024 ** 4)).toBe('2 TB');
    expect(bytes(1536 * 1024 ** 2)).toBe('1.5 GB');
    expect(bytes(null)).toBe('—');
  });
});

describe('server views', () => {
  it('status shows power, application status and a busy note', () => {
    const r = valid(buildServerStatus('101', { state: 'running', server_status: 'installing', power_task: { action: 'boot', status: 'finished', updated_at: hoursAgo(3) } }, { now }));
    expect(r.text).toBe('Server `101`: running, installing');
    expect(text(r)).toContain('about 3 hours ago');
    expect(text(r)).toContain('The server is busy');
  });

  it('credentials say when the password is still generating and never show null', () => {
    const r = valid(buildCredentials('101', { username: 'root', root_password: null, password_status: 'generating', ipv4: '1.2.3.4', ipv6: null }));
    expect(r.text).toMatch(/still being generated/);
    const ready = valid(buildCredentials('101', { username: 'root', root_password: 's3cr3t-pass', password_status: 'ready', ipv4: '1.2.3.4', ipv6: '2001:db8::1' }));
    expect(text(ready)).toContain('s3cr3t-pass');
    expect(ready.text).not.toContain('s3cr3t-pass'); // notification text stays clean
  });

  it('credentials show a password with a backtick exactly, as plain text', () => {
    const password = 'a`b<c>&d*e_';
    const r = valid(buildCredentials('101', { username: 'root', root_password: password, password_status: 'ready', ipv4: '1.2.3.4', ipv6: null }));
    const plainTexts = JSON.stringify(r.blocks.filter((b) => b.type === 'section' && (b as { text?: { type?: string } }).text?.type === 'plain_text'));
    expect(JSON.parse(plainTexts)).toEqual([{ type: 'section', text: { type: 'plain_text', text: password, emoji: false } }]);
    expect(text(r)).not.toContain('aˋb'); // no look-alike anywhere
  });

  it('ips escape rDNS and mark reserved addresses', () => {
    const r = valid(buildServerIps('101', [{ address: '203.0.113.5', type: 'ipv4', cidr: 24, rdns: '<evil>&co', reserved: true }]));
    expect(text(r)).toContain('&lt;evil&gt;&amp;co');
    expect(text(r)).toContain('reserved');
  });
});

describe('lists stay within Slack limits', () => {
  it('cuts a huge backup page with "and N more" instead of being rejected', () => {
    const backups: Backup[] = Array.from({ length: 2000 }, (_, i) => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `nightly backup with a rather long descriptive name ${i}`,
      is_successful: true,
      is_locked: i % 7 === 0,
      size: 5 * 1024 ** 3,
      completed_at: hoursAgo(i),
      created_at: hoursAgo(i + 1),
    }));
    const meta = { current_page: 1, last_page: 2, per_page: 2000, total: 4000 };
    const r = valid(buildBackupList('101', { data: backups, meta }, { now }, buildPager('backup.list', { server: '101', page: 1 }, 'page', meta, 'backups')));
    expect(r.blocks.length).toBeLessThanOrEqual(50);
    expect(text(r)).toMatch(/and \d+ more/);
    expect(text(r)).toContain('Next →');
  });

  it('pager offers Previous and Next with the page in the value', () => {
    const blocks = buildPager('plan.list', { location: 3, page: 2 }, 'page', { current_page: 2, last_page: 3 }, 'plans');
    const s = JSON.stringify(blocks);
    expect(s).toContain('Page 2 of 3');
    const values = (blocks[1] as { elements: { value: string }[] }).elements.map((e) => JSON.parse(e.value));
    expect(values).toEqual([
      { op: 'plan.list', args: { location: 3, page: 1 } },
      { op: 'plan.list', args: { location: 3, page: 3 } },
    ]);
  });

  it('plans show sizes, prices and availability', () => {
    const plans: Plan[] = [{ id: 1, name: 'S', cpu: 2, memory: 4 * 1024 ** 3, disk: 80 * 1024 ** 3, bandwidth_limit: 2 * 1024 ** 4, monthly_price: 9, hourly_price: 0.0125, available: false, location_id: 3 }];
    const r = valid(buildPlans({ data: plans, meta: { current_page: 1, last_page: 1 } }, 3, []));
    expect(text(r)).toContain('4 GB RAM');
    expect(text(r)).toContain('2 TB traffic');
    expect(text(r)).toContain('9.00/month (0.0125/h)');
    expect(text(r)).toContain('out of stock');
  });

  it('security group rules are listed in priority order, then id', () => {
    const rule = (id: number, priority: number): FirewallRule => ({ id, priority, type: 'inbound', action: 'ACCEPT', protocol: 'tcp', destination_port: '22' });
    const r = valid(buildSecurityGroup({ id: 7, name: 'web', rules: [rule(3, 10), rule(1, 10), rule(2, 0)], servers: [{ uuid: 'u', uuid_short: 'abcd1234', name: 'web-1' }] }));
    const s = text(r);
    expect(s.indexOf('#2')).toBeLessThan(s.indexOf('#1'));
    expect(s.indexOf('#1')).toBeLessThan(s.indexOf('#3'));
    expect(s).toContain('abcd1234');
  });

  it('usage shows used against limits', () => {
    const r = valid(buildUsage({ servers: 4, cpu_used: 6, cpu_limit: 8, ram_used: 12 * 1024 ** 3, ram_limit_gb: 16, disk_used: 300 * 1024 ** 3, ip_used: 9, ip_limit: 10 }));
    expect(text(r)).toContain('12 GB of 16 GB (75%)');
    expect(text(r)).toContain('9 of 10 (90%) :warning:');
  });

  it('invoices flag amounts due', () => {
    const r = valid(buildInvoices({ data: [{ id: 9, status: 'unpaid', total: 20, amount_due: 20, created_at: hoursAgo(48) }], meta: { current_page: 1, last_page: 1 } }, { now }, []));
    expect(text(r)).toContain('20.00 due');
    expect(text(r)).toContain('2 days ago');
  });

  it('worker status shows the last error in a code block', () => {
    const r = valid(buildWorkerStatus({ uuid: 'w', name: 'api', status: 'failed', last_error: 'npm ERR! ```oops```', fqdn: null }, { now }));
    expect(text(r)).toContain('npm ERR!');
    expect(text(r)).not.toContain('``````');
  });
});

describe('help', () => {
  it('is generated from the catalog and fits a message', () => {
    const all = valid(buildHelp(catalog, [...catalog.operations]));
    for (const op of catalog.operations) expect(text(all)).toContain(catalog.usage(op).split(' ').slice(0, 3).join(' ').replace(/ [<\[].*$/, ''));
    const server = valid(buildHelp(catalog, [...catalog.operations], 'server'));
    expect(text(server)).toContain('/cloud server credentials');
    expect(text(server)).not.toContain('/cloud plan list');
  });

  it('shows only what the asker may run', () => {
    const mine = catalog.operations.filter((o) => o.tier === 'read');
    expect(text(buildHelp(catalog, mine))).not.toContain('credentials');
  });
});
