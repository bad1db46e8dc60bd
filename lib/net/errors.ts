// Builds the NetErrors raised while a request or its body is in flight, with user-safe messages,
// and translates Node's socket/TLS/zlib errors into them.
import { NetError } from './types';

export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

export function deadlineError(url: string, timeoutMs: number): NetError {
  return new NetError('timeout', url, `${url} timed out after ${formatDuration(timeoutMs)}`);
}

export function idleError(url: string, idleMs: number): NetError {
  return new NetError('timeout', url, `${url} sent nothing for ${formatDuration(idleMs)}`);
}

export function connectTimeoutError(url: string, idleMs: number): NetError {
  return new NetError('timeout', url, `${url} did not accept a connection within ${formatDuration(idleMs)}`);
}

export function abortedError(url: string): NetError {
  return new NetError('aborted', url, `The request for ${url} was cancelled`);
}

export function tooLargeError(url: string, maxBytes: number): NetError {
  return new NetError('too_large', url, `${url} is larger than the ${formatBytes(maxBytes)} limit`);
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

// OpenSSL and Node name certificate and handshake failures with these prefixes.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO)/;

/** Maps an error from connecting or awaiting headers; the original is kept as `cause` for retry rules. */
export function requestError(err: unknown, url: string): NetError {
  if (err instanceof NetError) return err;
  const code = errorCode(err);
  if (TLS_CODE.test(code)) {
    return new NetError('tls_error', url, `A secure connection to ${url} could not be established`, {
      cause: err,
    });
  }
  if (code === 'ABORT_ERR') return abortedError(url);
  return new NetError('connect_failed', url, `Could not get a response from ${url}`, { cause: err });
}

/** Maps an error raised while the body streams. */
export function bodyError(err: unknown, url: string): NetError {
  if (err instanceof NetError) return err;
  const code = errorCode(err);
  if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR')) {
    return new NetError('decode_failed', url, `The compressed response from ${url} could not be decoded`, {
      cause: err,
    });
  }
  return new NetError('connect_failed', url, `The connection to ${url} closed before the body was complete`, {
    cause: err,
  });
}
