/**
 * Resources the bot has seen in the cloud's answers (issue 14, "names instead of numbers"): the
 * API lists no servers, groups or workers, so this is how a name finds its id. Only ids, uuids
 * and names are kept, never anything secret.
 */

export const KNOWN_KINDS = ['server', 'sg', 'worker'] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

/**
 * Which name of a resource a name is (issue 20): a resource keeps one name per field, so an
 * answer replaces only the name of its own field (a rename answer the display name, `server ips`
 * the reverse DNS) and never forgets a name another kind of answer taught. `seed`: the local
 * shell's sandbox seed. `ip`: a server's addresses (migration 16), several at once — an answer
 * that carries them carries them all (`server ips`) and replaces the set. `inventory` is never
 * stored: it is read from the policy file.
 */
export const NAME_FIELDS = ['name', 'hostname', 'rdns', 'seed', 'ip'] as const;
/** Fields a resource has several names of (the rest keep one). */
export const MULTI_FIELDS: readonly NameField[] = ['ip'];
export type NameField = (typeof NAME_FIELDS)[number];

/** What an answer showed of one resource; the account is added by whoever ran it. */
export interface KnownEntry {
  kind: KnownKind;
  /** Canonical id: a server's numeric id (its uuid when only that was seen), a group's id, a worker's uuid. */
  id: string;
  uuid?: string | null;
  /** Server name/hostname, group name, worker name. */
  name?: string | null;
  /** Which name it is; default `name` (the display name). */
  field?: NameField;
  /** The command whose answer showed it (`server ips`), for `/cloud server known`. */
  via?: string | null;
}

/** One name of a resource and where it came from. */
export interface KnownName {
  name: string;
  field: NameField | 'inventory';
  /** The command whose answer taught it (`server ips`); null for the seed, the inventory and names from before issue 20. */
  via: string | null;
  /** The inventory's home channel of the resource. */
  home?: string;
  lastSeen: number;
}

export interface KnownResource {
  /** The account it was seen on; null: the default account. */
  account: string | null;
  kind: KnownKind;
  id: string;
  uuid: string | null;
  /** Its first name (see `names`); null when none was seen. */
  name: string | null;
  /** Every name it is known by, the inventory's first, then display name, hostname, reverse DNS, seed. */
  names: KnownName[];
  /** Null: never in an answer (only the policy file's inventory names it). */
  firstSeen: number | null;
  lastSeen: number | null;
}

export const KNOWN_LIST_MAX = 500;

export interface KnownResourceStore {
  /** Upserts each entry: first_seen stays, last_seen becomes `now`; a null uuid/name keeps the one known. */
  remember(account: string | null, entries: readonly KnownEntry[], now: number): Promise<void>;
  /** The resources of that kind with a name exactly `name` (ignoring case), most recently seen first. */
  find(account: string | null, kind: KnownKind, name: string): Promise<KnownResource[]>;
  /** Most recently seen first, at most `limit` (≤ 500). */
  list(account: string | null, kind: KnownKind, limit: number): Promise<KnownResource[]>;
  /** Every known name of that kind (for "did you mean"), most recently seen first. */
  names(account: string | null, kind: KnownKind): Promise<string[]>;
}
