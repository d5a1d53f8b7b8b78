/** Issue 14: Slack marks an optional input "(optional)" itself; the label must not say it again. */
import { describe, expect, it } from 'vitest';
import { buildChangeModal } from '../../../src/views/modal-views.js';
import { catalog } from '../../../src/operations/index.js';

describe('change modal labels', () => {
  it('say (optional) once: Slack adds it, so no label of an optional field carries it', () => {
    let checked = 0;
    for (const op of catalog.operations) {
      const spec = op.change?.modal;
      if (!spec) continue;
      const view = buildChangeModal({ spec, options: {}, initial: {}, privateMetadata: '{}' });
      for (const b of view.blocks as { type: string; optional?: boolean; label?: { text: string } }[]) {
        if (b.type !== 'input') continue;
        checked++;
        if (b.optional) expect(b.label!.text, op.id).not.toMatch(/optional/i);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
