/**
 * The start-up window. The HTTP receiver listens before Slack has answered `auth.test` (so
 * `/healthz` and `/readyz` answer during the wait), and Bolt cannot authorize a request until
 * `app.init()` ran: without this gate such a request was acked and then failed with
 * "this.authorize is not a function". Now a request that arrives early is held until the bot is
 * ready, for as long as Slack's 3 s ack allows (`START_HOLD_MS`, the bot's clock). Past that it
 * is answered for what it is — nothing was done, try again in a moment — and never run:
 * - a slash command: the answer is the ack itself (no Web API call needed; Slack may be down);
 * - a click or a message shortcut: acked, then told through its response_url (else privately in its channel);
 * - a form: refused with `response_action: errors`, so it stays open as filled in;
 * - an Events API event: not acked (HTTP 503, or no socket ack), so Slack redelivers it later.
 *   Events are the only requests Slack retries, and none of ours changes anything in the cloud.
 * Socket Mode connects only once the bot is ready (Slack routes nothing to a replica that has not
 * connected), so there the gate is already open; it holds the same rules if that ever changes.
 *
 * The same gate closes again at the first moment of a shutdown (SIGTERM, runtime.ts stop): work
 * already taken finishes, and a request that still reaches this replica — the load balancer has
 * not yet seen `/readyz` turn 503, or Socket Mode has not left its connection yet (it does once
 * the acks pending went out: pending-acks.ts) — is answered at once by the same rules, as
 * "restarting" (nothing was done, try again: the next try lands on a replica that serves), never held.
 */
import { App, HTTPModuleFunctions, defaultProcessEventErrorHandler, type AppOptions, type ReceiverEvent } from '@slack/bolt';
import type { ReceiverProcessEventErrorHandlerArgs, SocketModeReceiverProcessEventErrorHandlerArgs } from '@slack/bolt';
import type { SlackApi } from '../chat/slack-api.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { PostToResponseUrl } from './response-url.js';
import type { Telemetry } from '../telemetry/index.js';
import { observeRequest } from './observe-request.js';
import type { PendingAcks } from './pending-acks.js';
import { buildStarting, buildStartingModal, startingFieldError, type Phase } from '../views/starting-views.js';
import type { Reply } from '../views/types.js';

/** How long an early request waits for the bot to be ready: well inside Slack's 3 s for the ack. */
export const START_HOLD_MS = 2000;

export interface StartGate {
  /** The bot is ready: requests held now and later run. */
  open(): void;
  /** The bot is stopping: from now on requests are answered "restarting" at once, none run. */
  close(): void;
  /** Whether close() was called. */
  closing(): boolean;
  isOpen(): boolean;
  /** Resolves true once open, false if still closed after `holdMs` of the clock. */
  wait(): Promise<boolean>;
  /** Requests waiting right now. */
  held(): number;
}

export function createStartGate(clock: Clock, holdMs = START_HOLD_MS): StartGate {
  let opened = false;
  let closed = false;
  let held = 0;
  let release!: () => void;
  const openPromise = new Promise<void>((resolve) => (release = resolve));
  return {
    open() {
      opened = true;
      release();
    },
    close() {
      closed = true;
      release(); // a request still held is answered now, not after the hold
    },
    closing: () => closed,
    isOpen: () => opened && !closed,
    held: () => held,
    async wait() {
      if (closed) return false;
      if (opened) return true;
      held++;
      const timer = new AbortController();
      try {
        const late = clock.sleep(holdMs, timer.signal).then(
          () => false,
          () => true,
        );
        return await Promise.race([openPromise.then(() => !closed), late]);
      } finally {
        timer.abort();
        held--;
      }
    },
  };
}

/** Thrown for an event that must be redelivered; the receivers' error handlers below turn it into "not acked". */
export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

export interface GateDeps {
  gate: StartGate;
  logger: Logger;
  /** Slack's Web API, for the click that came with no response_url. */
  slack: () => SlackApi;
  /** A click's response_url, through the bot's own fetch (response-url.ts). */
  postResponse: PostToResponseUrl;
  /** Acks timed, and each request a trace (observe-request.ts). */
  telemetry?: Telemetry;
  /** Requests not acked yet: a Socket Mode stop disconnects once they were (pending-acks.ts). */
  acks?: PendingAcks;
}

