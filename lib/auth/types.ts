// Response shapes of the account endpoints (sign-in, users, API tokens, share links). Isomorphic and types
// only: route handlers check their bodies against them (`satisfies Sendable<…>`), ./hooks.ts reads them.
import type { Role } from './roles';

/** A user as sign-in, setup, `POST /users` and `PATCH /users/{id}` answer. */
export interface AccountUserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** `POST /auth/login` and `POST /setup` (the session cookie comes with it). */
export interface SignedInDto {
  user: AccountUserDto;
}

/** `POST /auth/login`: also where to go, `next` if it is a path of this site, else `/`. */
export interface LoggedInDto extends SignedInDto {
  next: string;
}

/** `POST /auth/logout-all`: how many sessions were ended. */
export interface SessionsEndedDto {
  sessions: number;
}

/** An item of `GET /users`. */
export interface UserDto extends AccountUserDto {
  createdAt: string;
  disabledAt: string | null;
}

export interface UserListDto {
  items: UserDto[];
}

/** An item of `GET /tokens` (never the secret). */
export interface TokenDto {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface TokenListDto {
  items: TokenDto[];
}

/** `POST /tokens`: the only response that carries the token's secret. */
export interface CreatedTokenDto {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  token: string;
}

/** A link's state when the list was read: `active` opens the report; `expired` and `revoked` never will. */
export type ShareStatus = 'active' | 'expired' | 'revoked';

/** An item of `GET /audits/{id}/shares`. */
export interface ShareDto {
  id: string;
  status: ShareStatus;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastViewedAt: string | null;
  /** The creator's name. */
  createdBy: string;
  /** Who revoked it; null while not revoked, or when that account was deleted. */
  revokedBy: string | null;
}

export interface ShareListDto {
  items: ShareDto[];
}

/** `POST /audits/{id}/shares`: the only response that carries the link (its token). */
export interface CreatedShareDto {
  id: string;
  url: string;
  expiresAt: string | null;
}
