/**
 * Block Kit payloads checked against Slack's limits (shared/slack-facts.md) and basic
 * structure. `findBlockKitViolations` lists every problem; `assertBlockKitValid` throws with
 * all of them. The fake Slack and the response_url server run this on every payload.
 *
 * Accepted payloads: a message (`{ text?, blocks?, … }`, as for chat.postMessage or a
 * response_url post), a view (`{ type: 'modal' | 'home', … }`), or a bare blocks array.
 */
import { BlockKitChecker, type BlockKitViolation } from './block-kit-checker.js';
import { checkElement, ELEMENTS_IN } from './block-kit-element-rules.js';
import { asArray, isObject, type JsonObject } from './json.js';

export type { BlockKitViolation } from './block-kit-checker.js';
export { ELEMENT_LIMITS } from './block-kit-element-rules.js';

export const BLOCK_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  /** modal title, submit, close */
  modalButtonText: 24,
  privateMetadata: 3000,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  actionsElements: 25,
  contextElements: 10,
  inputLabel: 2000,
  inputHint: 2000,
  imageAltText: 2000,
  imageTitle: 2000,
  url: 3000,
  markdownText: 12000,
  /** "keep under 4000 characters" */
  messageText: 3999,
} as const;

export type Surface = 'message' | 'modal' | 'home';

export const KNOWN_BLOCK_TYPES = [
  'actions', 'context', 'divider', 'file', 'header', 'image', 'input', 'markdown', 'rich_text', 'section', 'video',
] as const;

function checkBlock(c: BlockKitChecker, path: string, block: unknown, blockIds: Set<string>): void {
  if (!isObject(block)) return c.fail(path, 'must be a block object');
  const type = block.type;
  if (typeof type !== 'string') return c.fail(`${path}/type`, 'is required');
  if (!(KNOWN_BLOCK_TYPES as readonly string[]).includes(type)) return c.fail(`${path}/type`, `unknown block type "${type}"`);
  c.id(`${path}/block_id`, block.block_id);
  c.unique(`${path}/block_id`, blockIds, block.block_id, 'block_id');
  const actionIds = new Set<string>();
  switch (type) {
    case 'section': {
      if (block.text === undefined && block.fields === undefined) c.fail(path, 'section needs text or fields');
      c.text(`${path}/text`, block.text, BLOCK_LIMITS.sectionText);
      c.array(`${path}/fields`, block.fields, { min: 1, max: BLOCK_LIMITS.sectionFields }).forEach((f, i) =>
        c.text(`${path}/fields/${i}`, f, BLOCK_LIMITS.sectionFieldText, { required: true }),
      );
      if (block.accessory !== undefined) checkElement(c, `${path}/accessory`, block.accessory, ELEMENTS_IN.accessory, actionIds);
      c.boolean(`${path}/expand`, block.expand);
      break;
    }
    case 'header':
      c.text(`${path}/text`, block.text, BLOCK_LIMITS.headerText, { required: true, plainOnly: true });
      break;
    case 'actions':
      c.array(`${path}/elements`, block.elements, { min: 1, max: BLOCK_LIMITS.actionsElements, required: true }).forEach((el, i) =>
        checkElement(c, `${path}/elements/${i}`, el, ELEMENTS_IN.actions, actionIds),
      );
      break;
    case 'context':
      c.array(`${path}/elements`, block.elements, { min: 1, max: BLOCK_LIMITS.contextElements, required: true }).forEach((el, i) => {
        const p = `${path}/elements/${i}`;
        if (isObject(el) && el.type === 'image') checkElement(c, p, el, ['image'], actionIds);
        else c.text(p, el, BLOCK_LIMITS.sectionText, { required: true });
      });
      break;
    case 'input':
      c.text(`${path}/label`, block.label, BLOCK_LIMITS.inputLabel, { required: true, plainOnly: true });
      c.text(`${path}/hint`, block.hint, BLOCK_LIMITS.inputHint, { plainOnly: true });
      if (block.element === undefined) c.fail(`${path}/element`, 'is required');
      else checkElement(c, `${path}/element`, block.element, ELEMENTS_IN.input, actionIds);
      c.boolean(`${path}/optional`, block.optional);
      c.boolean(`${path}/dispatch_action`, block.dispatch_action);
      break;
    case 'image':
      if (block.image_url === undefined && block.slack_file === undefined) c.fail(path, 'image needs image_url or slack_file');
      c.string(`${path}/image_url`, block.image_url, BLOCK_LIMITS.url);
      c.string(`${path}/alt_text`, block.alt_text, BLOCK_LIMITS.imageAltText, { required: true });
      c.text(`${path}/title`, block.title, BLOCK_LIMITS.imageTitle, { plainOnly: true });
      break;
    case 'markdown':
      c.string(`${path}/text`, block.text, BLOCK_LIMITS.markdownText, { required: true });
      break;
    case 'rich_text':
      c.array(`${path}/elements`, block.elements, { min: 1, max: 1000, required: true });
      break;
    default:
      break; // divider, file, video: nothing the bot is likely to get wrong
  }
}

