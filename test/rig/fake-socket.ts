/**
 * A fake Socket Mode server. Attached to a fake Slack, `apps.connections.open` hands out
 * `ws://127.0.0.1:PORT/link/?ticket=…`; a Bolt app with `socketMode: true` and
 * `clientOptions.slackApiUrl = fakeSlack.url` connects here, gets `hello`, and receives
 * envelopes the test pushes. Acks (`{ envelope_id, payload? }`) are recorded.
 */
import { submissionAckProblems } from './submission-ack.js';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { FakeSlack } from './fake-slack.js';
import { isObject, type JsonObject } from './json.js';
import { listenLoopback } from './loopback.js';
import { waitFor } from './wait-for.js';
import { acceptWebSocket, type WsConnection } from './websocket-server.js';
import { APP_ID } from './workspace.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface SocketEnvelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: JsonObject;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

export interface SocketAck {
  envelope_id: string;
  /** What the app passed to ack(), e.g. `{ response_action: 'errors', errors }` or `{ options }`. */
  payload?: JsonObject;
  at: number;
}

export interface PushOptions {
  /** Redelivery: Slack sets these when the first delivery was not acked in time. */
  retryAttempt?: number;
  retryReason?: string;
  envelopeId?: string;
}

export interface FakeSocket {
  /** Base ws:// URL; each apps.connections.open gets it with a fresh ticket. */
  url: string;
  envelopes: SocketEnvelope[];
  acks: SocketAck[];
  /** Connections that said hello and are still open. */
  openConnections(): number;
  waitForConnection(timeoutMs?: number): Promise<void>;
  /** Sends an envelope to the newest open connection; returns it. */
  push(type: EnvelopeType, payload: JsonObject, options?: PushOptions): SocketEnvelope;
  /** The app's ack for an envelope, waiting up to `timeoutMs` (Slack's limit is 3 s). */
  ackFor(envelopeId: string, timeoutMs?: number): Promise<SocketAck>;
  /** A slash command (payload: the command's fields, as `slashCommandFields` builds them); resolves with the ack. */
  slashCommand(fields: Record<string, string>, options?: PushOptions): Promise<SocketAck>;
  /** An interactive payload (blockActionsPayload, viewSubmissionPayload, …); resolves with the ack. */
  interactive(payload: JsonObject, options?: PushOptions): Promise<SocketAck>;
  /** Asks clients to reconnect, as Slack does before recycling a connection. */
  requestDisconnect(reason?: 'warning' | 'refresh_requested' | 'link_disabled'): void;
  close(): Promise<void>;
}

export interface FakeSocketOptions {
  /** Attach to this fake Web API so apps.connections.open returns this server's URL. */
  slack?: FakeSlack;
  ackTimeoutMs?: number;
}

export async function createFakeSocket(options: FakeSocketOptions = {}): Promise<FakeSocket> {
  const connections: WsConnection[] = [];
  const envelopes: SocketEnvelope[] = [];
  const acks: SocketAck[] = [];
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;

  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket) => {
    const ws = acceptWebSocket(req, socket);
    if (!ws) return;
    connections.push(ws);
    ws.onMessage((text) => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (isObject(message) && typeof message.envelope_id === 'string') {
        const envelopeId = message.envelope_id;
        const payload = isObject(message.payload) && Object.keys(message.payload).length > 0 ? message.payload : undefined;
        const first = !acks.some((a) => a.envelope_id === envelopeId);
        acks.push({ envelope_id: envelopeId, ...(payload ? { payload } : {}), at: Date.now() });
        // Slack applies the first ack of a view_submission to the modal (closes, updates, pushes).
        const envelope = envelopes.find((e) => e.envelope_id === envelopeId);
        if (first && envelope?.type === 'interactive') options.slack?.views.acked(envelope.payload, payload);
      }
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: connections.filter((c) => c.isOpen).length,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: APP_ID },
      }),
    );
  });
  const loopback = await listenLoopback(server);
  const url = `ws://127.0.0.1:${loopback.port}/link/`;
  options.slack?.attachSocket(() => `${url}?ticket=${randomUUID()}&app_id=${APP_ID}`);

  const open = () => connections.filter((c) => c.isOpen);
  const ackFor = (envelopeId: string, timeoutMs = ackTimeoutMs) =>
    waitFor(() => acks.find((a) => a.envelope_id === envelopeId), { timeoutMs, message: `no ack for envelope ${envelopeId}` });
  const push = (type: EnvelopeType, payload: JsonObject, o: PushOptions = {}): SocketEnvelope => {
    const target = open().at(-1);
    if (!target) throw new Error('no Socket Mode client is connected');
    const envelope: SocketEnvelope = {
      envelope_id: o.envelopeId ?? randomUUID(),
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
      ...(o.retryAttempt !== undefined ? { retry_attempt: o.retryAttempt, retry_reason: o.retryReason ?? 'timeout' } : {}),
    };
    if (type === 'interactive') options.slack?.views.delivered(payload, o.retryAttempt !== undefined);
    envelopes.push(envelope);
    target.send(JSON.stringify(envelope));
    return envelope;
  };

  return {
    url,
    envelopes,
    acks,
    openConnections: () => open().length,
    waitForConnection: async (timeoutMs = 3000) => {
      await waitFor(() => open().length > 0, { timeoutMs, message: 'no Socket Mode client connected' });
    },
    push,
    ackFor,
    slashCommand: (fields, o) => ackFor(push('slash_commands', fields, o).envelope_id),
    interactive: async (payload, o) => {
      const ack = await ackFor(push('interactive', payload, o).envelope_id);
      // Slack refuses a form answer it cannot show; so does the rig, loudly.
      const problems = submissionAckProblems(payload, ack.payload);
      if (problems.length) throw new Error(`Slack would refuse this view_submission answer:\n  ${problems.join('\n  ')}`);
      return ack;
    },
    requestDisconnect: (reason = 'refresh_requested') => {
      for (const c of open()) c.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } }));
    },
    close: async () => {
      for (const c of connections) c.terminate();
      options.slack?.attachSocket(() => undefined);
      await loopback.close();
    },
  };
}
