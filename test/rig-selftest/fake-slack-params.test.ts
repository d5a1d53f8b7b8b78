import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { triggerId } from '../rig/ids.js';
import { loadWebApiSpec, missingParamError } from '../rig/web-api-spec.js';
import { ADMINS_GROUP, ALICE, APP_TOKEN, OPS_CHANNEL } from '../rig/workspace.js';
import { slackError, webClient } from './web-client.js';

const modal = { type: 'modal', title: { type: 'plain_text', text: 'Hi' }, blocks: [] };

/** A call that succeeds for each method; the test removes one required param at a time. */
function validParams(): Record<string, Record<string, unknown>> {
  return {
    'chat.postMessage': { channel: OPS_CHANNEL.id, text: 'hi' },
    'chat.postEphemeral': { channel: OPS_CHANNEL.id, user: ALICE.id, text: 'hi' },
    'chat.update': { channel: OPS_CHANNEL.id, ts: 'set below', text: 'edited' },
    'chat.delete': { channel: OPS_CHANNEL.id, ts: 'set below' },
    'views.open': { trigger_id: triggerId(), view: modal },
    'views.push': { trigger_id: triggerId(), view: modal },
    'views.update': { view_id: 'set below', view: modal },
    'conversations.join': { channel: OPS_CHANNEL.id },
    'conversations.open': { users: ALICE.id },
    'users.info': { user: ALICE.id },
    'usergroups.users.list': { usergroup: ADMINS_GROUP.id },
    'auth.test': {},
  };
}

describe('fake Slack: required parameters come from shared/slack/web-api-methods.json', () => {
  let slack: FakeSlack;
  const allScopes = ['commands', 'chat:write', 'usergroups:read', 'users:read', 'channels:join', 'im:write'];
  beforeAll(async () => {
    slack = await createFakeSlack({ scopes: allScopes });
  });
  afterAll(() => slack.close());

  it('derives the required lists Slack documents', () => {
    const specs = loadWebApiSpec();
    const required = (m: string) => specs.get(m)?.required;
    expect(required('chat.postMessage')).toEqual(['channel']);
    expect(required('chat.postEphemeral')).toEqual(['channel', 'user']);
    expect(required('chat.update')).toEqual(['channel', 'ts']);
    expect(required('views.open')).toEqual(['trigger_id', 'view']);
    expect(required('views.push')).toEqual(['trigger_id', 'view']);
    expect(required('usergroups.users.list')).toEqual(['usergroup']);
    // corrections of the stale 2021 spec
    expect(required('chat.delete')).toEqual(['channel', 'ts']);
    expect(required('views.update')).toEqual(['view']);
    expect(specs.get('views.update')?.oneOf).toEqual([['view_id', 'external_id']]);
  });

  it('answers each method with all required params, and rejects each missing one as Slack does', async () => {
    const client = webClient(slack.url);
    const specs = loadWebApiSpec();
    const checked: string[] = [];
    for (const [method, params] of Object.entries(validParams())) {
      const spec = specs.get(method);
      expect(spec, method).toBeDefined();
      for (const missing of spec!.required) {
        const fresh = { ...validParams()[method] };
        if (method === 'chat.update' || method === 'chat.delete') {
          fresh.ts = (await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'x' })).ts;
        }
        delete fresh[missing];
        const { error } = missingParamError(spec!, missing);
        const data = await slackError(client.apiCall(method, fresh), error);
        if (error === 'invalid_arguments') expect(data.response_metadata).toMatchObject({ messages: [`[ERROR] missing required field: ${missing}`] });
        checked.push(`${method}:${missing}=${error}`);
      }
      if (method === 'chat.update' || method === 'chat.delete') {
        params.ts = (await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'x' })).ts;
      }
      if (method === 'views.update') {
        params.view_id = ((await client.views.open({ trigger_id: triggerId(), view: modal as never })).view as { id: string }).id;
      }
      const res = await client.apiCall(method, params);
      expect(res.ok, method).toBe(true);
    }
    expect(checked).toEqual([
      'chat.postMessage:channel=channel_not_found',
      'chat.postEphemeral:channel=channel_not_found',
      'chat.postEphemeral:user=user_not_in_channel',
      'chat.update:channel=channel_not_found',
      'chat.update:ts=message_not_found',
      'chat.delete:channel=channel_not_found',
      'chat.delete:ts=message_not_found',
      'views.open:trigger_id=invalid_arguments',
      'views.open:view=invalid_arguments',
      'views.push:trigger_id=invalid_arguments',
      'views.push:view=invalid_arguments',
      'views.update:view=invalid_arguments',
      'conversations.join:channel=channel_not_found',
      'users.info:user=user_not_found',
      'usergroups.users.list:usergroup=invalid_arguments',
    ]);
  });

  it('needs view_id or external_id for views.update, and channel or users for conversations.open', async () => {
    const client = webClient(slack.url);
    await slackError(client.apiCall('views.update', { view: modal }), 'invalid_arguments');
    await slackError(client.apiCall('conversations.open', {}), 'invalid_arguments');
  });

  it('rejects a call without a token (not_authed) or with a wrong one (invalid_auth)', async () => {
    await slackError(webClient(slack.url, '').auth.test(), 'not_authed');
    await slackError(webClient(slack.url, 'xoxb-wrong').auth.test(), 'invalid_auth');
    // a token in the form body counts like the Authorization header
    const res = await webClient(slack.url, '').auth.test({ token: 'xoxb-fake-bot' });
    expect(res.ok).toBe(true);
  });

  it('keeps bot and app-level tokens apart (not_allowed_token_type)', async () => {
    await slackError(webClient(slack.url).apps.connections.open(), 'not_allowed_token_type');
    await slackError(webClient(slack.url, APP_TOKEN).chat.postMessage({ channel: OPS_CHANNEL.id, text: 'x' }), 'not_allowed_token_type');
  });

  it('answers unknown_method for methods the fake does not implement', async () => {
    await slackError(webClient(slack.url).apiCall('chat.scheduleMessage', { channel: OPS_CHANNEL.id }), 'unknown_method');
  });

  it('records every call with decoded params, the token and the response', async () => {
    const client = webClient(slack.url);
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    await client.chat.postMessage({ channel: OPS_CHANNEL.id, text: 'hi', blocks });
    const call = slack.callsTo('chat.postMessage').at(-1)!;
    expect(call.token).toBe('xoxb-fake-bot');
    expect(call.params).toMatchObject({ channel: OPS_CHANNEL.id, text: 'hi', blocks });
    expect(call.params).not.toHaveProperty('token');
    expect(call.status).toBe(200);
    expect(call.response).toMatchObject({ ok: true, channel: OPS_CHANNEL.id });
  });
});

describe('fake Slack: scopes default to manifest.yml', () => {
  it('answers missing_scope for a method whose scope the manifest does not grant', async () => {
    const slack = await createFakeSlack();
    try {
      const data = await slackError(webClient(slack.url).conversations.join({ channel: OPS_CHANNEL.id }), 'missing_scope');
      expect(data.needed).toBe('channels:join');
      expect(String(data.provided).split(',').sort()).toEqual(['channels:history', 'chat:write', 'commands', 'groups:history', 'links:read', 'links:write', 'usergroups:read', 'users:read']);
      const groups = await webClient(slack.url).usergroups.users.list({ usergroup: ADMINS_GROUP.id });
      expect(groups.users).toEqual([ALICE.id]);
    } finally {
      await slack.close();
    }
  });
});
