import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `CCCC_HOME` from the environment, else `~/.cccc` (REFERENCE_NOTES §2). */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CCCC_HOME?.trim();
  return resolve(fromEnv ? fromEnv : join(homedir(), '.cccc'));
}

/** Every path this library reads or writes under one `CCCC_HOME`, named in one place. */
export class HomeLayout {
  constructor(readonly home: string) {}

  get registryPath(): string {
    return join(this.home, 'registry.json');
  }
  get registryLockPath(): string {
    return join(this.home, 'registry.json.lock');
  }
  get activePath(): string {
    return join(this.home, 'active.json');
  }
  get groupsDir(): string {
    return join(this.home, 'groups');
  }
  groupDir(groupId: string): string {
    return join(this.groupsDir, groupId);
  }
  groupYamlPath(groupId: string): string {
    return join(this.groupDir(groupId), 'group.yaml');
  }
  groupYamlLockPath(groupId: string): string {
    return join(this.groupDir(groupId), 'group.yaml.lock');
  }
  scopeYamlPath(groupId: string, scopeKey: string): string {
    return join(this.groupDir(groupId), 'scopes', scopeKey, 'scope.yaml');
  }
  promptsDir(groupId: string): string {
    return join(this.groupDir(groupId), 'prompts');
  }
  preamblePath(groupId: string): string {
    return join(this.promptsDir(groupId), 'CCCC_PREAMBLE.md');
  }
  helpPath(groupId: string): string {
    return join(this.promptsDir(groupId), 'CCCC_HELP.md');
  }
  /** Global settings (`observability`, `web_branding`), as the reference keeps them. */
  get settingsPath(): string {
    return join(this.home, 'settings.yaml');
  }
  /** Where branding assets live; branding asset paths are relative to the home and inside it. */
  get brandingAssetsDir(): string {
    return join(this.stateDir, 'web_branding');
  }
  get stateDir(): string {
    return join(this.home, 'state');
  }
  get secretsDir(): string {
    return join(this.stateDir, 'secrets');
  }
  actorSecretsPath(groupId: string, actorId: string): string {
    return join(this.secretsDir, 'actors', groupId, `${actorId}.json`);
  }
  actorSecretsGroupDir(groupId: string): string {
    return join(this.secretsDir, 'actors', groupId);
  }
  get profilesDir(): string {
    return join(this.stateDir, 'actor_profiles');
  }
  profilePath(profileId: string): string {
    return join(this.profilesDir, `${profileId}.json`);
  }
  get profilesLockPath(): string {
    return join(this.profilesDir, '.profiles.lock');
  }
  profileSecretsPath(profileId: string): string {
    return join(this.secretsDir, 'actor_profiles', `${profileId}.json`);
  }
  get secretsLockPath(): string {
    return join(this.secretsDir, '.secrets.lock');
  }
}
