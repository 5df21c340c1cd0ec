/** Optional streaming upgrades §8.1 lists under their exact op names. */
const OPTIONAL_UPGRADES = [
  'events_stream',
  'presentation_browser_attach',
  'presentation_browser_vnc_attach',
  'space_provider_auth_browser_attach',
  'space_provider_auth_browser_vnc_attach',
  'web_model_browser_attach',
  'web_model_browser_vnc_attach',
] as const;

/** Extension ops of this implementation that clients should find advertised before use. */
const EXTENSION_OPS = ['ledger_tail', 'ledger_search', 'ledger_statuses', 'global_events_stream', 'runtime_activity_snapshot', 'runtime_activity_stream', 'runtime_hook_event', 'blob_upload', 'blob_read', 'runtime_list', 'im_config_get', 'im_config_set'] as const;

/**
 * `ping.capabilities` (§8.1), derived from the ops the router really serves, so an entry can
 * never claim an upgrade the daemon does not recognize. The terminal attach extensions are
 * served by the term_attach handler (attachment ids, writer status, snapshot_v1).
 */
export function daemonCapabilities(served: Pick<ReadonlySet<string>, 'has'>): Record<string, unknown> {
  // remote_access: true only when the remote_access_* ops are really served (§8.1, §8.17).
  const caps: Record<string, unknown> = { remote_access: served.has('remote_access_state') };
  for (const op of OPTIONAL_UPGRADES) caps[op] = served.has(op);
  const attach = served.has('term_attach') && served.has('term_attachment_status');
  caps.term_attachment_status = attach;
  caps.term_attach_snapshot_v1 = attach;
  for (const op of EXTENSION_OPS) caps[op] = served.has(op);
  return caps;
}
