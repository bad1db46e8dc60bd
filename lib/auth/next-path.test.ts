import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

// Each of these names another host (or a script) to some browser or to a reader that decodes once more.
const HOSTILE = [
  '//evil.example',
  '//evil.example/audits',
  '/\\evil.example',
  '/\\/evil.example/',
  '\\\\evil.example',
  '\\/evil.example',
  '/%5Cevil.example/',
  '/%5cevil.example/',
  '/%2F%2Fevil.example',
  '/%2f/evil.example',
  '%2F%2Fevil.example',
  '/%252F%252Fevil.example',
  '/%25252F%25252Fevil.example',
  '/%255Cevil.example',
  '/%09/evil.example/',
  '/\t/evil.example',
  '/\r\n/evil.example',
  '/%0D%0A/evil.example',
  '/%00/evil.example',
  '/\u0085/evil.example',
  '/%C2%85/evil.example',
  ' //evil.example',
  'https://evil.example',
  'HTTPS://evil.example/',
  'http:evil.example',
  '//EVIL.example',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/%2e%2e//evil.example',
  '/%2E%2E//evil.example',
  '/..//evil.example',
  '/a/../..//evil.example',
  '/\uff0f/evil.example',
  '/%EF%BC%8F/evil.example',
  '\uff0f\uff0fevil.example',
  '/\uff3cevil.example',
  'evil.example',
  'audits/3',
  '',
  '/%E0%A4%A',
];

describe('safeNextPath', () => {
  it.each(HOSTILE)('sends %j to /', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it('keeps same-origin paths with their query and fragment', () => {
    expect(safeNextPath('/audits/3?tab=review#x')).toBe('/audits/3?tab=review#x');
    expect(safeNextPath('/')).toBe('/');
    expect(safeNextPath('/users')).toBe('/users');
    expect(safeNextPath('/audits?q=a%20b&list=prune')).toBe('/audits?q=a%20b&list=prune');
    expect(safeNextPath('/r/sar_abc-DEF_123')).toBe('/r/sar_abc-DEF_123');
  });

  it('resolves dot segments that stay on our origin', () => {
    expect(safeNextPath('/audits/../users')).toBe('/users');
  });

  it('ignores what is not a string, or too long to be ours', () => {
    expect(safeNextPath(`/${'a'.repeat(3000)}`)).toBe('/');
    expect(safeNextPath(undefined)).toBe('/');
    expect(safeNextPath(['/a', '/b'])).toBe('/');
    expect(safeNextPath(42)).toBe('/');
  });
});
