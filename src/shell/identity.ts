/**
 * Who is who in the local shell: one person (an admin), one channel, the bot, a team. The ids
 * have Slack's shapes, so every part of the bot that checks them (access lists, payload
 * schemas) takes them as it takes Slack's.
 */
export const SHELL_USER = { id: 'USHELLUSER', name: 'you' } as const;
export const SHELL_CHANNEL = { id: 'CSHELL0001', name: 'shell' } as const;
export const SHELL_TEAM = { id: 'TSHELL0001', domain: 'shell' } as const;
export const SHELL_BOT = { userId: 'UCLOUDBOT1', botId: 'BCLOUDBOT1', name: 'cloudbot' } as const;
export const SHELL_APP_ID = 'ASHELLAPP1';
/** Not a secret: the local Web API accepts it and nothing else. It only has Slack's shape. */
export const SHELL_BOT_TOKEN = 'xoxb-local-shell';
