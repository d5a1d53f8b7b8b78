/**
 * The store's contract for proactive notifications (issue 13): subscriptions per channel,
 * alerts (one per incident and subscription, edited in place), the last committed state of
 * each polled resource, and named leases (one replica runs the monitor at a time).
 */

/** What a subscription follows. `usage`, `invoices` and `digest` are account-wide (resource ''). */
export type SubscriptionKind = 'server' | 'worker' | 'usage' | 'invoices' | 'digest';

export interface SubscriptionRecord {
  /** 'sub_' + 10 base32 characters. */
  id: string;
  channelId: string;
  /** The named cloud account; null means the default account. */
  account: string | null;
  kind: SubscriptionKind;
  /** Server id / worker uuid; '' for account-wide kinds. */
  resource: string;
  /** usage: { cpu?, ram?, ip? } percentages; digest: { at: 'HH:MM', tz: 'Area/City' }; else {}. */
  params: Record<string, unknown>;
  createdBy: string;
  createdAt: number;
  /** Epoch ms until which nothing is posted for it; null when not muted. */
  mutedUntil: number | null;
  removedAt: number | null;
  /** digest: the local day (YYYY-MM-DD) of the last digest claimed (posted once); null before the first. */
  lastRun: string | null;
  /** digest: the post of day `lastRun` while it is not yet seen in its channel; null when nothing is owed. */
  runOwed: DigestOwed | null;
}

/** A day's digest whose post is not yet seen in its channel (migration 20). */
export interface DigestOwed {
  /**
   * 'unclear': a try sent it, or may be sending it, and no answer said whether it landed — it is
   * looked for in the channel before being posted again. 'failed': it definitely did not land.
   */
  outcome: 'unclear' | 'failed';
  /** Tries made for the day (each posts, or looks for the post first). */
  tries: number;
  /** When the next try may start (while a try runs: when it is taken as stopped). */
  nextAt: number;
  /** When the day's first try started: the post is looked for from there. */
  since: number;
}

export interface NewSubscription {
  channelId: string;
  account: string | null;
  kind: SubscriptionKind;
  resource: string;
  params?: Record<string, unknown>;
  createdBy: string;
  createdAt: number;
}

export interface SubscriptionStore {
  /** Adds one; an active one with the same channel, account, kind and resource is returned instead (created false, params unchanged). */
  add(input: NewSubscription): Promise<{ record: SubscriptionRecord; created: boolean }>;
  get(id: string): Promise<SubscriptionRecord | undefined>;
  /** Active (not removed) subscriptions of a channel, oldest first. */
  listForChannel(channelId: string): Promise<SubscriptionRecord[]>;
  /** Every active subscription, oldest first (the monitor's work list). */
  listActive(): Promise<SubscriptionRecord[]>;
  /** Marks it removed (active → removed); undefined if unknown or already removed. */
  remove(id: string, now: number): Promise<SubscriptionRecord | undefined>;
  /** Sets (or with null clears) mutedUntil of an active one; undefined if unknown or removed. */
  mute(id: string, until: number | null): Promise<SubscriptionRecord | undefined>;
  /**
   * Compare-and-set lastRun to `day` if it differs: true for exactly one caller per day. With
   * `sending` (a try starts now) the day's post is owed from then — unclear, one try, taken as
   * stopped at `sending.until` unless settled (`settleRun`); without, nothing is owed.
   */
  claimRun(id: string, day: string, sending?: { now: number; until: number }): Promise<boolean>;
  /**
   * Claims the next try of day `day`'s owed post: true for exactly one caller, and only while the
   * subscription is active, its lastRun is `day`, its runOwed is as `seen` (outcome and tries)
   * and due by `now`. The try is unclear until it settles, or taken as stopped at `until`.
   */
  retryRun(id: string, day: string, seen: Pick<DigestOwed, 'outcome' | 'tries'>, now: number, until: number): Promise<boolean>;
  /**
   * What try `tries` of day `day` came to: null — nothing owed any more (posted, found, given
   * up); else owed as `outcome` again from `nextAt`. False when that try is not the day's latest
   * (another took over) or nothing is owed.
   */
  settleRun(id: string, day: string, tries: number, next: Pick<DigestOwed, 'outcome' | 'nextAt'> | null): Promise<boolean>;
}

export type AlertStatus = 'firing' | 'resolved';

export interface AlertRecord {
  /** 'alt_' + 10 base32 characters. */
  id: string;
  subscriptionId: string;
  channelId: string;
  /** The condition within the subscription, e.g. 'power-off', 'cpu', 'invoice:42'. */
  condition: string;
  status: AlertStatus;
  /** The alert's message in the channel, once posted. */
  messageTs: string | null;
  startedAt: number;
  resolvedAt: number | null;
  /** What the message shows (no secrets): the condition's words and values. */
  detail: Record<string, unknown>;
}

export interface NewAlert {
  subscriptionId: string;
  channelId: string;
  condition: string;
  startedAt: number;
  detail?: Record<string, unknown>;
}

export interface AlertStore {
  /** Opens a firing alert; if one is already firing for (subscriptionId, condition) it is returned with created false. */
  open(input: NewAlert): Promise<{ record: AlertRecord; created: boolean }>;
  setMessage(id: string, messageTs: string): Promise<void>;
  /**
   * firing → resolved, once (compare-and-set); undefined if not firing. One with a message is
   * marked as owing the edit that shows it closed, until `editShown`.
   */
  resolve(id: string, now: number, detail?: Record<string, unknown>): Promise<AlertRecord | undefined>;
  /** Firing alerts of one subscription (or of all, when omitted). */
  listFiring(subscriptionId?: string): Promise<AlertRecord[]>;
  /** Closed alerts whose message is not yet shown closed (`resolve` marked them), oldest first, at most `limit`. */
  listEditOwed(limit: number): Promise<AlertRecord[]>;
  /** The closing edit was taken by Slack, or given up: no longer owed. */
  editShown(id: string): Promise<void>;
  /** Alerts of a channel that started or resolved at or after `since`, newest first (the digest). */
  listSince(channelId: string, since: number, limit: number): Promise<AlertRecord[]>;
  /** How many alerts `listSince` would give with no limit, per subscription and condition (the digest's totals). */
  countSince(channelId: string, since: number): Promise<AlertCount[]>;
}

export interface AlertCount {
  subscriptionId: string;
  condition: string;
  count: number;
}

/** The last state the monitor committed for a polled resource (keyed `account|kind|resource`). */
export interface MonitorStateStore {
  get(key: string): Promise<Record<string, unknown> | undefined>;
  put(key: string, state: Record<string, unknown>, now: number): Promise<void>;
}

/** Named leases: one holder at a time; a holder that stops renewing loses it after `until`. */
export interface LeaseStore {
  /** Takes or renews the lease if free, expired or already ours; true when we hold it until `until`. */
  acquire(name: string, owner: string, now: number, until: number): Promise<boolean>;
  /** Gives it up if ours. */
  release(name: string, owner: string): Promise<void>;
}

export interface MonitorStores {
  subscriptions: SubscriptionStore;
  alerts: AlertStore;
  monitorState: MonitorStateStore;
  leases: LeaseStore;
}
