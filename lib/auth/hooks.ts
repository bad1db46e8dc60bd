// TanStack Query hooks for the account endpoints, one per endpoint: sign-in and setup, sign-out, your
// password, users (admin), your API tokens and an audit's share links.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, sendJson } from '@/lib/client/api';
import type { TLogin, TNewShare, TNewToken, TNewUser, TPasswordChange, TSetup, TUserChange } from './schema';
import type {
  AccountUserDto,
  CreatedShareDto,
  CreatedTokenDto,
  LoggedInDto,
  SessionsEndedDto,
  ShareListDto,
  SignedInDto,
  TokenListDto,
  UserDto,
  UserListDto,
} from './types';

export const userKeys = { list: ['users', 'list'] as const };
export const tokenKeys = { list: ['tokens', 'list'] as const };
export const shareKeys = { list: (auditId: string) => ['shares', auditId] as const };

const userPath = (id: string) => `/api/v1/users/${encodeURIComponent(id)}`;
const tokenPath = (id: string) => `/api/v1/tokens/${encodeURIComponent(id)}`;
const sharesPath = (auditId: string) => `/api/v1/audits/${encodeURIComponent(auditId)}/shares`;

// Sign-in, setup and sign-out: the pages go on with a full page load, which starts with an empty cache.

export function useLogin() {
  return useMutation({
    mutationFn: (body: TLogin) => sendJson<LoggedInDto>('/api/v1/auth/login', 'POST', body),
  });
}

export function useSetup() {
  return useMutation({
    mutationFn: (body: TSetup) => sendJson<SignedInDto>('/api/v1/setup', 'POST', body),
  });
}

export function useLogout() {
  return useMutation({ mutationFn: () => sendJson<void>('/api/v1/auth/logout', 'POST') });
}

export function useLogoutEverywhere() {
  return useMutation({
    mutationFn: () => sendJson<SessionsEndedDto>('/api/v1/auth/logout-all', 'POST', {}),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: TPasswordChange) => sendJson<void>('/api/v1/auth/password', 'POST', body),
  });
}

// Users (admin only).

export function useUsers() {
  return useQuery({
    queryKey: userKeys.list,
    queryFn: ({ signal }) => apiFetch<UserListDto>('/api/v1/users', { signal }),
    select: (data) => data.items,
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TNewUser) => sendJson<AccountUserDto>('/api/v1/users', 'POST', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.list }),
  });
}

/** The row as it will be after `change`: the PATCH answers without `createdAt` and `disabledAt`, so those
 * are kept (or predicted) until the list is refetched. */
function applyUserChange(row: UserDto, updated: AccountUserDto, change: TUserChange): UserDto {
  const disabledAt =
    change.disabled === undefined
      ? row.disabledAt
      : change.disabled
        ? (row.disabledAt ?? new Date().toISOString())
        : null;
  return { ...row, ...updated, disabledAt };
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TUserChange) => sendJson<AccountUserDto>(userPath(id), 'PATCH', change),
    onSuccess: (updated, change) =>
      queryClient.setQueryData<UserListDto>(userKeys.list, (data) =>
        data
          ? { items: data.items.map((u) => (u.id === updated.id ? applyUserChange(u, updated, change) : u)) }
          : data,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.list }),
  });
}

export function useDeleteUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson<void>(userPath(id), 'DELETE'),
    onSuccess: () =>
      queryClient.setQueryData<UserListDto>(userKeys.list, (data) =>
        data ? { items: data.items.filter((u) => u.id !== id) } : data,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.list }),
  });
}

// Your API tokens.

export function useTokens() {
  return useQuery({
    queryKey: tokenKeys.list,
    queryFn: ({ signal }) => apiFetch<TokenListDto>('/api/v1/tokens', { signal }),
    select: (data) => data.items,
  });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TNewToken) => sendJson<CreatedTokenDto>('/api/v1/tokens', 'POST', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.list }),
  });
}

export function useRevokeToken(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson<void>(tokenPath(id), 'DELETE'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenKeys.list }),
  });
}

// An audit's share links (reviewers and admins).

export function useShares(auditId: string) {
  return useQuery({
    queryKey: shareKeys.list(auditId),
    queryFn: ({ signal }) => apiFetch<ShareListDto>(sharesPath(auditId), { signal }),
    select: (data) => data.items,
  });
}

export function useCreateShare(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TNewShare) => sendJson<CreatedShareDto>(sharesPath(auditId), 'POST', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.list(auditId) }),
  });
}

/** Revokes one of the audit's links (`DELETE /shares/{id}`); the audit's list is refetched. */
export function useRevokeShare(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) =>
      sendJson<void>(`/api/v1/shares/${encodeURIComponent(shareId)}`, 'DELETE'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.list(auditId) }),
  });
}
