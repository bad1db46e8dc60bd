// What a list loaded with TanStack Query shows while it loads or after it failed (with a retry); once
// the data is there, `children` renders it.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Alert } from './alert';

export function QueryStatus<T>({
  query,
  loading,
  failed,
  children,
}: {
  query: UseQueryResult<T, Error>;
  /** Shown while loading, e.g. "Loading users…". */
  loading: string;
  /** The failure's title, e.g. "The users could not be loaded". */
  failed: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        {loading}
      </p>
    );
  }
  if (query.isError) {
    return (
      <Alert title={failed}>
        {query.error.message}{' '}
        <button type="button" className="button button--small" onClick={() => void query.refetch()}>
          Try again
        </button>
      </Alert>
    );
  }
  return children(query.data);
}
