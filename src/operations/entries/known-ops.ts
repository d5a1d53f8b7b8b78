/**
 * `/cloud server known`, `/cloud sg known`, `/cloud worker known`: what the bot knows on the
 * channel's account (the API lists none of them): seen in answers, or named by the inventory. They read the bot's own memory: scope bot.
 */
import type { KnownKind } from '../../store/known-types.js';
import { buildKnownList } from '../../views/known-views.js';
import { KNOWN_LIST_MAX } from '../../store/known-types.js';
import { defineOperation, pageFlag } from '../define.js';

/** All the store lists (the most recently seen first), shown a page at a time with `--page N`. */
const LIMIT = KNOWN_LIST_MAX;

const knownOp = <const R extends 'server' | 'sg' | 'worker'>(resource: R, kind: KnownKind, what: string) =>
  defineOperation({
    id: `${resource}.known`,
    summary: `${what} the bot knows on this channel’s account: names and where each came from, id, uuid, first and last seen`,
    tier: 'read',
    scope: 'bot',
    args: { page: pageFlag },
    pageArg: 'page',
    async run({ known }) {
      if (!known) throw new Error('known resources are not available here');
      return known.list(kind, LIMIT);
    },
    render: (rows, _args, view) => buildKnownList(kind, rows, view.now, LIMIT, view.pages),
  });

export const serverKnown = knownOp('server', 'server', 'Servers');
export const sgKnown = knownOp('sg', 'sg', 'Security groups');
export const workerKnown = knownOp('worker', 'worker', 'Workers');
/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const KNOWN_OPS = [serverKnown, sgKnown, workerKnown];
