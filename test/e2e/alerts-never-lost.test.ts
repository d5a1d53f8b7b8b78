/**
 * Alerts that should fire are never silently dropped: not when the bot's store fails once while
 * the monitor commits a new state, nor when Slack fails the alert's post. The monitor is ticked
 * by hand over the sandbox, on the rig's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, monitorPolls, postedIn, powerFromPanel, setClock, INTERVAL, MONITOR, RECHECK, STATUS, monitorPass, offAlerts, failOnce } from './rig-alerts.js';

let rig: BotRig;
const { text, latest } = rigHelpers(() => rig);
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const tick = () => monitorPass(rig);
const alerts = () => offAlerts(rig);

async function subscribe(what: string): Promise<string> {
  const r = await rig.command(`subscribe ${what}`, { userId: BOB.id });
  const id = /sub_[a-z2-7]{10}/.exec(visibleText(r.final))?.[0];
  if (!id) throw new Error(`no subscription id in: ${visibleText(r.final)}`);
  return id;
}

describe('a store failure while the monitor commits a new state', () => {
  it('is tried again at a later pass: the server stays polled and its alert is posted', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await subscribe('server 101');
    await tick();
    await powerFromPanel(rig, 101, 'off');
    const states = rig.store.monitorState;
    failOnce(states, 'put');
    await after(rig, INTERVAL);
    await after(rig, RECHECK); // held for two polls: the commit fails
    expect(alerts()).toEqual([]);
    const polled = monitorPolls(rig, STATUS).length;
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(monitorPolls(rig, STATUS).length).toBeGreaterThan(polled); // still polled
    expect(alerts()).toHaveLength(1);
  });

  it('a failed read of the last state seen does not stop the polling of that server', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await subscribe('server 101');
    const states = rig.store.monitorState;
    failOnce(states, 'get');
    await tick(); // its first poll: the store fails
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    await after(rig, INTERVAL);
    expect(monitorPolls(rig, STATUS).length).toBeGreaterThanOrEqual(3);
    expect(alerts()).toHaveLength(1);
  });
});

describe('Slack fails the post of an alert', () => {
  it('an HTTP 503 on the post: the alert is posted at the next poll, once', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await subscribe('server 101');
    await tick();
    await powerFromPanel(rig, 101, 'off');
    await after(rig, INTERVAL);
    rig.slack.httpErrorNext('chat.postMessage', 503);
    await after(rig, RECHECK); // held for two polls: its post fails
    expect(alerts()).toEqual([]);
    await after(rig, INTERVAL);
    expect(alerts()).toHaveLength(1);
    await after(rig, INTERVAL);
    await after(rig, INTERVAL);
    expect(alerts()).toHaveLength(1);
    // It is the incident's message: edited when the server is back on.
    const alert = alerts()[0]!;
    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(text(latest(alert))).toMatch(/Resolved: Server `101` is back on/);
  });

  it('posted, but its ts not recorded: found in the channel, not posted twice, and still resolved', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await subscribe('server 101');
    await tick();
    await powerFromPanel(rig, 101, 'off');
    const alertsStore = rig.store.alerts;
    failOnce(alertsStore, 'setMessage');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(alerts()).toHaveLength(1);
    await after(rig, INTERVAL);
    await after(rig, INTERVAL);
    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0]!;
    await powerFromPanel(rig, 101, 'on');
    await after(rig, INTERVAL);
    await after(rig, RECHECK);
    expect(text(latest(alert))).toMatch(/Resolved: Server `101` is back on/);
  });
});

describe('the daily digest when the bot cannot list the day\'s alerts', () => {
  it('is still posted, saying what could not be read instead of leaving it out', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const DAY = 86_400_000;
    const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
    setClock(rig, day0 + 8 * 3_600_000);
    await subscribe('digest --at 09:00 --tz UTC');
    const alertsStore = rig.store.alerts;
    alertsStore.listSince = async () => {
      throw new Error('database is locked');
    };
    setClock(rig, day0 + 9 * 3_600_000);
    await tick();
    const [digest] = postedIn(rig, OPS_CHANNEL.id, /Daily digest/);
    expect(digest).toBeDefined();
    const shown = text(digest!);
    expect(shown).toMatch(/Servers that changed state[\s*_]+could not be read from the bot.s database right now/);
    expect(shown).toMatch(/Failed builds[\s*_]+could not be read/);
    expect(shown).not.toMatch(/0 server changes/);
  });
});
