import { describe, expect, it } from 'vitest';
import {
  buildPropertyTotals,
  buildSitemapGaps,
  type CountRow,
  type FileRow,
  importsSignatureOf,
  MAX_CHART_POINTS,
} from './gaps-shape';

const file = (id: number, extra: Partial<FileRow> = {}): FileRow => ({
  id,
  parentId: null,
  url: null,
  finalUrl: null,
  uploadName: null,
  entries: 1,
  ...extra,
});
const unknown = (fileId: number): CountRow => ({
  fileId,
  state: null,
  bucket: null,
  reason: null,
  sampled: false,
  count: 1,
});
const line = (sitemap: string) => ({ sitemap, submitted: null, lastRead: '2026-11-30', status: 'Success' });

describe('buildSitemapGaps: the Sitemaps report line of a file', () => {
  it('matches an upload by the one report URL ending in its name, and none when two do', () => {
    const rows = buildSitemapGaps({
      files: [file(1, { uploadName: 'a.xml' }), file(2, { uploadName: 'b.xml' })],
      counts: [unknown(1), unknown(2)],
      profile: 'exact',
      report: {
        importedOn: '2026-12-01',
        rows: [
          line('https://x.example/a.xml'),
          line('https://x.example/b.xml'),
          line('https://y.example/b.xml'),
        ],
      },
    });
    const byId = new Map(rows.map((r) => [r.fileId, r]));
    expect(byId.get(1)).toMatchObject({ reportLine: 'file', flags: { notInSearchConsole: false } });
    expect(byId.get(2)).toMatchObject({ reportLine: null, flags: { notInSearchConsole: true } });
  });

  it('prefers the exact URL over the key, and flags nothing without a report', () => {
    const files = [file(1, { url: 'https://x.example/s.xml' })];
    const rows = buildSitemapGaps({
      files,
      counts: [unknown(1)],
      profile: 'exact',
      report: {
        importedOn: '2026-12-01',
        rows: [
          { ...line('HTTPS://X.EXAMPLE/s.xml'), status: 'Has errors' },
          { ...line('https://x.example/s.xml'), status: 'Success' },
        ],
      },
    });
    expect(rows[0]?.status).toBe('Success');
    const none = buildSitemapGaps({ files, counts: [unknown(1)], profile: 'exact', report: null });
    expect(none[0]?.flags).toEqual({ stale: false, fetchProblem: false, notInSearchConsole: false });
  });
});

describe('buildPropertyTotals', () => {
  it('caps coverage at 1 and the series at MAX_CHART_POINTS, saying so', () => {
    const points = Array.from({ length: MAX_CHART_POINTS + 3 }, (_, i) => ({
      date: `d${String(i).padStart(4, '0')}`,
      indexed: 1,
      notIndexed: 1,
    }));
    const totals = buildPropertyTotals({ importedAt: 'x', points }, 10);
    expect(totals).toMatchObject({ indexed: 1, notIndexed: 1, coverage: 1, seriesTruncated: true });
    expect(totals?.series).toHaveLength(MAX_CHART_POINTS);
    expect(totals?.series[0]?.date).toBe('d0003');
    expect(buildPropertyTotals(null, 3)).toBeNull();
  });
});

describe('importsSignatureOf', () => {
  it('counts the succeeded imports of a list (newest first) and names the newest', () => {
    expect(importsSignatureOf([])).toBe('0:');
    expect(
      importsSignatureOf([
        { id: 'c', status: 'running' },
        { id: 'b', status: 'succeeded' },
        { id: 'x', status: 'failed' },
        { id: 'a', status: 'succeeded' },
      ]),
    ).toBe('2:b');
  });
});
