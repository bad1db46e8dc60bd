// What the review says when a decision was not saved: what happened and what to do, in one sentence per
// cause (a refusal of the role, a signed-out session, the spot-check rule, no answer, anything else).
import { ApiError } from '@/lib/client/api';

export function decisionFailureSentence(failure: unknown): string {
  if (!(failure instanceof ApiError))
    return 'The decision was not saved: something went wrong in the page. Reload it and try again.';
  switch (failure.status) {
    case 0:
      return 'The decision was not saved: the server could not be reached. Check your connection and try again.';
    case 401:
      return 'The decision was not saved: you are signed out. Sign in again, then repeat the decision.';
    case 403:
      return 'The decision was not saved: your account can only read this audit. Ask an admin for the reviewer role to decide.';
    case 404:
      return 'The decision was not saved: this row or audit no longer exists. Reload the page to see what is left.';
    default:
      // The server's own message is a sentence already (the spot-check rule says which rows and what to do).
      return `The decision was not saved: ${failure.message}`;
  }
}
