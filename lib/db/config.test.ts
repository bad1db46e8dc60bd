import { afterEach, describe, expect, it } from 'vitest';
import { poolSize } from './config';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['DB_POOL_SIZE', 'WORKER_CONCURRENCY']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('poolSize', () => {
  it('leaves room for every queue of every concurrent job slot unless DB_POOL_SIZE says otherwise', () => {
    delete process.env.DB_POOL_SIZE;
    delete process.env.WORKER_CONCURRENCY;
    expect(poolSize()).toBe(10);
    process.env.WORKER_CONCURRENCY = '5';
    expect(poolSize()).toBe(37);
    process.env.DB_POOL_SIZE = '12';
    expect(poolSize()).toBe(12);
  });
});
