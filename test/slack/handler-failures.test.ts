/**
 * A failure inside the bot after a listener acked still reaches the person (issue 20, "every
 * request answered"): an alert button answers privately with a reference, and a change form
 * that closed at its ack is told in its channel. The listeners are the real ones, given a
 * recording ListenerRoutes and a core whose step throws.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { createAfterAck } from '../../src/slack/after-ack.js';
import type { ListenerRoutes } from '../../src/slack/listener-routes.js';
import { registerAlertActions } from '../../src/slack/register-alert-actions.js';
import { registerChanges } from '../../src/slack/register-changes.js';
import { registerPager } from '../../src/slack/register-pager.js';
import { PAGE_ACTION_NEXT } from '../../src/views/pager.js';
import { CHANGE_MODAL_CALLBACK, TYPE_TO_CONFIRM_CALLBACK } from '../../src/views/modal-views.js';

type Listener = (args: Record<string, unknown>) => Promise<void>;

function recordingRoutes() {
  const actions: [string | RegExp, Listener][] = [];
  const views = new Map<string, Listener>();
  const routes = {
    command() {},
    messageShortcut() {},
    action: (id: string | RegExp, l: Listener) => void actions.push([id, l]),
    view: (id: string, l: Listener) => void views.set(id, l),
    event() {},
  } as unknown as ListenerRoutes;
  const action = (actionId: string) => actions.find(([id]) => (typeof id === 'string' ? id === actionId : id.test(actionId)))![1];
  return { routes, action, view: (id: string) => views.get(id)! };
}

const broken = () => Promise.reject(new Error('a bug'));

describe('failures after the ack', () => {
  it('an alert button whose check throws answers the clicker privately, with a reference', async () => {
    const logLines: string[] = [];
    const logger = createLogger({ sink: (l) => logLines.push(l) });
    const afterAck = createAfterAck(logger);
    const { routes, action } = recordingRoutes();
    registerAlertActions(routes, { core: { alertClick: broken }, afterAck, clock: createManualClock(), logger });
    const said: Record<string, unknown>[] = [];
    await action('alert_run:1')({
      ack: async () => {},
      action: { value: 'x' },
      body: { user: { id: 'U1' }, channel: { id: 'C1' }, container: { message_ts: '1.2' } },
      respond: async (m: Record<string, unknown>) => void said.push(m),
    });
    await afterAck.idle();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const ref = /reference `([0-9a-f]{8})`/.exec(JSON.stringify(said[0]))?.[1];
    expect(ref).toBeDefined();
    expect(logLines.some((l) => l.includes(ref!))).toBe(true);
  });

  it('a type-to-confirm form whose confirm throws after the ack is told in the request’s channel', async () => {
    const logger = createLogger({ sink: () => {} });
    const afterAck = createAfterAck(logger);
    const { routes, view } = recordingRoutes();
    const ephemerals: Record<string, unknown>[] = [];
    registerChanges(routes, {
      core: {
        changeClick: broken,
        submitForm: broken,
        confirmTyped: async () => ({ kind: 'accepted', channelId: 'COPS', confirm: broken }),
      },
      afterAck,
      slack: { postEphemeral: async (m: Record<string, unknown>) => void ephemerals.push(m), openView: broken } as never,
      logger,
    });
    let acked = false;
    await view(TYPE_TO_CONFIRM_CALLBACK)({
      ack: async () => void (acked = true),
      body: { user: { id: 'U1' } },
      view: { private_metadata: 'op_1', state: { values: { typed: { typed: { value: 'web-1' } } } } },
    });
    await afterAck.idle();
    expect(acked).toBe(true);
    expect(ephemerals).toHaveLength(1);
    expect(ephemerals[0]).toMatchObject({ channel: 'COPS', user: 'U1' });
    expect(JSON.stringify(ephemerals[0])).toMatch(/failed unexpectedly/);
  });

  it('a change form closed at its deadline, whose change then fails inside the bot, is told in the form’s channel', async () => {
    const logger = createLogger({ sink: () => {} });
    const afterAck = createAfterAck(logger);
    const { routes, view } = recordingRoutes();
    const ephemerals: Record<string, unknown>[] = [];
    const later = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a bug')), 20));
    later.catch(() => {});
    registerChanges(routes, {
      core: {
        changeClick: broken,
        confirmTyped: broken,
        submitForm: async () => ({ kind: 'started', channel: 'COPS', outcome: later, verdict: () => undefined }) as never,
      },
      afterAck,
      slack: { postEphemeral: async (m: Record<string, unknown>) => void ephemerals.push(m), openView: broken } as never,
      logger,
      submitDeadlineMs: 1,
    });
    const acks: unknown[] = [];
    await view(CHANGE_MODAL_CALLBACK)({
      ack: async (a?: unknown) => void acks.push(a),
      body: { user: { id: 'U1' } },
      // The form's metadata names its channel (app/change-commands.ts ModalMetadata).
      view: { id: 'V1', private_metadata: JSON.stringify({ channel: 'COPS' }), state: { values: {} } },
    });
    expect(acks).toEqual([undefined]); // closed at the deadline
    await afterAck.idle();
    expect(ephemerals).toHaveLength(1);
    expect(ephemerals[0]).toMatchObject({ channel: 'COPS', user: 'U1' });
    expect(JSON.stringify(ephemerals[0])).toMatch(/failed unexpectedly/);
  });

  it('a type-to-confirm form whose check outlasts the deadline is acked then; a mismatch is told in the request’s channel', async () => {
    const logger = createLogger({ sink: () => {} });
    const afterAck = createAfterAck(logger);
    const { routes, view } = recordingRoutes();
    const ephemerals: Record<string, unknown>[] = [];
    let answer!: (a: unknown) => void;
    const slow = new Promise((resolve) => (answer = resolve));
    registerChanges(routes, {
      core: { changeClick: broken, submitForm: broken, confirmTyped: () => slow as never },
      afterAck,
      slack: { postEphemeral: async (m: Record<string, unknown>) => void ephemerals.push(m), openView: broken } as never,
      logger,
      submitDeadlineMs: 1,
    });
    const acks: unknown[] = [];
    await view(TYPE_TO_CONFIRM_CALLBACK)({
      ack: async (a?: unknown) => void acks.push(a),
      body: { user: { id: 'U1' } },
      view: { private_metadata: 'op_1', state: { values: { typed: { typed: { value: 'web-2' } } } } },
    });
    // Acked (the form closes) while the check has not answered.
    expect(acks).toEqual([undefined]);
    answer({ kind: 'errors', errors: { typed: 'Type web-1 exactly to confirm.' }, channelId: 'COPS' });
    await afterAck.idle();
    expect(ephemerals).toHaveLength(1);
    expect(ephemerals[0]).toMatchObject({ channel: 'COPS', user: 'U1' });
    expect(JSON.stringify(ephemerals[0])).toContain('nothing was sent');
    expect(JSON.stringify(ephemerals[0])).toContain('web-1');
  });

  it('a change form whose change fails inside the bot before the deadline says so on the form', async () => {
    const logger = createLogger({ sink: () => {} });
    const { routes, view } = recordingRoutes();
    registerChanges(routes, {
      core: { changeClick: broken, confirmTyped: broken, submitForm: async () => ({ kind: 'started', channel: 'COPS', outcome: broken(), verdict: () => undefined }) as never },
      afterAck: createAfterAck(logger),
      slack: { postEphemeral: broken, openView: broken } as never,
      logger,
    });
    const acks: { response_action?: string; view?: unknown }[] = [];
    await view(CHANGE_MODAL_CALLBACK)({ ack: async (a: never) => void acks.push(a), body: { user: { id: 'U1' } }, view: { id: 'V1', private_metadata: '{}', state: { values: {} } } });
    expect(acks).toHaveLength(1);
    expect(acks[0]!.response_action).toBe('update');
    expect(JSON.stringify(acks[0]!.view)).toMatch(/failed unexpectedly/);
  });

  it('a page button whose value cannot be read says so to the clicker, as the other buttons do', async () => {
    const logger = createLogger({ sink: () => {} });
    const afterAck = createAfterAck(logger);
    const { routes, action } = recordingRoutes();
    registerPager(routes, { core: { pageButton: () => ({ kind: 'unreadable' }) as never }, afterAck, clock: createManualClock(), logger });
    const said: Record<string, unknown>[] = [];
    await action(PAGE_ACTION_NEXT)({ ack: async () => {}, action: { value: '{not json' }, body: { user: { id: 'U1' }, channel: { id: 'C1' } }, respond: async (m: Record<string, unknown>) => void said.push(m) });
    await afterAck.idle();
    expect(said).toHaveLength(1);
    expect(JSON.stringify(said[0])).toContain('That button could not be read; nothing was done.');
    expect(said[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  });
});
