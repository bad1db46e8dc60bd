// GET /r/<token>/report.pdf: the shared report as a PDF download. An unknown, revoked or expired token is
// a plain 404, the same for all three.
import { buildReportPdf } from '@/lib/report/pdf';
import { loadPdfReport, openShare, reportFileName } from '@/lib/report/shared';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Context = { params: Promise<{ token: string }> };

export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const share = await openShare((await params).token);
  if (!share) {
    return new Response('Not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const pdf = await buildReportPdf(await loadPdfReport(share));
  return new Response(new Uint8Array(pdf), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${reportFileName(share.audit.name)}"`,
      'content-length': String(pdf.length),
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex, nofollow',
    },
  });
}
