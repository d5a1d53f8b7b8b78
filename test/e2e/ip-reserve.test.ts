/**
 * `/cloud ip reserve` end to end: a spending change. The status message says what is charged
 * and how much IP headroom is left; Confirm sends exactly one POST; what the cloud would refuse
 * is refused before asking, and what it refuses after Confirm reads with its numbers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
const { text, latest, until, refusedBeforeAsking } = rigHelpers(() => rig);
let pristine: string;
const restore = () => {
  const s = JSON.parse(pristine) as Pick<BotRig['sandbox']['state'], 'account' | 'reservedIps' | 'subnets'>;
  const state = rig.sandbox.state;
  Object.assign(state.account, s.account);
  state.reservedIps.splice(0, Infinity, ...s.reservedIps);
  state.subnets.splice(0, Infinity, ...s.subnets);
};

beforeAll(async () => {
  rig = await startBotRig();
  const { account, reservedIps, subnets } = rig.sandbox.state;
  pristine = JSON.stringify({ account, reservedIps, subnets });
});
afterEach(restore);
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const posts = (from: number) => rig.mutations(from).map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));
const reserveBody = (location_id: number, subnet_id: string, quantity: number) => [
  { method: 'POST', path: '/v2/reserved-ips', body: { location_id, subnet_id, quantity } },
];

/** Sends the command, waits for its status message, and returns it with the request count before. */
async function ask(command: string) {
  const from = rig.sandbox.requests.length;
  const before = Date.now();
  await rig.sendCommand(command);
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  expect(text(msg)).toContain('awaiting confirmation');
  expect(rig.mutations(from)).toEqual([]);
  return { from, msg };
}

/** Sends the command; resolves with the change form it opened, once its choices are loaded (views.update after the loading view). */
async function openForm(command: string, field: string) {
  const n = rig.slack.views.all().length;
  await rig.sendCommand(command);
  return waitFor(() => {
    const v = rig.slack.views.all()[n];
    return v && v.view.callback_id === 'cloud_change' && JSON.stringify(v.view.blocks).includes(`"block_id":"${field}"`) ? v : undefined;
  }, { timeoutMs: 5000 });
}

