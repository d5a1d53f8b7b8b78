/**
 * The views that used to take outside text raw: a hostile name, fqdn, error or id must reach
 * Slack inert, in the notification text as well as in the blocks.
 */
import { describe, expect, it } from 'vitest';
import type { WatchRecord } from '../../../src/store/watch-store.js';
import type { Reply } from '../../../src/views/types.js';
import { md, val } from '../../../src/views/mrkdwn.js';
import { buildRootPasswordReply } from '../../../src/views/secret-views.js';
import { buildStatusMessage } from '../../../src/views/status-views.js';
import { buildFinalReply, buildProgressReply, buildWatchMessage } from '../../../src/views/watch-views.js';
import { WATCH_KINDS } from '../../../src/operations/watch-kinds.js';
import type { WatchState } from '../../../src/store/watch-store.js';
import { buildCloudRefusal, buildFieldErrors, onlyRequesterMay, typedMismatch } from '../../../src/views/click-views.js';
import { buildAccessRefusal } from '../../../src/views/access-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';

const HOSTILE = '<!channel> x\n:white_check_mark: *Approved by CFO* <@U0BOSS> \u202Eevil';
const all = (r: Reply) => JSON.stringify(r);
/** No live markup, no forged line, no bidi override — anywhere in the reply. */
function inert(r: Reply) {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  const s = all(r);
  for (const raw of ['<!channel>', '<@U0BOSS>', '\\n:white_check_mark:', '\u202E']) expect(s).not.toContain(raw);
  expect(r.text).not.toContain('\n:white_check_mark:');
}

import { record, watch } from './record-fixtures.js';

describe('buildRootPasswordReply', () => {
  it('marks itself private and shows the password once, as a value', () => {
    const r = buildRootPasswordReply('101', 'pa55-word&<x>');
    assertBlockKitValid({ text: r.text, blocks: r.blocks });
    expect(r.text).toBe('New root password of server `101` (only you can see this)');
    expect(r.text).not.toContain('pa55');
    expect(all(r)).toContain('`pa55-word&amp;&lt;x&gt;`');
    expect(JSON.stringify(r.blocks.at(-1))).toContain('Only you can see this');
  });

  it('escapes a hostile server name in the text and the blocks', () => {
    inert(buildRootPasswordReply(HOSTILE, 'secret123'));
  });

  it('shows a password with a backtick exactly, on a plain-text line Slack does not parse', () => {
    const password = 'a`b*c_:key:<!here>';
    const r = buildRootPasswordReply('101', password);
    assertBlockKitValid({ text: r.text, blocks: r.blocks });
    expect(r.text).not.toContain('a`b');
    expect(r.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: ':key: New root password of server `101`:', verbatim: true } });
    expect(r.blocks[1]).toEqual({ type: 'section', text: { type: 'plain_text', text: password, emoji: false } });
    expect(all(r)).not.toContain('ˋ'); // no look-alike anywhere
  });

  it('shows a password without a backtick in inline code, in the same section', () => {
    const r = buildRootPasswordReply('101', 'pa55*word_');
    expect(r.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: ':key: New root password of server `101`: `pa55*word_`', verbatim: true },
    });
    expect(r.blocks).toHaveLength(2);
  });
});

describe('status message', () => {
  it('the notification text is built like the blocks: a name cannot ping the channel', () => {
    const r = buildStatusMessage({
      record: record(),
      title: md`Rename server ${val('101')} to ${val(HOSTILE)}`,
      lines: [md`Name ${val(HOSTILE)}`],
      request: { method: 'PATCH', path: '/servers/101/rename' },
      needsConfirm: true,
      now: 0,
    });
    inert(r);
    expect(r.text.startsWith('Rename server `101` to `&lt;!channel&gt; x :white_check_mark:')).toBe(true);
  });

  it('shows the stored raw error message as a value', () => {
    const r = buildStatusMessage({
      record: record({ status: 'failed', errorCode: 'X', errorMessage: HOSTILE, confirmedBy: 'U0ALICE', finishedAt: 10 }),
      title: md`Rename`,
      lines: [],
      request: { method: 'PATCH', path: '/servers/101/rename' },
      needsConfirm: true,
      now: 0,
    });
    inert(r);
  });
});

