/** The rig refuses form answers Slack would refuse: errors under blocks the view lacks, broken views. */
import { describe, expect, it } from 'vitest';
import { submissionAckProblems } from '../rig/submission-ack.js';

const view = { blocks: [{ type: 'section', block_id: 'about', text: { type: 'mrkdwn', text: 'x' } }, { type: 'input', block_id: 'name' }] };
const submission = { type: 'view_submission', view };

describe('submissionAckProblems', () => {
  it('accepts errors under input blocks of the submitted view, and plain acks', () => {
    expect(submissionAckProblems(submission, { response_action: 'errors', errors: { name: 'is required' } })).toEqual([]);
    expect(submissionAckProblems(submission, undefined)).toEqual([]);
    expect(submissionAckProblems({ type: 'block_actions' }, { response_action: 'errors', errors: { nope: 'x' } })).toEqual([]);
  });

  it('refuses errors under a section or a block the view does not have, and empty errors', () => {
    expect(submissionAckProblems(submission, { response_action: 'errors', errors: { about: 'x', location: 'y' } })).toEqual([
      'errors key "about" is no input block of the submitted view',
      'errors key "location" is no input block of the submitted view',
    ]);
    expect(submissionAckProblems(submission, { response_action: 'errors', errors: {} })).toEqual(['response_action errors with no errors']);
  });

  it('checks an update view against Block Kit limits', () => {
    const problems = submissionAckProblems(submission, { response_action: 'update', view: { type: 'modal', title: { type: 'plain_text', text: 'x'.repeat(30) }, blocks: [] } });
    expect(problems.join('\n')).toMatch(/update view \/title/);
  });
});
