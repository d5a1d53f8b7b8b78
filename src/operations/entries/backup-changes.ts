/**
 * Changes to a server's backups (spec "Backups"): take one, delete one.
 *
 * Decisions:
 * - create sends `mode` and `compression_type` always, with the spec's defaults (`snapshot`,
 *   `zstd`) when not chosen, so the status message and `--dry-run` show exactly what the backup
 *   is; `name` is sent only when given (the cloud names it otherwise).
 * - create looks first (GET /servers/{server}/status) and refuses a busy server (installing,
 *   reinstalling, restoring) before anything is posted in the channel; the cloud's own
 *   SERVER_STATUS_CONFLICT still lands in the status message if the server turns busy between.
 *   The plan's backup limit cannot be read through the API, so RESOURCE_LIMIT_EXCEEDED comes
 *   from the cloud and is shown in the status message.
 * - delete walks every page of the server's backups: an unknown uuid and a locked backup (spec:
 *   "locked backups cannot be deleted") are refused before anyone is asked to confirm.
 */
import { z } from 'zod';
import { UuidSchema } from '../../cloud/ids.js';
import { BACKUP_MODES, COMPRESSION_TYPES } from '../../cloud/requests.js';
import type { CreateBackupBody } from '../../cloud/requests.js';
import { isServerBusy } from '../../cloud/server-status.js';
import { backupName as backupNameText } from '../../views/backup-views.js';
import { agoFromAge, bytes } from '../../views/format.js';
import { join, md, val, type Mrkdwn } from '../../views/mrkdwn.js';
import { serverArg } from '../args.js';
import { defineChange, defineOperation, flag, lookedUpAs, positional } from '../define.js';

/** Spec "Backups": mode default `snapshot`, compression_type default `zstd`. */
export const DEFAULT_BACKUP_MODE = 'snapshot' satisfies (typeof BACKUP_MODES)[number];
export const DEFAULT_COMPRESSION = 'zstd' satisfies (typeof COMPRESSION_TYPES)[number];

/** Spec "Limits": backup name at most 40 characters. */
const BACKUP_NAME_MAX = 40;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

const backupName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty (leave it out to have the cloud name the backup)' })
  .max(BACKUP_NAME_MAX, { error: `must be at most ${BACKUP_NAME_MAX} characters` })
  .optional();

const createArgs = {
  server: serverArg,
  name: flag('NAME', backupName, `backup name (at most ${BACKUP_NAME_MAX} characters; generated when left out)`),
  mode: flag('MODE', z.enum(BACKUP_MODES, { error: oneOf(BACKUP_MODES) }).default(DEFAULT_BACKUP_MODE), `${BACKUP_MODES.join(' | ')} (default ${DEFAULT_BACKUP_MODE})`),
  compression: flag(
    'TYPE',
    z.enum(COMPRESSION_TYPES, { error: oneOf(COMPRESSION_TYPES) }).default(DEFAULT_COMPRESSION),
    `${COMPRESSION_TYPES.join(' | ')} (default ${DEFAULT_COMPRESSION})`,
  ),
};

interface CreateArgs {
  name?: string | undefined;
  mode?: (typeof BACKUP_MODES)[number] | undefined;
  compression?: (typeof COMPRESSION_TYPES)[number] | undefined;
}

/** The body of POST /servers/{server}/backups, defaults filled in. */
export function createBackupBody(a: CreateArgs): CreateBackupBody {
  return {
    ...(a.name ? { name: a.name } : {}),
    mode: a.mode ?? DEFAULT_BACKUP_MODE,
    compression_type: a.compression ?? DEFAULT_COMPRESSION,
  };
}

