// Being built in this session; see apps/web/README.md.
export function InboxView({ groupId }: { groupId: string }) {
  return <section className="empty">InboxView: not built yet</section>;
}
