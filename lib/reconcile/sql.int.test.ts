// The SQL helpers whose shortcuts must never change a result: mayBeHome narrows the canonical patterns'
// near-duplicate test, so it may say "maybe" too often but never "no" for a key loosePath calls a home page.
import { describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { loosePath, mayBeHome } from './sql';

const SCHEMES = ['https://', 'http://', 'HTTP://', 'a+b.c-d://', '', 'x:', 'x:/', 'ab/c://', '://'];
const HOSTS = ['h.example', 'www.h.example', '', 'h.example:8080', 'WWW.h'];
const PATHS = [
  '',
  '/',
  '//',
  '///',
  '/index.html',
  '/index.htm',
  '/index.html/',
  '/index.html//',
  '//index.html',
  '/a',
  '/a/',
  '/index.html/index.html',
  '/index.htmlx',
  '/x/index.html',
  '/index.HTML',
  '?q=1',
  '/?q=/a',
  '#/a',
  '/index.html?x=/',
  '/#',
  'index.html',
];

describe('mayBeHome', () => {
  it('is true for every key loosePath makes a home page, and false for most inner pages', async () => {
    const keys = SCHEMES.flatMap((s) => HOSTS.flatMap((h) => PATHS.map((p) => `${s}${h}${p}`)));
    const { rows } = await pool().query<{ key: string; home: boolean; may: boolean }>(
      `SELECT t AS key, strpos(${loosePath('t')}, '/') = 0 AS home, ${mayBeHome('t')} AS may
         FROM unnest($1::text[]) t`,
      [keys],
    );
    expect(rows.filter((r) => r.home && !r.may)).toEqual([]);
    expect(rows.filter((r) => r.home).length).toBeGreaterThan(300);
    // A narrowing that said "maybe" everywhere would be no narrowing.
    expect(rows.find((r) => r.key === 'https://h.example/a')?.may).toBe(false);
    expect(rows.find((r) => r.key === 'https://www.h.example/index.html/')?.may).toBe(true);
  });
});
