/** Views of backups. */
import type { Backup, Page } from '../cloud/schemas.js';
import type { Block, Reply, ViewContext } from '../operations/types.js';
import { code, esc, header, lineSections, section } from './blocks.js';
import { ago, bytes } from './format.js';

export function backupLine(b: Backup, now: number): string {
  const state = b.is_successful ? ':white_check_mark:' : b.completed_at ? ':x: failed' : ':hourglass_flowing_sand: in progress';
  const parts = [`${state} *${esc(b.name || 'unnamed')}*`, bytes(b.size)];
  parts.push(b.completed_at ? `completed ${ago(b.completed_at, now)}` : `started ${ago(b.created_at, now)}`);
  if (b.is_locked) parts.push(':lock: locked');
  return `${parts.join(' · ')}\n      ${code(b.uuid)}`;
}

export function buildBackupList(server: string, page: Page<Backup>, view: ViewContext, pager: Block[]): Reply {
  const title = `Backups of server ${server}`;
  if (page.data.length === 0) {
    const text = page.meta.current_page > 1 ? `There is no page ${page.meta.current_page}.` : `Server ${code(server)} has no backups.`;
    return { text: title, blocks: [header(title), section(text), ...pager] };
  }
  return {
    text: `${title}: ${page.meta.total ?? page.data.length}`,
    blocks: [header(title), ...lineSections(page.data.map((b) => backupLine(b, view.now)), 45), ...pager],
  };
}
