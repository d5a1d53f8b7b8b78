/**
 * Views of big accounts: hundreds of rules, keys, subnets, addresses, with values at their
 * longest, full of multi-byte characters and mrkdwn-special ones. Each answer is valid Block
 * Kit as the fake Slack counts (UTF-16 units, never fewer than Slack's characters), and a cut
 * list says how many it left out.
 */
import { describe, expect, it } from 'vitest';
import { header, lineSections, LIMITS, section } from '../../../src/views/blocks.js';
import { cutMrkdwn, md, plain, trusted, val } from '../../../src/views/mrkdwn.js';
import { buildSecurityGroup } from '../../../src/views/sg-views.js';
import { buildSshKeys } from '../../../src/views/ssh-key-views.js';
import { buildSubnets } from '../../../src/views/ip-views.js';
import { buildServerIps } from '../../../src/views/server-views.js';
import { buildLocations, buildTemplates } from '../../../src/views/worker-views.js';
import { buildKnownList } from '../../../src/views/known-views.js';
import { buildPlans } from '../../../src/views/plan-views.js';
import { buildChangeModal, readModalValues } from '../../../src/views/modal-views.js';
import type { ModalSpec } from '../../../src/views/modal-spec.js';
import type { Reply } from '../../../src/views/types.js';
import { findBlockKitViolations } from '../../rig/block-kit-limits.js';

/** Astral (two UTF-16 units each), accented, and Slack's specials: as long as asked, in code points. */
const wild = (n: number): string => Array.from({ length: n }, (_, i) => ['😀', 'é', '<', '&', '*', '`', '_', '~', '>', '𝕏'][i % 10]).join('');
const now = Date.parse('2026-11-29T12:00:00Z');

const valid = (r: Reply | object) => {
  const payload = 'blocks' in r && 'text' in r ? { text: (r as Reply).text, blocks: (r as Reply).blocks } : r;
  expect(findBlockKitViolations(payload)).toEqual([]);
  return r;
};
const allText = (r: Reply) => JSON.stringify(r.blocks);
/** A page of a whole list: its note's numbers ("Showing 1–40 of 500"), shown and total. */
const pageNote = (r: Reply): { shown: number; total: number } => {
  const m = /Showing (\d+)–(\d+) of (\d+)/.exec(allText(r));
  return m ? { shown: Number(m[2]) - Number(m[1]) + 1, total: Number(m[3]) } : { shown: 0, total: 0 };
};
/** No lone surrogate anywhere: a cut never splits a character. */
const noLoneSurrogate = (s: string) => expect(s).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);

