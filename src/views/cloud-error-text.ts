/**
 * The one place a `CloudApiError` becomes words for a person: what happened, and what to do
 * next. Codes come from the spec's "Errors" table, provider-notes.md, the client's own codes,
 * and anything else the cloud may invent (shown with its message and code).
 */
import type { Mrkdwn } from './mrkdwn.js';
import type { CloudApiError } from '../cloud/errors.js';

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
}

type Details = Record<string, unknown>;
type Entry = (d: Details, e: CloudApiError, ctx: ErrorContext) => [summary: Mrkdwn, nextStep: Mrkdwn];

const n = (d: Details, k: string): string | undefined => {
  const v = d[k];
  return typeof v === 'number' || (typeof v === 'string' && v !== '') ? String(v) : undefined;
};

const badToken: Entry = () => [
  'The cloud refused the bot’s API token.',
  'An admin should create a new API token in the account settings, put it in `CLOUD_API_TOKEN` and restart the bot.',
];

const maybeActed = (ctx: ErrorContext) =>
  ctx.mutation
    ? 'The change may or may not have reached the cloud: check the current state (for example with a `status` or `list` command) before trying again.'
    : 'Nothing was changed. Try again in a minute; if it keeps happening, an admin should check the bot’s network and `CLOUD_API_BASE_URL`.';

const MESSAGES: Record<string, Entry> = {
  UNAUTHENTICATED: badToken,
  INVALID_TOKEN: badToken,
  NOT_FOUND: () => [
    'The cloud has no such resource in this account.',
    'Check the id or address; `/cloud help` lists the commands that show them.',
  ],
  VALIDATION_ERROR: () => ['The cloud rejected some of the input.', 'Correct the fields named below and try again.'],
  RESERVED_IP_LIMIT_REACHED: (d, e) => {
    const held = n(d, 'count');
    const more = n(d, 'available');
    const used = n(d, 'used');
    const limit = n(d, 'limit');
    const numbers = [
      held !== undefined ? `the account holds ${held} reserved IP${held === '1' ? '' : 's'}` : undefined,
      used !== undefined && limit !== undefined ? `${used} of ${limit} addresses count against its limit` : undefined,
      more !== undefined ? `${more} more can be reserved` : undefined,
    ].filter(Boolean);
    return [
      `The account’s IP limit is reached${numbers.length ? `: ${numbers.join(', ')}` : ` (${e.message})`}.`,
      'Reserve fewer, release an unused reserved IP, or raise the account level.',
    ];
  },
  INSUFFICIENT_BALANCE: (d) => {
    const have = n(d, 'balance') ?? n(d, 'credit');
    const need = n(d, 'required') ?? n(d, 'minimum_credit');
    const numbers = have !== undefined && need !== undefined ? ` (balance ${have}, needed ${need})` : '';
    return [`The account balance does not cover the first hour${numbers}.`, 'Top up the balance in the provider’s panel, then try again.'];
  },
  SUBNET_EXHAUSTED: () => ['That subnet has no free addresses left.', 'Pick another subnet: `/cloud ip subnets` shows free addresses per subnet.'],
  WORKER_LIMIT_REACHED: (d) => {
    const used = n(d, 'workers_used');
    const allowed = n(d, 'workers_allowed');
    const numbers = used !== undefined && allowed !== undefined ? ` (${used} of ${allowed})` : '';
    return [
      `The account already has as many workers as its level allows${numbers}.`,
      'Remove a worker in the panel or raise the account level; `/cloud worker requirements` shows the numbers.',
    ];
  },
  WORKERS_DISABLED: () => ['The provider has worker sales switched off right now.', 'Nothing to fix on your side: try again later or ask the provider’s support.'],
  LOCATION_UNAVAILABLE: () => [
    'That location cannot take new workers right now.',
    'Choose another location: `/cloud worker locations` marks the ones out of stock.',
  ],
  GIT_HOST_NOT_CONNECTED: () => [
    'No git hosting account is linked to the cloud account, so a private repository cannot be fetched.',
    'Link one in the provider’s panel (it cannot be done through the API or from Slack), or deploy from a public repository URL.',
  ],
  SERVER_STATUS_CONFLICT: () => [
    'The server is busy (installing, restoring or reinstalling) and cannot do that now.',
    'Wait until it is free (`/cloud server status <server>`), then try again.',
  ],
  CANNOT_REMOVE_PRIMARY: () => [
    'That is one of the server’s primary addresses, which cannot be removed.',
    'Only secondary addresses can be removed; `/cloud server ips <server>` shows which is which.',
  ],
  HYPERVISOR_SYNC_FAILED: () => [
    'The firewall change is saved, but it is not applied on every node yet.',
    'Retry the sync (it redeploys the saved rules; nothing is created twice). If it keeps failing, ask the provider’s support.',
  ],
  BACKUP_LOCKED: () => ['That backup is locked, and locked backups cannot be deleted.', 'Unlock it in the provider’s panel first.'],
  NO_AVAILABLE_NODE: () => ['No node in that location has room right now.', 'Try another location, or try again later.'],
  RESOURCE_LIMIT_EXCEEDED: (_d, e) => [`An account limit stops this: ${e.message}`, 'Free something up, or raise the account level.'],
  OVERDUE_INVOICE: () => ['Overdue invoices block this action.', 'Pay them in the provider’s panel; `/cloud account invoices` lists them.'],
  PLAN_UNAVAILABLE: () => ['That plan is not available.', 'Pick another plan: `/cloud plan list`.'],
  PLAN_OUT_OF_STOCK: () => ['That plan is out of stock there.', 'Pick another plan or location: `/cloud plan list --location <id>` shows availability.'],
  TEMPLATE_NOT_FOUND: () => ['The cloud does not know that template.', 'Check the template name and try again.'],
  HAS_SERVERS: () => ['It still has servers attached.', 'Detach them first.'],
  ALREADY_ATTACHED: () => ['That server is already attached to this security group.', 'Nothing to do: its rules already apply to it.'],
  RATE_LIMITED: (_d, e) => [
    'The cloud is limiting how fast the bot may call it.',
    `Try again ${e.retryAfterMs ? `in ${Math.ceil(e.retryAfterMs / 1000)} s` : 'in a minute'}.`,
  ],
  ACCOUNT_BANNED: () => ['The cloud account is banned.', 'Contact the provider’s support.'],
  IP_NOT_ALLOWED: () => [
    'The cloud refuses API calls from the bot’s IP address.',
    'An admin should allow the bot’s address in the API token’s settings.',
  ],
  NETWORK_ERROR: (_d, _e, ctx) => ['The bot could not reach the cloud API.', maybeActed(ctx)],
  TIMEOUT: (_d, _e, ctx) => ['The cloud did not answer in time.', maybeActed(ctx)],
  ABORTED: (_d, _e, ctx) => ['The bot stopped waiting for the cloud (the operation took too long or the bot is shutting down).', maybeActed(ctx)],
  INVALID_RESPONSE: (_d, _e, ctx) => [
    'The cloud answered with something the bot could not read (the API may have changed).',
    ctx.mutation
      ? 'The change may have been made: check the current state before trying again. An admin should look at the bot’s log.'
      : 'An admin should look at the bot’s log; nothing was changed.',
  ],
  INVALID_IDENTIFIER: (_d, e) => [e.message, 'Nothing was sent to the cloud.'],
  // The bot's own codes for a change that did not finish normally.
  INTERRUPTED: () => [
    'The bot stopped while this was running, so whether the cloud acted is unknown.',
    'Check the current state (a `status` or `list` command) before trying again.',
  ],
  INTERNAL: () => [
    'Something went wrong inside the bot.',
    'Check the current state before trying again; an admin can find details in the bot’s log.',
  ],
  HTTP_ERROR: (_d, e, ctx) => [
    e.status >= 500 ? `The cloud had an internal error (HTTP ${e.status}).` : `The cloud answered HTTP ${e.status} without an explanation.`,
    ctx.mutation ? maybeActed(ctx) : 'Try again in a minute.',
  ],
};

