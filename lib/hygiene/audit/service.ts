// The sitemap lint's orchestration: its step (stored rows through lib/hygiene's engine, per-file dirt from
// the prune list, results stored with the outcome), starting one (after an audit's reconciliation, or on
// a reviewer's request) and the report the API serves.
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { LintEngine } from '@/lib/hygiene/engine';
import { RULES, type RuleCode } from '@/lib/hygiene/rules';
import type { LintExample, LintResult } from '@/lib/hygiene/types';
import type { LintPhase, LintStep } from '@/lib/runs/phases';
import { startRun } from '@/lib/runs/service';
import type { StepHandler } from '@/lib/runs/types';
import {
  activeLint,
  auditStatus,
  entryCountsAgainstPrune,
  latestLint,
  lintOf,
  lintReadiness,
  storedFileDirt,
  storedFiles,
  storedResult,
  streamEntries,
} from './data';
import { EntriesByFile } from './entries-by-file';
import {
  fileError,
  fileLabel,
  fileMeta,
  fileStats,
  isLinted,
  notJudged,
  rankDirt,
  type StoredFile,
  storedRobots,
  toChildEntries,
  toUrlEntry,
} from './feed';
import { insertLint, storeLintResults } from './mutations';
import { lintRun } from './run';
import type { LintReport, TLintPage } from './schema';

/** Entries carry no stored line: their examples say none rather than line 0. */
function withoutLineZero(results: LintResult[]): LintResult[] {
  const clean = (e: LintExample): LintExample => {
    if (e.line !== 0) return e;
    const { line: _line, ...rest } = e;
    return rest;
  };
  return results.map((r) => ({ ...r, examples: r.examples.map(clean) }));
}

export const lintStep: StepHandler<LintStep, LintPhase> = async ({ run, progress }) => {
  const target = await lintOf(run.id);
  if (!target) throw new AppError('not_found', 'No such sitemap lint');
  const { auditId } = target;
  const stored = await storedFiles(auditId);
  const files = stored.filter(isLinted);
  // Without a given site URL, the engine judges uploads against the site of the first absolute page
  // location it reads, as the CLI does for local files: one rule for both.
  const siteUrl = target.siteUrl;
  const children = new Map<number, StoredFile[]>();
  for (const f of files) {
    if (f.parentId === null) continue;
    const list = children.get(f.parentId) ?? [];
    list.push(f);
    children.set(f.parentId, list);
  }
  const total = files.reduce((n, f) => n + (f.kind === 'index' ? 0 : f.entries), 0);
  const engine = new LintEngine({ robots: storedRobots(stored) });
  const entries = new EntriesByFile(streamEntries(auditId)[Symbol.asyncIterator]());
  let done = 0;
  await progress.update('linting', 0, total);
  for (const file of files) {
    const meta = fileMeta(file, siteUrl);
    const error = fileError(file);
    if (error && file.kind === null) {
      engine.fileFailed(meta, error.message);
      continue;
    }
    engine.beginFile(meta);
    if (file.kind === 'index') engine.addEntries(toChildEntries(children.get(file.id) ?? []));
    for await (const batch of entries.of(file.id)) {
      engine.addEntries(batch.map(toUrlEntry));
      done += batch.length;
      await progress.update('linting', done, total);
    }
    engine.endFile(fileStats(file, meta), error);
  }
  const rules = withoutLineZero(engine.finish());
  const labels = new Map(files.map((f) => [f.id, fileLabel(f)]));
  const dirt = rankDirt(
    (await entryCountsAgainstPrune(auditId))
      .filter((r) => labels.has(r.fileId))
      .map((r) => ({ ...r, url: labels.get(r.fileId) as string })),
  );
  const inferred = siteUrl === null && files.some((f) => f.url === null) ? engine.inferredSiteUrl : null;
  const summary = {
    ...engine.totals,
    siteUrl: siteUrl ?? inferred,
    siteUrlInferred: inferred !== null,
    reconciled: target.reconciled,
    notJudged: notJudged(stored),
  };
  return {
    outcome: 'succeeded',
    write: (client) => storeLintResults(client, run.id, auditId, rules, dirt, summary),
  };
};

/** Starts a lint of an audit whose sitemaps were read, for `by`: 404 without the audit, 409 while it (or a
 * lint) runs. An audit that ended after reading its sitemaps (its reconciliation failed or was cancelled)
 * can be graded too. */
export async function startLint(auditId: string, by: string, siteUrl: string | null = null): Promise<string> {
  const audit = await lintReadiness(auditId);
  if (audit === null) throw new AppError('not_found', 'No such audit');
  if (audit.status === 'queued' || audit.status === 'running')
    throw new AppError('conflict', 'This audit is still running; its sitemap files are graded when it ends');
  if (!audit.sitemapsRead)
    throw new AppError('conflict', 'This audit did not finish reading its sitemaps; nothing to grade');
  if (await activeLint(auditId))
    throw new AppError('conflict', 'The sitemap files of this audit are being graded already');
  const id = randomUUID();
  await insertLint(id, auditId, by, siteUrl);
  await startRun(lintRun, id);
  return id;
}

/** The lint of an audit that ended without a reconciliation (no crawl export, or a reconciliation that
 * failed or was cancelled) but read its sitemaps: called when the audit reaches a final state, once (a
 * reconciled audit's lint is started by its review-index step, once its prune list exists). */
export async function startLintIfUnreconciled(auditId: string): Promise<void> {
  const audit = await lintReadiness(auditId);
  if (!audit || audit.reconciled || audit.linted || !audit.sitemapsRead) return;
  if (audit.status === 'queued' || audit.status === 'running') return;
  await startLintAfterAudit(auditId);
}

/** The lint every reconciled audit gets (its review-index step calls it). Never throws: the audit is done
 * either way, and a reviewer can start one (POST …/lint). */
export async function startLintAfterAudit(auditId: string): Promise<void> {
  try {
    if (await activeLint(auditId)) return;
    const id = randomUUID();
    await insertLint(id, auditId, 'system', null);
    await startRun(lintRun, id);
  } catch (error) {
    console.error(
      `[worker] could not start the sitemap lint of audit ${auditId}: ${(error as Error).message}`,
    );
  }
}

/** What GET …/lint answers: the latest lint's state and the stored result (files ranked, paged). */
export async function lintReport(auditId: string, page: TLintPage): Promise<LintReport> {
  if ((await auditStatus(auditId)) === null) throw new AppError('not_found', 'No such audit');
  const [latest, result] = await Promise.all([latestLint(auditId), storedResult(auditId)]);
  const files = result ? await storedFileDirt(result.lintId, page.limit, page.offset) : null;
  return {
    status: latest?.status ?? 'none',
    lint: latest && {
      id: latest.id,
      status: latest.status,
      phase: latest.phase,
      error: latest.errorMessage,
      createdAt: latest.createdAt.toISOString(),
      finishedAt: latest.finishedAt?.toISOString() ?? null,
    },
    checkedAt: result?.finishedAt?.toISOString() ?? null,
    summary: result?.summary ?? null,
    rules: (result?.rules ?? []).map((r) => {
      const rule = RULES[r.code as RuleCode] as { title: string; fix: string } | undefined;
      return { ...r, title: rule?.title ?? r.code, fix: rule?.fix ?? '' };
    }),
    files: files?.files ?? [],
    filesTotal: files?.total ?? 0,
    filesFlagged: files?.flagged ?? 0,
  };
}
