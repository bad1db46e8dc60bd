'use client';
// Review of one findings list: tabs, filters, the keyset-paged table, selection (by row or "all
// matching"), decisions by button or key (a decision on more than a page of matching rows is confirmed
// first, with the server's preview), "approve all confirmed" (a filter decision by live verdict, through the
// same confirmation), the side panel and exports. While the audit requires a confirming spot-check for
// unreached rows, approving one without it is refused here with the reason (and by the server). View
// state lives in the URL.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCan } from '@/app/session-context';
import { decisionFailureSentence } from '@/components/findings/decision-failure';
import { resultSentence } from '@/components/findings/decision-words';
import { emptyListMessage } from '@/components/findings/review-words';
import { Alert } from '@/components/ui/alert';
import { useAudit } from '@/lib/audits/hooks';
import { formatCount } from '@/lib/core/format';
import { FINISHED_RUN_STATUSES } from '@/lib/findings/evidence/live';
import { type FindingView, filterOf, PAGE_SIZE } from '@/lib/findings/format';
import type { Decision, FindingDto, FindingList, FindingsOverview } from '@/lib/findings/schema';
import { approvalBlockedReason, approveConfirmedOf } from '@/lib/review/decision-rule';
import {
  type DecisionTarget,
  findingKeys,
  useDecide,
  useDecisionPreview,
  useFindings,
} from '@/lib/review/hooks';
import { useSpotCheckRuns } from '@/lib/spot-check/hooks';
import { BulkDecisionDialog, type BulkRequest } from './bulk-decision-dialog';
import { type ConfirmedRows, FindingsActions, type SelectionSummary } from './findings-actions';
import { FindingsExport } from './findings-export';
import { FindingsFilters } from './findings-filters';
import { FindingsPager } from './findings-pager';
import { FindingsPanel } from './findings-panel';
import { FindingsTable } from './findings-table';
import { FindingsTabs, TAB_PANEL_ID, tabId } from './findings-tabs';
import styles from './review.module.css';
import { ReviewSpotCheck } from './review-spot-check';
import type { HistoryMode } from './use-finding-view';
import { useReviewKeys } from './use-review-keys';

/** Verdicts come from finished spot-check runs: when another run finishes, the rows' Live column, the
 * verdict filter's rows and the confirmed count change, so the findings are read again. (The runs are the
 * spot-check panel's query, polled while one is active.) */
function useFreshVerdicts(auditId: string, onFresh: () => void) {
  const queryClient = useQueryClient();
  const onFreshRef = useRef(onFresh);
  onFreshRef.current = onFresh;
  const runs = useSpotCheckRuns(auditId);
  const finished = runs.data
    ?.filter((run) => FINISHED_RUN_STATUSES.some((status) => status === run.status))
    .map((run) => run.id)
    .join(',');
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (finished === undefined) return;
    if (seen.current !== undefined && seen.current !== finished) {
      void queryClient.invalidateQueries({ queryKey: findingKeys.all(auditId) });
      onFreshRef.current();
    }
    seen.current = finished;
  }, [finished, auditId, queryClient]);
}

/** Before the first page arrives: no Live or Search Console column. */
const NO_COLUMNS = { live: false, gsc: false } as const;

interface Selection {
  /** The filter the selection belongs to; a new filter starts with nothing selected. */
  key: string;
  isAll: boolean;
  ids: ReadonlySet<number>;
}