/** The end of a watch as the watcher builds it: the kind's words in the generic reply, one minute in. */
const finalReply = (w: WatchRecord, state: WatchState, outcome: 'succeeded' | 'failed') =>
  buildFinalReply(w, WATCH_KINDS[w.kind].final(w, state, outcome), outcome, 60_000);

describe('watch replies', () => {
  it('a worker fqdn cannot forge a link label; the broadcast text is escaped', () => {
    const r = finalReply(watch(), { name: HOSTILE, status: 'active', fqdn: 'evil.example/login|docs-site.workers.example.net' }, 'succeeded');
    inert(r);
    expect(all(r)).not.toMatch(/<https:\/\/evil\.example\/login\|/);
    expect(r.text).toContain('`evil.example/login|docs-site.workers.example.net`');
  });

  it('a plain fqdn is a link with the host as its label', () => {
    const r = finalReply(watch(), { name: 'api', status: 'active', fqdn: 'api.workers.example.net' }, 'succeeded');
    expect(r.text).toBe('Worker `api` is active at <https://api.workers.example.net/|api.workers.example.net> (after 1 minute).');
  });

  it('a status the spec does not name is a value; a known one is a word', () => {
    const odd = finalReply(watch(), { name: 'api', status: HOSTILE, deployment: 'failed' }, 'failed');
    inert(odd);
    expect(odd.text).toBe('Worker `api` did not come up: deployment failed (after 1 minute).');
    const line = WATCH_KINDS.worker.describe({ status: 'pending', deployment: 'in_progress', runtime: '*live*' });
    expect(line).toBe('status pending · deployment in progress · runtime `*live*`');
    expect(WATCH_KINDS.server.describe({ server_status: 'installing', power: 'running', password: 'generating' })).toBe(
      'installing · power running · credentials generating',
    );
  });

  it('a reinstall’s end names the requester in the block only, not in the broadcast text', () => {
    const r = finalReply(watch({ kind: 'server', resource: '104' }), { server_status: null, power: 'running', password: 'ready' }, 'succeeded');
    expect(r.text).toBe('Server `104` is reinstalled and its credentials are ready (after 1 minute).');
    expect(JSON.stringify(r.blocks)).toContain('The new root password went to <@U0ALICE> privately.');
  });

  it('progress and the watch message carry the cloud’s words only as values', () => {
    const kind = WATCH_KINDS.worker;
    const state = { name: HOSTILE, status: HOSTILE, deployment: HOSTILE, runtime: HOSTILE, error: HOSTILE };
    inert(buildProgressReply(watch(), kind.describe(state), 1000));
    inert(buildWatchMessage(watch({ state }), kind.subject('uuid-1', state), kind.describe(state), 1000));
    inert(buildProgressReply(watch(), WATCH_KINDS.server.describe({ server_status: HOSTILE, power: HOSTILE, password: HOSTILE }), 1000));
  });
});

describe('click answers', () => {
  it('escape what was typed and show people as mentions', () => {
    expect(typedMismatch('<!here>')).toBe('That is not `&lt;!here&gt;`. Nothing was done; the request still waits.');
    expect(onlyRequesterMay('U0ALICE', 'cancel')).toBe('Only <@U0ALICE> can cancel this request.');
    expect(onlyRequesterMay('<!channel>', 'confirm')).toBe('Only `&lt;!channel&gt;` can confirm this request.');
    inert(buildCloudRefusal('/cloud server rename', md`Server ${val(HOSTILE)} is busy.`));
    inert(buildFieldErrors({ name: HOSTILE, [HOSTILE]: 'bad' }, 'cloud'));
  });

  it('an access refusal names channels and the command safely', () => {
    const r = buildAccessRefusal({ ok: false, reason: 'channel', channels: ['C0OPS', '<!channel>'], rule: { key: 'CLOUD_CHANNELS', source: 'environment' } }, '/cloud server rename', 'change');
    inert(r);
    expect(r.text).toBe('I take `/cloud` commands only in <#C0OPS>, `&lt;!channel&gt;`. Nothing was done.');
  });
});
