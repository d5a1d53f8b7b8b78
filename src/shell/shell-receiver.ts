/**
 * A Bolt receiver for the local shell: instead of HTTP requests or a socket, the shell hands
 * it the bodies Slack would send (see payloads.ts). It calls `app.processEvent` exactly as
 * Bolt's own receivers do, and gives back what the app acked — `response_action: errors` on
 * a form, for instance — while the handler's work after the ack goes on.
 */
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';

export interface Delivery {
  /** What the handler passed to ack() (undefined for a bare ack, or if it never acked). */
  acked: Promise<unknown>;
  /** Resolves when the handler has finished, after the ack. */
  done: Promise<void>;
}

export class ShellReceiver implements Receiver {
  private app: App | undefined;
  private running = false;
  /** What else a delivery waits for once the handler returned: its work after the ack (runtime.settled). */
  private settled: () => Promise<void> = () => Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  init(app: App): void {
    this.app = app;
  }

  /** Listeners hand their work after the ack on (slack/after-ack.ts): `done` waits for it too. */
  waitAlsoFor(settled: () => Promise<void>): void {
    this.settled = settled;
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }

  deliver(body: Record<string, unknown>): Delivery {
    const app = this.app;
    if (!app || !this.running) throw new Error('the shell receiver is not started');
    let settle!: (value: unknown) => void;
    const acked = new Promise<unknown>((resolve) => (settle = resolve));
    const event: ReceiverEvent = {
      body,
      ack: async (response?: unknown) => {
        settle(response);
      },
    };
    const done = app
      .processEvent(event)
      .then(() => this.settled())
      .catch((error: unknown) => this.onError(error))
      .finally(() => settle(undefined)); // a handler that never acked still lets the shell go on
    return { acked, done };
  }
}
