/**
 * Channel aliases (issue 14, migration 9): `/cloud alias web = server status $1` saves a command
 * under a word, for one channel. The store keeps the text as typed; what it may be (a name that
 * shadows no resource, a command of the catalog) is checked before it gets here.
 */

export interface AliasRecord {
  channelId: string;
  /** Lower-case word, unique in its channel. */
  name: string;
  /** The command after `=`, as typed (Slack-escaped text, `$1`…`$9`, `$*`). */
  command: string;
  createdBy: string;
  teamId: string | null;
  createdAt: number;
}

export interface NewAlias {
  channelId: string;
  name: string;
  command: string;
  createdBy: string;
  teamId?: string | null;
  createdAt: number;
}

export interface AliasStore {
  /** Saves it; when the name is taken in that channel, nothing changes and the existing one comes back (created false). */
  add(input: NewAlias): Promise<{ record: AliasRecord; created: boolean }>;
  get(channelId: string, name: string): Promise<AliasRecord | undefined>;
  /** The channel's aliases by name. */
  list(channelId: string): Promise<AliasRecord[]>;
  /** Deletes it and returns what was deleted; undefined when there was none. */
  remove(channelId: string, name: string): Promise<AliasRecord | undefined>;
}

/** Most aliases one channel may hold (help and the list stay readable, within Block Kit limits). */
export const ALIASES_PER_CHANNEL = 50;
/** Longest command an alias may save (a slash command's text is at most 4000 characters). */
export const ALIAS_COMMAND_MAX = 1000;

export interface AliasRow {
  channel_id: string;
  name: string;
  command: string;
  created_by: string;
  team_id: string | null;
  created_at: number | string;
}

export function toAlias(r: AliasRow): AliasRecord {
  return {
    channelId: r.channel_id,
    name: r.name,
    command: r.command,
    createdBy: r.created_by,
    teamId: r.team_id,
    // PostgreSQL returns bigint as a string.
    createdAt: Number(r.created_at),
  };
}

const NAME = /^[a-z][a-z0-9-]{0,29}$/;

export function assertAliasName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name)) throw new TypeError(`alias name must be a lower-case word, got ${JSON.stringify(name)}`);
}

export function aliasInsertParams(input: NewAlias): Record<string, unknown> {
  assertAliasName(input.name);
  for (const [k, v] of [['channelId', input.channelId], ['command', input.command], ['createdBy', input.createdBy]] as const) {
    if (typeof v !== 'string' || v === '') throw new TypeError(`${k} must be a non-empty string`);
  }
  if (input.command.length > ALIAS_COMMAND_MAX) throw new TypeError(`command is longer than ${ALIAS_COMMAND_MAX} characters`);
  if (!Number.isSafeInteger(input.createdAt)) throw new TypeError('createdAt must be an integer');
  return {
    channel_id: input.channelId,
    name: input.name,
    command: input.command,
    created_by: input.createdBy,
    team_id: input.teamId ?? null,
    created_at: input.createdAt,
  };
}
