import { afterEach, describe, expect, it } from 'vitest';
import { budgetBytesFromEnv, countedChunks, formatBytes, InflateBudget, InflateBudgetError } from './budget';

const budget = (limit: number) =>
  new InflateBudget({ limit, setting: 'TEST_MAX_BYTES', scope: 'one upload' });

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let seen = 0;
  for await (const chunk of chunks) seen += chunk.length;
  return seen;
}

async function* chunksOf(sizes: number[]) {
  for (const size of sizes) yield new Uint8Array(size);
}

describe('an inflate budget', () => {
  it('is shared by the files of one upload and stops at the first chunk over it', async () => {
    const b = budget(1000);
    expect(await drain(countedChunks(chunksOf([300, 300]), b, 'a.gz'))).toBe(600);
    const passed: number[] = [];
    const second = (async () => {
      for await (const chunk of countedChunks(chunksOf([200, 300, 400]), b, 'b.gz'))
        passed.push(chunk.length);
    })();
    const error = await second.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InflateBudgetError);
    expect(passed).toEqual([200]); // the chunk that passed the limit is not handed on
    expect((error as InflateBudgetError).message).toBe(
      'b.gz inflates past the 1000 bytes of uncompressed data one upload may hold (TEST_MAX_BYTES)',
    );
    expect(error).toMatchObject({ file: 'b.gz', limit: 1000, setting: 'TEST_MAX_BYTES' });
    expect(b.remaining).toBe(0);
  });

  it('refuses a declared size that cannot fit, without counting it', () => {
    const b = budget(2 * 1024 * 1024);
    b.count('a.csv', 1024 * 1024);
    expect(() => b.ensureRoom('big.zip', 1024 * 1024)).not.toThrow();
    expect(() => b.ensureRoom('big.zip', 1024 * 1024 + 1)).toThrow(
      'big.zip declares 1 MiB uncompressed, more than the 1 MiB left of the 2 MiB of uncompressed data one upload may hold (TEST_MAX_BYTES)',
    );
    expect(b.spent).toBe(1024 * 1024);
  });
});

describe('a budget from the environment', () => {
  afterEach(() => {
    delete process.env.TEST_MAX_BYTES;
  });

  it('takes whole bytes, falls back when unset, and refuses anything else by name', () => {
    expect(budgetBytesFromEnv('TEST_MAX_BYTES', 42)).toBe(42);
    process.env.TEST_MAX_BYTES = '1048576';
    expect(budgetBytesFromEnv('TEST_MAX_BYTES', 42)).toBe(1048576);
    for (const bad of ['0', '-5', '1.5', '200MB', 'NaN']) {
      process.env.TEST_MAX_BYTES = bad;
      expect(() => budgetBytesFromEnv('TEST_MAX_BYTES', 42)).toThrow(
        `TEST_MAX_BYTES must be a whole number of bytes, at least 1, got "${bad}"`,
      );
    }
  });

  it('formats sizes the way refusals print them', () => {
    expect([512, 1536, 200 * 1024 * 1024, 2 * 1024 ** 3].map(formatBytes)).toEqual([
      '512 bytes',
      '1.5 KiB',
      '200 MiB',
      '2 GiB',
    ]);
  });
});
