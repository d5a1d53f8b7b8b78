/**
 * `/cloud worker deploy`'s arguments and the request body they make (spec "Workers"): each
 * flag's limit comes from the body's own schema, so the command line and the request agree.
 */
import { z } from 'zod';
import { PositiveIntSchema } from '../../cloud/ids.js';
import { BUILD_PACKS, DeployWorkerBody, GIT_SOURCES } from '../../cloud/requests.js';
import { flag, switchFlag } from '../define.js';

type Shape = typeof DeployWorkerBody.shape;
export const B = DeployWorkerBody.shape;

/** The spec's limit of a body field, read from the client's body schema (one source of truth). */
export function maxOf(field: Shape[keyof Shape]): number {
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
export const GIT_URL = /^(https?:\/\/[^\s/]+\/\S+|git@[^\s:]+:\S+)$/i;
/** An http(s) URL with a user part (`https://user:token@host/…`). */
export const WITH_CREDENTIALS = /^https?:\/\/[^\s/]*@/i;
export const TEMPLATE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const ONE_LINE = { re: /^[^\r\n]*$/, error: 'must be one line' };

/** `3000` or `3000,8080`: ports 1–65535. */
const ports = text(B.ports_exposes, { re: /^\d{1,5}(\s*,\s*\d{1,5})*$/, error: 'must be a port number such as 3000, or several separated by commas' }).refine(
  (v) => v === undefined || v.split(',').every((p) => Number(p) >= 1 && Number(p) <= 65_535),
  { error: 'ports are numbers from 1 to 65535' },
);

type Source = (typeof GIT_SOURCES)[number];
export const isGit = (s: Source | undefined) => s === 'public' || s === 'hosted_git';

export const SOURCE_TEXT: Record<Source, string> = {
  public: 'Public git repository (URL)',
  hosted_git: 'Private repository on the linked git host',
  template: 'Template',
  database: 'Database',
};
export const BUILD_PACK_TEXT: Record<(typeof BUILD_PACKS)[number], string> = {
  auto_detect: 'Detect automatically',
  static: 'Static site',
  container_file: 'Container file (Dockerfile)',
};

export const args = {
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

export type DeployArgs = { [K in keyof typeof args]: z.output<(typeof args)[K]['schema']> };

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
