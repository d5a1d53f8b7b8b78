/** Posting signed requests to the app under test, as Slack's servers do. */
import { request, type Dispatcher } from 'undici';
import { signRequest } from './sign.js';

export interface PostSignedOptions {
  signingSecret: string;
  /** Unix seconds for x-slack-request-timestamp; default now. */
  timestamp?: number;
  /** Send a signature that does not match (Bolt must answer 401). */
  badSignature?: boolean;
  /** Extra headers, e.g. `x-slack-retry-num` / `x-slack-retry-reason` for a redelivery. */
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
}

export interface SignedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Raw response body (Bolt acks with '' or a JSON body). */
  text: string;
  /** The body parsed as JSON, or undefined when empty/not JSON. */
  json: unknown;
  /** Wall-clock time from sending to the full response: Slack gives up after 3000 ms. */
  elapsedMs: number;
}

export async function postSigned(url: string, rawBody: string, contentType: string, options: PostSignedOptions): Promise<SignedResponse> {
  const signed = signRequest(rawBody, { signingSecret: options.signingSecret, timestamp: options.timestamp });
  if (options.badSignature) signed['x-slack-signature'] = `v0=${'0'.repeat(64)}`;
  const started = performance.now();
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)', ...signed, ...options.headers },
    body: rawBody,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json, elapsedMs };
}
