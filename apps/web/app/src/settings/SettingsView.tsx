// Being built in this session; see apps/web/README.md.
export function SettingsView({ groupId }: { groupId: string }) {
  return <section className="empty">SettingsView: not built yet</section>;
}
