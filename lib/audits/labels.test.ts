import { describe, expect, it } from 'vitest';
import { fileLabel, kindLabel, statusLabel, statusTone } from './labels';

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
    expect(statusTone('cancelled')).toBe('warning');
    expect(statusTone('mystery')).toBe('neutral');
  });

  it('labels kinds and files', () => {
    expect(kindLabel('index')).toBe('Sitemap index');
    expect(kindLabel(null)).toBe('Unknown type');
    expect(fileLabel({ id: 7, url: null, uploadName: 'a.xml' })).toBe('a.xml');
    expect(fileLabel({ id: 7, url: 'https://x.test/s.xml', uploadName: null })).toBe('https://x.test/s.xml');
    expect(fileLabel({ id: 7, url: null, uploadName: null })).toBe('File #7');
  });
});