describe('ip reserve with flags', () => {
  it('shows price and headroom, sends one exact POST on Confirm, and shows the addresses and meta', async () => {
    const { from, msg } = await ask('ip reserve --location 1 --subnet sub-ams-1 --quantity 2');
    const asked = text(msg);
    expect(asked).toContain('Reserve 2 IPv4 addresses from `sub-ams-1` (`185.10.20.0/24`) in location 1 (`AMS`)* — awaiting confirmation');
    expect(asked).toContain('Billed 0.0065/h each while no server uses them (0.0130/h for 2)');
    expect(asked).toContain('IP limit: 4 of 8 used; 2 left after this');
    expect(rig.sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /account/usage', 'GET /reserved-ips/subnets']);

    await rig.click(msg, 'op_confirm', ALICE.id);
    const done = await until(msg, '— done');
    expect(posts(from)).toEqual(reserveBody(1, 'sub-ams-1', 2));
    const shown = text(done);
    expect(shown).toContain('Reserved 2 addresses from `sub-ams-1`: `185.10.20.2`, `185.10.20.3`');
    expect(shown).toContain('*addresses*\n`185.10.20.2, 185.10.20.3`');
    expect(shown).toContain('*reserved IPs held*\n5');
    expect(shown).toContain('*IP limit*\n`6 of 8 used`');
    expect(shown).toContain('*hourly price*\n`0.0065/h each while unused`');
    expect(shown).toContain('sent `POST /reserved-ips`');
  });

  it('quantity defaults to 1 and says so in the singular', async () => {
    const { from, msg } = await ask('ip reserve --location 2 --subnet sub-fra-1');
    expect(text(msg)).toContain('Reserve 1 IPv4 address from `sub-fra-1` (`45.80.12.0/24`) in location 2 (`FRA`)');
    expect(text(msg)).toContain('Billed 0.0070/h while no server uses it.');
    await rig.click(msg, 'op_cancel', ALICE.id);
    await until(msg, '— cancelled');
    expect(rig.mutations(from)).toEqual([]);
  });

  it('--dry-run shows the exact body and sends nothing', async () => {
    const r = await rig.command('ip reserve --location 1 --subnet sub-ams-1 --quantity 2 --dry-run');
    const shown = visibleText(r.final);
    expect(shown).toContain('Dry run — nothing was sent.');
    expect(shown).toContain('`POST /reserved-ips`');
    expect(shown).toContain(JSON.stringify({ location_id: 1, subnet_id: 'sub-ams-1', quantity: 2 }, null, 2));
    expect(r.cloudRequests).toEqual([]);
  });

  it('bad input on the command line is refused before any request', async () => {
    for (const [cmd, said] of [
      ['ip reserve --location 1 --subnet sub-ams-1 --quantity 0', '`--quantity`: must be 1 or more'],
      ['ip reserve --location 1 --subnet sub-ams-1 --quantity two', '`--quantity`: must be a whole number'],
      ['ip reserve --location 1 --subnet ../account --quantity 1', '`--subnet`: must be a subnet id'],
      ['ip reserve --location 0 --subnet sub-ams-1', '`--location`:'],
    ] as const) {
      const r = await rig.command(cmd);
      expect(visibleText(r.final), cmd).toContain(said);
      expect(r.cloudRequests, cmd).toEqual([]);
    }
  });
});

describe('ip reserve through the form', () => {
  it('opens with a loading view, fills the choices from the cloud, and the submission leads to one exact POST', async () => {
    const opened = rig.slack.callsTo('views.open').length;
    const updated = rig.slack.callsTo('views.update').length;
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const form = await openForm('ip reserve', 'subnet');
    expect(rig.slack.callsTo('views.open')).toHaveLength(opened + 1);
    expect(JSON.stringify(rig.slack.callsTo('views.open').at(-1)!.params)).toContain('Reading the choices from the cloud');
    expect(rig.slack.callsTo('views.update').length).toBeGreaterThan(updated);
    const shown = visibleText({ blocks: form.view.blocks as unknown[] });
    expect(shown).toContain('sub-ams-1 · 185.10.20.0/24 · 148 free · AMS');
    // A subnet the cloud reports full (0 free) is not offered: picking it could only be refused.
    expect(shown).toContain('sub-fra-1 · ');
    expect(shown).not.toContain('sub-fra-2');
    expect(shown).toContain('AMS — Amsterdam, Netherlands (location 1)');
    // Both fields come from one read of the subnets.
    expect(rig.sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /reserved-ips/subnets']);
    expect(rig.mutations(from)).toEqual([]);

    const res = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { location: '1', subnet: 'sub-ams-1', quantity: '3' }, userId: ALICE.id }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe(''); // the form closes
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('Reserve 3 IPv4 addresses from `sub-ams-1` (`185.10.20.0/24`) in location 1 (`AMS`)');
    expect(text(msg)).toContain('IP limit: 4 of 8 used; 1 left after this');
    await rig.click(msg, 'op_confirm', ALICE.id);
    await until(msg, '— done');
    expect(posts(from)).toEqual(reserveBody(1, 'sub-ams-1', 3));
  });

  it('missing flags open the form prefilled with what was typed', async () => {
    const form = await openForm('ip reserve --location 2', 'subnet');
    const location = (form.view.blocks as { block_id?: string; element?: { initial_option?: { value: string } } }[]).find((b) => b.block_id === 'location');
    expect(location?.element?.initial_option?.value).toBe('2');
  });

  it('a bad quantity is an error on its field, and nothing is sent', async () => {
    const form = await openForm('ip reserve', 'quantity');
    const from = rig.sandbox.requests.length;
    for (const [quantity, said] of [['0', 'must be 1 or more'], ['-3', 'must be a whole number']] as const) {
      const res = await rig.send.interaction(
        viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { location: '1', subnet: 'sub-ams-1', quantity }, userId: ALICE.id }),
      );
      expect(res.json).toEqual({ response_action: 'errors', errors: { quantity: said } });
    }
    expect(rig.sandbox.requests.length).toBe(from);
  });

  it('a subnet of another location is asked again on the form, before asking', async () => {
    const form = await openForm('ip reserve', 'subnet');
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { location: '1', subnet: 'sub-fra-1' }, userId: ALICE.id }),
    );
    // The form stays open with the refusal on its field (plain text: Slack shows it as is).
    const answer = res.json as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    expect(Object.keys(answer.errors)).toEqual(['subnet']);
    expect(answer.errors.subnet).toContain('Subnet sub-fra-1 is in FRA (location 2), not in location 1');
    expect(rig.mutations(from)).toEqual([]);
  });

  it('a subnet that filled up since the form opened is asked again on its field, and nothing is sent', async () => {
    const form = await openForm('ip reserve', 'subnet');
    const s = rig.sandbox.state.subnets.find((x) => x.id === 'sub-ams-1')!;
    s.size = s.taken.length; // full now, as the cloud will say
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { location: '1', subnet: 'sub-ams-1' }, userId: ALICE.id }),
    );
    const answer = res.json as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    expect(answer.errors.subnet).toMatch(/^Subnet sub-ams-1 \(185\.10\.20\.0\/24\) has no free addresses left/);
    expect(answer.errors.subnet).not.toContain('`');
    expect(rig.mutations(from)).toEqual([]);
  });
});

