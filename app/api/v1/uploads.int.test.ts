// Uploads through the real POST /api/v1/audits handler with hand-built multipart bodies: every refused
// request leaves nothing under DATA_DIR/uploads, and UTF-8 file names survive to the API.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { END, MULTIPART, part } from '@/lib/test-support/multipart';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { GET as getAudit } from './audits/[id]/route';
import { GET as getSitemaps } from './audits/[id]/sitemaps/route';
import { POST } from './audits/route';

afterAll(() => stopBoss());

const reviewer = await testCaller('reviewer');
const base = 'http://localhost/api/v1/audits';
const SITEMAP = urlsetXml(['https://example.com/a', 'https://example.com/b']);

function uploads(): string[] {
  return existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : [];
}

async function post(body: BodyInit, contentType = MULTIPART) {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    duplex: 'half',
  };
  const res = await POST(reviewer.request(base, init), undefined);
  return { status: res.status, body: await res.json() };
}

/** Posts the body and checks the answer and that the uploads directory is as it was before. */
async function refused(body: BodyInit, status: number, message: RegExp, contentType?: string) {
  const before = uploads();
  const res = await post(body, contentType);
  expect(res.status).toBe(status);
  expect(res.body.error.message).toMatch(message);
  expect(uploads()).toEqual(before);
}

describe('a refused upload leaves nothing under DATA_DIR/uploads', () => {
  it('a validation failure after the files were written (400)', async () => {
    // The sitemap is on disk before the stray field is seen.
    await refused(
      Buffer.concat([part('sitemap', SITEMAP, 's.xml'), part('other', 'x', 'o.xml'), END]),
      400,
      /Unexpected file field "other"/,
    );
    await refused(
      Buffer.concat([part('sitemap', SITEMAP, 's.xml'), part('name', 'x'.repeat(201)), END]),
      400,
      /^name: .*200/,
    );
  });

  it('a NUL in a field or a file name (400 naming it)', async () => {
    await refused(
      Buffer.concat([part('sitemap', SITEMAP, 's.xml'), part('name', 'a\u0000b'), END]),
      400,
      /field "name" must not contain a NUL/,
    );
    await refused(
      Buffer.concat([part('sitemap', SITEMAP, 's.xml'), part('sitemapUrl', 'https://e.example/\u0000'), END]),
      400,
      /field "sitemapUrl" must not contain a NUL/,
    );
    await refused(
      Buffer.concat([part('sitemap', SITEMAP, 'x', "; filename*=utf-8''a%00.xml"), END]),
      400,
      /name of the "sitemap" file must not contain a NUL/,
    );
  });

  it('a file over the size limit (413)', async () => {
    process.env.UPLOAD_MAX_BYTES = '100';
    try {
      await refused(
        Buffer.concat([part('sitemap', SITEMAP, 'big.xml'), END]),
        413,
        /big\.xml is larger than the upload limit/,
      );
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
    }
  });

  it('a truncated body: the last boundary never comes (400)', async () => {
    const whole = Buffer.concat([part('sitemap', SITEMAP, 's.xml'), END]);
    await refused(whole.subarray(0, whole.length - 60), 400, /cut short/);
    // A file already refused (its name holds a NUL) and then cut short: the first reason is given, and
    // the unread file's error is not left unhandled (that would end the process).
    const refusedFile = Buffer.concat([part('sitemap', SITEMAP, 'x', "; filename*=utf-8''a%00.xml"), END]);
    await refused(refusedFile.subarray(0, refusedFile.length - 60), 400, /must not contain a NUL/);
  });

  it('a client that goes away mid-file (400)', async () => {
    const head = part('sitemap', SITEMAP, 's.xml').subarray(0, 200);
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls += 1;
        if (pulls === 1) {
          controller.enqueue(head);
          return;
        }
        // Let busboy open the file and write the first bytes, then drop the connection.
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.error(new Error('aborted'));
      },
    });
    await refused(body, 400, /not received whole/);
  });

  it('multipart without a boundary and other content types (400/415, nothing created)', async () => {
    const body = Buffer.concat([part('sitemap', SITEMAP, 's.xml'), END]);
    await refused(
      body,
      400,
      /no boundary: send Content-Type: multipart\/form-data; boundary=/,
      'multipart/form-data',
    );
    await refused(body, 415, /Send multipart\/form-data/, 'multipart/form-data-x; boundary=a');
    await refused(body, 415, /Send multipart\/form-data/, 'text/xml');
  });
});

describe('upload names keep their UTF-8', () => {
  it('stores and answers the names as sent, with a sanitised name on disk', async () => {
    const names = ['карта-сайта.xml', 'サイトマップ.xml.gz'];
    const res = await post(
      Buffer.concat([
        part('name', 'Сайт — аудит'),
        part('sitemap', SITEMAP, names[0]),
        part('sitemap', gzipSync(SITEMAP), names[1]),
        END,
      ]),
    );
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    // On disk: an ASCII name in the audit's own directory.
    for (const file of readdirSync(path.join(uploadsDir(), id))) expect(file).toMatch(/^[A-Za-z0-9._-]+$/);
    const { rows } = await pool().query(
      'SELECT file_name FROM audit_sources WHERE audit_id = $1 ORDER BY id',
      [id],
    );
    expect(rows.map((r) => r.file_name)).toEqual(names);

    await runAuditStep('ingest', id);
    const ctx = { params: Promise.resolve({ id }) };
    const audit = await (await getAudit(reviewer.request(`${base}/${id}`), ctx)).json();
    expect(audit.name).toBe('Сайт — аудит');
    const files = await (await getSitemaps(reviewer.request(`${base}/${id}/sitemaps`), ctx)).json();
    expect(files.items.map((f: { uploadName: string }) => f.uploadName)).toEqual(names);
    expect(files.items.map((f: { entries: number }) => f.entries)).toEqual([2, 2]);
  });

  it('reads an RFC 5987 filename* too', async () => {
    const encoded = encodeURIComponent('карта.xml');
    const res = await post(
      Buffer.concat([part('sitemap', SITEMAP, 'fallback.xml', `; filename*=UTF-8''${encoded}`), END]),
    );
    expect(res.status).toBe(202);
    const { rows } = await pool().query('SELECT file_name FROM audit_sources WHERE audit_id = $1', [
      res.body.id,
    ]);
    expect(rows.map((r) => r.file_name)).toEqual(['карта.xml']);
  });
});
