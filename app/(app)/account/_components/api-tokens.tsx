'use client';
// Your API tokens: the list, creating one (its secret is shown once), and revoking.
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Field } from '@/components/ui/field';
import { QueryStatus } from '@/components/ui/query-status';
import revealStyles from '@/components/ui/token-reveal.module.css';
import { useCreateToken, useRevokeToken, useTokens } from '@/lib/auth/hooks';
import type { CreatedTokenDto, TokenDto } from '@/lib/auth/types';
import { formErrors } from '@/lib/client/field-errors';
import { formatDateTime } from '@/lib/core/format';

export function ApiTokens() {
  const tokens = useTokens();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedTokenDto | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const create = useCreateToken();
  // A refused name says why under the field, in a sentence.
  const tokenErrors = formErrors(create.error, { name: 'Token name' });
  const nameError = tokenErrors.fields.name;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName('');
        },
      },
    );
  };

  return (
    <section className="card" aria-labelledby="tokens-heading">
      <div className="card__header">
        <h2 id="tokens-heading">API tokens</h2>
        <span className="muted small">For scripts: they act as you, with your role</span>
      </div>
      <div className="card__body stack">
        {created ? <TokenReveal token={created} onDone={() => setCreated(null)} /> : null}
        {revokeError ? <Alert title="The token could not be revoked">{revokeError}</Alert> : null}
        <QueryStatus query={tokens} loading="Loading tokens…" failed="Your tokens could not be loaded">
          {(list) =>
            list.length === 0 ? (
              <p className="muted">You have no API tokens yet.</p>
            ) : (
              <div className="table-wrap">
                <table className="plain-table">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Token</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((token) => (
                      <TokenRow
                        key={token.id}
                        token={token}
                        onStart={() => setRevokeError(null)}
                        onError={setRevokeError}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryStatus>

        <form className="form-section" onSubmit={onSubmit} aria-labelledby="new-token-heading">
          <h3 id="new-token-heading">Create a token</h3>
          <Field
            label="Token name"
            id="new-token-name"
            hint="Something that tells you later where the token is used."
            error={nameError}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                value={name}
                required
                maxLength={100}
                autoComplete="off"
                placeholder="e.g. nightly export script"
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          {create.isError && !nameError ? (
            <Alert title="The token could not be created">{tokenErrors.summary}</Alert>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button--primary" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create token'}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}

function TokenRow({
  token,
  onStart,
  onError,
}: {
  token: TokenDto;
  onStart: () => void;
  onError: (message: string) => void;
}) {
  const revoke = useRevokeToken(token.id);
  const revoked = token.revokedAt !== null;
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <code>{token.prefix}…</code>
      </td>
      <td>
        <time dateTime={token.createdAt}>{formatDateTime(token.createdAt)}</time>
      </td>
      <td>
        {token.lastUsedAt ? (
          <time dateTime={token.lastUsedAt}>{formatDateTime(token.lastUsedAt)}</time>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td>
        {revoked ? (
          <span className="badge badge--neutral" title={`Revoked ${formatDateTime(token.revokedAt)}`}>
            Revoked
          </span>
        ) : (
          <span className="badge badge--success">Active</span>
        )}
      </td>
      <td>
        {revoked ? null : (
          <ConfirmButton
            title={`Revoke “${token.name}”?`}
            message="Scripts using this token will get 401 errors from now on. This cannot be undone."
            confirmLabel="Revoke token"
            busy={revoke.isPending}
            onConfirm={() => {
              onStart();
              revoke.mutate(undefined, { onError: (error) => onError(error.message) });
            }}
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke'}
            <span className="visually-hidden"> {token.name}</span>
          </ConfirmButton>
        )}
      </td>
    </tr>
  );
}

function TokenReveal({ token, onDone }: { token: CreatedTokenDto; onDone: () => void }) {
  const [copied, setCopied] = useState<'token' | 'failed' | null>(null);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const curl = `curl -H "Authorization: Bearer ${token.token}" ${origin}/api/v1/audits`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied('token');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="alert alert--info" role="status">
      <strong>Token “{token.name}” created</strong>
      <div className="stack">
        <p>Copy it now: it will not be shown again.</p>
        <div className={revealStyles['token-reveal']} data-testid="token-secret">
          {token.token}
        </div>
        <p className="small">Try it:</p>
        <div className={revealStyles['token-reveal']}>
          <code>{curl}</code>
        </div>
        <div className="form-actions">
          <button type="button" className="button button--small" onClick={copy}>
            Copy token
          </button>
          <button type="button" className="button button--small" onClick={onDone}>
            Done, hide it
          </button>
          <span className="muted small" aria-live="polite">
            {copied === 'token'
              ? 'Copied.'
              : copied === 'failed'
                ? 'Copy failed: select the text instead.'
                : ''}
          </span>
        </div>
      </div>
    </div>
  );
}
