// A crawl export reads the same on the calling thread (small uploads) as on the crawl thread (large ones
// and URL sources): the same COPY chunks, the same report, the same facts, the same errors.

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { type CrawlImportResult, encodeCrawlExport } from './crawl-import';
import type { CrawlChunk } from './crawl-thread-protocol';

async function read(storedPath: string, mode: 'inline' | 'thread', signal = new AbortController().signal) {
  vi.stubEnv('CRAWL_THREAD_MIN_BYTES', mode === 'inline' ? String(1024 ** 3) : '0');
  const chunks: CrawlChunk[] = [];
  const it = encodeCrawlExport(
    {
      profile: 'lenient',
      source: { url: null, storedPath },
      read: { fileName: path.basename(storedPath) },
      maxBytes: 1024 ** 3,
    },
    signal,
  );
  let next = await it.next();
  while (!next.done) {
    chunks.push(next.value);
    next = await it.next();
  }
  return { chunks, result: next.value as CrawlImportResult };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'crawl-import-'));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('reading a crawl export inline or on the crawl thread', () => {
  it.each(['crawl-exports/sf-internal_all-kerkarmedia.com.csv', 'crawl-exports/adv-crawlytics-nytimes.jl'])(
    'gives the same chunks, report and facts for %s (and gzipped)',
    async (fixture) => {
      const gz = path.join(dir, `${path.basename(fixture)}.gz`);
      writeFileSync(gz, gzipSync(readFixture(fixture)));
      for (const file of [fixturePath(fixture), gz]) {
        const inline = await read(file, 'inline');
        const thread = await read(file, 'thread');
        expect(inline.result.ok).toBe(true);
        expect(inline.chunks.reduce((n, c) => n + c.written, 0)).toBeGreaterThan(20);
        expect(inline).toEqual(thread);
      }
    },
  );

  it('fails alike: a file with no valid row is the same CrawlImportError with the same report', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"url":"ftp://x.example/a"}\n{"url":"mailto:a@b.example"}\n');
    const inline = await read(bad, 'inline');
    const thread = await read(bad, 'thread');
    expect(inline.result.ok).toBe(false);
    expect(thread.result.ok).toBe(false);
    if (inline.result.ok || thread.result.ok) return;
    expect(inline.result.error.constructor).toBe(thread.result.error.constructor);
    expect(inline.result.error.message).toBe(thread.result.error.message);
    expect((inline.result.error as { code?: string }).code).toBe('no_valid_rows');
    expect(inline.result.report).toEqual(thread.result.report);
  });

  it('stops inline on abort with the signal reason, as the thread is stopped', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await expect(
      read(fixturePath('crawl-exports/sf-internal_all-kerkarmedia.com.csv'), 'inline', controller.signal),
    ).rejects.toThrow('cancelled by the test');
  });
});
