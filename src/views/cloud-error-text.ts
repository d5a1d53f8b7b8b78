/**
 * The one place a `CloudApiError` becomes words for a person: what happened, and what to do
 * next. Codes come from the spec's "Errors" table, provider-notes.md, the client's own codes,
 * and anything else the cloud may invent (shown with its message and code).
 */
import { join, md, val, type Hole, type Mrkdwn } from './mrkdwn.js';
import type { CloudApiError } from '../cloud/errors.js';
import { words } from './words.js';

export interface ErrorText {
  /** One sentence: what happened. */
  summary: Mrkdwn;
  /** What the person can do about it. */
  nextStep: Mrkdwn;
  code: string;
  /** VALIDATION_ERROR: field → messages, for modals and lists. */
  fields?: Record<string, string[]>;
}

export interface ErrorContext {
  /** True when the failed call would have changed something (POST/PATCH/DELETE). */
  mutation?: boolean;
  /** What the operation looked up by id (operations/looked-up.ts): a NOT_FOUND names it. */
  lookedUp?: LookedUp[];
  /**
   * The failed call was a Retry sync's deploy of a firewall change the cloud had already saved
   * (HYPERVISOR_SYNC_FAILED): the change stands whatever the deploy did; only the sync is in question.
   */
  saved?: boolean;
}

/** `server` `999`, listed by `/cloud server known`, which "lists the servers the bot has seen". */
export interface LookedUp {
  what: string;
  value: string;
  listedBy: string;
  lists: string;
}

/** "Server `101` or backup `b7c1…` was not found in this account." and where each is listed. */
function notFound(looked: LookedUp[]): [Mrkdwn, Mrkdwn] {
  if (looked.length === 0) {
    return [md`The cloud has no such resource in this account.`, md`Check the id or address; \`/cloud help\` lists the commands that show them.`];
  }
  const named = join(looked.map((l, i) => md`${words(i === 0 ? l.what.charAt(0).toUpperCase() + l.what.slice(1) : l.what)} ${val(l.value)}`), md` or `);
  const where = join(looked.map((l) => md`${val(l.listedBy)} ${words(l.lists)}`), '; ');
  return [md`${named} was not found in this account.`, md`${where}.`];
}

type Details = Record<string, unknown>;

/**
 * OS template slugs the provider uses (provider-notes.md: `{ slug, name, group_name }`). The API
 * has no endpoint listing them, so a typo cannot be caught before Confirm: hints name these.
 */
export const KNOWN_OS_TEMPLATES = ['ubuntu-24.04', 'ubuntu-22.04', 'debian-12', 'debian-11', 'almalinux-9', 'rocky-9'];
type Entry = (d: Details, e: CloudApiError, ctx: ErrorContext) => [summary: Mrkdwn, nextStep: Mrkdwn];

/** A number from the details as it is; a string (the cloud may send "4") as a value. */
const n = (d: Details, k: string): Hole | undefined => {
  const v = d[k];
  return typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? val(v) : undefined;
};

const badToken: Entry = () => [
  md`The cloud refused the bot’s API token.`,
  md`An admin should create a new API token in the account settings, put it in \`CLOUD_API_TOKEN\` and restart the bot.`,
];

const maybeActed = (ctx: ErrorContext) =>
  ctx.mutation
    ? md`The change may or may not have reached the cloud: check the current state (for example with a \`status\` or \`list\` command) before trying again.`
    : md`Nothing was changed. Try again in a minute; if it keeps happening, an admin should check the bot’s network and \`CLOUD_API_BASE_URL\`.`;

/**
 * A 4xx answer is the cloud refusing before acting (provider-notes.md, "HTTP status codes"): even
 * a change whose code has no words here did nothing. Only no answer or a 5xx may have acted.
 */
export const isRefusal = (e: Pick<CloudApiError, 'status'>): boolean => e.status >= 400 && e.status < 500;
const nothingChanged = md`Nothing was changed.`;

/** The cloud's own words, as a value (they may carry anything). */
const said = (e: CloudApiError, fallback: Mrkdwn) => (e.message ? val(e.message) : fallback);

