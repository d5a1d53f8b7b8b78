import { describe, expect, it } from 'vitest';
import {
  blockActionsPayload, blockSuggestionPayload, interactiveBody, slashCommandBody, UNSET_RESPONSE_URL,
  viewClosedPayload, viewSubmissionPayload, type ViewLike,
} from '../rig/payloads.js';
import { viewStateValues } from '../rig/view-state.js';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (value: string) => ({ text: plain(value.toUpperCase()), value });

const confirmMessage = {
  ts: '1700000000.000100',
  channel: OPS_CHANNEL.id,
  text: 'Reinstall server 42?',
  blocks: [
    { type: 'section', block_id: 'summary', text: { type: 'mrkdwn', text: 'Reinstall *42*?' } },
    {
      type: 'actions',
      block_id: 'confirm',
      elements: [
        { type: 'button', action_id: 'op_confirm', text: plain('Confirm'), value: 'op-123', style: 'danger' },
        { type: 'static_select', action_id: 'os_pick', options: [option('debian'), option('ubuntu')] },
      ],
    },
  ],
};

const form: ViewLike = {
  id: 'VFORM00001',
  type: 'modal',
  callback_id: 'sg_add_rule',
  private_metadata: '{"sg":7}',
  title: plain('Add rule'),
  submit: plain('Add'),
  blocks: [
    { type: 'input', block_id: 'port', label: plain('Port'), element: { type: 'number_input', action_id: 'port', is_decimal_allowed: false } },
    { type: 'input', block_id: 'proto', label: plain('Protocol'), element: { type: 'static_select', action_id: 'proto', options: [option('tcp'), option('udp')], initial_option: option('tcp') } },
    { type: 'input', block_id: 'cidrs', label: plain('Sources'), element: { type: 'multi_static_select', action_id: 'cidrs', options: [option('0.0.0.0/0'), option('10.0.0.0/8')] } },
    { type: 'input', block_id: 'who', label: plain('Notify'), optional: true, element: { type: 'users_select', action_id: 'who' } },
    { type: 'input', block_id: 'note', label: plain('Note'), optional: true, element: { type: 'plain_text_input', action_id: 'note', initial_value: 'n/a' } },
  ],
};

