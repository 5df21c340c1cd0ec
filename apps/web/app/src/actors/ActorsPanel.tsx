// Being built in this session; see apps/web/README.md.
export function ActorsPanel({ groupId, onOpenTerminal, activeTerminal }: { groupId: string; onOpenTerminal: (actorId: string) => void; activeTerminal: string | null }) {
  return <section className="empty">ActorsPanel: not built yet</section>;
}
