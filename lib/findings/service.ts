// Request-level rules of the findings endpoints: who decides.
import { AppError } from '@/lib/api/errors';

const MAX_REVIEWER = 100;

/** Who made a decision. Until accounts exist it is the name the reviewer gives (X-Reviewer header). */
export function reviewerFrom(request: Request): string {
  const raw = request.headers.get('x-reviewer')?.trim() ?? '';
  if (raw.length > MAX_REVIEWER) {
    throw new AppError('validation_failed', `X-Reviewer must be at most ${MAX_REVIEWER} characters`);
  }
  return raw || 'anonymous reviewer';
}
