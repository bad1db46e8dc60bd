import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, type FieldControl, fieldWiring } from './field';

describe('fieldWiring', () => {
  it('describes the control by nothing and leaves it valid when there is neither hint nor error', () => {
    expect(fieldWiring('email', { hasHint: false, hasError: false }).control).toEqual({ id: 'email' });
  });

  it('names the hint, then any outside note, then the error, and marks the control invalid', () => {
    const wiring = fieldWiring('pw', { hasHint: true, hasError: true, describedBy: 'form-note' });
    expect(wiring.hintId).toBe('pw-hint');
    expect(wiring.errorId).toBe('pw-error');
    expect(wiring.control).toEqual({
      id: 'pw',
      'aria-describedby': 'pw-hint form-note pw-error',
      'aria-invalid': true,
    });
  });

  it('uses a shared error id when other controls are described by the same error', () => {
    const wiring = fieldWiring('crawl-url', { hasHint: false, hasError: true, errorId: 'crawl-error' });
    expect(wiring.errorId).toBe('crawl-error');
    expect(wiring.control['aria-describedby']).toBe('crawl-error');
  });

  it('drops the error from the description once it is gone', () => {
    const wiring = fieldWiring('pw', { hasHint: true, hasError: false });
    expect(wiring.control).toEqual({ id: 'pw', 'aria-describedby': 'pw-hint' });
  });
});

describe('Field', () => {
  const input = (control: FieldControl) => createElement('input', { ...control, className: 'input' });
  const render = (props: Omit<Parameters<typeof Field>[0], 'children'>) =>
    // biome-ignore lint/correctness/noChildrenProp: the child is a render function, which createElement's rest arguments do not type
    renderToStaticMarkup(createElement(Field, { ...props, children: input }));

  it('points the label at the control and shows the hint and the error the control is described by', () => {
    const html = render({
      label: 'Password',
      id: 'password',
      hint: 'At least 10 characters.',
      error: 'Too short',
    });
    expect(html).toContain('<label for="password" class="field__label">Password</label>');
    expect(html).toContain(
      '<input id="password" aria-describedby="password-hint password-error" aria-invalid="true" class="input"/>',
    );
    expect(html).toContain('<p id="password-hint" class="field__hint">At least 10 characters.</p>');
    expect(html).toContain('<span id="password-error" class="field__error">Too short</span>');
  });

  it('shows no error element and no aria-invalid for an empty error', () => {
    const html = render({ label: 'Email', id: 'email', error: '' });
    expect(html).not.toContain('field__error');
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('aria-describedby');
  });

  it('gives a control without an id a generated one the label still points at', () => {
    const html = render({ label: 'Name' });
    const forId = /<label for="([^"]+)"/.exec(html)?.[1];
    expect(forId).toBeTruthy();
    expect(html).toContain(`<input id="${forId}"`);
  });

  it('reads an announced error out as it appears', () => {
    const html = render({ label: 'New password', id: 'pw', error: 'Too short', announce: true });
    expect(html).toContain('<span id="pw-error" class="field__error" role="alert">Too short</span>');
  });

  it('draws the compact label of inline forms at size small', () => {
    const html = render({ label: 'Repeat', id: 'repeat', size: 'small', className: 'wide' });
    expect(html).toContain('<div class="field field--inline wide">');
    expect(html).toContain('class="field__label field__label--small"');
  });
});