describe('the shared helpers count as the fake Slack does', () => {
  it('a header of 200 astral characters stays within 150 UTF-16 units, whole characters', () => {
    const h = header('😀'.repeat(200)) as unknown as { text: { text: string } };
    expect(h.text.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    noLoneSurrogate(h.text.text);
    expect(plain('😀'.repeat(100), 75).length).toBeLessThanOrEqual(75);
  });

  it('a value of astral characters is capped in UTF-16 units too', () => {
    expect(val('😀'.repeat(300)).length).toBeLessThanOrEqual(302);
  });

  it('cutMrkdwn never splits a surrogate pair', () => {
    for (const max of [10, 11, 12, 13]) noLoneSurrogate(cutMrkdwn(trusted('😀'.repeat(20)), max));
  });

  it('lineSections keeps the "…and N more" line whole, however full the last section', () => {
    const lines = Array.from({ length: 200 }, (_, i) => trusted(`• ${i} ${'x'.repeat(2990)}`));
    const blocks = lineSections(lines, 3, { rest: md`Narrow it with ${val('--filter NAME')} to see the rest.` });
    expect(findBlockKitViolations(blocks)).toEqual([]);
    const json = JSON.stringify(blocks);
    expect(json).toContain('see the rest');
    const shown = (json.match(/• \d+ /g) ?? []).length;
    expect(shown + Number(/and (\d+) more/.exec(json)![1])).toBe(200);
  });

  it('by default, a cut list says the rest is not shown', () => {
    const lines = Array.from({ length: 500 }, (_, i) => trusted(`• ${i} ${'y'.repeat(500)}`));
    const json = JSON.stringify(lineSections(lines, 2));
    expect(json).toMatch(/and \d+ more not shown/);
  });
});

describe('list answers of a big account', () => {
  it('a security group with 500 rules with long comments and 300 servers: valid, the page counts every rule', () => {
    const rules = Array.from({ length: 500 }, (_, i) => ({
      id: i + 1, type: 'inbound', action: 'ACCEPT', protocol: 'tcp', source: `10.${i % 250}.0.0/16`, destination: null,
      source_port: null, destination_port: String(1000 + i), priority: i, comment: wild(255),
    }));
    const servers = Array.from({ length: 300 }, (_, i) => ({ uuid: `uuid-${i}-${'a'.repeat(30)}`, uuid_short: null, name: wild(40) }));
    const r = valid(buildSecurityGroup({ id: 7, name: wild(40), description: wild(255), rules, servers } as never)) as Reply;
    const json = allText(r);
    const rulesShown = (json.match(/prio \d+/g) ?? []).length;
    expect(pageNote(r)).toEqual({ shown: rulesShown, total: 500 });
    const serversShown = (json.match(/uuid-\d+-/g) ?? []).length;
    expect(serversShown + Number(/and (\d+) more/.exec(json)![1])).toBe(300);
    expect(r.text.length).toBeLessThanOrEqual(LIMITS.messageText);
  });

  it('300 SSH keys with long names: valid, and the page counts them all', () => {
    const keys = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, name: wild(255), public_key: `ssh-ed25519 ${'A'.repeat(68)} ${wild(100)}`, created_at: '2026-01-01T00:00:00Z' }));
    const r = valid(buildSshKeys(keys as never, { now })) as Reply;
    const shown = (allText(r).match(/• `\d+`/g) ?? []).length;
    expect(pageNote(r)).toEqual({ shown, total: 300 });
  });

  it('500 subnets, 1000 addresses, 500 locations and templates: valid, the page counts them all', () => {
    const subnets = Array.from({ length: 500 }, (_, i) => ({ id: i, subnet: `2001:db8:${i}::/48`, type: 'ipv6', location: { short_code: wild(100) }, location_id: i, available: 3, total: 10, hourly_price: 0.01 }));
    const ips = Array.from({ length: 1000 }, (_, i) => ({ address: `10.0.${i >> 8}.${i & 255}`, cidr: 32, type: 'ipv4', gateway: '10.0.0.1', rdns: wild(253), reserved: true }));
    const locations = Array.from({ length: 500 }, (_, i) => ({ id: i, short_code: wild(50), name: wild(200), out_of_stock: true }));
    const templates = Array.from({ length: 500 }, (_, i) => ({ id: i, name: wild(200), type: 'app', description: wild(300) }));
    for (const [r, total] of [
      [buildSubnets(subnets as never), 500],
      [buildServerIps(wild(40), ips as never), 1000],
      [buildLocations(locations as never), 500],
      [buildTemplates(templates as never), 500],
    ] as const) {
      valid(r);
      const shown = (allText(r).match(/• /g) ?? []).length;
      expect(pageNote(r)).toEqual({ shown, total });
    }
  });

  it('50 known servers with many long names each, and a page of 100 plans with long names: valid', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      kind: 'server', id: String(i), uuid: `uuid-${i}`, name: wild(80), firstSeen: 0, lastSeen: 0,
      names: Array.from({ length: 20 }, () => ({ name: wild(80), field: 'rdns', via: 'server ips', home: null })),
    }));
    valid(buildKnownList('server', rows as never, now, 50));
    const plans = Array.from({ length: 100 }, (_, i) => ({ id: i, name: wild(300), cpu: 4, memory: 8e9, disk: 1e11, monthly_price: 10, hourly_price: 0.01, location_id: 1, available: true }));
    valid(buildPlans({ data: plans, meta: { current_page: 1, last_page: 9, total: 900 } } as never, 1, []));
  });
});

