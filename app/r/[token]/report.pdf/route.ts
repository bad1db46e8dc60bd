// GET /r/<token>/report.pdf: the shared report as a PDF download, streamed as it is drawn (no length is
// known beforehand). An unknown, revoked or expired token is a plain 404, the same for all three.
import { Readable } from 'node:stream';
import { publicOrigin } from '@/lib/auth/request';
import { reportPdfStream } from '@/lib/report/pdf';
import { loadPdfReport } from '@/lib/report/pdf-data';
import { openShare, reportFileName } from '@/lib/report/shared';
import { toErrorResponse } from '@/lib/server/errors';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Context = { params: Promise<{ token: string }> };

export async function GET(request: Request, context: Context): Promise<Response> {
  try {
    return await report(request, context);
  } catch (error) {
    // A database restart is worth a retry (503 with Retry-After), as on the API; anything else stays a 500.
    const { status, headers, body } = toErrorResponse(error);
    return new Response(body.error.message, {
      status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
}

async function report(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const share = await openShare(token);
  if (!share) {
    return new Response('Not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  // The link this PDF came from, on the origin people reach the app at (as the share panel hands it out).
  const reportUrl = `${publicOrigin(request)}/r/${encodeURIComponent(token)}`;
  const pdf = reportPdfStream(await loadPdfReport(share, new Date(), reportUrl));
  // A reader that goes away cancels the web stream, which destroys the document: drawing stops.
  return new Response(Readable.toWeb(pdf) as ReadableStream<Uint8Array>, {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${reportFileName(share.audit.name)}"`,
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex, nofollow',
    },
  });
}
