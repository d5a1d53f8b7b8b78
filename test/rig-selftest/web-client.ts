/** A real @slack/web-api WebClient (Bolt's own) pointed at a fake Slack, for rig self-tests. */
import { webApi } from '@slack/bolt';
import { expect } from 'vitest';
import { recordingLogger } from '../rig/recording-logger.js';
import { BOT_TOKEN } from '../rig/workspace.js';

export type WebClient = InstanceType<typeof webApi.WebClient>;

export function webClient(slackApiUrl: string, token: string = BOT_TOKEN, options: Record<string, unknown> = {}): WebClient {
  return new webApi.WebClient(token || undefined, {
    slackApiUrl,
    logger: recordingLogger(),
    retryConfig: webApi.retryPolicies.rapidRetryPolicy,
    ...options,
  });
}

/** Awaits a Web API call that must fail with Slack error `code`; returns the error's data. */
export async function slackError(call: Promise<unknown>, code: string): Promise<Record<string, unknown>> {
  const err: unknown = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected the call to fail with ${code}`).toBeInstanceOf(Error);
  const data = (err as { data?: Record<string, unknown> }).data ?? {};
  expect(data.error).toBe(code);
  return data;
}