export function FindingsSection({
  auditId,
  findings,
  view,
  setView,
  hasNoOverlap,
  hasInlinks,
}: {
  auditId: string;
  findings: FindingsOverview;
  view: FindingView;
  setView: (next: FindingView, mode?: HistoryMode) => void;
  hasNoOverlap: boolean;
  /** The crawl export had an inlinks column. */
  hasInlinks: boolean;
}) {
  const region = useRef<HTMLElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const filterKey = JSON.stringify(filterOf(view));
  const orderKey = `${filterKey}|${view.sort}`;
  const pageKey = `${orderKey}|${view.cursor ?? ''}`;

  const page = useFindings(auditId, view);
  const items = page.data?.items ?? [];
  const total = page.data?.total ?? 0;
  // While a new filter loads, the previous page stays on screen; its total must not be acted on.
  const isCurrent = page.data !== undefined && !page.isPlaceholderData;
  const decide = useDecide(auditId);
  const canDecide = useCan('reviewer');
  // The audit page has it already (polled while the audit runs): one cached query.
  const audit = useAudit(auditId).data;
  const requireSpotCheck = audit?.settings?.requireSpotCheckForUnreached === true;
  // The site's rule comes with the audit.
  const requireConfirmed = audit?.site?.settings.requireConfirmedUnreached === true;
  const blockedReason = (finding: FindingDto) =>
    approvalBlockedReason(finding, requireSpotCheck, requireConfirmed);

  // "Approve all confirmed": the pending rows of this filter with a confirming verdict, counted by the
  // decision preview (asked afresh after every decision).
  const approveConfirmed = approveConfirmedOf(filterOf(view));
  const confirmedPreview = useDecisionPreview(
    auditId,
    canDecide && approveConfirmed
      ? { decision: 'approved', filter: approveConfirmed.filter, override: false }
      : null,
  );
  const confirmedCounts = confirmedPreview.isPlaceholderData ? undefined : confirmedPreview.data;

  // Page number of every cursor seen in this order ('' is the first page), so Previous and the page number
  // survive back/forward; after a reload or a shared link the pages before are unknown.
  const [known, setKnown] = useState<{ key: string; pages: ReadonlyMap<string, number> }>({
    key: '',
    pages: new Map(),
  });
  const pages = known.key === orderKey ? known.pages : new Map<string, number>();
  const pageNumber = view.cursor === undefined ? 1 : (pages.get(view.cursor) ?? null);
  const previousCursor =
    pageNumber === null ? undefined : [...pages].find(([, number]) => number === pageNumber - 1)?.[0];
  const [selectionState, setSelection] = useState<Selection>({ key: '', isAll: false, ids: new Set() });
  const selection: Selection =
    selectionState.key === filterKey ? selectionState : { key: filterKey, isAll: false, ids: new Set() };
  const [focus, setFocus] = useState({ key: '', index: 0 });
  const focusIndex = focus.key === pageKey ? Math.min(focus.index, Math.max(0, items.length - 1)) : 0;
  const [focusRequest, setFocusRequest] = useState(0);
  const [isPanelOpen, setPanelOpen] = useState(false);
  const [note, setNote] = useState('');
  const [announcement, setAnnouncement] = useState({ text: '', id: 0 });
  const [error, setError] = useState<string | null>(null);
  // A refusal for want of a spot-check is out of date once a run has checked rows.
  useFreshVerdicts(auditId, () => setError(null));
  const [bulk, setBulk] = useState<BulkRequest | null>(null);
  const [bulkError, setBulkError] = useState<string | null>(null);

  const announce = (text: string) => setAnnouncement((current) => ({ text, id: current.id + 1 }));
  const isSelected = useCallback(
    (id: number) => selection.isAll || selection.ids.has(id),
    [selection.isAll, selection.ids],
  );
  const onFocusRow = useCallback((index: number) => setFocus({ key: pageKey, index }), [pageKey]);

  /** Records the decision and says what the server did; a failure is said in words and returned. */
  const run = async (
    decision: Decision,
    target: DecisionTarget,
    { note: withNote, override }: { note?: string; override?: boolean } = {},
  ): Promise<string | null> => {
    setError(null);
    try {
      const result = await decide.mutateAsync({ decision, target, note: withNote, override });
      announce(resultSentence(result, decision, 'ids' in target && Boolean(withNote)));
      return null;
    } catch (failure) {
      return decisionFailureSentence(failure);
    }
  };

  /** Keyboard review decides and moves on; the panel's radios decide in place. If the decision fails,
   * focus goes back to the row it was for. */
  const decideRow = (finding: FindingDto, decision: Decision, advance = false) => {
    const index = items.findIndex((item) => item.id === finding.id);
    const blocked =
      decision === 'approved' && finding.decision !== 'approved' ? blockedReason(finding) : null;
    if (blocked) {
      setError(`Not approved: ${blocked}`);
      return;
    }
    void run(decision, { ids: [finding.id] }).then((failure) => {
      if (failure === null) return;
      setError(failure);
      if (!advance || index < 0) return;
      setFocus({ key: pageKey, index });
      setFocusRequest((n) => n + 1);
    });
    if (!advance) return;
    // A row that leaves a decision-filtered view is removed at once, so the next row slides into place.
    const willLeave = view.decision !== undefined && view.decision !== decision;
    if (index >= 0 && !willLeave && index < items.length - 1) setFocus({ key: pageKey, index: index + 1 });
    setFocusRequest((n) => n + 1);
  };

  const clearSelection = () => {
    setSelection({ key: filterKey, isAll: false, ids: new Set() });
    setNote('');
  };

  /** Rows picked by id are decided at once; every row matching a filter of more than one page is
   * confirmed first (the dialog says what will change and what stays). */
  const onBulk = async (decision: Decision) => {
    if (selection.isAll && total > PAGE_SIZE) {
      setBulkError(null);
      setBulk({ id: Date.now(), decision, filter: filterOf(view), total });
      return;
    }
    const target: DecisionTarget = selection.isAll ? { filter: filterOf(view) } : { ids: [...selection.ids] };
    const failure = await run(decision, target, { note: note.trim() || undefined });
    if (failure === null) clearSelection();
    else setError(failure);
  };

  const confirmed: ConfirmedRows | null =
    approveConfirmed && confirmedCounts && confirmedCounts.willChange > 0
      ? {
          count: confirmedCounts.willChange,
          rows: approveConfirmed.rows,
          onApprove: () => {
            setBulkError(null);
            const byDecision = Object.values(confirmedCounts.byDecision);
            setBulk({
              id: Date.now(),
              decision: 'approved',
              filter: approveConfirmed.filter,
              total: byDecision.reduce((sum, n) => sum + n, 0),
              rows: approveConfirmed.rows,
            });
          },
        }
      : null;

  const onConfirmBulk = async (override: boolean) => {
    if (!bulk) return;
    setBulkError(null);
    const failure = await run(
      bulk.decision,
      { filter: bulk.filter },
      { note: note.trim() || undefined, override },
    );
    if (failure !== null) {
      setBulkError(failure);
      return;
    }
    setBulk(null);
    clearSelection();
  };

  const toggle = useCallback(
    (id: number) => {
      setSelection((current) => {
        const base =
          current.key === filterKey ? current : { key: filterKey, isAll: false, ids: new Set<number>() };
        // "All matching" cannot leave rows out (the API takes a filter or ids): narrow to this page.
        const ids = new Set(base.isAll ? items.map((item) => item.id) : base.ids);
        if (ids.has(id)) ids.delete(id);
        else ids.add(id);
        return { key: filterKey, isAll: false, ids };
      });
    },
    [filterKey, items],
  );
  const selectedOnPage = items.filter((item) => isSelected(item.id)).length;
  const pageState = selectedOnPage === 0 ? 'none' : selectedOnPage === items.length ? 'all' : 'some';
  const togglePage = () => {
    const ids = new Set(selection.isAll ? [] : selection.ids);
    for (const item of items) {
      if (pageState === 'all') ids.delete(item.id);
      else ids.add(item.id);
    }
    setSelection({ key: filterKey, isAll: false, ids });
  };

  const focused = items[focusIndex];
  useReviewKeys(region, items.length > 0, {
    move: (step, isFromRow) => {
      // The first key press from outside the table lands on the current row instead of skipping it.
      const index = isFromRow ? focusIndex + step : focusIndex;
      setFocus({ key: pageKey, index: Math.min(items.length - 1, Math.max(0, index)) });
      setFocusRequest((n) => n + 1);
    },
    // A viewer's a, r and x do nothing: nothing is sent that the server would refuse.
    decide: (decision) => {
      if (focused && canDecide) decideRow(focused, decision, true);
    },
    toggle: () => {
      if (focused && canDecide) toggle(focused.id);
    },
    open: () => setPanelOpen(true),
    close: () => {
      if (!isPanelOpen) return;
      setPanelOpen(false);
      setFocusRequest((n) => n + 1);
    },
  });

  const goTo = (cursor: string | undefined, number: number | null) => {
    const next = new Map(pages).set('', 1);
    if (cursor && number !== null) next.set(cursor, number);
    setKnown({ key: orderKey, pages: next });
    setView({ ...view, cursor });
    tableRef.current?.scrollIntoView({ block: 'nearest' });
  };
  const changeList = (list: FindingList) => {
    if (list !== view.list) setView({ list, sort: view.sort });
  };
  const selectionSummary: SelectionSummary = selection.isAll
    ? { mode: 'all', count: total }
    : { mode: 'ids', count: selection.ids.size };
  const listSummary = findings[view.list];
  // Older audits did not record the mapping of an inlinks column; their rows still say.
  const showInlinks = hasInlinks || items.some((item) => item.inlinks !== null);

  return (
    <section
      ref={region}
      id="findings"
      className={`card findings ${styles.findings}`}
      aria-labelledby="findings-heading"
    >
      <div className="card__header">
        <h2 id="findings-heading">Review</h2>
        <FindingsExport auditId={auditId} list={view.list} findings={findings} />
      </div>
      <FindingsTabs
        active={view.list}
        totals={{ prune: findings.prune.total, add: findings.add.total, held: findings.held.total }}
        onChange={changeList}
      />
      <div role="tabpanel" id={TAB_PANEL_ID} aria-labelledby={tabId(view.list)} className="card__body stack">
        <FindingsFilters
          auditId={auditId}
          view={view}
          byReason={listSummary.byReason}
          decisions={findings.decisions?.[view.list]}
          hasInlinks={showInlinks}
          onChange={setView}
        />
        <div className={styles['findings-meta']}>
          <p
            data-testid="findings-total"
            data-value={isCurrent ? total : undefined}
            aria-busy={!isCurrent}
            aria-live="polite"
          >
            {page.data ? (
              <>
                <strong>{formatCount(total)}</strong> {total === 1 ? 'row matches' : 'rows match'}
              </>
            ) : (
              'Loading…'
            )}
          </p>
          <p id="findings-keys-help" className={`muted small ${styles['findings-keys']}`}>
            {canDecide ? (
              <>
                Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>x</kbd> select, <kbd>a</kbd> approve, <kbd>r</kbd>{' '}
                reject, <kbd>Enter</kbd> details, <kbd>Esc</kbd> close
              </>
            ) : (
              <>
                Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> details, <kbd>Esc</kbd> close
              </>
            )}
          </p>
        </div>
        <FindingsActions
          selection={selectionSummary}
          total={isCurrent ? total : 0}
          note={note}
          isBusy={decide.isPending && selection.isAll}
          announcement={announcement}
          // While the side panel is open it says why a decision failed (it covers this bar on a phone).
          error={isPanelOpen && focused ? null : error}
          onNoteChange={setNote}
          onSelectAllMatching={() => setSelection({ key: filterKey, isAll: true, ids: new Set() })}
          onClearSelection={() => setSelection({ key: filterKey, isAll: false, ids: new Set() })}
          onDecide={(decision) => void onBulk(decision)}
          confirmed={confirmed}
          spotCheck={
            <ReviewSpotCheck
              auditId={auditId}
              selection={
                selection.isAll ? { all: true } : selection.ids.size > 0 ? { ids: [...selection.ids] } : null
              }
              selectedCount={selectionSummary.count}
              filter={filterOf(view)}
              total={isCurrent ? total : 0}
            />
          }
        />
        <BulkDecisionDialog
          auditId={auditId}
          request={bulk}
          isBusy={decide.isPending}
          error={bulkError}
          onConfirm={(override) => void onConfirmBulk(override)}
          onCancel={() => setBulk(null)}
        />
        {page.isError ? <Alert title="Could not load the findings">{page.error.message}</Alert> : null}
        <div aria-busy={page.isFetching && page.isPlaceholderData} className={styles['findings-table-wrap']}>
          <FindingsTable
            items={items}
            columns={page.data?.columns ?? NO_COLUMNS}
            list={view.list}
            hasInlinks={showInlinks}
            emptyMessage={
              !page.data
                ? 'Loading the findings…'
                : listSummary.total === 0
                  ? emptyListMessage(view.list, findings, { hasNoOverlap })
                  : view.cursor
                    ? 'No more rows here. Go back to the first page.'
                    : 'No findings match these filters.'
            }
            sort={view.sort}
            focusIndex={focusIndex}
            focusRequest={focusRequest}
            isSelected={isSelected}
            canSelect={canDecide}
            pageState={pageState}
            onFocusRow={onFocusRow}
            onToggle={toggle}
            onTogglePage={togglePage}
            onOpen={(index) => {
              setFocus({ key: pageKey, index });
              setPanelOpen(true);
            }}
            onSort={(sort) => setView({ ...view, sort, cursor: undefined })}
            tableRef={tableRef}
          />
        </div>
        <FindingsPager
          pageNumber={pageNumber}
          shown={items.length}
          pageSize={PAGE_SIZE}
          hasPrevious={view.cursor !== undefined}
          hasNext={Boolean(page.data?.nextCursor)}
          onFirst={() => goTo(undefined, 1)}
          onPrevious={() =>
            pageNumber !== null && pageNumber > 2 && previousCursor
              ? goTo(previousCursor, pageNumber - 1)
              : goTo(undefined, 1)
          }
          onNext={() => goTo(page.data?.nextCursor ?? undefined, pageNumber === null ? null : pageNumber + 1)}
        />
      </div>
      {isPanelOpen && focused ? (
        <FindingsPanel
          auditId={auditId}
          finding={focused}
          approvalBlocked={blockedReason(focused)}
          error={error}
          canDecide={canDecide}
          onDecide={(finding, decision) => decideRow(finding, decision)}
          onClose={() => {
            setPanelOpen(false);
            setFocusRequest((n) => n + 1);
          }}
        />
      ) : null}
    </section>
  );
}
