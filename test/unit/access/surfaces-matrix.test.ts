/**
 * The role × tier × channel table (matrix-table.ts) at every surface that shows or acts on
 * something for a person: each must answer as a typed command would, narrowed only where it
 * can never act. Each surface goes through the functions its handler uses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createAccess, type Access } from '../../../src/access/access.js';
import { checkOnRecord, drawnRead, mayReadRecord } from '../../../src/access/record-access.js';
import { systemClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log.js';
import { catalog } from '../../../src/operations/index.js';
import { parseCommand } from '../../../src/operations/parse-command.js';
import type { AliasControl } from '../../../src/operations/types.js';
import type { Tier } from '../../../src/domain/tier.js';
import { createAliasControl } from '../../../src/app/alias-control.js';
import { expandTyped, mayRunHere } from '../../../src/app/alias-commands.js';
import { admit } from '../../../src/app/guard.js';
import { createSqliteStore } from '../../../src/store/index.js';
import { KINDS, PEOPLE, TIERS, UNLISTED, WHO } from './matrix-table.js';
import { digestReach } from '../../../src/monitor/digest.js';
import { READ_OF, subscriptionReadChecks } from '../../../src/monitor/reads.js';

/**
 * Each way the bot shows or does something for a person, as the production code decides it,
 * with a record (a watch, a subscription, an alert) in the kind's channel on its account.
 * Expected: the table's letter — allowed exactly where a typed command would be — except
 * where a surface narrows it (`never`: tiers it can never act on, whoever asks).
 * A new surface joins with one entry here.
 */
interface Surface {
  /** Tiers this surface can reach at all; others are not part of its matrix. */
  tiers: Tier[];
  /** Tiers it refuses whoever asks (a button never starts a change). */
  never?: Tier[];
  /** Decided by the channel and its account alone, whoever asks (what the bot posts on its own): the strongest role's row. */
  channelOnly?: boolean;
  /** True when allowed. */
  allowed(access: Access, userId: string, channel: string, tier: Tier): Promise<boolean>;
}

const opOf = (tier: Tier) => ({ id: `probe.${tier}`, tier, scope: 'cloud' as const, mutates: tier === 'change' || tier === 'destroy' });

/** Aliases saved in every channel of the table, one per tier: `probe-<tier>` runs a command of that tier. */
const store = createSqliteStore({ path: ':memory:' });
afterAll(() => store.close());
const ALIASED: Record<Tier, string> = {
  read: 'server status 101',
  change: 'server rename 101 web',
  billing: 'account invoices',
  destroy: 'ssh-key delete 11',
  secret: 'server credentials 101',
};
const saved = (async () => {
  const aliases = createAliasControl({ store: store.aliases, catalog, access: { roleOf: async () => 'admin' }, clock: systemClock });
  for (const channelId of new Set([UNLISTED, ...Object.values(KINDS).map((k) => k.channel)])) {
    for (const [tier, command] of Object.entries(ALIASED)) await aliases.create({ channelId, userId: PEOPLE.admin, name: `probe-${tier}`, command });
    await aliases.create({ channelId, userId: PEOPLE.admin, name: 'probe-one', command: 'server status $1' });
  }
  return aliases;
})();

/** `/cloud <text>` in `channel` as register-command.ts answers it: expanded after its pre-check, then admitted as typed. */
async function aliasRuns(access: Access, aliases: AliasControl, userId: string, channel: string, text: string) {
  const typed = await expandTyped(aliases, catalog, text, channel, mayRunHere({ access }, userId, channel));
  if (typed.kind === 'reply') return { ran: false, said: typed.reply.text };
  const parsed = parseCommand(typed.text, catalog);
  if (parsed.kind !== 'run') throw new Error(`the alias expanded to ${typed.text}, which does not parse`);
  return { ran: (await admit({ access }, parsed.op, userId, channel, {}, parsed.account)).ok, said: typed.text };
}

/** The checks runtime.ts wires into the subscription commands and the monitor (monitor/reads.ts). */
const checksOf = (a: Access) => subscriptionReadChecks({ access: a, catalog, accountOf: (account) => account ?? a.policy().defaultAccount });
/** Per tier, the subscription kinds whose equivalent read has it (written out by hand: reads.ts must agree). */
const KINDS_OF: Partial<Record<Tier, (keyof typeof READ_OF)[]>> = { read: ['server', 'worker', 'usage', 'digest'], billing: ['invoices'] };
/** One answer for every kind of the tier, or the test fails saying which disagree. */
async function same(tier: Tier, answer: (kind: keyof typeof READ_OF) => Promise<boolean> | boolean): Promise<boolean> {
  const kinds = KINDS_OF[tier]!;
  const got = await Promise.all(kinds.map(answer));
  if (got.some((g) => g !== got[0])) throw new Error(`subscription kinds of tier ${tier} disagree: ${kinds.map((k, i) => `${k}=${got[i]}`).join(', ')}`);
  return got[0]!;
}

