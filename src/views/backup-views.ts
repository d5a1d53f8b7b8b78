/** Views of backups. */
import type { Backup, Page } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Block, Reply } from './types.js';
import { header, lineSections, section } from './blocks.js';
import { ago, bytes } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';

/** A backup's name as a value; the cloud may leave it empty. */
export function backupName(name: string | null | undefined): Mrkdwn {
  return name ? val(name) : md`_unnamed_`;
}

export function backupLine(b: Backup, now: number): Mrkdwn {
  const state = b.is_successful ? md`:white_check_mark:` : b.completed_at ? md`:x: failed` : md`:hourglass_flowing_sand: in progress`;
  const parts: Mrkdwn[] = [md`${state} ${backupName(b.name)}`, bytes(b.size)];
  parts.push(b.completed_at ? md`completed ${ago(b.completed_at, now)}` : md`started ${ago(b.created_at, now)}`);
  if (b.is_locked) parts.push(md`:lock: locked`);
  return md`${join(parts, ' · ')}\n      ${val(b.uuid)}`;
}

export function buildBackupList(server: string, page: Page<Backup>, view: ViewContext, pager: Block[]): Reply {
  const title = `Backups of server ${server}`;
  const titleText = md`Backups of server ${val(server)}`;
  if (page.data.length === 0) {
    const text = page.meta.current_page > 1 ? md`There is no page ${page.meta.current_page}.` : md`Server ${val(server)} has no backups.`;
    return { text: titleText, blocks: [header(title), section(text), ...pager] };
  }
  return {
    text: md`${titleText}: ${page.meta.total ?? page.data.length}`,
    blocks: [header(title), ...lineSections(page.data.map((b) => backupLine(b, view.now)), 45), ...pager],
  };
}
