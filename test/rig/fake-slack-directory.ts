/** auth.test, conversations.join/open, users.info, usergroups.users.list, apps.connections.open. */
import { fail, ok, str, type MethodHandler } from './fake-slack-context.js';
import type { FakeChannel } from './workspace.js';

function channelObject(c: FakeChannel) {
  return {
    id: c.id,
    name: c.name,
    is_channel: !c.isIm && !c.isPrivate,
    is_group: false,
    is_im: c.isIm ?? false,
    is_private: c.isPrivate ?? false,
    is_archived: c.isArchived ?? false,
    is_member: c.botIsMember,
  };
}

const authTest: MethodHandler = (_params, { identity }) =>
  ok({
    url: `https://${identity.teamDomain}.slack.com/`,
    team: identity.teamDomain,
    user: 'cloudbot',
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  });

const join: MethodHandler = (params, { model }) => {
  const channel = model.channels.get(String(params.channel));
  if (!channel || (channel.isPrivate && !channel.botIsMember)) return fail('channel_not_found');
  if (channel.isPrivate || channel.isIm) return fail('method_not_supported_for_channel_type');
  if (channel.isArchived) return fail('is_archived');
  const already = channel.botIsMember;
  channel.botIsMember = true;
  const warning = already ? { warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } } : {};
  return ok({ channel: channelObject(channel), ...warning });
};

const open: MethodHandler = (params, { model }) => {
  const channelId = str(params.channel);
  if (channelId) {
    const channel = model.channels.get(channelId);
    return channel?.isIm ? ok({ no_op: true, already_open: true, channel: { id: channel.id } }) : fail('channel_not_found');
  }
  const users = String(params.users).split(',').map((u) => u.trim()).filter(Boolean);
  if (users.length === 0) return fail('users_list_not_supplied');
  if (users.length > 1) return fail('method_not_supported_for_channel_type'); // group DMs: not modelled
  const user = users[0] as string;
  if (!model.users.has(user)) return fail('user_not_found');
  return ok({ channel: { id: model.dmWith(user).id } });
};

const usersInfo: MethodHandler = (params, { model, identity }) => {
  const id = String(params.user);
  if (id === identity.botUserId) {
    return ok({ user: { id, team_id: identity.teamId, name: 'cloudbot', deleted: false, is_bot: true, is_app_user: false, profile: { real_name: 'cloudbot', display_name: 'cloudbot' } } });
  }
  const u = model.users.get(id);
  if (!u) return fail('user_not_found');
  return ok({
    user: {
      id: u.id,
      team_id: identity.teamId,
      name: u.name,
      deleted: u.deleted ?? false,
      real_name: u.realName,
      tz: u.tz ?? 'Europe/Berlin',
      is_admin: u.isAdmin ?? false,
      is_owner: false,
      is_bot: u.isBot ?? false,
      is_app_user: false,
      profile: { real_name: u.realName, display_name: u.name },
    },
  });
};

const usergroupUsers: MethodHandler = (params, { model }) => {
  const members = model.usergroups.get(String(params.usergroup));
  return members ? ok({ users: [...members] }) : fail('no_such_subteam');
};

const connectionsOpen: MethodHandler = (_params, { socketUrl }) => {
  const url = socketUrl();
  if (url) return ok({ url });
  // An unrecoverable code, so a Socket Mode client without a fake socket stops instead of retrying.
  return fail('invalid_auth', { response_metadata: { messages: ['[ERROR] fake Slack: no fake socket attached (createFakeSocket({ slack }))'] } });
};

export const directoryMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'conversations.join': join,
  'conversations.open': open,
  'users.info': usersInfo,
  'usergroups.users.list': usergroupUsers,
  'apps.connections.open': connectionsOpen,
};