const SURFACES: Record<string, Surface> = {
  'a typed command': { tiers: TIERS, allowed: async (a, u, ch, tier) => (await a.check(u, ch, opOf(tier))).ok },
  // register-home.ts: a watch or subscription is listed when its reads pass in its channel, on its account.
  'the Home tab (a record of that channel)': { tiers: TIERS, allowed: (a, u, ch, tier) => mayReadRecord(a, u, { channelId: ch, account: null }, [opOf(tier)]) },
  // register-alert-actions.ts: only a read the alert drew, checked in the alert's channel on its account.
  'an alert button': {
    tiers: TIERS,
    never: ['change', 'destroy'],
    async allowed(a, u, ch, tier) {
      const drawn = { op: `probe.${tier}`, args: { server: '101' } };
      const hit = drawnRead([drawn], { op: drawn.op, args: { server: '101' } }, () => opOf(tier));
      return !!hit && (await checkOnRecord(a, u, { channelId: ch, account: null }, opOf(tier))).ok;
    },
  },
  // watch-commands.ts: the read the watch polls, in the watch's channel on its account.
  'Keep watching': { tiers: ['read'], allowed: async (a, u, ch) => (await checkOnRecord(a, u, { channelId: ch, account: 'prod' }, opOf('read'))).ok },
  // register-command.ts / alias-commands.ts: the right to run anything here before expanding, then the expansion as typed.
  'alias expansion': { tiers: TIERS, allowed: async (a, u, ch, tier) => (await aliasRuns(a, await saved, u, ch, `probe-${tier}`)).ran },
  // control.ts: `subscribe …` needs the person's right to run the kind's equivalent read here, on the account.
  'subscribe (made by the person)': {
    tiers: ['read', 'billing'],
    allowed: (a, u, ch, tier) => same(tier, async (kind) => (await checksOf(a).mayRead({ userId: u, channelId: ch, account: 'prod' }, READ_OF[kind])) === undefined),
  },
  // monitor.ts, alerting.ts: each poll and post needs the read in the subscription's channel, on its account, whoever made it.
  "a subscription's post": {
    tiers: ['read', 'billing'],
    channelOnly: true,
    allowed: (a, _u, ch, tier) => same(tier, (kind) => checksOf(a).channelMay({ channelId: ch, account: 'prod' }, READ_OF[kind])),
  },
  // digest.ts: a digest needs the usage read; its invoice section, the invoices read.
  'a digest (usage; its invoice section)': {
    tiers: ['read', 'billing'],
    channelOnly: true,
    allowed: async (a, _u, ch, tier) => {
      const reach = digestReach({ channelId: ch, account: 'prod' }, checksOf(a).channelMay);
      return tier === 'read' ? reach.usage : reach.invoices;
    },
  },
};

describe('role × tier × channel, at every surface', () => {
  const logger = createLogger({ level: 'error', sink: () => {} });
  for (const [surfaceName, surface] of Object.entries(SURFACES)) {
    describe(surfaceName, () => {
      for (const [kindName, kind] of Object.entries(KINDS)) {
        const access = createAccess({ policy: () => kind.policy, groupMembers: async () => [], clock: systemClock, logger });
        it(kindName, async () => {
          const got: Record<string, string> = {};
          const want: Record<string, string> = {};
          for (const who of WHO) {
            got[who] = '';
            want[who] = '';
            for (const [i, tier] of TIERS.entries()) {
              if (!surface.tiers.includes(tier)) continue;
              const letter = kind.grid[surface.channelOnly ? 'admin' : who][i]!;
              want[who] += letter === 'Y' && !surface.never?.includes(tier) ? 'Y' : '-';
              got[who] += (await surface.allowed(access, PEOPLE[who], kind.channel, tier)) ? 'Y' : '-';
            }
          }
          expect(got).toEqual(want);
        });
      }
    });
  }
});

describe('alias expansion: refused before expanding', () => {
  const logger = createLogger({ level: 'error', sink: () => {} });
  const kind = KINDS['listed, no ceiling']!;
  const access = createAccess({ policy: () => kind.policy, groupMembers: async () => [], clock: systemClock, logger });

  it('someone who may run nothing here hears the refusal, not what the alias would expand to', async () => {
    // Typed without its argument: an expansion would fail ("needs 1"); a refusal comes first.
    const none = await aliasRuns(access, await saved, PEOPLE.none, kind.channel, 'probe-one');
    expect(none).toEqual({ ran: false, said: expect.stringMatching(/needs the \*viewer\* role/) });
    const viewer = await aliasRuns(access, await saved, PEOPLE.viewer, kind.channel, 'probe-one');
    expect(viewer.ran).toBe(false);
    expect(viewer.said).not.toMatch(/role/);
    expect((await aliasRuns(access, await saved, PEOPLE.viewer, kind.channel, 'probe-one 101')).ran).toBe(true);
  });
});
