/**
 * Alerts that tell the truth (issue 20 item 2): a condition holds on state, not only on a
 * crossing. Unsubscribing ends the watching, not the problem; a condition that came during a
 * mute fires when the mute ends; subscribing to something already wrong shows it and opens an
 * alert once the hold rule confirms it. The monitor is ticked by hand over the sandbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, monitorPolls, postedIn, powerFromPanel, INTERVAL, MONITOR, OFF, RECHECK, STATUS, monitorPass, offAlerts } from './rig-alerts.js';

let rig: BotRig;
const { text, latest } = rigHelpers(() => rig);
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const tick = () => monitorPass(rig);
const alerts = () => offAlerts(rig);
const subscriptions = async () => visibleText((await rig.command('subscriptions', { userId: BOB.id })).final);

async function subscribe(what: string, userId = BOB.id): Promise<{ id: string; said: string }> {
  const r = await rig.command(`subscribe ${what}`, { userId });
  const said = visibleText(r.final);
  const id = /sub_[a-z2-7]{10}/.exec(said)?.[0];
  if (!id) throw new Error(`no subscription id in: ${said}`);
  return { id, said };
}

/** Subscribed to server 101, seen on, then powered off long enough to count: the alert. */
async function firingAlert() {
  const { id } = await subscribe('server 101');
  await tick();
  await powerFromPanel(rig, 101, 'off');
  await after(rig, INTERVAL);
  await after(rig, RECHECK);
  expect(alerts()).toHaveLength(1);
  return { id, alert: alerts()[0]! };
}

describe('unsubscribing while an alert fires', () => {
  it('says the watching ended and what was last seen, never that the server is back on', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { id, alert } = await firingAlert();
    const r = await rig.command(`unsubscribe ${id}`, { userId: BOB.id });
    expect(visibleText(r.final)).toMatch(/Unsubscribed/);
    const now = text(latest(alert));
    expect(now).not.toMatch(/Resolved|back on/);
    expect(now).toMatch(/No longer watched/);
    expect(now).toMatch(/Still firing when last seen: Server `101` is powered off/);
    expect(rig.slack.messages.thread(alert.channel, alert.ts)).toEqual([]); // an edit, nothing posted
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toBe(now);
  });
});

describe('muting while an alert fires', () => {
  it('leaves it firing while the server is off, and marks it resolved only once it is back on', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { id, alert } = await firingAlert();
    await rig.command(`mute ${id} 2h`, { userId: BOB.id });
    await after(rig, INTERVAL);
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toMatch(OFF);
    expect(rig.slack.callsTo('chat.update').filter((c) => c.params.ts === alert.ts)).toEqual([]);
    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(text(latest(alert))).toMatch(/Resolved: Server `101` is back on/);
  });
});

describe('a mute that ends', () => {
  it('fires for a server that went off during the mute and is still off, and lists it firing', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { id } = await subscribe('server 101');
    await tick();
    await rig.command(`mute ${id} 2h`, { userId: BOB.id });
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(alerts()).toEqual([]);
    const polled = monitorPolls(rig, STATUS).length;

    await after(rig, 2 * 3_600_000); // the mute ends; the server is still off
    expect(monitorPolls(rig, STATUS).length).toBe(polled + 1); // looked again before saying so
    expect(alerts()).toHaveLength(1);
    expect(await subscriptions()).toMatch(new RegExp(`${id}.*1 firing`));
    await after(rig, INTERVAL);
    expect(alerts()).toHaveLength(1);
  });

  it('`mute off` fires at the next pass for a condition that still holds', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { id } = await subscribe('server 101');
    await tick();
    await rig.command(`mute ${id} 1d`, { userId: BOB.id });
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(alerts()).toEqual([]);
    await rig.command(`mute ${id} off`, { userId: BOB.id });
    await after(rig, 10);
    expect(alerts()).toHaveLength(1);
  });
});

