/**
 * Resources the bot has seen in the cloud's answers (issue 14, "names instead of numbers"): the
 * API lists no servers, groups or workers, so this is how a name finds its id. Only ids, uuids
 * and names are kept, never anything secret.
 */

export const KNOWN_KINDS = ['server', 'sg', 'worker'] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

/** What an answer showed of one resource; the account is added by whoever ran it. */
export interface KnownEntry {
  kind: KnownKind;
  /** Canonical id: a server's numeric id (its uuid when only that was seen), a group's id, a worker's uuid. */
  id: string;
  uuid?: string | null;
  /** Server name/hostname, group name, worker name. */
  name?: string | null;
}

export interface KnownResource {
  /** The account it was seen on; null: the default account. */
  account: string | null;
  kind: KnownKind;
  id: string;
  uuid: string | null;
  name: string | null;
  firstSeen: number;
  lastSeen: number;
}

export const KNOWN_LIST_MAX = 500;

export interface KnownResourceStore {
  /** Upserts each entry: first_seen stays, last_seen becomes `now`; a null uuid/name keeps the one known. */
  remember(account: string | null, entries: readonly KnownEntry[], now: number): Promise<void>;
  /** The resources of that kind named exactly `name` (ignoring case), most recently seen first. */
  find(account: string | null, kind: KnownKind, name: string): Promise<KnownResource[]>;
  /** Most recently seen first, at most `limit` (≤ 500). */
  list(account: string | null, kind: KnownKind, limit: number): Promise<KnownResource[]>;
  /** Every known name of that kind (for "did you mean"), most recently seen first. */
  names(account: string | null, kind: KnownKind): Promise<string[]>;
}