describe('refused before asking (numbers in the text, no POST)', () => {
  const refused = (cmd: string) => refusedBeforeAsking(cmd);

  it('more than the IP limit allows: used, limit and how many more', async () => {
    const shown = await refused('ip reserve --location 1 --subnet sub-ams-1 --quantity 5');
    expect(shown).toContain('does not allow 5 more addresses: 4 of 8 addresses are used');
    expect(shown).toContain('so 4 more can be reserved');
  });

  it('an exhausted subnet (sub-fra-2)', async () => {
    const shown = await refused('ip reserve --location 2 --subnet sub-fra-2');
    expect(shown).toContain('Subnet `sub-fra-2` (`45.80.13.0/29`) has no free addresses left');
  });

  it('fewer free addresses than asked: names the free count', async () => {
    rig.sandbox.state.account.ipLimit = 500;
    const shown = await refused('ip reserve --location 1 --subnet sub-ams-1 --quantity 149');
    expect(shown).toContain('has only 148 free addresses; 149 requested');
  });

  it('a subnet that is not in the location', async () => {
    const shown = await refused('ip reserve --location 1 --subnet sub-nyc-1');
    expect(shown).toContain('Subnet `sub-nyc-1` is in `NYC` (location 3), not in location 1');
    expect(shown).toContain('Location 1 has `sub-ams-1`, `sub-ams-2`');
  });

  it('a subnet the cloud does not offer', async () => {
    const shown = await refused('ip reserve --location 1 --subnet sub-ams-9');
    expect(shown).toContain('The cloud offers no subnet `sub-ams-9`');
  });
});

describe('refused by the cloud after Confirm (one POST, the words and numbers on the message)', () => {
  const failed = async (cmd: string, change: () => void) => {
    const { from, msg } = await ask(cmd);
    change(); // the precheck passed; the account changes before the click
    await rig.click(msg, 'op_confirm', ALICE.id);
    const m = await until(msg, '— failed');
    expect(rig.mutations(from)).toHaveLength(1);
    return text(m);
  };

  it('RESERVED_IP_LIMIT_REACHED: how many are held and how many more fit', async () => {
    const shown = await failed('ip reserve --location 1 --subnet sub-ams-1 --quantity 2', () => {
      rig.sandbox.state.account.ipLimit = 5;
    });
    expect(shown).toContain('The account’s IP limit is reached: the account holds 3 reserved IPs, 4 of 5 addresses count against its limit, 1 more can be reserved.');
    expect(shown).toContain('`RESERVED_IP_LIMIT_REACHED`');
  });

  it('INSUFFICIENT_BALANCE: balance and what the first hour needs', async () => {
    const shown = await failed('ip reserve --location 1 --subnet sub-ams-1 --quantity 2', () => {
      rig.sandbox.state.account.balance = 0.01;
    });
    expect(shown).toContain('The account balance does not cover the first hour (balance 0.01, needed 0.013).');
    expect(shown).toContain('Top up the balance');
  });

  it('SUBNET_EXHAUSTED: the subnet filled up in the meantime', async () => {
    const shown = await failed('ip reserve --location 2 --subnet sub-fra-1', () => {
      const s = rig.sandbox.state.subnets.find((x) => x.id === 'sub-fra-1')!;
      s.size = s.taken.length;
    });
    expect(shown).toContain('That subnet has no free addresses left.');
    expect(shown).toContain('`SUBNET_EXHAUSTED`');
  });
});
