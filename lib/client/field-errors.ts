// A failed form submission in words a person reads: the API's validation message ("password: Too small:
// expected string to have >=10 characters; email: Invalid email address") split per field into sentences
// with the field's own label ("Initial password must be at least 10 characters."), for the field's error
// line (aria-describedby); what belongs to no field of the form is the summary. Browser-safe.
import { ApiError } from './api';

export interface FormErrors<K extends string> {
  /** One sentence per field of the form that the server refused. */
  fields: Partial<Record<K, string>>;
  /** Everything else, in sentences; null when every problem belongs to a field. */
  summary: string | null;
}

const NO_ERRORS = { fields: {}, summary: null };

function firstNumber(text: string, pattern: RegExp): number | null {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : null;
}

/** "Password" + "Too small: expected string to have >=10 characters" → "Password must be at least 10
 * characters." Unknown messages keep their own words after the label. */
export function fieldSentence(label: string, message: string): string {
  const text = message.trim().replace(/\.$/, '');
  const atLeast = firstNumber(text, /(?:>=\s*|at least )(\d+)/i);
  if (/required|received undefined/i.test(text) || atLeast === 1) return `${label} is required.`;
  if (atLeast !== null && /too small|at least/i.test(text))
    return `${label} must be at least ${atLeast} characters.`;
  const atMost = firstNumber(text, /(?:<=\s*|at most )(\d+)/i);
  if (atMost !== null && /too big|at most/i.test(text))
    return `${label} must be at most ${atMost} characters.`;
  if (/email/i.test(text)) return `${label} must be an email address, like name@example.com.`;
  if (/url/i.test(text)) return `${label} must be a full web address, like https://example.com/.`;
  return `${label} is not valid: ${text.charAt(0).toLowerCase()}${text.slice(1)}.`;
}

/** The sentences for `error`, by the form's fields (`labels`: the API's field name → the label shown). */
export function formErrors<K extends string>(error: unknown, labels: Record<K, string>): FormErrors<K> {
  if (!error) return NO_ERRORS;
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') {
    return { fields: {}, summary: error instanceof Error ? error.message : 'Something went wrong.' };
  }
  const fields: Partial<Record<K, string>> = {};
  const rest: string[] = [];
  for (const part of error.message.split('; ')) {
    const match = /^([\w.]+): (.*)$/s.exec(part);
    const key = match?.[1]?.split('.')[0];
    if (match && key !== undefined && Object.hasOwn(labels, key)) {
      const field = key as K;
      fields[field] ??= fieldSentence(labels[field], match[2] ?? '');
    } else {
      rest.push(match ? fieldSentence('A value', match[2] ?? '') : part);
    }
  }
  return { fields, summary: rest.length > 0 ? rest.join(' ') : null };
}
