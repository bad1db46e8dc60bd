import { auditIdParam } from '@/lib/api/params';
import { route } from '@/lib/api/respond';
import { CSV_HEADER, csvLine, exportFileName, findingCsvLine, findingJsonLine } from '@/lib/findings/csv';
import { streamFindings } from '@/lib/findings/data';
import { ZExportQuery } from '@/lib/findings/schema';
import { reconciledAudit } from '@/lib/findings/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZExportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const audit = await reconciledAudit(id);
  const batches = streamFindings(id, query.list, query.decision);
  const encoder = new TextEncoder();
  const line = query.format === 'csv' ? findingCsvLine : findingJsonLine;
  let headerSent = query.format !== 'csv';
  // Pulled batch by batch from a database cursor: the export never sits in memory whole.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(CSV_HEADER)));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map(line).join('')));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const name = exportFileName(audit.name, query.list, query.decision, query.format);
  return new Response(body, {
    headers: {
      'content-type':
        query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  });
});
