/**
 * The sandbox's own request validation, written independently of src/cloud/requests.ts so a
 * wrong limit in the client is caught. Field errors collect into one 422 VALIDATION_ERROR
 * whose `details` maps field → messages (spec "Errors"). Messages mimic the provider's
 * Laravel-style wording. An explicit `null` counts as absent for optional fields.
 */
import { ApiError } from './http.js';

export type Body = Record<string, unknown>;

const label = (field: string): string => field.replace(/_/g, ' ');
/** Length in characters (code points), as the provider counts. */
export const charLength = (s: string): number => Array.from(s).length;

export class FieldErrors {
  readonly errors: Record<string, string[]> = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  has(field: string): boolean {
    return this.errors[field] !== undefined;
  }

  throwIfAny(): void {
    const fields = Object.keys(this.errors);
    if (fields.length === 0) return;
    const first = this.errors[fields[0] ?? '']?.[0] ?? 'The given data was invalid.';
    const more = fields.length > 1 ? ` (and ${fields.length - 1} more error${fields.length > 2 ? 's' : ''})` : '';
    throw new ApiError(422, 'VALIDATION_ERROR', `${first}${more}`, this.errors);
  }
}

export function validationError(field: string, message: string): ApiError {
  return new ApiError(422, 'VALIDATION_ERROR', message, { [field]: [message] });
}

/** The body as an object; absent → {}; any other JSON value is a bad request. */
export function bodyObject(body: unknown): Body {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'BAD_REQUEST', 'The request body must be a JSON object.');
  }
  return body as Body;
}

/** A field's rule: `min`/`max` are characters for a string, the value for an integer. */
interface Rule {
  required?: boolean;
  min?: number;
  max?: number;
}

/** The Laravel-style "out of range" messages for a length or a value (`unit` ' characters' or ''). */
function outOfRange(n: number, field: string, errs: FieldErrors, rule: Rule, unit: string): boolean {
  if (rule.max !== undefined && n > rule.max) errs.add(field, `The ${label(field)} field must not be greater than ${rule.max}${unit}.`);
  else if (rule.min !== undefined && n < rule.min) errs.add(field, `The ${label(field)} field must be at least ${rule.min}${unit}.`);
  else return false;
  return true;
}

export function str(b: Body, field: string, errs: FieldErrors, rule: Rule = {}): string | undefined {
  const v = b[field];
  if (v === undefined || v === null || (rule.required && typeof v === 'string' && v.trim() === '')) {
    if (rule.required) errs.add(field, `The ${label(field)} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    errs.add(field, `The ${label(field)} field must be a string.`);
    return undefined;
  }
  return outOfRange(charLength(v), field, errs, rule, ' characters') ? undefined : v;
}

export function int(b: Body, field: string, errs: FieldErrors, rule: Rule = {}): number | undefined {
  const v = b[field];
  if (v === undefined || v === null) {
    if (rule.required) errs.add(field, `The ${label(field)} field is required.`);
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    errs.add(field, `The ${label(field)} field must be an integer.`);
    return undefined;
  }
  return outOfRange(v, field, errs, rule, '') ? undefined : v;
}

export function oneOf<T extends string>(
  b: Body,
  field: string,
  errs: FieldErrors,
  values: readonly T[],
  required = false,
): T | undefined {
  const v = b[field];
  if (v === undefined || v === null) {
    if (required) errs.add(field, `The ${label(field)} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    errs.add(field, `The selected ${label(field)} is invalid (one of: ${values.join(', ')}).`);
    return undefined;
  }
  return v as T;
}

export function bool(b: Body, field: string, errs: FieldErrors): boolean | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') {
    errs.add(field, `The ${label(field)} field must be true or false.`);
    return undefined;
  }
  return v;
}

/** `?page=`: absent → 1; otherwise a positive integer (spec "Pagination envelope"). */
export function pageParam(query: Record<string, string>): number {
  const raw = query.page;
  if (raw === undefined || raw === '') return 1;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw validationError('page', 'The page field must be a positive integer.');
  }
  return Number(raw);
}

/** A positive integer path parameter, or undefined (answered as not found). */
export function idParam(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 ? n : undefined;
}
