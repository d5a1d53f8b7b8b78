/** Changes to a server: rename, reinstall (wipes the disk), remove an address. */
import { z } from 'zod';
import { RenameBody } from '../../cloud/requests.js';
import { isServerBusy } from '../../cloud/server-status.js';
import { normalAddress } from '../../domain/ip-address.js';
import { buildRootPasswordReply } from '../../views/secret-views.js';
import { join, md, val } from '../../views/mrkdwn.js';
import { KNOWN_OS_TEMPLATES } from '../../views/cloud-error-text.js';
import { addressArg, serverArg } from '../args.js';
import { defineChange, defineOperation, flag, modalOnly, rest } from '../define.js';
import type { ModalOption } from '../../views/modal-spec.js';
import { serverFromServer, serverSeen } from '../remember.js';

export const serverRename = defineChange({
  id: 'server.rename',
  summary: 'Give a server a new display name (at most 40 characters)',
  args: { server: serverArg, name: rest('name', RenameBody.shape.name, 'the new display name') },
  run: ({ cloud }, { server, name }) => cloud.servers.rename(server, name),
  remember: (s) => serverFromServer(s),
  change: {
    confirm: false,
    describe: ({ server, name }) => ({ title: md`Rename server ${val(server)} to ${val(name)}`, lines: [] }),
    summarize: (s, { server }) => ({
      text: md`Server ${val(server)} is now called ${val(s.name ?? '')}.`,
      ...(s.hostname ? { details: { hostname: s.hostname } } : {}),
    }),
  },
});

/** OS template slugs: letters, digits, dots, dashes (`ubuntu-24.04`). */
const templateSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/i, { error: 'must be a template slug such as ubuntu-24.04' });

/** `11,12` on the command line, or the form's chosen keys: 1 to 20 SSH key ids. */
const sshKeyIds = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(
    z
      .array(z.string().regex(/^[1-9]\d{0,9}$/, { error: 'SSH key ids are whole numbers (see /cloud ssh-key list)' }))
      .min(1)
      .max(20, { error: 'at most 20 SSH keys' }),
  )
  .transform((ids) => [...new Set(ids.map(Number))])
  .optional();

const sshKeyOptions = async ({ cloud }: { cloud: import('../../cloud/cloud-client.js').CloudClient }): Promise<ModalOption[]> =>
  (await cloud.sshKeys.list()).map((k) => ({ value: String(k.id), text: `${k.name ?? 'key'} (#${k.id})` }));

