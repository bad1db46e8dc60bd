'use client';
// "Add a crawl export" on the Crawl import tab of an audit that has none: the New audit form's crawl fields
// (file or URL, format, column map), posted to POST …/crawl. The audit then reads the crawl and reconciles
// it with the sitemap entries it already read; its page follows the run as for a new audit.
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { useAddCrawl } from '@/lib/audits/hooks';
import { buildCrawlFormData, type CrawlInput, validateCrawlInput } from '@/lib/audits/new-audit-input';
import { formErrors } from '@/lib/client/field-errors';
import { CrawlFields } from '../../../new/_components/crawl-section';

const SERVER_FIELDS = { crawlUrl: 'The crawl export URL', options: 'The options' };

export function AddCrawlForm({ auditId }: { auditId: string }) {
  const addCrawl = useAddCrawl(auditId);
  const formRef = useRef<HTMLFormElement>(null);
  const [input, setInput] = useState<CrawlInput>({
    crawlFile: null,
    crawlUrl: '',
    crawlFormat: 'auto',
    columnMap: {},
  });
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const errors = hasTriedSubmit ? validateCrawlInput(input, true) : {};
  const update = (patch: Partial<CrawlInput>) => setInput((current) => ({ ...current, ...patch }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setHasTriedSubmit(true);
    const found = validateCrawlInput(input, true);
    if (found.crawl || found.columnMap) {
      formRef.current?.querySelector<HTMLElement>(found.crawl ? '#crawl-url' : '#column-url')?.focus();
      return;
    }
    addCrawl.mutate(buildCrawlFormData(input));
  };
  const refused = addCrawl.isError ? formErrors(addCrawl.error, SERVER_FIELDS) : null;

  return (
    <form
      ref={formRef}
      className="form-section add-crawl"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-crawl-heading"
      data-testid="add-crawl-form"
    >
      <div>
        <h3 id="add-crawl-heading">Add a crawl export</h3>
        <p className="muted small">
          The crawl is read and reconciled with the sitemap entries this audit already read: its Review tab
          lists what to prune, hold and add.
        </p>
      </div>
      <CrawlFields input={input} errors={errors} update={update} />
      {refused ? (
        <Alert title="The crawl export was not added">
          {[...Object.values(refused.fields), refused.summary].filter(Boolean).join(' ')}
        </Alert>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={addCrawl.isPending}>
          {addCrawl.isPending ? 'Adding the crawl export…' : 'Add and reconcile'}
        </button>
      </div>
    </form>
  );
}
