// Being built in this session; see apps/web/README.md.
export function TerminalView({ groupId, actorId, onClose }: { groupId: string; actorId: string; onClose: () => void }) {
  return <section className="empty">TerminalView: not built yet</section>;
}