const MESSAGES: Record<string, Entry> = {
  UNAUTHENTICATED: badToken,
  INVALID_TOKEN: badToken,
  NOT_FOUND: (_d, _e, ctx) => notFound(ctx.lookedUp ?? []),
  VALIDATION_ERROR: () => [md`The cloud rejected some of the input.`, md`Correct the fields named below and try again.`],
  RESERVED_IP_LIMIT_REACHED: (d, e) => {
    const held = n(d, 'count');
    const more = n(d, 'available');
    const used = n(d, 'used');
    const limit = n(d, 'limit');
    const numbers: Mrkdwn[] = [];
    if (held !== undefined) numbers.push(held === 1 ? md`the account holds ${held} reserved IP` : md`the account holds ${held} reserved IPs`);
    if (used !== undefined && limit !== undefined) numbers.push(md`${used} of ${limit} addresses count against its limit`);
    if (more !== undefined) numbers.push(md`${more} more can be reserved`);
    return [
      numbers.length ? md`The account’s IP limit is reached: ${join(numbers, ', ')}.` : md`The account’s IP limit is reached (${said(e, md`no numbers given`)}).`,
      md`Reserve fewer, release an unused reserved IP, or raise the account level.`,
    ];
  },
  INSUFFICIENT_BALANCE: (d) => {
    const have = n(d, 'balance') ?? n(d, 'credit');
    const need = n(d, 'required') ?? n(d, 'minimum_credit');
    return [
      have !== undefined && need !== undefined
        ? md`The account balance does not cover the first hour (balance ${have}, needed ${need}).`
        : md`The account balance does not cover the first hour.`,
      md`Top up the balance in the provider’s panel, then try again.`,
    ];
  },
  SUBNET_EXHAUSTED: () => [md`That subnet has no free addresses left.`, md`Pick another subnet: \`/cloud ip subnets\` shows free addresses per subnet.`],
  WORKER_LIMIT_REACHED: (d) => {
    const used = n(d, 'workers_used');
    const allowed = n(d, 'workers_allowed');
    return [
      used !== undefined && allowed !== undefined
        ? md`The account already has as many workers as its level allows (${used} of ${allowed}).`
        : md`The account already has as many workers as its level allows.`,
      md`Remove a worker in the panel or raise the account level; \`/cloud worker requirements\` shows the numbers.`,
    ];
  },
  WORKERS_DISABLED: () => [md`The provider has worker sales switched off right now.`, md`Nothing to fix on your side: try again later or ask the provider’s support.`],
  LOCATION_UNAVAILABLE: () => [
    md`That location cannot take new workers right now.`,
    md`Choose another location: \`/cloud worker locations\` marks the ones out of stock.`,
  ],
  GIT_HOST_NOT_CONNECTED: () => [
    md`No git hosting account is linked to the cloud account, so a private repository cannot be fetched.`,
    md`Link one in the provider’s panel (it cannot be done through the API or from Slack), or deploy from a public repository URL.`,
  ],
  SERVER_STATUS_CONFLICT: () => [
    md`The server is busy (installing, restoring or reinstalling) and cannot do that now.`,
    md`Wait until it is free (\`/cloud server status &lt;server&gt;\`), then try again.`,
  ],
  CANNOT_REMOVE_PRIMARY: () => [
    md`That is one of the server’s primary addresses, which cannot be removed.`,
    md`Only secondary addresses can be removed; \`/cloud server ips &lt;server&gt;\` shows which is which.`,
  ],
  HYPERVISOR_SYNC_FAILED: () => [
    md`The firewall change is saved, but it is not applied on every node yet.`,
    md`Retry the sync (it redeploys the saved rules; nothing is created twice). If it keeps failing, ask the provider’s support.`,
  ],
  BACKUP_LOCKED: () => [md`That backup is locked, and locked backups cannot be deleted.`, md`Unlock it in the provider’s panel first.`],
  NO_AVAILABLE_NODE: () => [md`No node in that location has room right now.`, md`Try another location, or try again later.`],
  RESOURCE_LIMIT_EXCEEDED: (_d, e) => [md`An account limit stops this: ${said(e, md`no details given`)}`, md`Free something up, or raise the account level.`],
  OVERDUE_INVOICE: () => [md`Overdue invoices block this action.`, md`Pay them in the provider’s panel; \`/cloud account invoices\` lists them.`],
  PLAN_UNAVAILABLE: () => [md`That plan is not available.`, md`Pick another plan: \`/cloud plan list\`.`],
  PLAN_OUT_OF_STOCK: () => [md`That plan is out of stock there.`, md`Pick another plan or location: \`/cloud plan list --location &lt;id&gt;\` shows availability.`],
  TEMPLATE_NOT_FOUND: (d) => [
    typeof d.template_slug === 'string' ? md`The cloud has no OS template ${val(d.template_slug)}.` : md`The cloud does not know that template.`,
    md`Check the slug and try again. The API lists no OS templates; slugs the provider uses: ${join(KNOWN_OS_TEMPLATES.map((s) => val(s)), ', ')}.`,
  ],
  HAS_SERVERS: () => [md`It still has servers attached.`, md`Detach them first.`],
  ALREADY_ATTACHED: () => [md`That server is already attached to this security group.`, md`Nothing to do: its rules already apply to it.`],
  RATE_LIMITED: (_d, e) => [
    md`The cloud is limiting how fast the bot may call it.`,
    e.retryAfterMs ? md`Try again in ${Math.ceil(e.retryAfterMs / 1000)} s.` : md`Try again in a minute.`,
  ],
  ACCOUNT_BANNED: () => [md`The cloud account is banned.`, md`Contact the provider’s support.`],
  IP_NOT_ALLOWED: () => [
    md`The cloud refuses API calls from the bot’s IP address.`,
    md`An admin should allow the bot’s address in the API token’s settings.`,
  ],
  NETWORK_ERROR: (_d, _e, ctx) => [md`The bot could not reach the cloud API.`, maybeActed(ctx)],
  TIMEOUT: (_d, _e, ctx) => [md`The cloud did not answer in time.`, maybeActed(ctx)],
  ABORTED: (_d, _e, ctx) => [md`The bot stopped waiting for the cloud (the operation took too long or the bot is shutting down).`, maybeActed(ctx)],
  // Only a 2xx answer is read as data (cloud/http.ts): for a change, the cloud said it took it.
  INVALID_RESPONSE: (_d, _e, ctx) =>
    ctx.mutation
      ? [
          md`The cloud answered that it accepted the change, but with something the bot could not read (the API may have changed).`,
          md`The change was most likely made: check the current state before trying again. An admin should look at the bot’s log.`,
        ]
      : [md`The cloud answered with something the bot could not read (the API may have changed).`, md`An admin should look at the bot’s log; nothing was changed.`],
  // The message names the identifier, which a person typed.
  INVALID_IDENTIFIER: (_d, e) => [said(e, md`An identifier was refused.`), md`Nothing was sent to the cloud.`],
  // The bot's own codes for a change that did not finish normally.
  INTERRUPTED: () => [
    md`The bot stopped while this was running, so whether the cloud acted is unknown.`,
    md`Check the current state (a \`status\` or \`list\` command) before trying again.`,
  ],
  INTERNAL: () => [
    md`Something went wrong inside the bot.`,
    md`Check the current state before trying again; an admin can find details in the bot’s log.`,
  ],
  HTTP_ERROR: (_d, e, ctx) => [
    e.status >= 500 ? md`The cloud had an internal error (HTTP ${e.status}).` : md`The cloud answered HTTP ${e.status} without an explanation.`,
    ctx.mutation && !isRefusal(e) ? maybeActed(ctx) : md`${ctx.mutation ? md`${nothingChanged} ` : md``}Try again in a minute.`,
  ],
};

