import { actions, button, context, divider, header, lineSections, LIMITS } from './blocks.js';
import { channelRef, join, md, mention, val } from './mrkdwn.js';
import { bytes, elapsed } from './format.js';
import { accountValue } from './account-label.js';
import { commandOf, OUTCOME_EMOJI, userRef } from './audit-views.js';
import { subscriptionWhat } from './subscription-views.js';
import { moment } from './alert-views.js';
import { words } from './words.js';
/** The action_id of a Home button is this plus `:n` (distinct ids in one actions block). */
export const HOME_RUN = 'home_run';
export const HOME_RUN_PATTERN = /^home_run(?::\d+)?$/;
/** Slack's limit for a Home tab (shared/slack-facts.md). */
export const HOME_MAX_BLOCKS = LIMITS.blocksPerModal;
/** Sections per list: every list together stays far below HOME_MAX_BLOCKS. */
const LIST_SECTIONS = 4;
/** Lines per list before "…and N more" (a glance, not the full listing). */
export const HOME_LIST_LINES = 10;
const GB = 1024 ** 3;
function ratio(used, limit, show = (n) => md `${n}`) {
    if (used == null)
        return md `—`;
    if (limit == null || limit <= 0)
        return show(used);
    const pct = Math.round((used / limit) * 100);
    return md `${show(used)}/${show(limit)} (${pct}%)${pct >= 90 ? md ` :warning:` : md ``}`;
}
function usageLine(u, showAccount) {
    const who = showAccount ? md `${accountValue(u.account)}: ` : md ``;
    if (!u.usage)
        return md `• ${who}_${u.unavailable === 'not-allowed' ? md `not readable from the Home tab for you` : md `the cloud did not answer; try the button below`}_`;
    const x = u.usage;
    const ram = x.ram_limit_gb != null ? x.ram_limit_gb * GB : null;
    return md `• ${who}servers ${x.servers ?? md `—`} · CPU ${ratio(x.cpu_used, x.cpu_limit)} · memory ${ratio(x.ram_used, ram, bytes)} · IPs ${ratio(x.ip_used, x.ip_limit)}`;
}
const onAccount = (account, show) => (show && account !== null ? md ` on ${accountValue(account)}` : md ``);
function argsOf(args) {
    const pairs = Object.entries(args ?? {}).filter(([, v]) => v !== undefined && v !== null && typeof v !== 'object');
    return join(pairs.slice(0, 4).map(([k, v]) => md `${val(k, 30)}=${val(String(v), 40)}`), ' ');
}
function requestLine(r, now, show, withRequester) {
    const by = withRequester ? md ` by ${mention(r.requestedBy)}` : md ``;
    const args = argsOf(r.args);
    const waits = r.needsApproval ? md `waits for approval` : md `waits for Confirm`;
    return md `• ${val(r.command, 80)}${args ? md ` ${args}` : md ``}${onAccount(r.account, show)}${by} in ${channelRef(r.channelId)} · ${waits} · expires in ${words(elapsed(now, r.expiresAt))}`;
}
function watchLine(w, now, show) {
    return md `• ${words(w.kind)} ${val(w.resource, 80)}${onAccount(w.account, show)} in ${channelRef(w.channelId)} · ${words(w.status)} for ${words(elapsed(w.startedAt, now))} · by ${mention(w.requestedBy)}`;
}
/** Subscriptions grouped by channel: one line per channel. */
function subscriptionLines(subs, now, show) {
    const byChannel = new Map();
    for (const s of subs)
        byChannel.set(s.channelId, [...(byChannel.get(s.channelId) ?? []), s]);
    return [...byChannel].map(([channel, list]) => {
        const shown = list.slice(0, 6).map((s) => {
            const muted = s.mutedUntil !== null && s.mutedUntil > now ? md ` :zzz:` : md ``;
            return md `${subscriptionWhat(s)}${onAccount(s.account, show)}${muted}`;
        });
        const more = list.length > shown.length ? md ` · +${list.length - shown.length} more` : md ``;
        return md `• ${channelRef(channel)}: ${join(shown, ' · ')}${more}`;
    });
}
function auditLine(e, withUser) {
    const who = withUser ? md `${userRef(e.userId)} ` : md ``;
    const code = e.errorCode ? md ` ${val(e.errorCode, 60)}` : md ``;
    return md `${OUTCOME_EMOJI[e.outcome] ?? md `:grey_question:`} ${moment(e.at)} · ${who}${val(commandOf(e.opId), 80)} — ${words(e.outcome)}${code}`;
}
/** A list under its heading, or a quiet line when empty. */
function list(title, lines, empty) {
    const shown = lines.slice(0, HOME_LIST_LINES);
    const hidden = lines.length - shown.length;
    const body = shown.length ? lineSections(shown, LIST_SECTIONS, (n) => md `…and ${n + hidden} more`) : [context(empty)];
    if (hidden > 0 && shown.length)
        body.push(context(md `…and ${hidden} more`));
    return [header(title), ...body];
}
function buttonValue(b) {
    const s = JSON.stringify({ op: b.op, args: b.args, ...(b.account !== undefined ? { account: b.account } : {}) });
    return s.length <= LIMITS.buttonValue ? s : undefined;
}
const ROLE_WORDS = { viewer: md `a viewer`, operator: md `an operator`, admin: md `an admin` };
export function buildHome(d) {
    const role = d.role ? ROLE_WORDS[d.role] : md `not on any list (ask an admin for access)`;
    const blocks = [header('cloudbot'), context(md `Hello ${mention(d.userId)}: here you are ${role}. Commands run in channels with ${val('/cloud')}; this page is only for you.`)];
    blocks.push(divider(), ...list('Account usage', d.usage.map((u) => usageLine(u, d.showAccounts)), md `No account you may read from here.`));
    blocks.push(divider(), ...list('Your requests waiting', d.ownRequests.map((r) => requestLine(r, d.now, d.showAccounts, false)), md `Nothing of yours waits for a Confirm or an approval.`));
    if (d.approvals) {
        blocks.push(...list('Approvals you may give', d.approvals.map((r) => requestLine(r, d.now, d.showAccounts, true)), md `No request waits for your approval.`));
        if (d.approvals.length)
            blocks.push(context(md `Approve or cancel on the request's message in its channel.`));
    }
    blocks.push(divider(), ...list('Active watches', d.watches.map((w) => watchLine(w, d.now, d.showAccounts)), md `No active watches.`));
    blocks.push(...list('Subscriptions', subscriptionLines(d.subscriptions, d.now, d.showAccounts), md `No channel subscribes to anything.`));
    blocks.push(divider(), ...list(d.auditOfOthers ? 'Recent activity' : 'Your recent activity', d.audit.map((e) => auditLine(e, d.auditOfOthers)), md `Nothing recorded yet.`));
    const buttons = [];
    d.buttons.slice(0, LIMITS.actionsElements).forEach((b, i) => {
        const value = buttonValue(b);
        if (value !== undefined)
            buttons.push(button({ text: b.label, actionId: `${HOME_RUN}:${i}`, value }));
    });
    if (buttons.length) {
        blocks.push(divider(), actions('home_reads', buttons));
        // A Home tab has no channel to answer in privately, so answers go to this app's Messages tab.
        blocks.push(context(md `Answers to these buttons arrive in your direct messages with cloudbot.`));
    }
    return { type: 'home', blocks: blocks.slice(0, HOME_MAX_BLOCKS) };
}
//# sourceMappingURL=home-views.js.map