describe('payload builders', () => {
  it('builds a slash command form body with every field Slack sends', () => {
    const fields = Object.fromEntries(new URLSearchParams(slashCommandBody({ text: 'server status 42', responseUrl: 'http://r/1' })));
    expect(Object.keys(fields)).toEqual([
      'token', 'team_id', 'team_domain', 'channel_id', 'channel_name', 'user_id', 'user_name', 'command', 'text',
      'api_app_id', 'is_enterprise_install', 'response_url', 'trigger_id',
    ]);
    expect(fields).toMatchObject({ command: '/cloud', text: 'server status 42', user_id: ALICE.id, user_name: 'alice', channel_id: OPS_CHANNEL.id, response_url: 'http://r/1' });
    expect(fields.trigger_id).toMatch(/^\d{10}\.\d+\.[0-9a-f]{32}$/);
    expect(slashCommandBody()).toContain('command=%2Fcloud');
    expect(slashCommandBody()).toContain(`response_url=${encodeURIComponent(UNSET_RESPONSE_URL)}`);
  });

  it('clicks a button found in a message: its block_id, value and text come from the blocks', () => {
    const p = blockActionsPayload({ actionId: 'op_confirm', message: confirmMessage, userId: BOB.id, responseUrl: 'http://r/2' });
    expect(p).toMatchObject({
      type: 'block_actions',
      user: { id: BOB.id, username: 'bob' },
      container: { type: 'message', message_ts: confirmMessage.ts, channel_id: OPS_CHANNEL.id, is_ephemeral: false },
      channel: { id: OPS_CHANNEL.id },
      message: { ts: confirmMessage.ts, text: confirmMessage.text, blocks: confirmMessage.blocks },
      response_url: 'http://r/2',
      actions: [{ type: 'button', action_id: 'op_confirm', block_id: 'confirm', value: 'op-123', text: plain('Confirm'), style: 'danger' }],
    });
    expect((p.actions as Array<{ action_ts: string }>)[0]!.action_ts).toMatch(/^\d{10}\.\d{6}$/);
    const select = blockActionsPayload({ actionId: 'os_pick', message: confirmMessage, selected: 'ubuntu' });
    expect((select.actions as unknown[])[0]).toMatchObject({ type: 'static_select', selected_option: option('ubuntu') });
  });

  it('refuses to click what is not there', () => {
    expect(() => blockActionsPayload({ actionId: 'nope', message: confirmMessage })).toThrow(/no element with action_id "nope".*confirm\/op_confirm/);
    expect(() => blockActionsPayload({ actionId: 'os_pick', message: confirmMessage, selected: 'windows' })).toThrow(/no option/);
  });

  it('clicks in an ephemeral message: container says so, and there is no message object', () => {
    const ephemeral = { channel: OPS_CHANNEL.id, message_ts: '1700000000.000200', blocks: confirmMessage.blocks };
    const p = blockActionsPayload({ actionId: 'op_confirm', ephemeral, responseUrl: 'http://r/3' });
    expect(p).toMatchObject({
      container: { type: 'message', message_ts: '1700000000.000200', channel_id: OPS_CHANNEL.id, is_ephemeral: true },
      response_url: 'http://r/3',
      actions: [{ action_id: 'op_confirm', value: 'op-123' }],
    });
    expect(p).not.toHaveProperty('message');
  });

  it('acts inside a modal: container is the view, and the view carries the current state', () => {
    const p = blockActionsPayload({ actionId: 'proto', view: form, selected: 'udp', values: { proto: 'udp' } });
    expect(p).toMatchObject({
      container: { type: 'view', view_id: 'VFORM00001' },
      view: { id: 'VFORM00001', state: { values: { proto: { proto: { selected_option: option('udp') } } } } },
      actions: [{ type: 'static_select', action_id: 'proto', block_id: 'proto', selected_option: option('udp') }],
    });
    expect(p).not.toHaveProperty('response_url');
  });

  it('fills view state per element type, keeping initial values of untouched inputs', () => {
    const values = viewStateValues(form.blocks, { port: '22', cidrs: ['10.0.0.0/8'], who: BOB.id });
    expect(values).toEqual({
      port: { port: { type: 'number_input', value: '22' } },
      proto: { proto: { type: 'static_select', selected_option: option('tcp') } },
      cidrs: { cidrs: { type: 'multi_static_select', selected_options: [option('10.0.0.0/8')] } },
      who: { who: { type: 'users_select', selected_user: BOB.id } },
      note: { note: { type: 'plain_text_input', value: 'n/a' } },
    });
    expect(viewStateValues(form.blocks, { note: null }).note).toEqual({ note: { type: 'plain_text_input', value: null } });
    expect(() => viewStateValues(form.blocks, { prot: 'tcp' })).toThrow(/no input block has action_id prot/);
  });

  it('builds view_submission, view_closed and block_suggestion around the stored view', () => {
    const sub = viewSubmissionPayload({ view: form, values: { port: '443', cidrs: [] } });
    expect(sub).toMatchObject({
      type: 'view_submission',
      user: { id: ALICE.id },
      view: { id: 'VFORM00001', callback_id: 'sg_add_rule', private_metadata: '{"sg":7}', root_view_id: 'VFORM00001' },
      response_urls: [],
    });
    expect((sub.view as { state: { values: Record<string, unknown> } }).state.values.port).toEqual({ port: { type: 'number_input', value: '443' } });
    expect(viewClosedPayload({ view: form, isCleared: true })).toMatchObject({ type: 'view_closed', is_cleared: true, view: { id: 'VFORM00001' } });
    const suggestion = blockSuggestionPayload({ actionId: 'proto', view: form, value: 'tc' });
    expect(suggestion).toMatchObject({ type: 'block_suggestion', action_id: 'proto', block_id: 'proto', value: 'tc', container: { type: 'view', view_id: 'VFORM00001' } });
  });

  it('encodes interactive payloads as a payload= form field', () => {
    const body = interactiveBody({ type: 'view_closed', a: 'ü & =' });
    expect(body.startsWith('payload=')).toBe(true);
    expect(JSON.parse(new URLSearchParams(body).get('payload')!)).toEqual({ type: 'view_closed', a: 'ü & =' });
  });
});
