import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { fieldSentence, formErrors } from './field-errors';

const LABELS = { name: 'Name', email: 'Email', password: 'Initial password' };
const invalid = (message: string) => new ApiError(400, 'validation_failed', message);

describe('fieldSentence', () => {
  it("turns zod's and our own messages into sentences with the field's label", () => {
    expect(fieldSentence('Password', 'Too small: expected string to have >=10 characters')).toBe(
      'Password must be at least 10 characters.',
    );
    expect(fieldSentence('Password', 'must be at least 10 characters')).toBe(
      'Password must be at least 10 characters.',
    );
    expect(fieldSentence('Name', 'Too big: expected string to have <=100 characters')).toBe(
      'Name must be at most 100 characters.',
    );
    expect(fieldSentence('Name', 'is required')).toBe('Name is required.');
    expect(fieldSentence('Name', 'Too small: expected string to have >=1 characters')).toBe(
      'Name is required.',
    );
    expect(fieldSentence('Email', 'Invalid email address')).toBe(
      'Email must be an email address, like name@example.com.',
    );
    expect(fieldSentence('Role', 'Invalid option: expected one of "viewer"|"reviewer"|"admin"')).toBe(
      'Role is not valid: invalid option: expected one of "viewer"|"reviewer"|"admin".',
    );
  });
});

describe('formErrors', () => {
  it('splits a validation message per field, with no raw field names left', () => {
    const errors = formErrors(
      invalid('password: must be at least 10 characters; email: Invalid email address'),
      LABELS,
    );
    expect(errors.fields).toEqual({
      password: 'Initial password must be at least 10 characters.',
      email: 'Email must be an email address, like name@example.com.',
    });
    expect(errors.summary).toBeNull();
  });

  it('keeps the first problem of a field and puts unknown fields in the summary, as sentences', () => {
    const errors = formErrors(
      invalid(
        'name: is required; name: Too big: expected string to have <=100 characters; next: Too big: x <=4096',
      ),
      LABELS,
    );
    expect(errors.fields).toEqual({ name: 'Name is required.' });
    expect(errors.summary).toBe('A value must be at most 4096 characters.');
    expect(errors.summary).not.toContain('next:');
  });

  it('nested paths belong to their field; other errors are the summary as they are', () => {
    expect(formErrors(invalid('email.0: Invalid email address'), LABELS).fields.email).toContain(
      'Email must',
    );
    expect(formErrors(new ApiError(409, 'email_taken', 'That email is in use.'), LABELS)).toEqual({
      fields: {},
      summary: 'That email is in use.',
    });
    expect(formErrors(null, LABELS)).toEqual({ fields: {}, summary: null });
  });
});
