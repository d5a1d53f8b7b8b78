/**
 * The digest's unpaid invoices come from the first page of GET /account/invoices only (most
 * recent first; page size "not shown"). An unpaid invoice on a later page is not read, so the
 * digest must not say there are none: it says which page it read, of how many.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { postedIn, setClock, MONITOR } from './rig-alerts.js';

let rig: BotRig;
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('the digest’s unpaid invoices', () => {
  it('with more invoices than one page: says it read the first page of several, not that there are none', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const invoices = rig.sandbox.state.invoices;
    // Oldest first in the seed's order is not assumed: the one the cloud lists last is the oldest.
    const oldest = [...invoices].sort((a, b) => Date.parse(a.created_at ?? '') - Date.parse(b.created_at ?? ''))[0]!;
    for (const i of invoices) Object.assign(i, { amount_due: 0, status: 'paid' });
    Object.assign(oldest, { amount_due: 9.5, status: 'unpaid' });

    const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
    setClock(rig, day0 + 8 * HOUR);
    const r = await rig.command('subscribe digest --at 09:00 --tz UTC', { userId: BOB.id });
    expect(visibleText(r.final)).toMatch(/sub_/);
    setClock(rig, day0 + 9 * HOUR);
    await rig.bot.monitor.tick();
    await rig.bot.monitor.idle();
    const [digest] = postedIn(rig, OPS_CHANNEL.id, /Daily digest/);
    const shown = visibleText({ text: digest!.text, blocks: digest!.blocks });
    expect(shown).toMatch(/Unpaid or overdue invoices/);
    expect(shown).not.toMatch(/Unpaid or overdue invoices\*?\s*_none_/);
    expect(shown).toMatch(/none on page 1 of 3/);
    expect(shown).toMatch(/0 unpaid invoices on page 1 of 3/);
    expect(shown).toMatch(/older ones are not checked here: `\/cloud account invoices --page 2`/);
  });
});
