/**
 * The digest's unpaid invoices: GET /account/invoices lists the most recent first (page size not
 * shown), and an old invoice may still be unpaid. The digest runs once a day, so it reads every
 * page up to DIGEST_INVOICE_PAGES; when there are more, it says which pages it read, never "none".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DIGEST_INVOICE_PAGES } from '../../src/monitor/digest.js';
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

/** Subscribes a digest and runs the pass that posts it; returns what the channel saw and the invoice pages read. */
async function digestShown(): Promise<{ shown: string; pages: number[] }> {
  const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
  setClock(rig, day0 + 8 * HOUR);
  const r = await rig.command('subscribe digest --at 09:00 --tz UTC', { userId: BOB.id });
  expect(visibleText(r.final)).toMatch(/sub_/);
  const from = rig.sandbox.requests.length;
  setClock(rig, day0 + 9 * HOUR);
  await rig.bot.monitor.tick();
  await rig.bot.monitor.idle();
  const [digest] = postedIn(rig, OPS_CHANNEL.id, /Daily digest/);
  const pages = rig.sandbox.requests
    .slice(from)
    .filter((q) => q.rawPath === '/v2/account/invoices')
    .map((q) => Number(q.query.page));
  return { shown: visibleText({ text: digest!.text, blocks: digest!.blocks }), pages };
}

/** Every invoice paid but the oldest, which is unpaid. */
function onlyOldestUnpaid<T extends { created_at?: string | null; amount_due?: number | null; status?: string | null }>(invoices: T[]): T {
  const oldest = [...invoices].sort((a, b) => Date.parse(a.created_at ?? '') - Date.parse(b.created_at ?? ''))[0]!;
  for (const i of invoices) Object.assign(i, { amount_due: 0, status: 'paid' });
  Object.assign(oldest, { amount_due: 9.5, status: 'unpaid' });
  return oldest;
}

describe('the digest’s unpaid invoices', () => {
  it('reads every page, so an old unpaid invoice on the last page is listed', async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const oldest = onlyOldestUnpaid(rig.sandbox.state.invoices);
    const { shown, pages } = await digestShown();
    expect(pages).toEqual([1, 2, 3]); // the seeded account has 3 pages
    expect(shown).toContain(`#${oldest.id}`);
    expect(shown).toMatch(/1 unpaid invoice,/);
    expect(shown).not.toMatch(/older ones are not checked/);
  });

  it(`with more than ${DIGEST_INVOICE_PAGES} pages: says which pages it read, not that there are none`, async () => {
    rig = await startBotRig({ monitor: MONITOR });
    const invoices = rig.sandbox.state.invoices;
    const perPage = invoices.length; // make the account hold 3 × (DIGEST_INVOICE_PAGES) pages' worth
    const template = invoices[0]!;
    for (let n = 0; n < perPage * 2 * DIGEST_INVOICE_PAGES; n++) {
      invoices.push({ ...template, id: 90_000 + n, created_at: new Date(Date.parse(template.created_at ?? '2026-01-01T00:00:00Z') - (n + 1) * DAY).toISOString() });
    }
    onlyOldestUnpaid(invoices);
    const { shown, pages } = await digestShown();
    expect(pages).toEqual(Array.from({ length: DIGEST_INVOICE_PAGES }, (_, i) => i + 1));
    expect(shown).not.toMatch(/Unpaid or overdue invoices\*?\s*_none_/);
    expect(shown).toMatch(new RegExp(`none on pages 1–${DIGEST_INVOICE_PAGES} of \\d+`));
    expect(shown).toMatch(new RegExp(`0 unpaid invoices on pages 1–${DIGEST_INVOICE_PAGES} of \\d+`));
    expect(shown).toContain(`older ones are not checked here: \`/cloud account invoices --page ${DIGEST_INVOICE_PAGES + 1}\``);
  });
});
