import type { ScopeIdentity } from './scope.js';

/** The document `group_create` writes, in the reference's key order (`kernel/group.py::create_group`). */
export function newGroupDocument(input: { groupId: string; title: string; topic: string; now: string }): Record<string, unknown> {
  return {
    v: 1,
    group_id: input.groupId,
    title: input.title,
    topic: input.topic,
    created_at: input.now,
    updated_at: input.now,
    running: false,
    state: 'active',
    active_scope_key: '',
    scopes: [],
    actors: [],
    automation: {
      version: 1,
      rules: [
        {
          id: 'standup',
          enabled: false,
          scope: 'group',
          owner_actor_id: null,
          to: ['@foreman'],
          trigger: { kind: 'interval', every_seconds: 900 },
          action: { kind: 'notify', priority: 'normal', title: 'Stand-up reminder', snippet_ref: 'standup', message: '' },
        },
      ],
      snippets: {},
      snippet_overrides: {},
      actor_idle_timeout_seconds: 0,
      keepalive_delay_seconds: 0,
      silence_timeout_seconds: 0,
      help_nudge_interval_seconds: 0,
      help_nudge_min_messages: 0,
    },
    delivery: { min_interval_seconds: 0, mail_notice_after_seconds: 1800, reply_notice_after_seconds: 900 },
  };
}

export function newScopeDocument(scope: ScopeIdentity, now: string, createdAt?: string): Record<string, unknown> {
  return {
    v: 1,
    scope_key: scope.scope_key,
    url: scope.url,
    label: scope.label,
    git_remote: scope.git_remote,
    created_at: createdAt ?? now,
    updated_at: now,
  };
}
