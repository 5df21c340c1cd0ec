// Being built in this session; see apps/web/README.md.
export function GroupSidebar({ selected, onSelect }: { selected: string | null; onSelect: (groupId: string | null) => void }) {
  return <section className="empty">GroupSidebar: not built yet</section>;
}