/** Bolt's App, with every request passing through the start gate first. */
export class GatedApp extends App {
  constructor(
    options: AppOptions,
    private readonly gateDeps: GateDeps,
  ) {
    super(options);
  }

  override async processEvent(event: ReceiverEvent): Promise<void> {
    const { telemetry, acks } = this.gateDeps;
    const processed = acks?.track(event);
    try {
      await (telemetry ? observeRequest(telemetry, event, (e) => this.gated(e)) : this.gated(event));
      processed?.(false);
    } catch (e) {
      processed?.(true);
      throw e;
    }
  }

  private async gated(event: ReceiverEvent): Promise<void> {
    const deps = this.gateDeps;
    if (deps.gate.isOpen() || (await deps.gate.wait())) return super.processEvent(event);
    await answerNotReady(event, deps);
  }
}

type Body = {
  type?: unknown;
  command?: unknown;
  text?: unknown;
  response_url?: unknown;
  user_id?: unknown;
  user?: { id?: unknown };
  channel?: { id?: unknown };
  container?: { channel_id?: unknown };
  view?: { blocks?: { type?: unknown; block_id?: unknown }[] };
};

async function answerNotReady(event: ReceiverEvent, deps: GateDeps): Promise<void> {
  const body = (event.body ?? {}) as Body;
  const kind = typeof body.command === 'string' ? 'slash_command' : typeof body.type === 'string' ? body.type : 'unknown';
  const phase: Phase = deps.gate.closing() ? 'stopping' : 'starting';
  if (phase === 'starting') deps.logger.warn('a request came before the bot was ready to serve it; the person is told to try again', { kind, holdMs: START_HOLD_MS });
  else deps.logger.warn('a request came while the bot was stopping; the person is told to try again', { kind });
  if (typeof body.command === 'string') {
    const typed = `${body.command} ${typeof body.text === 'string' ? body.text : ''}`.trim();
    const reply = buildStarting(typed, phase);
    return event.ack({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
  }
  if (body.type === 'view_submission') {
    const input = body.view?.blocks?.find((b) => b.type === 'input' && typeof b.block_id === 'string');
    return event.ack(
      input ? { response_action: 'errors', errors: { [String(input.block_id)]: startingFieldError(phase) } } : { response_action: 'push', view: buildStartingModal(phase) },
    );
  }
  if (body.type === 'block_suggestion') return event.ack({ options: [] });
  if (body.type === 'event_callback') throw new NotReadyError(`the bot is ${phase}: the event is left for Slack to redeliver`);
  await event.ack();
  if (body.type === 'block_actions') await tellPerson(body, deps, phase, buildStarting(undefined, phase));
  // A message shortcut (Act on this) carries a response_url and its channel too.
  else if (body.type === 'message_action' || body.type === 'shortcut') await tellPerson(body, deps, phase, buildStarting(undefined, phase, 'shortcut'));
}

async function tellPerson(body: Body, deps: GateDeps, phase: Phase, reply: Reply): Promise<void> {
  try {
    if (await deps.postResponse(body.response_url, reply)) return;
    const user = body.user?.id;
    const channel = body.channel?.id ?? body.container?.channel_id;
    if (typeof user !== 'string' || typeof channel !== 'string') {
      deps.logger.warn('a click or shortcut the bot could not take came from where no message can reach the person (a form, App Home, a global shortcut)');
      return;
    }
    await deps.slack().postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
  } catch (e) {
    deps.logger.warn(`could not tell the person that the bot is ${phase}`, { error: e });
  }
}

/** HTTP: an event left for redelivery gets 503, which Slack retries; anything else as Bolt does. */
export async function httpProcessEventError(args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  if (!(args.error instanceof NotReadyError) || args.response.headersSent) return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
  args.response.writeHead(503, { 'retry-after': '5' });
  args.response.end();
  return true; // answered here: Bolt only marks it acknowledged (its 3 s "not acknowledged" timer stops)
}

/** Socket Mode: an event left for redelivery is not acked, so Slack sends it again. */
export async function socketProcessEventError(args: SocketModeReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  if (args.error instanceof NotReadyError) return false;
  return defaultProcessEventErrorHandler(args);
}
