/**
 * `ping.capabilities` (§8.1). Every optional streaming upgrade is listed under its exact op name;
 * `false` means this daemon does not serve it yet. Later features flip their entries.
 */
export function daemonCapabilities(): Record<string, unknown> {
  return {
    events_stream: false,
    remote_access: false,
    term_attachment_status: true,
    term_attach_snapshot_v1: true,
    presentation_browser_attach: false,
    presentation_browser_vnc_attach: false,
    space_provider_auth_browser_attach: false,
    space_provider_auth_browser_vnc_attach: false,
    web_model_browser_attach: false,
    web_model_browser_vnc_attach: false,
  };
}
