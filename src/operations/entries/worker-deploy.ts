/**
 * `/cloud worker deploy`: deploy a worker from a git repository, a template or a database
 * (spec "Workers"). Spending: the first hour is charged against the balance, then usage is
 * billed. The precheck reads deploy-requirements and the worker locations and refuses, with the
 * numbers, what the cloud would refuse (balance, worker count, out-of-stock location, unknown
 * template) before anyone is asked.
 */
import { z } from 'zod';
import type { CloudClient } from '../../cloud/cloud-client.js';
import { PositiveIntSchema } from '../../cloud/ids.js';
import { BUILD_PACKS, DeployWorkerBody, GIT_SOURCES } from '../../cloud/requests.js';
import type { Worker, WorkerLocation } from '../../cloud/schemas.js';
import { money } from '../../views/format.js';
import { join, md, val, type Mrkdwn } from '../../views/mrkdwn.js';
import { workerLocationLabel, workerLocationName } from '../../views/worker-views.js';
import { defineOperation, flag, switchFlag } from '../define.js';
import type { ModalOption } from '../types.js';

type Shape = typeof DeployWorkerBody.shape;
const B = DeployWorkerBody.shape;

/** The spec's limit of a body field, read from the client's body schema (one source of truth). */
function maxOf(field: Shape[keyof Shape]): number {
  const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
  return inner instanceof z.ZodString ? (inner.maxLength ?? 10_000) : 10_000;
}

/** An optional text flag within a body field's limit; empty means left out. */
function text(field: Shape[keyof Shape], rule?: { re: RegExp; error: string }) {
  const max = maxOf(field);
  let s = z.string().trim().max(max, { error: `must be at most ${max} characters` });
  if (rule) s = s.regex(rule.re, { error: rule.error });
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), s.optional());
}

/** What a git host can clone: http(s) URL or scp-like `git@host:owner/repo`. */
const GIT_URL = /^(https?:\/\/[^\s/]+\/\S+|git@[^\s:]+:\S+)$/i;
const TEMPLATE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const ONE_LINE = { re: /^[^\r\n]*$/, error: 'must be one line' };

/** `3000` or `3000,8080`: ports 1–65535. */
const ports = text(B.ports_exposes, { re: /^\d{1,5}(\s*,\s*\d{1,5})*$/, error: 'must be a port number such as 3000, or several separated by commas' }).refine(
  (v) => v === undefined || v.split(',').every((p) => Number(p) >= 1 && Number(p) <= 65_535),
  { error: 'ports are numbers from 1 to 65535' },
);

type Source = (typeof GIT_SOURCES)[number];
const isGit = (s: Source | undefined) => s === 'public' || s === 'hosted_git';

const SOURCE_TEXT: Record<Source, string> = {
  public: 'Public git repository (URL)',
  hosted_git: 'Private repository on the linked git host',
  template: 'Template',
  database: 'Database',
};
const BUILD_PACK_TEXT: Record<(typeof BUILD_PACKS)[number], string> = {
  auto_detect: 'Detect automatically',
  static: 'Static site',
  container_file: 'Container file (Dockerfile)',
};

