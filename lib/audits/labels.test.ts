import { describe, expect, it } from 'vitest';
import { fileKindLabel, fileLabel, isNotRead, statusLabel, statusTone } from './labels';

describe('labels', () => {
  it('labels and colours every audit and file status', () => {
    expect(statusLabel('queued')).toBe('Queued');
    expect(statusLabel('partial')).toBe('Partial');
    expect(statusLabel('ok')).toBe('OK');
    expect(statusLabel('mystery')).toBe('Mystery');
    expect(statusTone('queued')).toBe('neutral');
    expect(statusTone('running')).toBe('info');
    expect(statusTone('succeeded')).toBe('success');
    expect(statusTone('partial')).toBe('warning');
    expect(statusTone('failed')).toBe('danger');
    expect(statusLabel('cancelled')).toBe('Cancelled');
    expect(statusTone('cancelled')).toBe('neutral');
    // Told apart at a glance in the audits list: a stopped audit is not a partial one.
    expect(statusTone('cancelled')).not.toBe(statusTone('partial'));
    expect(statusTone('mystery')).toBe('neutral');
  });

  it('labels kinds and files', () => {
    expect(fileKindLabel({ kind: 'index', status: 'ok', error: null })).toBe('Sitemap index');
    expect(fileKindLabel({ kind: null, status: 'failed', error: null })).toBe('Unknown type');
    expect(fileLabel({ id: 7, url: null, uploadName: 'a.xml' })).toBe('a.xml');
    expect(fileLabel({ id: 7, url: 'https://x.test/s.xml', uploadName: null })).toBe('https://x.test/s.xml');
    expect(fileLabel({ id: 7, url: null, uploadName: null })).toBe('File #7');
  });

  it('says a file not read is not read, not of an unknown type', () => {
    const cancelled = {
      code: 'cancelled',
      message: 'Not read: the audit was cancelled',
      line: null,
      column: null,
    };
    expect(fileKindLabel({ kind: null, status: 'pending', error: null })).toBe('Not read yet');
    expect(fileKindLabel({ kind: null, status: 'skipped', error: cancelled })).toBe('Not read');
    expect(
      fileKindLabel({ kind: null, status: 'failed', error: { ...cancelled, code: 'interrupted' } }),
    ).toBe('Not read');
    expect(fileKindLabel({ kind: null, status: 'failed', error: { ...cancelled, code: 'http_404' } })).toBe(
      'Unknown type',
    );
    expect(fileKindLabel({ kind: 'urlset', status: 'ok', error: null })).toBe('URL set');
    expect(isNotRead({ error: cancelled })).toBe(true);
    expect(isNotRead({ error: null })).toBe(false);
  });
});