/** A code we have no words for: say what the cloud said, and judge by the HTTP status. */
function unknownCode(e: CloudApiError, ctx: ErrorContext): [string, string] {
  if (e.status >= 500) {
    return [
      `The cloud is having trouble right now (HTTP ${e.status}: ${e.message || e.code}).`,
      ctx.mutation ? maybeActed(ctx) : 'Nothing was changed. Try again in a few minutes; if it persists, check the provider’s status page.',
    ];
  }
  return [
    `The cloud refused: ${e.message || 'no reason given'} (code ${e.code}).`,
    ctx.mutation ? maybeActed(ctx) : 'Try again later; if it keeps happening, check the provider’s status page.',
  ];
}

/** Codes with their own text (tests check every listed code is here). */
export const DESCRIBED_CODES = Object.keys(MESSAGES);

export function describeCloudError(e: CloudApiError, ctx: ErrorContext = {}): ErrorText {
  const details = e.details ?? {};
  const entry = MESSAGES[e.code];
  const [summary, nextStep] = entry ? entry(details, e, ctx) : unknownCode(e, ctx);
  const fields = e.code === 'VALIDATION_ERROR' ? e.fieldErrors() : undefined;
  return { summary, nextStep, code: e.code, ...(fields && Object.keys(fields).length ? { fields } : {}) };
}
