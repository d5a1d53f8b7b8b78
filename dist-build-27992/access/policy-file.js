/**
 * ACCESS_POLICY: the policy file (YAML, `version: 1`) — named cloud accounts, which account
 * each channel drives, each channel's ceiling of tiers and the tiers that need approval, and
 * roles per channel. Tokens are never in the file: an account names the environment variable
 * that holds its token. Every problem is reported in one message (README "Policy file").
 *
 *   version: 1
 *   default_account: staging
 *   accounts:
 *     prod:    { base_url: https://api.example.com/v2, token_env: CLOUD_PROD_TOKEN }
 *     staging: { base_url: https://api.example.com/v2, token_env: CLOUD_STAGING_TOKEN }
 *   default_channel: deny
 *   channels:
 *     C0PROD:
 *       name: prod-ops
 *       account: prod
 *       ceiling: [read, change]
 *       approval: [change]
 *
 * An account may also declare an `inventory` of named servers, groups and workers (inventory.ts).
 *
 * A file without `version` is the older form (roles per channel only) and is still read.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { SANDBOX_WORD } from '../config.js';
import { isV2Url } from '../urls.js';
import { ACCOUNT_NAME } from '../operations/args.js';
import { absentKeys } from './policy-required.js';
import { inventorySchema } from './inventory.js';
/** yaml (~9 MB of RSS) is loaded with the first policy file, not by a bot without one. */
const parseYaml = (text) => createRequire(import.meta.url)('yaml').parse(text);
export { ACCOUNT_NAME };
export const POLICY_VERSION = 1;
export const TIERS = ['read', 'change', 'billing', 'destroy', 'secret'];
const ACCOUNT_NAME_RULE = 'must be lower-case letters, digits and dashes, starting with a letter (at most 30)';
const principal = z.string().regex(/^[UWS][A-Z0-9]{2,}$/, { error: 'must be a user id (U…/W…) or user group id (S…)' });
const principals = z.array(principal).default([]);
const tiers = z.array(z.enum(TIERS, { error: `must be one of ${TIERS.join(', ')}` }));
const accountName = z.string().regex(ACCOUNT_NAME, { error: ACCOUNT_NAME_RULE });
/** Where a channel's requests go and what it allows; shared by channels and default_channel. */
const guardrail = {
    account: accountName.optional(),
    /** The accounts `--account` may name here (the channel's own is always one). */
    accounts: z.array(accountName).optional(),
    /** The tiers anyone may act on here, whatever their role; absent: no ceiling. */
    ceiling: tiers.optional(),
    /** Tiers whose changes need a second admin's approval here. */
    approval: tiers.optional(),
};
const channelRule = z
    .object({
    name: z.string().max(80).optional(),
    ...guardrail,
    admins: principals,
    operators: principals,
    viewers: principals,
})
    .strict();
const accountRule = z
    .object({
    base_url: z.string({ error: 'is required (the Cloud API base URL, ending in /v2)' }),
    token_env: z.string({ error: 'is required (the name of the environment variable holding the token)' }).regex(/^[A-Z_][A-Z0-9_]*$/, {
        error: 'must be an environment variable name like CLOUD_PROD_TOKEN',
    }),
    ceiling: tiers.optional(),
    approval: tiers.optional(),
    /** Servers, groups and workers whose names work from the first command (access/inventory.ts). */
    inventory: inventorySchema.optional(),
})
    .strict();
