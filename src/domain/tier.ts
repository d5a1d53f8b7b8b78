/** How dangerous an operation is, and what it acts on: the words access, audit, the store and the views share. */
/**
 * What an operation may do, from least to most dangerous (issue 6 maps roles onto these):
 * read — look; change — modify without loss; billing — spend money or see invoices;
 * destroy — lose data or access; secret — see a credential.
 */
export type Tier = 'read' | 'change' | 'billing' | 'destroy' | 'secret';

/**
 * What an operation acts on (issue 12): `cloud` — an account, so every rule applies (the
 * channel's account and ceiling, the account's ceiling, the role); `bot` — the bot's own
 * state (watches, the audit trail): the role, and where commands are taken; `everywhere` —
 * the role, in any channel the bot takes commands in, even one the policy denies
 * (`/cloud policy`, so an admin can always ask why something is refused).
 */
export type Scope = 'cloud' | 'bot' | 'everywhere';
