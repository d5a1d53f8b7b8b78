/**
 * Request signing exactly as Slack does it (and as Bolt verifies it):
 * `x-slack-signature: v0=hex(HMAC-SHA256(signingSecret, "v0:{timestamp}:{rawBody}"))`.
 */
import { createHmac } from 'node:crypto';

export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
}

export function slackSignature(signingSecret: string, timestampSec: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${rawBody}`).digest('hex')}`;
}

export interface SignOptions {
  signingSecret: string;
  /** Unix seconds; default now. A value more than 5 minutes old is rejected by Bolt as stale. */
  timestamp?: number;
}

export function signRequest(rawBody: string, { signingSecret, timestamp }: SignOptions): SlackSignatureHeaders {
  const ts = timestamp ?? Math.floor(Date.now() / 1000);
  return {
    'x-slack-signature': slackSignature(signingSecret, ts, rawBody),
    'x-slack-request-timestamp': String(ts),
  };
}
