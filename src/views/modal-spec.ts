/**
 * What a modal asks for, as the catalog declares it and the modal views build it. `Ctx` is
 * what a field's choices are read with when the modal opens (the catalog's run context).
 */
export interface ModalOption {
  value: string;
  text: string;
  /**
   * The group it is listed under (a subnet under its location). It is the text of an option of
   * an earlier field, so a form can list only the group that answer chose (the shell does).
   */
  group?: string;
}

export interface ModalField<Ctx = never> {
  /** The argument it fills; also the block and action id. */
  name: string;
  label: string;
  kind: 'text' | 'multiline' | 'select' | 'multi_select' | 'checkbox';
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  maxLength?: number;
  /** Fixed choices, or choices read from the cloud when the modal opens. */
  options?: ModalOption[] | ((ctx: Ctx) => Promise<ModalOption[]>);
  /** At most this many choices in a multi-select (reinstall's SSH keys: 20). */
  maxSelected?: number;
  /** The entry's cross-field check can judge this field from the fields above it: a form walked field by field asks again at once. */
  checkAsAnswered?: boolean;
}

export interface ModalSpec<Ctx = never> {
  title: string;
  submit: string;
  fields: ModalField<Ctx>[];
  /** Open the modal when the command gives no flags, even if nothing required is missing. */
  whenBare?: boolean;
}