const args = {
  name: flag('NAME', z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be text') }).trim().min(1, { error: 'must not be empty' }).max(maxOf(B.name), { error: `must be at most ${maxOf(B.name)} characters` }), 'worker name'),
  location: flag('ID', PositiveIntSchema, 'location id (see /cloud worker locations)'),
  source: flag('SOURCE', z.enum(GIT_SOURCES, { error: `must be one of ${GIT_SOURCES.join(', ')}` }).optional(), 'public | hosted_git | template | database (default public)'),
  repo: flag('URL', text(B.git_repository), 'git URL (https://… or git@…) for a public or hosted_git source'),
  template: flag('ID', text(B.git_repository, { re: TEMPLATE_ID, error: 'must be a template id such as tpl-nextjs (see /cloud worker templates)' }), 'template or database id (see /cloud worker templates)'),
  branch: flag('BRANCH', text(B.git_branch, { re: /^\S+$/, error: 'must be a branch name without spaces' }), 'git branch'),
  'build-pack': flag('PACK', z.enum(BUILD_PACKS, { error: `must be one of ${BUILD_PACKS.join(', ')}` }).optional(), 'auto_detect | static | container_file'),
  port: flag('PORT', ports, 'port the application listens on'),
  'base-dir': flag('DIR', text(B.base_directory, ONE_LINE), 'base directory in the repository'),
  'publish-dir': flag('DIR', text(B.publish_directory, ONE_LINE), 'directory a static build serves'),
  install: flag('CMD', text(B.install_command), 'install command'),
  build: flag('CMD', text(B.build_command), 'build command'),
  start: flag('CMD', text(B.start_command), 'start command'),
  spa: switchFlag('single-page app: unknown paths go to the index'),
};

type DeployArgs = { [K in keyof typeof args]: z.output<(typeof args)[K]['schema']> };

export function deployBody(a: DeployArgs): DeployWorkerBody {
  const source = a.source ?? 'public';
  const opt = <K extends string, V>(k: K, v: V | undefined) => (v === undefined ? {} : ({ [k]: v } as Record<K, V>));
  return {
    location_id: a.location,
    name: a.name,
    git_source: source,
    ...opt('git_repository', isGit(source) ? a.repo : a.template),
    ...opt('git_branch', a.branch),
    ...opt('build_pack', a['build-pack']),
    ...opt('ports_exposes', a.port),
    ...opt('base_directory', a['base-dir']),
    ...opt('publish_directory', a['publish-dir']),
    ...opt('install_command', a.install),
    ...opt('build_command', a.build),
    ...opt('start_command', a.start),
    ...(a.spa ? { is_spa: true } : {}),
  };
}

/** Plain text, for option text and the facts (shown as a value). */
const locationName = (l: WorkerLocation) => workerLocationName(l);

const locationOptions = async ({ cloud }: { cloud: CloudClient }): Promise<ModalOption[]> =>
  (await cloud.workers.locations()).map((l) => ({ value: String(l.id), text: `${locationName(l)}${l.out_of_stock ? ' · OUT OF STOCK' : ''}` }));

const templateOptions = async ({ cloud }: { cloud: CloudClient }): Promise<ModalOption[]> =>
  (await cloud.workers.templates()).map((t) => ({ value: t.id, text: `${t.name}${t.type ? ` (${t.type})` : ''} · ${t.id}` }));

interface DeployFacts {
  credit?: number;
  minimumCredit?: number;
  workersUsed?: number;
  workersAllowed?: number;
  where?: string;
  templateName?: string | null;
  limits?: { cpu?: number | null; memory_mb?: number | null; disk_mb?: number | null } | null;
}

function sourceLine(a: Partial<DeployArgs>, f: DeployFacts): Mrkdwn | undefined {
  const branch = a.branch ? md`, branch ${val(a.branch)}` : md``;
  switch (a.source ?? (a.repo ? 'public' : undefined)) {
    case 'public':
      return a.repo ? md`From the public repository ${val(a.repo)}${branch}.` : undefined;
    case 'hosted_git':
      return a.repo
        ? md`From the private repository ${val(a.repo)}${branch} on the git hosting account linked to the cloud account (linking happens only in the provider’s panel).`
        : undefined;
    case 'template':
    case 'database':
      return a.template
        ? md`From ${a.source === 'template' ? md`template` : md`database`} ${val(a.template)}${f.templateName ? md` (${val(f.templateName)})` : md``}.`
        : undefined;
    default:
      return undefined;
  }
}

function buildLine(a: Partial<DeployArgs>): Mrkdwn | undefined {
  const parts = [
    a['build-pack'] && md`build pack ${val(a['build-pack'])}`,
    a.port && md`port ${val(a.port)}`,
    a['base-dir'] && md`base ${val(a['base-dir'])}`,
    a['publish-dir'] && md`publishes ${val(a['publish-dir'])}`,
    a.install && md`install ${val(a.install, 80)}`,
    a.build && md`build ${val(a.build, 80)}`,
    a.start && md`start ${val(a.start, 80)}`,
    a.spa === true && md`single-page app`,
  ].filter((p): p is Mrkdwn => !!p);
  return parts.length ? md`Build: ${join(parts, ' · ')}.` : undefined;
}

/** "a template" / "a database": the source kind in our own words. */
const kindOf = (source: string): Mrkdwn => (source === 'template' ? md`template` : source === 'database' ? md`database` : val(source));

export const workerDeploy = defineOperation({
  id: 'worker.deploy',
  summary: 'Deploy a worker from a git repository, template or database — charges the first hour',
  tier: 'billing',
  args,
  run: ({ cloud, signal }, a) => cloud.workers.deploy(deployBody(a), { signal }),
  change: {
    confirm: true,
    check(a) {
      const errors: Record<string, string> = {};
      let source = a.source;
      let template = a.template;
      if (!source && template) {
        return { ok: false, fieldErrors: { source: 'say whether it is a template or a database (`--source template` or `--source database`)' } };
      }
      source ??= 'public';
      if (isGit(source)) {
        if (!a.repo) errors.repo = `a ${source} source needs the repository URL (https://… or git@host:owner/repo)`;
        else if (!GIT_URL.test(a.repo)) errors.repo = 'must be an http(s):// URL or git@host:owner/repo';
        if (template) errors.template = `only for a template or database source, not ${source}`;
      } else {
        // `/cloud worker templates` suggests the template id as the repository: take it there too.
        if (!template && a.repo && TEMPLATE_ID.test(a.repo)) template = a.repo;
        else if (a.repo) errors.repo = `leave empty for a ${source} source; choose the ${source} instead`;
        if (!template) errors.template = `a ${source} source needs a ${source} id (see /cloud worker templates)`;
      }
      if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
      return { ok: true, args: { ...a, source, template: isGit(source) ? undefined : template, repo: isGit(source) ? a.repo : undefined } };
    },
    async precheck({ cloud, signal }, a) {
      const source = a.source ?? 'public';
      const [req, locations, templates] = await Promise.all([
        cloud.workers.requirements({ signal }),
        cloud.workers.locations({ signal }),
        isGit(source) ? Promise.resolve([]) : cloud.workers.templates({ signal }),
      ]);
      if (!req.sufficient) {
        return {
          refuse:
            md`The balance (${money(req.credit)}) is below the minimum of ${money(req.minimum_credit)} needed to deploy a worker: the first hour is charged against it. Top up the balance in the provider’s panel, then try again.`,
        };
      }
      if (req.workers_used >= req.workers_allowed) {
        return {
          refuse: md`The account already has ${req.workers_used} of the ${req.workers_allowed} workers its level allows. Remove a worker in the panel or raise the account level.`,
        };
      }
      const inStock = locations.filter((l) => !l.out_of_stock).map((l) => md`${workerLocationLabel(l)} (${val(l.id)})`);
      const others = inStock.length ? md` Locations with room: ${join(inStock, ', ')}.` : md` No location has room right now.`;
      const loc = locations.find((l) => l.id === a.location);
      if (!loc) return { refuse: md`Location ${val(a.location)} does not take workers.${others}` };
      if (loc.out_of_stock) return { refuse: md`${workerLocationLabel(loc)} (location ${loc.id}) is out of stock for workers right now.${others}` };
      let templateName: string | null = null;
      if (!isGit(source)) {
        const t = templates.find((x) => x.id === a.template);
        if (!t) return { refuse: md`The cloud has no ${kindOf(source)} ${val(a.template ?? '')}. \`/cloud worker templates\` lists them.` };
        if (t.type && t.type !== source) {
          return { refuse: md`${val(t.id)} (${val(t.name)}) is a ${kindOf(t.type)}, not a ${kindOf(source)}: use ${val(`--source ${t.type}`)}.` };
        }
        templateName = t.name;
      }
      const facts: DeployFacts = {
        credit: req.credit,
        minimumCredit: req.minimum_credit,
        workersUsed: req.workers_used,
        workersAllowed: req.workers_allowed,
        where: locationName(loc),
        templateName,
        limits: req.limits ?? null,
      };
      return { facts: { ...facts } };
    },
    describe: (a, facts) => {
      const f = facts as DeployFacts;
      const where = typeof f.where === 'string' ? val(f.where) : typeof a.location === 'number' ? md`location ${a.location}` : undefined;
      const title = a.name ? md`Deploy worker ${val(a.name)}${where ? md` in ${where}` : md``}` : md`Deploy a worker`;
      const lines = [sourceLine(a, f), buildLine(a)].filter((l): l is Mrkdwn => !!l);
      if (typeof f.credit === 'number' && typeof f.minimumCredit === 'number') {
        lines.push(md`First hour charged against the balance: minimum ${money(f.minimumCredit)}, balance ${money(f.credit)}. After that, usage is billed as measured.`);
      }
      if (typeof f.workersUsed === 'number' && typeof f.workersAllowed === 'number') {
        lines.push(md`Workers: ${f.workersUsed} of ${f.workersAllowed} used; ${Math.max(0, f.workersAllowed - f.workersUsed - 1)} left after this.`);
      }
      const l = f.limits;
      const n = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
      if (l && (n(l.cpu) || n(l.memory_mb) || n(l.disk_mb))) {
        const parts = [n(l.cpu) && md`${l.cpu} CPU`, n(l.memory_mb) && md`${l.memory_mb} MB memory`, n(l.disk_mb) && md`${l.disk_mb} MB disk`].filter(
          (p): p is Mrkdwn => !!p,
        );
        lines.push(md`The new worker gets ${join(parts, ', ')}; it builds in the background.`);
      }
      return { title, lines };
    },
    bodyToArg: {
      location_id: 'location',
      git_source: 'source',
      git_repository: 'repo',
      git_branch: 'branch',
      build_pack: 'build-pack',
      ports_exposes: 'port',
      base_directory: 'base-dir',
      publish_directory: 'publish-dir',
      install_command: 'install',
      build_command: 'build',
      start_command: 'start',
      is_spa: 'spa',
    },
    // Follow the build to its end: thread updates, the final state broadcast once.
    watch: (w) => ({ kind: 'worker', resource: w.uuid }),
    summarize: (w: Worker, a) => ({
      text: md`Worker ${val(w.name ?? a.name)} is deployed (${val(w.status)})${w.fqdn ? md` at ${val(w.fqdn)}` : md``} and builds in the background. ${val(
        `/cloud worker status ${w.uuid}`,
      )} shows how it is doing.`,
      details: {
        name: w.name ?? a.name,
        uuid: w.uuid,
        fqdn: w.fqdn ?? '—',
        status: w.status,
        ...(w.location?.short_code ? { location: w.location.short_code } : {}),
      },
    }),
    modal: {
      title: 'Deploy worker',
      submit: 'Continue',
      whenBare: true,
      fields: [
        { name: 'location', label: 'Location', kind: 'select', options: locationOptions, hint: 'Out-of-stock locations cannot take a worker now.' },
        { name: 'name', label: 'Name', kind: 'text', maxLength: maxOf(B.name), placeholder: 'my-app' },
        { name: 'source', label: 'Source', kind: 'select', options: GIT_SOURCES.map((s) => ({ value: s, text: SOURCE_TEXT[s] })) },
        {
          name: 'repo',
          label: 'Repository URL',
          kind: 'text',
          optional: true,
          maxLength: maxOf(B.git_repository),
          placeholder: 'https://github.com/acme/app.git',
          hint: 'For a public or private source. A private one needs a git hosting account linked in the provider’s panel.',
        },
        { name: 'template', label: 'Template or database', kind: 'select', optional: true, options: templateOptions, hint: 'For a template or database source.' },
        { name: 'branch', label: 'Branch', kind: 'text', optional: true, maxLength: maxOf(B.git_branch), placeholder: 'main' },
        { name: 'build-pack', label: 'Build pack', kind: 'select', optional: true, options: BUILD_PACKS.map((p) => ({ value: p, text: BUILD_PACK_TEXT[p] })) },
        { name: 'port', label: 'Port', kind: 'text', optional: true, maxLength: maxOf(B.ports_exposes), placeholder: '3000' },
        { name: 'base-dir', label: 'Base directory', kind: 'text', optional: true, maxLength: maxOf(B.base_directory), placeholder: '/' },
        { name: 'publish-dir', label: 'Publish directory', kind: 'text', optional: true, maxLength: maxOf(B.publish_directory), placeholder: 'dist' },
        { name: 'install', label: 'Install command', kind: 'multiline', optional: true, maxLength: maxOf(B.install_command), placeholder: 'npm ci' },
        { name: 'build', label: 'Build command', kind: 'multiline', optional: true, maxLength: maxOf(B.build_command), placeholder: 'npm run build' },
        { name: 'start', label: 'Start command', kind: 'multiline', optional: true, maxLength: maxOf(B.start_command), placeholder: 'npm start' },
        { name: 'spa', label: 'Single-page app: send unknown paths to the index', kind: 'checkbox', optional: true },
      ],
    },
  },
});
