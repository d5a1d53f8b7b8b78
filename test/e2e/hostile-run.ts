/**
 * Driving the bot for the hostile-output tours: one `/cloud` command followed to its end
 * (an answer, a form, or a status message confirmed and waited on), and which catalog
 * operations a tour ran.
 */
import { catalog } from '../../src/operations/index.js';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { asSlackSends } from '../rig/hostile-strings.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { visibleText, type BotRig } from './bot-rig.js';
import type { FakeMessage } from '../rig/fake-slack.js';

const isSlow = (body: Record<string, unknown>) => typeof body.text === 'string' && body.text.includes('the cloud is slow to answer');
const text = (m: FakeMessage) => visibleText({ text: m.text, blocks: m.blocks });
// A change's status message, or a watch's own message (`Watch `w…` · done`), once it ended.
const ENDED = /— (done|failed|cancelled|expired)|failed|refused|· (done|cancelled|failed)/;

/** How an outcome starts when the bot never answered or a change never ended. */
export const STUCK = 'STUCK';
export const stuck = (outcomes: Outcome[]) => outcomes.filter((o) => o.how.startsWith(STUCK)).map((o) => `${o.command.slice(0, 100)} → ${o.how}`);

export interface Outcome {
  command: string;
  /** 'answered' (response_url), 'form' (a modal), or the status message's final words. */
  how: string;
}

/**
 * Sends `/cloud <command>` as Slack would (text escaped) and follows it: an answer, a form
 * (left open once its choices loaded), or a status message that is confirmed (typing
 * `typed` when asked) and waited on until it ends.
 */
export async function run(rig: BotRig, command: string, opts: { userId?: string; typed?: string; cancel?: boolean } = {}): Promise<Outcome> {
  const userId = opts.userId ?? ALICE.id;
  const from = rig.slack.calls.length;
  const responseUrl = rig.responses.next();
  await rig.send.command({ userId, channelId: OPS_CHANNEL.id, text: asSlackSends(command), responseUrl });
  const posted = () =>
    rig.slack.calls.slice(from).find((c) => c.method === 'chat.postMessage' && c.params.channel === OPS_CHANNEL.id && !c.params.thread_ts && c.response.ok);
  const answered = () => rig.responses.postsTo(responseUrl).some((p) => !isSlow(p.body));
  const form = () => rig.slack.calls.slice(from).some((c) => c.method === 'views.open');
  const privately = () => rig.slack.calls.slice(from).some((c) => c.method === 'chat.postEphemeral');
  const first = await waitFor(() => posted() ?? (answered() || privately() ? 'answered' : form() ? 'form' : undefined), { timeoutMs: 4000 }).catch(() => {
    const seen = rig.slack.calls.slice(from).map((c) => `${c.method} ${c.response.ok ? 'ok' : String(c.response.error)}`);
    return `${STUCK}: no answer; Slack calls since: ${seen.join(', ') || 'none'}`;
  });
  if (first === 'answered') return { command, how: 'answered' };
  if (first === 'form') {
    // The form opens loading, then is filled with choices from the cloud (cloud-controlled text).
    await waitFor(() => rig.slack.calls.slice(from).some((c) => c.method === 'views.update'), { timeoutMs: 5000, message: command }).catch(() => undefined);
    return { command, how: 'form' };
  }
  if (typeof first === 'string') return { command, how: first };
  const ts = String(first.response.ts);
  const msg = () => rig.slack.messages.get(OPS_CHANNEL.id, ts)!;
  if (JSON.stringify(msg().blocks ?? []).includes('"op_confirm"')) {
    if (opts.cancel) await rig.click(msg(), 'op_cancel', userId);
    else {
      const dialogs = () => rig.slack.views.all().filter((v) => v.view.callback_id === 'cloud_type_confirm').length;
      const seen = dialogs();
      if (opts.typed === undefined && text(msg()).includes('asks you to type')) return { command, how: `${STUCK}: asks to type a word the tour did not give` };
      await rig.click(msg(), 'op_confirm', userId);
      if (opts.typed !== undefined) {
        const dialog = await waitFor(() => rig.slack.views.all().filter((v) => v.view.callback_id === 'cloud_type_confirm')[seen], { timeoutMs: 5000 });
        const res = await rig.send.interaction(viewSubmissionPayload({ view: { ...dialog.view, id: dialog.id }, values: { typed: opts.typed }, userId }));
        // A value a person cannot type as shown (a control became U+FFFD): give up, as they would.
        if ((res.json as { response_action?: string } | undefined)?.response_action === 'errors') await rig.click(msg(), 'op_cancel', userId);
      }
    }
  }
  const end = await waitFor(() => ENDED.exec(text(msg()))?.[0], { timeoutMs: 4000 }).catch(() => `${STUCK}: never ended: ${text(msg()).slice(0, 200)}`);
  return { command, how: end };
}

// ── what a tour covered ─────────────────────────────────────────────────────────────────────

/** The catalog operations a tour's commands ran (by their resource and verb words). */
export function opsOf(outcomes: Outcome[]): string[] {
  const ids = new Set<string>();
  for (const { command } of outcomes) {
    const [word = '', verb = ''] = command.trim().split(/\s+/);
    const resource = catalog.resolveResource(word);
    const op = resource ? catalog.find(resource, verb) ?? catalog.find(resource, catalog.resources.find((r) => r.name === resource)?.defaultVerb ?? '') : undefined;
    if (op) ids.add(op.id);
  }
  return [...ids].sort();
}

/** Every operation of the catalog; those that take a typed value (anything but a switch or a form field). */
export const ALL_OPS = catalog.operations.map((o) => o.id).sort();
export const TYPED_OPS = catalog.operations
  .filter((o) => Object.values(o.args as Record<string, { kind: string }>).some((a) => a.kind !== 'modal' && a.kind !== 'switch'))
  .map((o) => o.id)
  .sort();
