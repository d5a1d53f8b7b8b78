import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { blockActionsPayload, interactiveBody, slashCommandBody } from '../rig/payloads.js';
import { signRequest, slackSignature } from '../rig/sign.js';
import { OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';

/** Bolt's own verifier, fed the way its HTTP receiver feeds it. */
function boltVerifies(rawBody: string, headers: { 'x-slack-signature': string; 'x-slack-request-timestamp': string }, nowMs?: number) {
  verifySlackRequest({
    signingSecret: SIGNING_SECRET,
    body: rawBody,
    headers: { 'x-slack-signature': headers['x-slack-signature'], 'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']) },
    ...(nowMs !== undefined ? { nowMilliseconds: nowMs } : {}),
  });
}

describe('request signing', () => {
  const bodies = {
    'slash command': slashCommandBody({ text: 'server reinstall 42 --os "debian 12" & more' }),
    'block_actions payload': interactiveBody(
      blockActionsPayload({
        actionId: 'go',
        message: { ts: '1.1', channel: OPS_CHANNEL.id, blocks: [{ type: 'actions', block_id: 'b', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Gö ✓' } }] }] },
      }),
    ),
  };

  for (const [name, body] of Object.entries(bodies)) {
    it(`is accepted by Bolt's verifySlackRequest (${name})`, () => {
      expect(() => boltVerifies(body, signRequest(body, { signingSecret: SIGNING_SECRET }))).not.toThrow();
    });
  }

  it('matches Slack’s documented example signature', () => {
    // From Slack's "Verifying requests from Slack" guide.
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('is rejected by Bolt when the body, the timestamp or the secret differ, or it is stale', () => {
    const body = bodies['slash command'];
    const headers = signRequest(body, { signingSecret: SIGNING_SECRET });
    expect(() => boltVerifies(`${body}x`, headers)).toThrow(/signature mismatch/);
    expect(() => boltVerifies(body, { ...headers, 'x-slack-request-timestamp': String(Number(headers['x-slack-request-timestamp']) + 1) })).toThrow(
      /signature mismatch/,
    );
    expect(() => boltVerifies(body, signRequest(body, { signingSecret: 'other-secret' }))).toThrow(/signature mismatch/);
    const old = Math.floor(Date.now() / 1000) - 6 * 60;
    expect(() => boltVerifies(body, signRequest(body, { signingSecret: SIGNING_SECRET, timestamp: old }))).toThrow(/stale/);
  });
});
