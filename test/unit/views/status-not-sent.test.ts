/**
 * A destroy the undo window did not send because, when its delay ended, its confirmer (or
 * approver) could no longer make it, or the rules wanted an approval it never had: the card
 * says so and who, the notification text names nobody, and a stored id that is not a Slack
 * id is shown as a value, never as markup. One whose rights could not be checked (a user group
 * Slack did not answer for) is told as that, never as withdrawn.
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/operations/index.js';
import { buildClickAnswer } from '../../../src/views/change-notices.js';
import { renderStatus } from '../../../src/views/status-message.js';
import { APPROVAL_NOW_REQUIRED, RIGHTS_UNCHECKED, RIGHTS_WITHDRAWN } from '../../../src/views/status-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES, NOTHING_LIVE } from '../../rig/hostile-strings.js';
import { checkMrkdwn, checkPayload } from '../../rig/mrkdwn-abuse-checker.js';
import { record } from './record-fixtures.js';
import { buttonsOf, shownJson } from './reply-checks.js';

const op = catalog.byId('ssh-key.delete')!;
const closed = (over: Parameters<typeof record>[0]) =>
  record({ opId: op.id, args: { id: 12 }, status: 'cancelled', confirmedBy: 'U0DAVE', confirmedAt: 1, sendAt: 30_001, finishedAt: 30_001, ...over });

describe('a change not sent when its undo delay ended', () => {
  it('rights withdrawn: says so, names whose, offers no button, mentions nobody in the notification', () => {
    const reply = renderStatus(op, closed({ errorCode: RIGHTS_WITHDRAWN, result: { withdrawnFrom: 'U0DAVE' } }), 40_000);
    const shown = shownJson(reply);
    expect(reply.text).toContain('not sent — the right to make it here was withdrawn during its undo window; nothing was sent');
    expect(reply.text).not.toMatch(/<[@!#]/);
    expect(shown).toContain('<@U0DAVE> may no longer make this change here.');
    expect(shown).toContain('/cloud policy');
    expect(shown).not.toContain('cancelled by');
    expect(buttonsOf(reply)).toEqual([]);
    expect(buildClickAnswer(closed({ errorCode: RIGHTS_WITHDRAWN, result: { withdrawnFrom: 'U0DAVE' } }), 'U0DAVE', 'wrong_status')).toContain('Not sent: you may no longer make this change here');
  });

  it('a stored name that is not a Slack id stays inert', () => {
    // Only the requester and the confirmer, real ids, may be mentioned.
    const allow = { ...NOTHING_LIVE, users: ['U0ALICE', 'U0DAVE'] };
    for (const hostile of HOSTILE_SAMPLES) {
      const r = closed({ errorCode: RIGHTS_WITHDRAWN, result: { withdrawnFrom: hostile } });
      const reply = renderStatus(op, r, 40_000);
      assertBlockKitValid({ text: reply.text, blocks: reply.blocks });
      expect(checkPayload({ text: reply.text, blocks: reply.blocks }, allow, 'reply')).toEqual([]);
      expect(shownJson(reply)).toContain(HOSTILE_MARKER);
      expect(shownJson(reply)).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      const answer = buildClickAnswer(r, 'U0ALICE', 'wrong_status');
      expect(checkMrkdwn(answer, allow, 'answer')).toEqual([]);
      expect(answer).toContain(HOSTILE_MARKER);
    }
  });

  it('an approval now required: says so, names nobody', () => {
    const r = closed({ errorCode: APPROVAL_NOW_REQUIRED, result: {} });
    const reply = renderStatus(op, r, 40_000);
    expect(reply.text).toContain('not sent — the channel’s rules now want a second admin’s approval, which this change never had; nothing was sent');
    expect(shownJson(reply)).toContain('Checked again when its undo delay ended');
    expect(shownJson(reply)).not.toContain('may no longer make');
    expect(buildClickAnswer(r, 'U0ALICE', 'wrong_status')).toContain('Not sent: the channel’s rules now want');
  });

  it('rights that could not be checked: waiting says so and keeps Undo; closed says Slack could not tell, not that they were withdrawn', () => {
    const unread = { uncheckedFor: 'U0DAVE', unreadGroups: ['S0ADMINS'] };
    const held = renderStatus(op, record({ opId: op.id, args: { id: 12 }, status: 'confirmed', confirmedBy: 'U0DAVE', confirmedAt: 1, sendAt: 30_001, result: unread }), 40_000);
    expect(held.text).toContain('confirmed; waiting to check the right to make it here, which Slack could not tell the bot — nothing has been sent yet');
    expect(held.text).not.toMatch(/<[@!#]/);
    expect(shownJson(held)).toContain('Slack did not let the bot read user group `S0ADMINS` to check that <@U0DAVE> may still make this change here');
    expect(buttonsOf(held).map((b) => b.actionId)).toEqual(['op_undo']);

    const r = closed({ errorCode: RIGHTS_UNCHECKED, result: { ...unread, lateBy: 610_000 } });
    const reply = renderStatus(op, r, 700_000);
    expect(reply.text).toContain('not sent — Slack could not tell the bot in time whether the right to make it here still holds; nothing was sent');
    expect(shownJson(reply)).not.toContain('withdrawn');
    expect(shownJson(reply)).not.toContain('cancelled by');
    expect(buttonsOf(reply)).toEqual([]);
    expect(buildClickAnswer(r, 'U0DAVE', 'wrong_status')).toContain('Not sent: Slack could not tell the bot in time');
  });

  it('stored groups and names of an unchecked change stay inert', () => {
    const allow = { ...NOTHING_LIVE, users: ['U0ALICE', 'U0DAVE'] };
    for (const hostile of HOSTILE_SAMPLES) {
      const reply = renderStatus(op, closed({ errorCode: RIGHTS_UNCHECKED, result: { uncheckedFor: hostile, unreadGroups: [hostile] } }), 700_000);
      assertBlockKitValid({ text: reply.text, blocks: reply.blocks });
      expect(checkPayload({ text: reply.text, blocks: reply.blocks }, allow, 'reply')).toEqual([]);
    }
  });
});
