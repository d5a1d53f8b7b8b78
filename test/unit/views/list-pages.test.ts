/**
 * Lists the cloud gives whole (a group's rules, SSH keys, subnets, addresses, worker locations and
 * templates) and the bot's `known` lists are shown a page at a time: a cut note says which items
 * are shown and the exact command that shows the next, and Previous/Next buttons carry the same
 * value the paged API lists' buttons carry. Every item is on some page.
 */
import { describe, expect, it } from 'vitest';
import { buildSecurityGroup } from '../../../src/views/sg-views.js';
import { buildSshKeys } from '../../../src/views/ssh-key-views.js';
import { buildSubnets } from '../../../src/views/ip-views.js';
import { buildServerIps } from '../../../src/views/server-views.js';
import { buildLocations, buildTemplates } from '../../../src/views/worker-views.js';
import { buildKnownList } from '../../../src/views/known-views.js';
import { LIST_PAGE_SIZE, PAGE_ACTION_NEXT, PAGE_ACTION_PREV, type ListPaging } from '../../../src/views/pager.js';
import { listPaging } from '../../../src/operations/command-text.js';
import { sgShow } from '../../../src/operations/entries/other-reads.js';
import type { Reply } from '../../../src/views/types.js';
import { findBlockKitViolations } from '../../rig/block-kit-limits.js';

const now = Date.parse('2026-11-29T12:00:00Z');
const json = (r: Reply) => JSON.stringify(r.blocks);
const valid = (r: Reply) => {
  expect(findBlockKitViolations({ text: r.text, blocks: r.blocks })).toEqual([]);
  return r;
};
const buttons = (r: Reply) =>
  r.blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as { action_id: string; value: string }[]) : [])).filter((e) => e.action_id.startsWith('cloud_page_'));

const rules = Array.from({ length: 500 }, (_, i) => ({
  id: i + 1, type: 'inbound', action: 'ACCEPT', protocol: 'tcp', source: '10.0.0.0/8', destination: null,
  source_port: null, destination_port: String(1000 + i), priority: i, comment: `rule ${i + 1} <&>`,
}));
const group = { id: 7, name: 'web', description: null, rules, servers: [] } as never;
/** As run-operation builds it for `/cloud sg show 7 --page N`. */
const sgPage = (page: number | undefined, account?: string): ListPaging => listPaging(sgShow, { id: 7, page }, account ? { account, named: true } : {});
const shownRules = (r: Reply) => [...json(r).matchAll(/`#(\d+)`/g)].map((m) => Number(m[1]));

