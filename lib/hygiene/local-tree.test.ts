// Which local file a child of a local index maps to, judged on planted files in a temp folder.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localChildPlace } from './local-tree';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hygiene-local-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const build = path.join(root, 'build');
mkdirSync(path.join(build, 'sitemaps'), { recursive: true });
for (const name of ['a.xml', 'sitemaps/b.xml', 'odd%zz.xml', 'q.xml'])
  writeFileSync(path.join(build, name), '');
writeFileSync(path.join(root, 'secret.xml'), '');
symlinkSync(path.join(root, 'secret.xml'), path.join(build, 'sitemaps', 'out.xml'));

const place = (loc: string, url: string | null = loc) => localChildPlace({ loc, url }, build, build);

describe('localChildPlace', () => {
  it('maps the longest tail of the URL path that names a file inside the folder', () => {
    expect(place('https://a.example/a.xml')).toEqual({ kind: 'file', path: path.join(build, 'a.xml') });
    expect(place('https://a.example/sitemaps/b.xml')).toEqual({
      kind: 'file',
      path: path.join(build, 'sitemaps', 'b.xml'),
    });
    expect(place('https://cdn.example/deep/er/b.xml')).toEqual({ kind: 'missing' });
    expect(place('https://a.example/x/a.xml')).toEqual({ kind: 'file', path: path.join(build, 'a.xml') });
    // A query is no part of the path, and a ".." inside it leaves no folder.
    expect(place('https://a.example/q.xml?from=/../')).toEqual({
      kind: 'file',
      path: path.join(build, 'q.xml'),
    });
    // A malformed percent sequence: the file may be named as written.
    expect(place('https://a.example/odd%zz.xml')).toEqual({
      kind: 'file',
      path: path.join(build, 'odd%zz.xml'),
    });
    expect(place('https://a.example/sitemaps/')).toEqual({ kind: 'missing' });
    expect(place('relative.xml', null)).toEqual({ kind: 'missing' });
  });

  it.each([
    ['https://a.example/..%2Fsecret.xml', 'encoded separator'],
    ['https://a.example/..%5Csecret.xml', 'encoded separator'],
    ['https://a.example/sitemaps%2F..%2F..%2Fsecret.xml', 'encoded separator'],
    ['https://a.example/a/../../secret.xml', '".."'],
    ['https://a.example/%2E%2E/secret.xml', '".."'],
    ['../secret.xml', '".."'],
    ['/etc/passwd', 'absolute path'],
    ['\\\\server\\share', 'absolute path'],
    ['C:\\secret.xml', 'absolute path'],
    ['file:///etc/passwd', 'file: location'],
    ['https://a.example/sitemaps/out.xml', 'symbolic link'],
    ['https://a.example/a%00.xml', 'NUL'],
  ])('refuses %s (%s)', (loc, reason) => {
    const url = /^https?:/.test(loc) ? loc : null;
    expect(place(loc, url)).toEqual({ kind: 'refused', reason: expect.stringContaining(reason) });
  });
});
