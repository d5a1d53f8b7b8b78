/**
 * `/cloud ip reserve`: reserve addresses from a subnet (spec "Reserved IPs"). Spending: they are
 * billed hourly while no server uses them, and they count against the account IP limit shared
 * with every extra server address. The precheck refuses what the cloud would refuse (unknown
 * subnet, wrong location, too few free addresses, no IP headroom) before anyone is asked.
 */
import { z } from 'zod';
import type { CloudClient, ReserveIpsResult } from '../../cloud/cloud-client.js';
import { PositiveIntSchema } from '../../cloud/ids.js';
import { ReserveIpsBody } from '../../cloud/requests.js';
import type { Subnet } from '../../cloud-api/schemas.js';
import { money, plural } from '../../views/format.js';
import { join, md, val, type Mrkdwn } from '../../views/mrkdwn.js';
import { defineOperation, flag } from '../define.js';
import type { ModalOption } from '../../views/modal-spec.js';

const SUBNET_MAX = ReserveIpsBody.shape.subnet_id.maxLength ?? 191;
const QUANTITY_MIN = ReserveIpsBody.shape.quantity.unwrap().minValue ?? 1;

/** Subnet ids as `GET /reserved-ips/subnets` gives them (`sub-ams-1`): safe characters only. */
const subnetId = z
  .string()
  .trim()
  .max(SUBNET_MAX, { error: `must be at most ${SUBNET_MAX} characters` })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { error: 'must be a subnet id such as sub-ams-1 (see /cloud ip subnets)' });

/** `--quantity N`: a whole number ≥ 1 (spec "reserve quantity"), 1 when left out. */
const quantity = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n)) return n;
    ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
    return z.NEVER;
  })
  .pipe(z.number().min(QUANTITY_MIN, { error: `must be ${QUANTITY_MIN} or more` }))
  .default(1);

const subnetLocation = (s: Subnet) => s.location_id ?? s.location?.id ?? undefined;
const whereOf = (s: Subnet) => s.location?.short_code ?? s.location?.description ?? (subnetLocation(s) !== undefined ? `location ${subnetLocation(s)}` : undefined);
/** The cloud's name for a subnet's location (a value), or nothing. */
const placeOf = (s: Subnet) => s.location?.short_code ?? s.location?.description ?? undefined;

export interface ReserveFacts {
  cidr?: string | null;
  type?: string | null;
  where?: string | null;
  free?: number | null;
  hourlyPrice?: number | null;
  ipUsed?: number | null;
  ipLimit?: number | null;
}

/** "sub-ams-1 · 185.10.20.0/24 · 148 free · AMS" */
export function subnetOptionText(s: Subnet): string {
  const parts = [s.id];
  if (s.subnet) parts.push(s.subnet);
  if (s.available != null) parts.push(`${s.available} free`);
  const where = whereOf(s);
  if (where) parts.push(where);
  return parts.join(' · ');
}

/** "AMS — Amsterdam, Netherlands (location 1)": a location option, and the group its subnets are listed under. */
function locationText(s: Subnet, id: number): string {
  const name = [s.location?.short_code, s.location?.description].filter(Boolean).join(' — ');
  return `${name || 'Location'} (location ${id})`;
}

/** A subnet the cloud reports full (0 free): reserving from it can only be refused, so no form offers it. */
const usable = (s: Subnet) => s.available !== 0;

/**
 * Both fields are made from the subnet list: one `GET /reserved-ips/subnets` per form, shared by
 * the two loaders (each form fill hands its loaders one context object).
 */
const listed = new WeakMap<object, Promise<Subnet[]>>();
function usableSubnets(ctx: { cloud: CloudClient }): Promise<Subnet[]> {
  let subnets = listed.get(ctx);
  if (!subnets) listed.set(ctx, (subnets = ctx.cloud.reservedIps.subnets().then((all) => all.filter(usable))));
  return subnets;
}