export const backupCreate = defineChange({
  id: 'backup.create',
  summary: 'Take a backup of a server now (counts against the plan’s backup limit)',
  args: createArgs,
  run: ({ cloud, signal }, a) => cloud.backups.create(a.server, createBackupBody(a), { signal }),
  change: {
    confirm: false,
    async precheck({ cloud, signal }, { server }) {
      const status = await cloud.servers.status(server, { signal });
      const busy = status.server_status;
      if (isServerBusy(busy)) {
        return {
          refuse: md`Server ${val(server)} is ${val(busy)} right now, so it cannot be backed up; try again when ${val(`/cloud server status ${server}`)} shows it is done.`,
        };
      }
      return {};
    },
    describe: (a) => ({
      title: md`Back up server ${val(a.server)}${a.name ? md` as ${val(a.name)}` : md``}`,
      lines: [
        md`Mode ${val(a.mode ?? DEFAULT_BACKUP_MODE)}, compression ${val(a.compression ?? DEFAULT_COMPRESSION)}.`,
        md`The backup counts against the plan’s backup limit.`,
      ],
    }),
    bodyToArg: { compression_type: 'compression' },
    outputs: (b, { server }) => ({ backup_uuid: b.uuid, server }),
    summarize: (b, { server }) => ({
      text: md`Backup ${backupNameText(b.name)} (${val(b.uuid)}) of server ${val(server)} ${
        b.is_successful ? md`is complete` : md`is being taken`
      }. ${val(`/cloud backup list ${server}`)} shows its progress.`,
    }),
    modal: {
      title: 'Back up server',
      submit: 'Back up',
      whenBare: true,
      fields: [
        {
          name: 'name',
          label: 'Name (optional)',
          kind: 'text',
          optional: true,
          maxLength: BACKUP_NAME_MAX,
          placeholder: 'before-upgrade',
          hint: `At most ${BACKUP_NAME_MAX} characters. Leave empty to have the cloud name it.`,
        },
        {
          name: 'mode',
          label: 'Mode',
          kind: 'select',
          options: BACKUP_MODES.map((m) => ({ value: m, text: m === DEFAULT_BACKUP_MODE ? `${m} (default)` : m })),
        },
        {
          name: 'compression',
          label: 'Compression',
          kind: 'select',
          options: COMPRESSION_TYPES.map((c) => ({ value: c, text: c === DEFAULT_COMPRESSION ? `${c} (default)` : c })),
        },
      ],
    },
  },
});

export const backupDelete = defineOperation({
  id: 'backup.delete',
  summary: 'Permanently delete a backup of a server (locked backups cannot be deleted)',
  tier: 'destroy',
  args: {
    server: serverArg,
    // Uuids are listed in lower case; one typed in upper case is sent as listed.
    backup: lookedUpAs(positional('backup-uuid', UuidSchema.transform((u) => u.toLowerCase()), 'the backup’s uuid (see /cloud backup list <server>)'), {
      what: 'backup',
      listedBy: '/cloud backup list {server}',
      lists: 'lists its backups',
    }),
  },
  run: ({ cloud, signal }, { server, backup }) => cloud.backups.delete(server, backup, { signal }),
  change: {
    confirm: true,
    async precheck({ cloud, clock, signal }, { server, backup }) {
      const wanted = backup.toLowerCase();
      let found: { name?: string | null; size?: number | null; created_at?: string | null; is_locked?: boolean | null } | undefined;
      for await (const b of cloud.backups.all(server, { signal })) {
        if (b.uuid.toLowerCase() === wanted) {
          found = b;
          break;
        }
      }
      const list = val(`/cloud backup list ${server}`);
      if (!found) return { refuse: md`Server ${val(server)} has no backup ${val(backup)}. ${list} shows its backups and their uuids.` };
      const name = found.name || backup;
      if (found.is_locked) {
        return {
          refuse: md`Backup ${val(name)} of server ${val(server)} is locked, and locked backups cannot be deleted. Unlock it in the provider’s panel first.`,
        };
      }
      const createdMs = found.created_at ? Date.parse(found.created_at) : NaN;
      return {
        facts: {
          name,
          size: found.size ?? null,
          created: found.created_at ?? null,
          // An age in milliseconds, not words: the confirmation text is made from numbers and values only.
          ageMs: Number.isNaN(createdMs) ? null : Math.max(0, clock.now() - createdMs),
        },
      };
    },
    describe: ({ server, backup }, facts) => {
      const about = [
        typeof facts.size === 'number' ? bytes(facts.size) : undefined,
        typeof facts.ageMs === 'number' ? md`taken ${agoFromAge(facts.ageMs)}` : undefined,
      ].filter((x): x is Mrkdwn => x !== undefined);
      return {
        title: md`Permanently delete backup ${val(typeof facts.name === 'string' ? facts.name : backup)}${about.length ? md` (${join(about, ', ')})` : md``} of server ${val(server)}`,
        lines: [
          md`Backup ${val(backup)} is gone for good: the server can no longer be restored to that point.`,
          md`The server’s other backups are kept.`,
        ],
      };
    },
    summarize: (_r, { server, backup }) => ({ text: md`Backup ${val(backup)} of server ${val(server)} is deleted.` }),
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const BACKUP_CHANGES = [backupCreate, backupDelete];