describe('a modal select with more choices than Slack lists (100)', () => {
  const spec = (kind: 'select' | 'multi_select'): ModalSpec => ({
    title: 'Reinstall',
    submit: 'Reinstall',
    fields: [{ name: 'ssh-keys', label: 'SSH keys', kind, optional: true, maxSelected: 20 }],
  });
  const options = Array.from({ length: 300 }, (_, i) => ({ value: String(i + 1), text: wild(100) }));

  for (const kind of ['select', 'multi_select'] as const) {
    it(`${kind}: becomes a typed field that says why, not a menu missing 200 choices`, () => {
      const view = valid(buildChangeModal({ spec: spec(kind), options: { 'ssh-keys': options }, initial: {}, privateMetadata: '' })) as { blocks: { type: string; element?: { type: string }; hint?: { text: string } }[] };
      const input = view.blocks.find((b) => b.type === 'input')!;
      expect(input.element!.type).toBe('plain_text_input');
      expect(input.hint!.text).toContain('300');
      // What was typed reads back as the argument the menu would have given.
      const typed = readModalValues(spec(kind), { 'ssh-keys': { 'ssh-keys': { type: 'plain_text_input', value: kind === 'select' ? ' 250 ' : '3, 250 7' } } });
      expect(typed).toEqual({ 'ssh-keys': kind === 'select' ? '250' : ['3', '250', '7'] });
    });
  }

  it('100 choices or fewer stay a menu, and option texts fit in UTF-16 units', () => {
    const view = valid(buildChangeModal({ spec: spec('select'), options: { 'ssh-keys': options.slice(0, 100) }, initial: {}, privateMetadata: '' })) as { blocks: { type: string; element?: { type: string } }[] };
    expect(view.blocks.find((b) => b.type === 'input')!.element!.type).toBe('static_select');
  });

  it('grouped choices over 100 are typed too', () => {
    const grouped = options.map((o, i) => ({ ...o, group: `loc ${i % 150}` }));
    const view = valid(
      buildChangeModal({ spec: spec('select'), options: { 'ssh-keys': grouped }, initial: { 'ssh-keys': '5' }, privateMetadata: '' }),
    ) as { blocks: { type: string; element?: { type: string; initial_value?: string } }[] };
    const el = view.blocks.find((b) => b.type === 'input')!.element!;
    expect(el.type).toBe('plain_text_input');
    expect(el.initial_value).toBe('5');
  });
});

describe('a section built from one huge line', () => {
  it('is cut whole within 3000 units', () => {
    const s = section(trusted(`${val(wild(300))} `.repeat(40))) as unknown as { text: { text: string } };
    expect(s.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    noLoneSurrogate(s.text.text);
  });
});

describe('a cut list says how to see the rest', () => {
  it('the audit trail names the filter that narrows it, unless already narrowed', async () => {
    const { buildAuditList } = await import('../../../src/views/audit-views.js');
    const entries = Array.from({ length: 150 }, (_, i) => ({ id: i, at: now - i, userId: 'U1', channelId: 'C1', opId: 'server.status', tier: 'read', args: { server: wild(300) }, outcome: 'succeeded', errorCode: null, confirmedBy: null, approvedBy: null }));
    const all = valid(buildAuditList(entries as never, now)) as Reply;
    expect(allText(all)).toMatch(/and \d+ more — `\/cloud audit --user U0123ABCD` narrows it to one person/);
    expect(allText(valid(buildAuditList(entries as never, now, { userId: 'U1' })) as Reply)).not.toContain('--user');
  });
});
