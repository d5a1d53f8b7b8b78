/**
 * Lists the cloud gives whole, a page at a time, end to end: `/cloud sg show 7 --page 3` over
 * signed HTTP to the real Bolt app, the sandbox cloud behind it holding 500 rules. The cloud is
 * asked once for the whole group; the person sees rules 81–120, the command for the next page,
 * and a Next button that shows it. A bad page is refused before anything is read; a page past
 * the last says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig();
  const group = rig.sandbox.state.securityGroups.find((g) => g.id === 7)!;
  const model = group.rules[0]!;
  group.rules = Array.from({ length: 500 }, (_, i) => ({ ...model, id: 1000 + i, priority: i, destination_port: String(2000 + i), comment: `rule-${i + 1}` }));
  const key = rig.sandbox.state.sshKeys[0]!;
  rig.sandbox.state.sshKeys = Array.from({ length: 100 }, (_, i) => ({ ...key, id: 500 + i, name: `key-${i + 1}` }));
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
  expect(rig.responses.violations).toEqual([]);
});

const paths = (r: { cloudRequests: { method: string; rawPath: string }[] }) => r.cloudRequests.map((q) => `${q.method} ${q.rawPath}`);
/** The rules shown, by their comment's number. */
const rulesShown = (text: string) => [...text.matchAll(/rule-(\d+)/g)].map((m) => Number(m[1]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('sg show --page', () => {
  it('page 3: one read of the group, rules 81–120, the command for page 4, and Next shows it', async () => {
    const r = await rig.command('sg show 7 --page 3');
    expect(paths(r)).toEqual(['GET /v2/security-groups/7']);
    const text = visibleText(r.final);
    expect(rulesShown(text)).toEqual(range(81, 120));
    expect(text).toContain('Showing 81–120 of 500 rules; `/cloud sg show 7 --page 4` shows the next.');

    const next = await rig.clickInResponse(r.posts.at(-1)!, 'cloud_page_next');
    expect(paths(next)).toEqual(['GET /v2/security-groups/7']);
    expect(rulesShown(visibleText(next.final))).toEqual(range(121, 160));
    const prev = await rig.clickInResponse(next.posts.at(-1)!, 'cloud_page_prev');
    expect(rulesShown(visibleText(prev.final))).toEqual(range(81, 120));
  });

  it('without --page: the first 40, as before, and how to see the rest', async () => {
    const r = await rig.command('sg show 7');
    expect(rulesShown(visibleText(r.final))).toEqual(range(1, 40));
    expect(visibleText(r.final)).toContain('`/cloud sg show 7 --page 2` shows the next');
  });

  it('--page 0 and --page x are refused with a clear message, nothing read', async () => {
    const zero = await rig.command('sg show 7 --page 0');
    expect(paths(zero)).toEqual([]);
    expect(visibleText(zero.final)).toMatch(/`--page`: must be 1 or more/);
    const x = await rig.command('sg show 7 --page x');
    expect(paths(x)).toEqual([]);
    expect(visibleText(x.final)).toMatch(/`--page`: must be a page number/);
  });

  it('a page past the last says so and names the last', async () => {
    const r = await rig.command('sg show 7 --page 99');
    expect(paths(r)).toEqual(['GET /v2/security-groups/7']);
    const text = visibleText(r.final);
    expect(rulesShown(text)).toEqual([]);
    expect(text).toContain('There is no page 99: the 500 rules fill 13 pages. `/cloud sg show 7 --page 13` shows the last.');
  });

  it('the last page says it is the last', async () => {
    const r = await rig.command('sg show 7 --page 13');
    expect(rulesShown(visibleText(r.final))).toEqual(range(481, 500));
    expect(visibleText(r.final)).toContain('Showing 481–500 of 500 rules, the last page; `/cloud sg show 7 --page 12` shows the previous.');
  });

  it('help names the flag', async () => {
    const r = await rig.command('sg show --help');
    expect(paths(r)).toEqual([]);
    expect(visibleText(r.final)).toContain('--page');
  });
});

describe('ssh-key list --page', () => {
  it('page 2 of 100 keys: keys 41–80 from one read of the list', async () => {
    const r = await rig.command('ssh-key list --page 2');
    expect(paths(r)).toEqual(['GET /v2/ssh-keys']);
    const text = visibleText(r.final);
    expect([...text.matchAll(/key-(\d+)/g)].map((m) => Number(m[1]))).toEqual(range(41, 80));
    expect(text).toContain('Showing 41–80 of 100 SSH keys; `/cloud ssh-key list --page 3` shows the next.');
  });
});