export const serverReinstall = defineOperation({
  id: 'server.reinstall',
  summary: 'Reinstall a server’s operating system — erases everything on its disk',
  tier: 'destroy',
  args: {
    server: serverArg,
    template: flag('SLUG', templateSlug, 'operating system template, e.g. ubuntu-24.04'),
    'ssh-keys': flag('IDS', sshKeyIds, 'SSH key ids to install, comma-separated (at most 20)'),
    password: modalOnly(z.string().min(8, { error: 'must be at least 8 characters' }).max(255).optional(), 'root password'),
  },
  run: ({ cloud }, a) =>
    cloud.servers.reinstall(a.server, {
      template_slug: a.template,
      ...(a.password ? { password: a.password } : {}),
      ...(a['ssh-keys']?.length ? { ssh_key_ids: a['ssh-keys'] } : {}),
    }),
  change: {
    confirm: true,
    secretArgs: ['password'],
    async precheck({ cloud }, { server }) {
      const status = await cloud.servers.status(server);
      const busy = status.server_status;
      if (isServerBusy(busy)) {
        return { refuse: md`Server ${val(server)} is ${val(busy)} right now; try again when ${val(`/cloud server status ${server}`)} shows it is done.` };
      }
      // The API has no "get server"; the primary address's reverse DNS is its hostname in practice.
      const ips = await cloud.servers.ips(server);
      const named = ips.find((ip) => ip.rdns && !ip.reserved);
      return { facts: { hostname: named?.rdns ?? null } };
    },
    describe: ({ server, template, password, 'ssh-keys': keys }, facts) => ({
      title: md`Reinstall server ${val(server)}${facts.hostname ? md` (${val(String(facts.hostname))})` : md``}${template ? md` with ${val(template)}` : md``}`,
      lines: [
        md`*Everything on its disk is erased*: files, databases, configuration. This cannot be undone.`,
        password || (facts.givenSecrets as string[] | undefined)?.includes('password')
          ? md`It gets the root password given in the form.`
          : md`A new root password is generated and shown only to the requester.`,
        ...(keys?.length ? [md`SSH keys ${join(keys.map((k) => val(k)), ', ')} are installed.`] : []),
      ],
    }),
    typeToConfirm: ({ server }, facts) => (typeof facts.hostname === 'string' && facts.hostname ? facts.hostname : server),
    bodyToArg: { template_slug: 'template', ssh_key_ids: 'ssh-keys' },
    // Follow the install until credentials are ready; the new password then goes to the requester.
    watch: (_r, { server }) => ({ kind: 'server', resource: server }),
    outputs: (_r, { server }) => ({ server }),
    summarize: (r, { server, template }, told) => {
      const done = md`Server ${val(server)} is ${val(r.status)} with ${val(template)}.`;
      const elsewhere = md`${val(`/cloud server credentials ${server}`)} shows it to whoever may read it.`;
      // Only what was sent is said to be: an answer without a password sends nothing privately.
      if (!r.password) return { text: md`${done} The cloud's answer held no root password, so none was sent; ${elsewhere}` };
      if (!told?.secret || told.secret === 'sent') return { text: md`${done} The root password was sent privately to the requester.` };
      return {
        text:
          told.secret === 'withheld'
            ? md`${done} Its root password was not sent to the requester, who may not read server credentials here; ${elsewhere}`
            : md`${done} Its root password was not sent to the requester: Slack could not tell the bot whether they may read server credentials here; ${elsewhere}`,
      };
    },
    privateReply: (r, { server }) => (r.password ? buildRootPasswordReply(server, r.password) : undefined),
    modal: {
      title: 'Reinstall server',
      submit: 'Continue',
      fields: [
        { name: 'template', label: 'Operating system template', kind: 'text', placeholder: 'ubuntu-24.04', maxLength: 100, hint: `A slug such as ${KNOWN_OS_TEMPLATES.join(', ')}. The cloud lists none, so a typo is refused only when sent.` },
        {
          name: 'password',
          label: 'Root password (optional)',
          kind: 'text',
          optional: true,
          maxLength: 255,
          hint: 'At least 8 characters. Slack shows what you type; leave empty to have one generated and sent only to you.',
        },
        { name: 'ssh-keys', label: 'SSH keys (optional)', kind: 'multi_select', optional: true, options: sshKeyOptions, maxSelected: 20 },
      ],
    },
  },
});

export const serverRemoveIp = defineOperation({
  id: 'server.remove-ip',
  summary: 'Remove a secondary address from a server (a reserved IP stays reserved)',
  tier: 'destroy',
  args: { server: serverArg, address: addressArg },
  run: ({ cloud }, { server, address }) => cloud.servers.removeIp(server, address),
  remember: (_r, { server }) => serverSeen(server),
  change: {
    confirm: true,
    async precheck({ cloud }, { server, address }) {
      // The typed address is already in its one form (args.ts); the cloud's are compared in theirs.
      const same = (listed: string | null | undefined) => typeof listed === 'string' && normalAddress(listed) === address;
      const ips = await cloud.servers.ips(server);
      const ip = ips.find((i) => same(i.address));
      if (!ip) return { refuse: md`${val(address)} is not an address of server ${val(server)}. ${val(`/cloud server ips ${server}`)} lists them.` };
      // Credentials name the primary IPv4 and IPv6; only those two addresses are read from it.
      const { ipv4, ipv6 } = await cloud.servers.credentials(server);
      if (same(ipv4) || same(ipv6)) {
        return { refuse: md`${val(address)} is the primary address of server ${val(server)} and cannot be removed.` };
      }
      return { facts: { reserved: ip.reserved === true } };
    },
    describe: ({ server, address }, facts) => ({
      title: md`Remove ${val(address)} from server ${val(server)}`,
      lines: facts.reserved
        ? [md`It is a reserved IP: it is detached and stays reserved, billed hourly while no server uses it.`]
        : [md`The address is released and may be given to someone else.`, md`It counts toward the weekly limit on address removals.`],
    }),
    summarize: (_r, { server, address }) => ({ text: md`${val(address)} is no longer on server ${val(server)}.` }),
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SERVER_CHANGES = [serverRename, serverReinstall, serverRemoveIp];
