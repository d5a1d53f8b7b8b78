/**
 * An alert's "resolved" edit that Slack did not take is owed, not forgotten: the alert is closed
 * in the store at once, so without a record of the edit still owed its message would say the
 * problem is firing for good. The edit is tried again at later passes (after a restart too) until
 * Slack takes it, never as a new message; a refusal that asking again cannot change, or a day of
 * failures, gives it up (logged). The monitor is ticked by hand over the sandbox, on the rig's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { after, powerFromPanel, INTERVAL, MONITOR, RECHECK, monitorPass, offAlerts } from './rig-alerts.js';

let rig: BotRig;
const { text, latest } = rigHelpers(() => rig);
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const tick = () => monitorPass(rig);
const alerts = () => offAlerts(rig);
const updates = () => rig.slack.callsTo('chat.update').length;
const topLevel = () => rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
const RESOLVED = /Resolved: Server `101` is back on/;
const DAY = 86_400_000;

/** Subscribed to server 101, its powered-off alert posted, then the server back on with Slack failing every edit. */
async function resolvedWhileEditsFail(fail: () => void) {
  const r = await rig.command('subscribe server 101', { userId: BOB.id });
  expect(visibleText(r.final)).toMatch(/sub_[a-z2-7]{10}/);
  await tick();
  await powerFromPanel(rig, 101, 'off');
  await after(rig, INTERVAL);
  await after(rig, RECHECK);
  expect(alerts()).toHaveLength(1);
  const alert = alerts()[0]!;
  await powerFromPanel(rig, 101, 'on');
  fail();
  await after(rig, INTERVAL);
  await after(rig, RECHECK); // the condition is gone: the alert is closed, its edit fails
  expect(await rig.store.alerts.listFiring()).toEqual([]);
  expect(text(latest(alert))).not.toMatch(RESOLVED);
  return alert;
}

describe('the edit that shows an alert resolved fails', () => {
  it('HTTP 503s past the client retries: edited at a later pass once Slack takes it, never posted anew', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const alert = await resolvedWhileEditsFail(() => rig.slack.httpErrorNext('chat.update', 503, 1000));
    const posted = topLevel();
    await after(rig, INTERVAL); // still failing: still owed
    expect(text(latest(alert))).not.toMatch(RESOLVED);
    rig.slack.clearFaults();
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toMatch(RESOLVED);
    expect(text(latest(alert))).not.toMatch(/powered off.*since/i);
    expect(topLevel()).toBe(posted); // an edit, nothing new in the channel
    // Shown: not edited again.
    const edits = updates();
    await after(rig, INTERVAL);
    await after(rig, INTERVAL);
    expect(updates()).toBe(edits);
  });

  it('rate limited: edited at a later pass', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const alert = await resolvedWhileEditsFail(() => rig.slack.failNext('chat.update', 'ratelimited', 1000));
    rig.slack.clearFaults();
    await after(rig, INTERVAL);
    expect(text(latest(alert))).toMatch(RESOLVED);
  });

  it('still owed after a restart: the new process edits it', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const alert = await resolvedWhileEditsFail(() => rig.slack.httpErrorNext('chat.update', 503, 1000));
    rig.slack.clearFaults();
    await rig.restartBot();
    await tick();
    expect(text(latest(alert))).toMatch(RESOLVED);
  });

  it('message_not_found: given up at once, logged, never tried again', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await resolvedWhileEditsFail(() => rig.slack.failNext('chat.update', 'message_not_found', 1000));
    const edits = updates();
    await after(rig, INTERVAL);
    await after(rig, INTERVAL);
    expect(updates()).toBe(edits);
    expect(rig.logLines.some((l) => l.includes('gave up showing an alert resolved'))).toBe(true);
    rig.slack.clearFaults();
  });

  it('failing for a day: given up, logged, not tried again', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    await resolvedWhileEditsFail(() => rig.slack.httpErrorNext('chat.update', 503, 100_000));
    await after(rig, INTERVAL);
    const before = updates();
    await after(rig, INTERVAL);
    expect(updates()).toBeGreaterThan(before); // still tried within the day
    await after(rig, DAY);
    await after(rig, INTERVAL);
    const edits = updates();
    await after(rig, INTERVAL);
    expect(updates()).toBe(edits);
    expect(rig.logLines.some((l) => l.includes('gave up showing an alert resolved'))).toBe(true);
    rig.slack.clearFaults();
  });
});
