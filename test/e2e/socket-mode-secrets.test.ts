/**
 * Socket Mode at LOG_LEVEL=debug: the socket client logs every message it receives, whole, at
 * debug. A reinstall form's root password arrives in such a message (the view_submission's
 * state), before the bot knows it is a secret, so the log must not carry the raw payloads.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { slashCommandFields, viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE } from '../rig/workspace.js';
import { startSocketRig, type SocketRig } from './socket-rig.js';

const TYPED_PASSWORD = 'Socket-Typed-Pa55word';
const lines: string[] = [];
let rig: SocketRig;
beforeAll(async () => {
  rig = await startSocketRig({ cloudToken: 'socket-secrets-cloud-token', admins: [ALICE.id], log: { level: 'debug', sink: (line) => void lines.push(line) } });
});
afterAll(async () => {
  await rig?.close();
});

it('a root password typed into the reinstall form is not in any debug log line', async () => {
  await rig.socket.slashCommand(slashCommandFields({ text: 'server reinstall 102', userId: ALICE.id, responseUrl: rig.responses.next() }));
  const form = await waitFor(() => {
    const v = rig.slack.views.latest();
    return v && rig.slack.views.isOpen(v.id) && JSON.stringify(v.view).includes('"block_id":"password"') ? v : undefined;
  }, { timeoutMs: 5000 });
  const from = rig.slack.callsTo('chat.postMessage').length;
  await rig.socket.interactive(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { template: 'debian-12', password: TYPED_PASSWORD }, userId: ALICE.id }));
  // The submission was taken: the change's status message is posted (awaiting confirmation).
  await waitFor(() => rig.slack.callsTo('chat.postMessage').length > from, { timeoutMs: 5000 });
  // The socket client did log at debug (the test would pass vacuously otherwise).
  expect(lines.some((l) => l.includes('"level":"debug"') && l.includes('"source":"bolt"'))).toBe(true);
  expect(lines.filter((l) => l.includes(TYPED_PASSWORD)).map((l) => l.slice(0, 160))).toEqual([]);
});
