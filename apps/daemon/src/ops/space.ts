import type { OpRouter } from '@cccc/ipc-protocol';
import type { SpaceService } from '../space/space-service.js';

export interface SpaceOpsDeps {
  readonly space: SpaceService;
}

const rest = <T extends { group_id: string }>({ group_id: _, ...args }: T): Omit<T, 'group_id'> => args;

/** §8.18 group_space_*: thin handlers over the group's space (@cccc/group-space). */
export function registerSpaceOps(router: OpRouter, { space }: SpaceOpsDeps): void {
  router.register('group_space_status', (a) => space.read(a.group_id, (s) => s.status(a.provider)));
  router.register('group_space_spaces', (a) => space.read(a.group_id, (s) => s.spaces(a.provider)));
  router.register('group_space_capabilities', (a) => space.read(a.group_id, (s) => s.capabilities(a.provider)));
  router.register('group_space_bind', (a) => space.mutate(a.group_id, (s) => s.bind(rest(a))));
  router.register('group_space_ingest', (a) => space.mutate(a.group_id, (s) => s.ingest(rest(a))));
  router.register('group_space_query', (a) => space.mutate(a.group_id, (s) => s.query(rest(a))));
  router.register('group_space_sources', (a) => space.mutate(a.group_id, (s) => s.sources(rest(a))));
  router.register('group_space_artifact', (a) => space.mutate(a.group_id, (s) => s.artifact(rest(a))));
  router.register('group_space_jobs', (a) => space.mutate(a.group_id, (s) => s.jobsOp(rest(a))));
  router.register('group_space_sync', (a) => space.read(a.group_id, (s) => s.sync(rest(a))));
  router.register('group_space_provider_credential_status', (a) => space.notebooklm.credentialStatus(a));
  router.register('group_space_provider_credential_update', (a) => space.notebooklm.updateCredential(a));
  router.register('group_space_provider_health_check', (a) => space.notebooklm.healthCheck(a));
  router.register('group_space_provider_auth', (a) => space.notebooklm.auth(a));
}
