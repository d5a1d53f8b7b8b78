/**
 * Link unfurls (issue 23): a link to a worker's address or to the provider's panel page of a
 * server, a worker or a security group becomes a live status card. An unfurl is public — the
 * whole channel sees it — so it carries only what the resource's read shows (never a secret),
 * only where the person who shared the link may run that read in that channel (role, ceiling,
 * `default_channel: deny`: the same check as `/cloud`), and a link whose id is not a valid id
 * sends nothing. A failed read unfurls nothing rather than posting an error for everyone.
 */
import { isServerId, isUuid } from '../cloud/ids.js';
import { isRead } from '../access/record-access.js';
import type { Catalog } from '../operations/catalog.js';
import type { KnownKind, KnownResourceStore } from '../store/known-types.js';
import type { Reply } from '../views/types.js';
import { admit, type GuardDeps } from './guard.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { argFor, choiceLabel, opsFor } from './act-on-this.js';

/** Where links come from (config.ts: CLOUD_PANEL_URL, CLOUD_WORKERS_DOMAIN). */
export interface UnfurlSettings {
  /** The panel's base URL; its pages are `<base>/servers/<id>`, `<base>/workers/<uuid>`, `<base>/security-groups/<id>`. */
  panelUrl?: string;
  /** Workers answer at `<label>.<domain>` (the fqdn the cloud reports). */
  workersDomain?: string;
}

export interface UnfurlDeps extends RunDeps, GuardDeps {
  catalog: Catalog;
  unfurl?: UnfurlSettings;
}

/** What a link points at: an id from the panel's path (validated), or a worker's host name. */
export type LinkTarget = { kind: KnownKind; id: string } | { kind: 'worker'; host: string };

export interface UnfurlCard {
  url: string;
  kind: KnownKind;
  id: string;
  /** The read's answer. */
  reply: Reply;
  /** Reads anyone may press (each is checked for whoever presses it). */
  reads: { label: string; value: string }[];
}

/** Slack sends at most a few links per message; more would only multiply cloud reads. */
export const UNFURL_LINKS_MAX = 5;

const PANEL_PAGES: Record<string, { kind: KnownKind; valid: (id: string) => boolean }> = {
  servers: { kind: 'server', valid: isServerId },
  workers: { kind: 'worker', valid: isUuid },
  'security-groups': { kind: 'sg', valid: (id) => /^[1-9][0-9]{0,9}$/.test(id) },
};
const READ_OF: Record<KnownKind, string> = { server: 'server.status', worker: 'worker.status', sg: 'sg.show' };
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The resource a link names, if it is one of ours; anything else (another host, a bad id) is undefined. */
export function readLink(raw: string, settings: UnfurlSettings | undefined): LinkTarget | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return undefined;
  const host = u.hostname.toLowerCase();
  const domain = settings?.workersDomain?.toLowerCase();
  if (domain && host.endsWith(`.${domain}`) && DNS_LABEL.test(host.slice(0, -domain.length - 1))) return { kind: 'worker', host };
  if (!settings?.panelUrl) return undefined;
  const base = new URL(settings.panelUrl);
  if (u.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (!u.pathname.startsWith(`${prefix}/`)) return undefined;
  const m = /^\/([a-z-]+)\/([^/]+)(?:\/.*)?$/.exec(u.pathname.slice(prefix.length));
  const page = m ? PANEL_PAGES[m[1]!] : undefined;
  let id: string;
  try {
    id = decodeURIComponent(m?.[2] ?? '');
  } catch {
    return undefined;
  }
  return page && page.valid(id) ? { kind: page.kind, id: page.kind === 'worker' ? id.toLowerCase() : id } : undefined;
}

/** The worker a host name is the address of, when the bot has seen exactly one with it. */
async function workerByHost(known: Pick<KnownResourceStore, 'find'> | undefined, account: string, host: string): Promise<string | undefined> {
  const rows = known ? await known.find(account, 'worker', host) : [];
  const ids = new Set(rows.map((r) => r.id.toLowerCase()).filter(isUuid));
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** The cards for the links `userId` shared in `channelId` that the bot may unfurl there. */
export async function unfurlLinks(deps: UnfurlDeps, input: { userId: string; channelId: string; teamId?: string; urls: readonly string[] }): Promise<UnfurlCard[]> {
  const cards: UnfurlCard[] = [];
  const actor = { userId: input.userId, channelId: input.channelId, ...(input.teamId ? { teamId: input.teamId } : {}) };
  for (const url of [...new Set(input.urls)].slice(0, UNFURL_LINKS_MAX)) {
    const target = readLink(url, deps.unfurl);
    const op = target ? deps.catalog.byId(READ_OF[target.kind]) : undefined;
    if (!target || !op) continue;
    // As `/cloud server status` from this person here: refused (and audited) means no card.
    const admitted = await admit(deps, op, input.userId, input.channelId);
    if (!admitted.ok) continue;
    const id = 'id' in target ? target.id : await workerByHost(deps.known, admitted.account, target.host);
    if (!id) continue;
    const outcome = await runOperation(deps, op, argFor(op, target.kind, id), actor, admitted.account);
    if (!outcome.ok) continue;
    const named = deps.access.policy().namedAccounts ? { account: admitted.account } : {};
    const reads = opsFor(deps.catalog, target.kind, id)
      .filter(isRead)
      .map((o) => ({ label: choiceLabel(o, target.kind), value: JSON.stringify({ op: o.id, args: argFor(o, target.kind, id), ...named }) }));
    cards.push({ url, kind: target.kind, id, reply: outcome.reply, reads });
  }
  return cards;
}
