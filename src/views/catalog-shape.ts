/**
 * What help, usage and problem views read of the catalog. The catalog (src/operations/) sits
 * above the rendering layer and hands its entries in; these are the fields the views use, and
 * the catalog's own types have them.
 */

/** One argument as help lists it. */
export interface ArgHelp {
  /** `modal` arguments are asked in a form, never typed: help leaves them out. */
  kind: string;
  placeholder: string;
  description: string;
}

/** One operation as help lists it. */
export interface OpHelp {
  id: string;
  resource: string;
  verb: string;
  /** `/cloud server reinstall`. */
  command: string;
  summary: string;
  args: Readonly<Record<string, ArgHelp>>;
  /** Present on changes (they take `--dry-run`). */
  change?: unknown;
}

/** Something the Cloud API v2 cannot do, and where it is done instead (data; help and the parser word it). */
export interface NotOffered {
  /** The verbs people type for it (`create`, `add`). */
  verbs: string[];
  /** After "cannot": `create SSH keys`. */
  what: string;
  /** Where it is done instead, a sentence of our own (may quote a command in backticks). */
  instead: string;
}

/** A resource as help lists it. */
export interface ResourceHelp {
  name: string;
  title: string;
  aliases: string[];
  notOffered?: NotOffered[];
}

export interface CatalogHelp {
  readonly resources: readonly ResourceHelp[];
  forResource(resource: string): readonly OpHelp[];
  /** The usage line of an operation. */
  usage(op: OpHelp): string;
}