/** A code we have no words for: say what the cloud said, and judge by the HTTP status. */
function unknownCode(e: CloudApiError, ctx: ErrorContext): [Mrkdwn, Mrkdwn] {
  if (e.status >= 500) {
    return [
      md`The cloud is having trouble right now (HTTP ${e.status}: ${said(e, val(e.code))}).`,
      ctx.mutation ? maybeActed(ctx) : md`Nothing was changed. Try again in a few minutes; if it persists, check the provider’s status page.`,
    ];
  }
  return [
    md`The cloud refused: ${said(e, md`no reason given`)} (code ${val(e.code)}).`,
    ctx.mutation && !isRefusal(e)
      ? maybeActed(ctx)
      : md`${ctx.mutation ? md`${nothingChanged} ` : md``}Try again later; if it keeps happening, check the provider’s status page.`,
  ];
}

/**
 * A Retry sync's deploy that did not go through: the change is saved either way, so "the change
 * may or may not have reached the cloud" or "nothing was changed" would be wrong. A refusal left
 * it unsynced; no answer or a 5xx leaves the sync's outcome unknown. Either way a deploy only
 * redeploys the saved rules, so retrying it is safe.
 */
function afterSave(e: CloudApiError, [summary, nextStep]: [Mrkdwn, Mrkdwn]): [Mrkdwn, Mrkdwn] {
  if (isRefusal(e)) return [summary, md`The firewall change is saved but not applied on every node yet: the sync was refused. ${nextStep}`];
  return [
    summary,
    md`The firewall change is saved; whether this sync reached every node is unknown. Retry the sync (it redeploys the saved rules; nothing is created twice).`,
  ];
}

/** Codes with their own text (tests check every listed code is here). */
export const DESCRIBED_CODES = Object.keys(MESSAGES);

export function describeCloudError(e: CloudApiError, ctx: ErrorContext = {}): ErrorText {
  const details = e.details ?? {};
  // Own keys only: the code is the cloud's text, and `constructor` or `__proto__` must not reach Object's.
  const entry = Object.hasOwn(MESSAGES, e.code) ? MESSAGES[e.code] : undefined;
  // After a save, the deploy's own words are those of a call that changes nothing (afterSave).
  const own = ctx.saved && e.code !== 'HYPERVISOR_SYNC_FAILED' ? { ...ctx, mutation: false } : ctx;
  const said: [Mrkdwn, Mrkdwn] = entry ? entry(details, e, own) : unknownCode(e, own);
  const [summary, nextStep] = own === ctx ? said : afterSave(e, said);
  const fields = e.code === 'VALIDATION_ERROR' ? e.fieldErrors() : undefined;
  return { summary, nextStep, code: e.code, ...(fields && Object.keys(fields).length ? { fields } : {}) };
}