const channelId = z.string().regex(/^[CGD][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' });
export const PolicyFileSchema = z
    .object({
    version: z.literal(POLICY_VERSION, { error: `must be ${POLICY_VERSION} (the only version this bot reads)` }).optional(),
    default_account: accountName.optional(),
    accounts: z.record(z.string(), accountRule).optional(),
    default_channel: z.union([z.literal('deny'), z.object(guardrail).strict()], { error: 'must be `deny` or a rule (account, accounts, ceiling, approval)' }).optional(),
    channels: z.record(channelId, channelRule).default({}),
})
    .strict();
export class PolicyFileError extends Error {
    name = 'PolicyFileError';
}
/** The file changed while it was read (a save under way): not judged now, read again shortly. */
export class PolicyFileChanging extends PolicyFileError {
}
const disk = { stat: (path) => statSync(path), read: (path) => readFileSync(path, 'utf8') };
/**
 * Reads, parses and checks the file; throws one PolicyFileError naming every problem, or
 * PolicyFileChanging when the file changed while it was read (stat, read twice, stat again).
 */
export function readPolicyFile(path, options) {
    const reader = options.reader ?? disk;
    let text;
    try {
        const before = reader.stat(path);
        text = reader.read(path);
        const again = reader.read(path);
        const after = reader.stat(path);
        const same = before.mtimeMs === after.mtimeMs && before.size === after.size && before.ino === after.ino;
        if (!same || text !== again || Buffer.byteLength(text) !== after.size) {
            throw new PolicyFileChanging(`ACCESS_POLICY: ${path} changed while it was read (a save under way?); it is read again shortly`);
        }
    }
    catch (e) {
        if (e instanceof PolicyFileError)
            throw e;
        throw new PolicyFileError(`ACCESS_POLICY: cannot read ${path} (${e.code ?? 'error'})`);
    }
    return parsePolicyText(text, path, options);
}
export function parsePolicyText(text, path, options) {
    let data;
    try {
        data = parseYaml(text) ?? {};
    }
    catch (e) {
        throw new PolicyFileError(`ACCESS_POLICY: ${path} is not valid YAML: ${e.message.split('\n')[0]}`);
    }
    const result = PolicyFileSchema.safeParse(data);
    // A record key's own message (`must be a channel id…`) is nested under zod's generic one.
    const said = (i) => (i.code === 'invalid_key' && i.issues[0] ? i.issues[0].message : i.message);
    const salvaged = result.success ? { file: result.data, broken: [] } : salvage(data);
    const problems = [
        ...(result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(top)'} ${said(i)}`)),
        ...absentKeys(data),
        ...(salvaged ? crossCheck(salvaged.file, options, salvaged.broken) : []),
    ];
    if (problems.length)
        throw new PolicyFileError(`ACCESS_POLICY: ${path} has problems:\n  - ${problems.join('\n  - ')}`);
    return result.data;
}
const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
/**
 * A file that fails the schema, with the failing parts left out, so the cross-checks still run
 * over the rest and one message names every problem. `broken`: accounts declared but invalid
 * (still known by name, so a channel naming one is not also reported as unknown).
 */
function salvage(data) {
    if (!isObject(data))
        return undefined;
    const broken = [];
    const accounts = {};
    for (const [name, a] of Object.entries(isObject(data.accounts) ? data.accounts : {})) {
        const r = accountRule.safeParse(a);
        if (r.success)
            accounts[name] = r.data;
        else
            broken.push(name);
    }
    const channels = {};
    for (const [id, c] of Object.entries(isObject(data.channels) ? data.channels : {})) {
        const r = channelRule.safeParse(c);
        // A bad id is the schema's problem; the rule's account names are still checked.
        if (r.success)
            channels[id] = r.data;
    }
    const dc = PolicyFileSchema.shape.default_channel.safeParse(data.default_channel);
    return {
        broken,
        file: {
            // Present but wrong is the schema's problem; only absent is the cross-check's.
            ...(data.version !== undefined ? { version: POLICY_VERSION } : {}),
            ...(typeof data.default_account === 'string' ? { default_account: data.default_account } : {}),
            ...(isObject(data.accounts) ? { accounts } : {}),
            ...(dc.success && dc.data !== undefined ? { default_channel: dc.data } : {}),
            channels,
        },
    };
}
/** What the schema cannot see: names that refer to each other, tokens present, the version. */
function crossCheck(file, options, broken = []) {
    const problems = [];
    const accounts = [...Object.keys(file.accounts ?? {}), ...broken];
    const known = new Set(accounts);
    const newForm = file.accounts !== undefined || file.default_account !== undefined || file.default_channel !== undefined ||
        Object.values(file.channels).some((c) => c.account || c.accounts || c.ceiling || c.approval);
    if (newForm && file.version === undefined)
        problems.push(`version is required (version: ${POLICY_VERSION}) in a file with accounts or guardrails`);
    for (const [name, a] of Object.entries(file.accounts ?? {})) {
        if (!ACCOUNT_NAME.test(name))
            problems.push(`accounts.${name} ${ACCOUNT_NAME_RULE}`);
        const sandbox = a.base_url.trim() === SANDBOX_WORD;
        if (sandbox && !options.allowSandbox)
            problems.push(`accounts.${name}.base_url is \`sandbox\`, which only the local shell starts`);
        if (!sandbox && !isV2Url(a.base_url))
            problems.push(`accounts.${name}.base_url must be an http(s) URL ending in /v2`);
        if (!sandbox && !options.hasEnv(a.token_env))
            problems.push(`accounts.${name}.token_env names ${a.token_env}, which is not set`);
    }
    if (accounts.length > 1 && !file.default_account) {
        const everyChannelNamed = file.default_channel === 'deny' || !!file.default_channel?.account;
        if (!everyChannelNamed)
            problems.push('default_account is required when several accounts are declared (or give default_channel an account, or deny it)');
    }
    const refer = (where, name) => {
        if (name !== undefined && accounts.length && !known.has(name))
            problems.push(`${where} names account ${name}, which accounts does not declare`);
        if (name !== undefined && !accounts.length)
            problems.push(`${where} names account ${name}, but the file declares no accounts`);
    };
    refer('default_account', file.default_account);
    const rules = Object.entries(file.channels).map(([id, c]) => [`channels.${id}`, c]);
    if (file.default_channel && file.default_channel !== 'deny')
        rules.push(['default_channel', file.default_channel]);
    for (const [where, rule] of rules) {
        refer(`${where}.account`, rule.account);
        for (const n of rule.accounts ?? [])
            refer(`${where}.accounts`, n);
    }
    return problems;
}
//# sourceMappingURL=policy-file.js.map