describe('subscribing to something already wrong', () => {
  it('a stopped server: the answer says so, and an alert opens once the hold rule confirms it', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await powerFromPanel(rig, 101, 'off');
    const { id, said } = await subscribe('server 101');
    expect(said).toMatch(/Now: Server `101` is powered off/);
    await tick();
    expect(alerts()).toEqual([]); // seen once: held
    await after(rig, RECHECK);
    expect(alerts()).toHaveLength(1);
    expect(await subscriptions()).toMatch(new RegExp(`${id}.*1 firing`));
  });

  it('usage over the threshold: the answer shows the share, and the alert opens', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const u = await rig.cloud.account.usage();
    const percent = Math.round((u.cpu_used! / u.cpu_limit!) * 1000) / 10;
    const threshold = Math.max(1, Math.floor(percent));
    const { said } = await subscribe(`usage --cpu ${threshold}`);
    expect(said).toContain(`Now: CPU usage is at ${percent}% of the limit (threshold ${threshold}%)`);
    await tick();
    await after(rig, RECHECK);
    expect(postedIn(rig, OPS_CHANNEL.id, /CPU usage is at/)).toHaveLength(1);
  });

  it('a healthy server: the answer says nothing is wrong now, and nothing is posted', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { said } = await subscribe('server 101');
    expect(said).toMatch(/Now: nothing to alert about/);
    const before = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    await tick();
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id)).toHaveLength(before);
  });
});

describe('`mute … off` on a subscription that is not muted', () => {
  it('says it was not muted, never that it was unmuted; one that was muted is unmuted', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { id } = await subscribe('server 101');
    const idle = visibleText((await rig.command(`mute ${id} off`, { userId: BOB.id })).final);
    expect(idle).not.toMatch(/Unmuted/);
    expect(idle).toContain(`\`${id}\` (server \`101\`) was not muted: alerts are posted as usual.`);
    await rig.command(`mute ${id} 1h`, { userId: BOB.id });
    const off = visibleText((await rig.command(`mute ${id} off`, { userId: BOB.id })).final);
    expect(off).toContain(`Unmuted \`${id}\` (server \`101\`): alerts are posted again.`);
  });
});

describe('a read that leaves out what a condition is judged by', () => {
  it('a status answer without a power state does not mark a powered-off server back on', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const { alert } = await firingAlert();
    rig.sandbox.addFault({ method: 'GET', path: STATUS, rawBody: JSON.stringify({ data: { state: null, server_status: null, power_task: null } }), times: 3 });
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toMatch(OFF);
    expect(text(latest(alert))).not.toMatch(/Resolved|back on/);
    expect(rig.slack.messages.thread(alert.channel, alert.ts)).toEqual([]);
    // Seen on again: resolved then.
    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(text(latest(alert))).toMatch(/Resolved: Server `101` is back on/);
  });

  it('usage without the CPU figures does not say CPU usage is back below the threshold', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const u = await rig.cloud.account.usage();
    const threshold = Math.max(1, Math.floor((u.cpu_used! / u.cpu_limit!) * 100));
    await subscribe(`usage --cpu ${threshold}`);
    await tick();
    await after(rig, RECHECK);
    const [alert] = postedIn(rig, OPS_CHANNEL.id, /CPU usage is at/);
    expect(alert).toBeDefined();
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', rawBody: JSON.stringify({ data: { ...u, cpu_used: null } }), times: 4 });
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(text(latest(alert!))).toMatch(/CPU usage is at/);
    expect(text(latest(alert!))).not.toMatch(/Resolved|back below/);
  });
});

describe('an unpaid invoice pushed off the first page of invoices', () => {
  it('is not said to be paid; it is resolved once it is read paid', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const invoices = rig.sandbox.state.invoices;
    const unpaid = invoices[3]!;
    Object.assign(unpaid, { amount_due: 12.5, status: 'unpaid' });
    await subscribe('invoices', ALICE.id); // an admin: invoices need the billing tier
    await tick();
    await after(rig, RECHECK);
    const [alert] = postedIn(rig, OPS_CHANNEL.id, new RegExp(`Invoice \`#${unpaid.id}\` is unpaid`));
    expect(alert).toBeDefined();
    // Twenty newer invoices, all paid: the unpaid one is now on the second page.
    const newest = Date.parse(invoices[0]!.created_at!);
    for (let i = 1; i <= 20; i++) {
      invoices.push({ ...invoices[0]!, id: 20_000 + i, status: 'paid', amount_due: 0, created_at: new Date(newest + i * 3_600_000).toISOString() });
    }
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(text(latest(alert!))).toMatch(/is unpaid/);
    expect(text(latest(alert!))).not.toMatch(/Resolved|no longer unpaid/);

    Object.assign(unpaid, { amount_due: 0, status: 'paid' });
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(text(latest(alert!))).toMatch(/Resolved: Invoice `#\d+` is no longer unpaid/);
  });
});
