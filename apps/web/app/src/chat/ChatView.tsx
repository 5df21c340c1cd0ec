// Being built in this session; see apps/web/README.md.
export function ChatView({ groupId }: { groupId: string }) {
  return <section className="empty">ChatView: not built yet</section>;
}
