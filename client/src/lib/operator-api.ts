import { ApiError } from './api.js';
import { ROUTES, routePath, type CodedError, type HttpError, type RouteAnswer, type RouteName } from './contract.js';

/**
 * The operator page's calls, with the ADMIN_TOKEN the operator typed in instead of the player's
 * token (a 401 here forgets no identity). Apart from api.ts so that no player's first load
 * carries them (test/repo/bundle-size.test.ts).
 */
async function operatorCall<N extends RouteName>(name: N, token: string, id?: number, body?: object): Promise<RouteAnswer<N>> {
  const path = (routePath as (route: RouteName, params?: Record<string, number>) => string)(name, id === undefined ? undefined : { id });
  let response: Response;
  try {
    response = await fetch(path, {
      method: ROUTES[name].method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network', 'no answer from the server');
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data as Partial<HttpError> | null;
    const refusal = error?.code !== undefined && error.params !== undefined ? ({ code: error.code, params: error.params } as CodedError) : null;
    throw new ApiError(response.status, error?.code ?? 'http', error?.message ?? `${response.status} ${response.statusText}`, error?.field, refusal);
  }
  return data as RouteAnswer<N>;
}

const ACTION_ROUTES = { 'hide-name': 'hideName', ban: 'banPlayer', unban: 'unbanPlayer', 'dismiss-reports': 'dismissReports' } as const;

export const operatorOverview = (token: string) => operatorCall('operatorOverview', token);
export const operatorAct = (token: string, action: keyof typeof ACTION_ROUTES, id: number, operator: string) => operatorCall(ACTION_ROUTES[action], token, id, { operator });
export const operatorRename = (token: string, id: number, operator: string, name: string) => operatorCall('renamePlayer', token, id, { operator, name });