describe('a security group with 500 rules, a page at a time', () => {
  it('page 1 (no --page): the first 40 rules, the cut note naming the command for page 2, a Next button', () => {
    const r = valid(buildSecurityGroup(group, sgPage(undefined)));
    expect(shownRules(r)).toEqual(Array.from({ length: LIST_PAGE_SIZE }, (_, i) => i + 1));
    expect(json(r)).toContain('Showing 1–40 of 500 rules; `/cloud sg show 7 --page 2` shows the next');
    const b = buttons(r);
    expect(b.map((x) => x.action_id)).toEqual([PAGE_ACTION_NEXT]);
    expect(JSON.parse(b[0]!.value)).toEqual({ op: 'sg.show', args: { id: 7, page: 2 } });
  });

  it('page 3: rules 81–120, Previous and Next with the paged lists’ value format', () => {
    const r = valid(buildSecurityGroup(group, sgPage(3, 'prod')));
    expect(shownRules(r)).toEqual(Array.from({ length: 40 }, (_, i) => 81 + i));
    expect(json(r)).toContain('Showing 81–120 of 500 rules; `/cloud sg show 7 --page 4 --account prod` shows the next');
    const b = buttons(r);
    expect(b.map((x) => x.action_id)).toEqual([PAGE_ACTION_PREV, PAGE_ACTION_NEXT]);
    expect(b.map((x) => JSON.parse(x.value))).toEqual([
      { op: 'sg.show', args: { id: 7, page: 2 }, account: 'prod' },
      { op: 'sg.show', args: { id: 7, page: 4 }, account: 'prod' },
    ]);
  });

  it('the last page says it is the last and names the previous; no Next', () => {
    const r = valid(buildSecurityGroup(group, sgPage(13)));
    expect(shownRules(r)).toEqual(Array.from({ length: 20 }, (_, i) => 481 + i));
    expect(json(r)).toContain('Showing 481–500 of 500 rules, the last page; `/cloud sg show 7 --page 12` shows the previous');
    expect(buttons(r).map((x) => x.action_id)).toEqual([PAGE_ACTION_PREV]);
  });

  it('a page past the last says so, shows no rule, and offers the last page', () => {
    const r = valid(buildSecurityGroup(group, sgPage(20)));
    expect(shownRules(r)).toEqual([]);
    expect(json(r)).toContain('There is no page 20: the 500 rules fill 13 pages. `/cloud sg show 7 --page 13` shows the last');
    const b = buttons(r);
    expect(b.map((x) => x.action_id)).toEqual([PAGE_ACTION_PREV]);
    expect(JSON.parse(b[0]!.value).args.page).toBe(13);
  });

  it('every rule is on exactly one page', () => {
    const seen = Array.from({ length: 13 }, (_, i) => shownRules(buildSecurityGroup(group, sgPage(i + 1)))).flat();
    expect(seen).toEqual(rules.map((x) => x.id));
  });

  it('a list that fits on one page is shown as before: no note, no buttons', () => {
    const r = valid(buildSecurityGroup({ ...(group as object), rules: rules.slice(0, 40) } as never, sgPage(undefined)));
    expect(shownRules(r)).toHaveLength(40);
    expect(json(r)).not.toContain('Showing');
    expect(buttons(r)).toEqual([]);
  });

  it('rules at their longest still fit Slack with the pager', () => {
    const long = rules.map((x) => ({ ...x, comment: '<&>'.repeat(100), source: 'a'.repeat(200) }));
    for (const p of [1, 2, 13]) {
      const r = valid(buildSecurityGroup({ ...(group as object), rules: long } as never, sgPage(p)));
      expect(json(r)).toContain(`Showing ${(p - 1) * 40 + 1}–`);
    }
  });
});

describe('the other whole lists page the same way', () => {
  const paging = (command: string, page?: number): ListPaging => ({
    page: page ?? 1,
    command: (p) => `${command} --page ${p}`,
    buttonValue: (p) => JSON.stringify({ op: 'x.y', args: { page: p } }),
  });
  const cases: [string, (p: ListPaging) => Reply, string][] = [
    ['ssh keys', (p) => buildSshKeys(Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `k${i}`, public_key: null, created_at: null })) as never, { now, pages: p }), 'SSH keys'],
    ['subnets', (p) => buildSubnets(Array.from({ length: 100 }, (_, i) => ({ id: `sub-${i}` })) as never, p), 'subnets'],
    ['addresses', (p) => buildServerIps('101', Array.from({ length: 100 }, (_, i) => ({ address: `10.0.0.${i}`, type: 'ipv4' })) as never, p), 'addresses'],
    ['locations', (p) => buildLocations(Array.from({ length: 100 }, (_, i) => ({ id: i + 1, short_code: `L${i}` })) as never, p), 'locations'],
    ['templates', (p) => buildTemplates(Array.from({ length: 100 }, (_, i) => ({ id: `t${i}`, name: `T${i}` })) as never, p), 'templates'],
    [
      'known servers',
      (p) => buildKnownList('server', Array.from({ length: 100 }, (_, i) => ({ kind: 'server', id: String(i), uuid: null, name: `s${i}`, names: [], firstSeen: 0, lastSeen: 0 })) as never, now, 500, p),
      'servers',
    ],
  ];
  for (const [what, build, noun] of cases) {
    it(`${what}: page 2 of 3 names the command for page 3; page 4 does not exist`, () => {
      const two = valid(build(paging('/cloud x y', 2)));
      expect(json(two)).toContain(`Showing 41–80 of 100 ${noun}; \`/cloud x y --page 3\` shows the next`);
      expect(buttons(two)).toHaveLength(2);
      const four = valid(build(paging('/cloud x y', 4)));
      expect(json(four)).toContain(`There is no page 4: the 100 ${noun} fill 3 pages.`);
    });
  }
});

describe('the command a cut note names', () => {
  it('quotes a value with a space so it is read back as one word', () => {
    expect(listPaging(sgShow, { id: 'web front' as never, page: 2 }, {}).command(3)).toBe('/cloud sg show "web front" --page 3');
  });
});