export function checkBlocks(c: BlockKitChecker, path: string, blocks: unknown, max: number, required = false): void {
  const blockIds = new Set<string>();
  c.array(path, blocks, { max, required }).forEach((b, i) => checkBlock(c, `${path}/${i}`, b, blockIds));
}

function checkView(c: BlockKitChecker, view: JsonObject): void {
  c.oneOf('/type', view.type, ['modal', 'home']);
  checkBlocks(c, '/blocks', view.blocks, BLOCK_LIMITS.viewBlocks, true);
  c.string('/private_metadata', view.private_metadata, BLOCK_LIMITS.privateMetadata, { min: 0 });
  c.id('/callback_id', view.callback_id);
  c.id('/external_id', view.external_id);
  c.boolean('/clear_on_close', view.clear_on_close);
  c.boolean('/notify_on_close', view.notify_on_close);
  if (view.type !== 'modal') return;
  const limit = BLOCK_LIMITS.modalButtonText;
  c.text('/title', view.title, limit, { required: true, plainOnly: true });
  c.text('/submit', view.submit, limit, { plainOnly: true });
  c.text('/close', view.close, limit, { plainOnly: true });
  const hasInput = asArray(view.blocks).some((b) => isObject(b) && b.type === 'input');
  if (hasInput && view.submit === undefined) c.fail('/submit', 'is required when the modal has input blocks');
}

function checkMessage(c: BlockKitChecker, message: JsonObject): void {
  c.string('/text', message.text, BLOCK_LIMITS.messageText, { min: 0 });
  checkBlocks(c, '/blocks', message.blocks, BLOCK_LIMITS.messageBlocks);
}

export function surfaceOf(payload: unknown): Surface {
  if (isObject(payload) && (payload.type === 'modal' || payload.type === 'home')) return payload.type;
  return 'message';
}

export function findBlockKitViolations(payload: unknown): BlockKitViolation[] {
  const c = new BlockKitChecker();
  if (Array.isArray(payload)) checkBlocks(c, '', payload, BLOCK_LIMITS.messageBlocks);
  else if (!isObject(payload)) c.fail('', 'must be a message, a view or a blocks array');
  else if (surfaceOf(payload) === 'message') checkMessage(c, payload);
  else checkView(c, payload);
  return c.violations;
}

export class BlockKitError extends Error {
  override readonly name = 'BlockKitError';
  constructor(readonly violations: BlockKitViolation[]) {
    super(`Block Kit payload breaks Slack's limits:\n${violations.map((v) => `  ${v.path || '/'}: ${v.message}`).join('\n')}`);
  }
}

export function assertBlockKitValid(payload: unknown): void {
  const violations = findBlockKitViolations(payload);
  if (violations.length > 0) throw new BlockKitError(violations);
}
