/**
 * The role × tier × channel table (matrix-table.ts) at every surface that shows or acts on
 * something for a person: each must answer as a typed command would, narrowed only where it
 * can never act. Each surface goes through the functions its handler uses.
 */
import { describe, expect, it } from 'vitest';
import { createAccess, type Access } from '../../../src/access/access.js';
import { checkOnRecord, drawnRead, mayReadRecord } from '../../../src/access/record-access.js';
import { systemClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log.js';
import { digestReach } from '../../../src/monitor/digest.js';
import { READ_OF, subscriptionReadChecks } from '../../../src/monitor/reads.js';
import { catalog } from '../../../src/operations/index.js';
import type { Tier } from '../../../src/operations/types.js';
import { KINDS, PEOPLE, TIERS, WHO } from './matrix-table.js';

/**
 * Each way the bot shows or does something for a person, as the production code decides it,
 * with a record (a watch, a subscription, an alert) in the kind's channel on its account.
 * Expected: the table's letter — allowed exactly where a typed command would be — except
 * where a surface narrows it (`never`: tiers it can never act on, whoever asks).
 * More surfaces join here (subscriptions, digests, alias expansion): one entry each.
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
