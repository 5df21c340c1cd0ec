import { z } from 'zod';
import { createAccessToken, readAccessTokens, revokeAccessToken, tokenPrefix } from '../auth/tokens.js';
import { parseJsonBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { AccessTokenCreateBody } from './route-map.js';
import type { ApiRoutes } from './api-routes.js';

const CreateBody = z.object({
  is_admin: z.boolean().optional(),
  allowed_groups: z.array(z.string().min(1)).optional(),
  user_id: z.string().min(1).optional(),
}) satisfies z.ZodType<AccessTokenCreateBody>;

/**
 * `/api/v1/access-tokens` (admin only, checked from the route table): the same file
 * `cccc web token` edits. Tokens are listed by prefix; the full token is returned once, by create.
 */
export function registerAccessTokenRoutes(api: ApiRoutes, home: string): void {
  api.route('access_tokens', () => ({ tokens: readAccessTokens(home).map(({ token, ...rest }) => ({ id: tokenPrefix(token), ...rest })) }));
  api.route('access_token_create', async (ctx) => {
    const body = await parseJsonBody(ctx.req, CreateBody);
    if (!body.is_admin && !(body.allowed_groups?.length)) {
      throw new HttpError(400, 'invalid_request', 'a non-admin token needs allowed_groups', { field: 'allowed_groups' });
    }
    const created = createAccessToken(home, { admin: body.is_admin, groups: body.allowed_groups, userId: body.user_id });
    return { ...created, id: tokenPrefix(created.token) };
  });
  api.route('access_token_revoke', (_ctx, { id }) => {
    try {
      const removed = revokeAccessToken(home, id);
      return { id: tokenPrefix(removed.token), revoked: true };
    } catch (error) {
      throw new HttpError(404, 'access_token_not_found', (error as Error).message);
    }
  });
}