/** Subnets grouped under their location's option text, so the list can follow the chosen location. */
const subnetOptions = async (ctx: { cloud: CloudClient }): Promise<ModalOption[]> =>
  (await usableSubnets(ctx)).map((s) => {
    const at = subnetLocation(s);
    return { value: s.id, text: subnetOptionText(s), ...(at !== undefined ? { group: locationText(s, at) } : {}) };
  });

/** Locations that have a subnet with free addresses, once each. */
const locationOptions = async (ctx: { cloud: CloudClient }): Promise<ModalOption[]> => {
  const seen = new Map<number, ModalOption>();
  for (const s of await usableSubnets(ctx)) {
    const id = subnetLocation(s);
    if (id === undefined || seen.has(id)) continue;
    seen.set(id, { value: String(id), text: locationText(s, id) });
  }
  return [...seen.values()];
};

function addressesText(n: number, type: string | null | undefined): Mrkdwn {
  const kind = type === 'ipv6' ? md`IPv6 ` : type === 'ipv4' ? md`IPv4 ` : md`IP `;
  return md`${n} ${kind}${n === 1 ? md`address` : md`addresses`}`;
}

export const ipReserve = defineOperation({
  id: 'ip.reserve',
  summary: 'Reserve IP addresses from a subnet — billed hourly while no server uses them',
  tier: 'billing',
  args: {
    location: flag('ID', PositiveIntSchema, 'location id (see /cloud ip subnets)'),
    subnet: flag('ID', subnetId, 'subnet id, e.g. sub-ams-1 (see /cloud ip subnets)'),
    quantity: flag('N', quantity, 'how many addresses (default 1)'),
  },
  run: ({ cloud, signal }, a) =>
    cloud.reservedIps.reserve({ location_id: a.location, subnet_id: a.subnet, quantity: a.quantity }, { signal }),
  change: {
    confirm: true,
    async precheck({ cloud, signal }, { location, subnet, quantity: n }) {
      // Both reads at once: a form submission waits for this precheck (2 s before the form closes).
      const [subnets, usage] = await Promise.all([cloud.reservedIps.subnets({ signal }), cloud.account.usage({ signal })]);
      const s = subnets.find((x) => x.id === subnet);
      if (!s) return { field: 'subnet', refuse: md`The cloud offers no subnet ${val(subnet)}. \`/cloud ip subnets\` lists the subnets and their locations.` };
      const at = subnetLocation(s);
      if (at !== undefined && at !== location) {
        const here = subnets.filter((x) => subnetLocation(x) === location).map((x) => val(x.id));
        const atFlag = val(`--location ${at}`);
        const next = here.length
          ? md`Location ${location} has ${join(here, ', ')}; or use ${atFlag}.`
          : md`Use ${atFlag}, or pick a subnet of location ${location} from \`/cloud ip subnets\`.`;
        return { field: 'subnet', refuse: md`Subnet ${val(s.id)} is in ${placeOf(s) ? md`${val(placeOf(s))} (location ${at})` : md`location ${at}`}, not in location ${location}. ${next}` };
      }
      if (s.available != null && s.available < n) {
        return {
          field: s.available === 0 ? 'subnet' : 'quantity',
          refuse:
            s.available === 0
              ? md`Subnet ${val(s.id)}${s.subnet ? md` (${val(s.subnet)})` : md``} has no free addresses left (the cloud would answer SUBNET_EXHAUSTED). Pick another subnet: \`/cloud ip subnets\`.`
              : md`Subnet ${val(s.id)}${s.subnet ? md` (${val(s.subnet)})` : md``} has only ${plural(s.available, md`free address`, md`free addresses`)}; ${n} requested. Reserve fewer or pick another subnet: \`/cloud ip subnets\`.`,
        };
      }
      const used = usage.ip_used ?? null;
      const limit = usage.ip_limit ?? null;
      if (used !== null && limit !== null && limit - used < n) {
        const left = Math.max(0, limit - used);
        return {
          field: 'quantity',
          refuse:
            md`The account IP limit does not allow ${plural(n, md`more address`, md`more addresses`)}: ${used} of ${limit} addresses are used (extra server addresses plus unused reserved IPs), so ${left} more can be reserved. Reserve fewer, release an unused reserved IP, or raise the account level.`,
        };
      }
      const facts: ReserveFacts = {
        cidr: s.subnet ?? null,
        type: s.type ?? null,
        where: placeOf(s) ?? null,
        free: s.available ?? null,
        hourlyPrice: s.hourly_price ?? null,
        ipUsed: used,
        ipLimit: limit,
      };
      return { facts: { ...facts } };
    },
    describe: (a, facts) => {
      const f = facts as ReserveFacts;
      const n = Number(a.quantity ?? 1) || 1;
      if (!a.subnet) return { title: md`Reserve IP addresses (billed hourly while no server uses them)`, lines: [] };
      const from = md`${val(a.subnet)}${f.cidr ? md` (${val(f.cidr)})` : md``}`;
      // The id first, as the dry run (no facts) names it; the cloud's name after it once known.
      const id = typeof a.location === 'number' ? md`location ${a.location}` : a.location !== undefined ? md`location ${val(String(a.location))}` : undefined;
      const where = id && f.where ? md`${id} (${val(f.where)})` : (id ?? (f.where ? val(f.where) : undefined));
      const lines: Mrkdwn[] = [];
      if (typeof f.hourlyPrice === 'number') {
        const each = money(f.hourlyPrice);
        lines.push(
          n === 1
            ? md`Billed ${each}/h while no server uses it.`
            : md`Billed ${each}/h each while no server uses them (${money(f.hourlyPrice * n)}/h for ${n}).`,
        );
      } else {
        lines.push(md`Billed hourly while no server uses ${n === 1 ? md`it` : md`them`}; the cloud did not say the price.`);
      }
      lines.push(md`The balance must cover the first hour. Reserved addresses stay yours (and billed while unused) until released.`);
      if (typeof f.ipUsed === 'number' && typeof f.ipLimit === 'number') {
        lines.push(md`IP limit: ${f.ipUsed} of ${f.ipLimit} used; ${Math.max(0, f.ipLimit - f.ipUsed - n)} left after this.`);
      }
      return { title: md`Reserve ${addressesText(n, f.type)} from ${from}${where ? md` in ${where}` : md``}`, lines };
    },
    bodyToArg: { location_id: 'location', subnet_id: 'subnet' },
    outputs: (r: ReserveIpsResult) => ({ addresses: r.data.map((ip) => ip.address).join(', '), count: r.data.length }),
    summarize: (r: ReserveIpsResult, a) => {
      const shown = r.data.slice(0, 30).map((ip) => val(ip.address));
      const more = r.data.length > shown.length ? md` and ${r.data.length - shown.length} more` : md``;
      const details: Record<string, string | number> = { addresses: r.data.map((ip) => ip.address).join(', ') || '—' };
      if (r.meta.count != null) details['reserved IPs held'] = r.meta.count;
      if (r.meta.used != null && r.meta.limit != null) details['IP limit'] = `${r.meta.used} of ${r.meta.limit} used`;
      else if (r.meta.limit != null) details['IP limit'] = r.meta.limit;
      if (r.meta.hourly_price != null) details['hourly price'] = `${money(r.meta.hourly_price)}/h each while unused`;
      return {
        text: md`Reserved ${plural(r.data.length, md`address`, md`addresses`)} from ${val(a.subnet)}: ${join(shown, ', ')}${more}. Billed hourly while no server uses them.`,
        details,
      };
    },
    modal: {
      title: 'Reserve IPs',
      submit: 'Continue',
      whenBare: true,
      fields: [
        { name: 'location', label: 'Location', kind: 'select', options: locationOptions, placeholder: 'Where the addresses live' },
        {
          name: 'subnet',
          label: 'Subnet',
          kind: 'select',
          options: subnetOptions,
          placeholder: 'Subnet of that location',
          hint: 'Pick a subnet of the chosen location with enough free addresses. Full subnets are not listed.',
        },
        { name: 'quantity', label: 'How many addresses', kind: 'text', optional: true, maxLength: 6, placeholder: '1', hint: 'Each is billed hourly while no server uses it. Default 1.' },
      ],
    },
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const IP_RESERVE = [ipReserve];
