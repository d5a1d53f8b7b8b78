/** Sends signed slash commands, interactive payloads and events to the app's /slack/events, like Slack. */
import { postSigned, type PostSignedOptions, type SignedResponse } from './http.js';
import type { JsonObject } from './json.js';
import { FORM_CONTENT_TYPE, interactiveBody, JSON_CONTENT_TYPE, slashCommandBody, type SlashCommandInput } from './payloads.js';
import { SIGNING_SECRET } from './workspace.js';
import { submissionAckProblems } from './submission-ack.js';
import type { FakeSlack } from './fake-slack.js';

export type SendOptions = Omit<PostSignedOptions, 'signingSecret'>;

export interface SlackSender {
  command(input: SlashCommandInput, options?: SendOptions): Promise<SignedResponse>;
  /** Any interactive payload (blockActionsPayload, viewSubmissionPayload, …) as `payload=`. */
  interaction(payload: JsonObject, options?: SendOptions): Promise<SignedResponse>;
  /** An Events API envelope (e.g. appHomeOpenedEnvelope) as a JSON body. */
  event(envelope: JsonObject, options?: SendOptions): Promise<SignedResponse>;
}

export interface SlackSenderOptions {
  signingSecret?: string;
  /**
   * The fake Slack whose modals these payloads are about: it is told what was delivered and
   * what the app acked, so a submitted or closed view closes there as in Slack.
   */
  slack?: FakeSlack;
}

/** `eventsUrl`: e.g. `http://127.0.0.1:PORT/slack/events`. */
export function createSlackSender(eventsUrl: string, senderOptions: SlackSenderOptions = {}): SlackSender {
  const { signingSecret = SIGNING_SECRET, slack } = senderOptions;
  return {
    command: (input, options = {}) => postSigned(eventsUrl, slashCommandBody(input), FORM_CONTENT_TYPE, { ...options, signingSecret }),
    interaction: async (payload, options = {}) => {
      const redelivery = Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === 'x-slack-retry-num');
      slack?.views.delivered(payload, redelivery);
      const res = await postSigned(eventsUrl, interactiveBody(payload), FORM_CONTENT_TYPE, { ...options, signingSecret });
      // Slack refuses a form answer it cannot show; so does the rig, loudly.
      const problems = submissionAckProblems(payload, res.json);
      if (problems.length) throw new Error(`Slack would refuse this view_submission answer:\n  ${problems.join('\n  ')}`);
      // Only an answer Slack received closes the form; anything but 200 leaves it open with an error.
      if (res.status === 200) slack?.views.acked(payload, res.json);
      return res;
    },
    event: (envelope, options = {}) => postSigned(eventsUrl, JSON.stringify(envelope), JSON_CONTENT_TYPE, { ...options, signingSecret }),
  };
}
