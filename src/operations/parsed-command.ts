/**
 * What a typed `/cloud` line comes to (parse-command.ts, parse-args.ts): an operation to run
 * with validated arguments, help, or a problem naming the nearest command and its usage.
 */
import type { AnyOperation } from './types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';

export type ParsedCommand =
  | { kind: 'run'; op: AnyOperation; args: Record<string, unknown>; flagsGiven: boolean; dryRun: boolean; account?: string }
  | { kind: 'help'; resource?: string; op?: AnyOperation; account?: string }
  | { kind: 'problem'; problem: CommandProblem };

export interface CommandProblem {
  message: Mrkdwn;
  /** Operations whose usage to show (the nearest command, or every verb of a resource). */
  usage: AnyOperation[];
  /** A corrected command line to suggest, e.g. `/cloud server status 101`. */
  didYouMean?: string;
  /** The command was recognised but required arguments are missing (a modal may fill them). */
  missing?: {
    op: AnyOperation;
    /** The arguments as typed (a form's initial values). */
    given: Record<string, unknown>;
    /** The same arguments checked, each by its own schema (what a form's intro may describe). */
    values: Record<string, unknown>;
    names: string[];
    account?: string;
  };
  /** The provider's API does not offer what was asked (not a mistake in the typing). */
  notOffered?: boolean;
}

/** A problem: `corrected` is the did-you-mean line (its words, or whole), `flagGuess` a flag meant instead. */
export function problem(message: Mrkdwn, usage: AnyOperation[], corrected?: string[] | string, flagGuess?: string): ParsedCommand {
  const p: CommandProblem = { message, usage };
  if (Array.isArray(corrected)) p.didYouMean = `/cloud ${corrected.join(' ')}`;
  else if (typeof corrected === 'string' && corrected) p.didYouMean = corrected;
  if (flagGuess) p.didYouMean = flagGuess;
  return { kind: 'problem', problem: p };
}
