/**
 * The subscription commands' part of the hostile-output tours (issue 13), kept apart from
 * hostile-cloud-tour.ts and hostile-typed-tour.ts: subscribing, listing, muting and
 * unsubscribing, and the monitor's own output over hostile cloud data — alerts posted,
 * edited to resolved with a thread reply, and a daily digest. The rig's monitor is ticked
 * by hand (`monitorLoop: false`).
 */
import { SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import type { BotRig } from './bot-rig.js';

const DAY_MS = 86_400_000;

/** Settings for the hostile rig: the tour ticks the monitor; a state counts at first sight. */
export const HOSTILE_MONITOR = { monitorLoop: false, holdPolls: 1, postSpacingMs: 0 } as const;

/**
 * Every subscription command over hostile cloud data, and the monitor's posts: a server
 * powered off and on, a worker failing with a hostile error, usage over a threshold, an
 * unpaid invoice with a hostile status, and the next day's digest.
 */
export async function subscriptionCloudTour(rig: BotRig, r: (command: string) => Promise<void>, h: (i: number) => string): Promise<void> {
  const from = rig.responses.posts.length;
  for (const c of [
    'subscribe server 101', `subscribe worker ${SEED_WORKER_UUID}`, 'subscribe usage --cpu 1 --ram 1 --ip 1', 'subscribe usage',
    'subscribe invoices', 'subscribe digest --at 00:00 --tz UTC', 'subscribe server 999', 'subscriptions',
  ]) await r(c);
  const tick = async (ms: number) => {
    rig.clock.jump!(ms);
    await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
  };
  await tick(0); // first sight of everything: nothing to say yet
  rig.sandbox.powerServer(101, 'off');
  rig.sandbox.changeWorker(SEED_WORKER_UUID, { status: 'failed', error: h(12) });
  Object.assign(rig.sandbox.state.invoices[0]!, { amount_due: 12.5, status: h(13) });
  await tick(120_000); // alerts
  rig.sandbox.powerServer(101, 'on');
  rig.sandbox.changeWorker(SEED_WORKER_UUID, { status: 'building', buildMs: 60_000 });
  await tick(120_000); // one resolved, one changed
  await tick(DAY_MS); // the next day's digest
  const ids = [...new Set(JSON.stringify(rig.responses.posts.slice(from).map((p) => p.body)).match(/sub_[a-z2-7]{10}/g) ?? [])];
  await r(`mute ${ids[0] ?? 'sub_aaaaaaaaaa'} 2h`);
  await r('mute usage 1d');
  await r('subscriptions');
  await r(`mute ${ids[0] ?? 'sub_aaaaaaaaaa'} off`);
  await r(`unsubscribe ${ids[1] ?? 'sub_aaaaaaaaaa'}`);
  await r('unsubscribe sub_aaaaaaaaaa');
  // Maintenance windows (issue 25) over the same hostile data: started, listed, marked on a
  // status answer, held-back alerts, ended early, and the summary the next pass posts.
  const mark = rig.responses.posts.length;
  await r('maintenance server 101 2h');
  await r(`maintenance worker ${SEED_WORKER_UUID} 1h`);
  await r('maintenance account until 2099-01-01 00:00');
  await r('maintenance list');
  await r('server status 101');
  rig.sandbox.powerServer(101, 'off');
  rig.sandbox.changeWorker(SEED_WORKER_UUID, { status: 'failed', error: h(14) });
  await tick(120_000);
  const windows = [...new Set(JSON.stringify(rig.responses.posts.slice(mark).map((p) => p.body)).match(/mw_[a-z2-7]{8}/g) ?? [])];
  for (const id of windows) await r(`maintenance end ${id}`);
  await r('maintenance end mw_aaaaaaaa');
  await tick(1000);
}

/** Subscription commands with a hostile typed value `q` in each typed argument. */
export const subscriptionTypedCommands = (q: string): string[] => [
  `subscribe server ${q}`, `subscribe worker ${q}`, `subscribe usage --cpu ${q}`, `subscribe usage --ram ${q} --ip ${q}`,
  `subscribe digest --at ${q}`, `subscribe digest --at 09:00 --tz ${q}`, `subscribe ${q}`, 'subscribe invoices', 'subscriptions',
  `unsubscribe ${q}`, `mute ${q} 2h`, `mute 101 ${q}`, `mute ${q} ${q}`,
  `maintenance server ${q} 2h`, `maintenance server 101 ${q}`, `maintenance worker ${q} 1h`, `maintenance account until ${q}`,
  `maintenance account until 2026-12-01 03:00 --tz ${q}`, 'maintenance list', `maintenance end ${q}`, `maintenance ${q}`,
];

/** The same with a value of about 5,000 characters: refused as too long, echoed capped. */
export const subscriptionLongCommands = (long: string): string[] => [`subscribe server ${long}`, `subscribe digest --tz ${long}`, `mute ${long} ${long}`, `unsubscribe ${long}`, `maintenance server ${long} ${long}`, `maintenance end ${long}`];
