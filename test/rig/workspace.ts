/**
 * The fake workspace every rig piece agrees on: one team, one app, a bot user, a few people,
 * channels and a user group. Payload builders default to these ids and `createFakeSlack`
 * seeds its model with them, so a signed slash command from `ALICE` in `OPS_CHANNEL` is
 * answered by a fake Slack that knows both.
 *
 * Tokens are deliberately short: they must never look like real Slack tokens.
 */
export const TEAM = { id: 'TCLOUDTEAM', domain: 'cloudbot-test' } as const;
export const APP_ID = 'ACLOUDBOT1';
export const BOT = { userId: 'UCLOUDBOT1', botId: 'BCLOUDBOT1', name: 'cloudbot' } as const;
export const BOT_TOKEN = 'xoxb-fake-bot';
export const APP_TOKEN = 'xapp-fake-app';
export const SIGNING_SECRET = 'fake-signing-secret-0123456789abcdef';
/** The legacy verification token Slack still puts into every payload's `token` field. */
export const VERIFICATION_TOKEN = 'fakeVerificationToken';

export interface FakeUser {
  id: string;
  name: string;
  realName: string;
  isAdmin?: boolean;
  isBot?: boolean;
  deleted?: boolean;
  tz?: string;
}

export interface FakeChannel {
  id: string;
  name: string;
  /** Whether the bot user is a member; `chat.postMessage` answers `not_in_channel` when false. */
  botIsMember: boolean;
  /** Private channels the bot is not in are invisible to it: `channel_not_found`. */
  isPrivate?: boolean;
  isIm?: boolean;
  isArchived?: boolean;
  /** People in the channel; undefined means everyone (ephemeral messages check it). */
  members?: string[];
}

export const ALICE: FakeUser = { id: 'UALICE0001', name: 'alice', realName: 'Alice Admin', isAdmin: true };
export const BOB: FakeUser = { id: 'UBOB000002', name: 'bob', realName: 'Bob Operator' };
export const CAROL: FakeUser = { id: 'UCAROL0003', name: 'carol', realName: 'Carol Viewer' };
export const DEFAULT_USERS: readonly FakeUser[] = [ALICE, BOB, CAROL];

/** #cloud-ops: the bot is in it. */
export const OPS_CHANNEL: FakeChannel = { id: 'COPS000001', name: 'cloud-ops', botIsMember: true };
/** #random: public, the bot was never invited. */
export const RANDOM_CHANNEL: FakeChannel = { id: 'CRANDOM002', name: 'random', botIsMember: false };
/** #secret-plans: private, the bot is not in it. */
export const PRIVATE_CHANNEL: FakeChannel = {
  id: 'CPRIVATE03',
  name: 'secret-plans',
  botIsMember: false,
  isPrivate: true,
};
export const DEFAULT_CHANNELS: readonly FakeChannel[] = [OPS_CHANNEL, RANDOM_CHANNEL, PRIVATE_CHANNEL];

/** @cloud-admins user group. */
export const ADMINS_GROUP = { id: 'SCLOUDADM1', handle: 'cloud-admins', members: [ALICE.id] } as const;
