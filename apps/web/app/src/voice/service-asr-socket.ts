/** The service-local ASR transcription WebSocket (spec §8.3): start, PCM16 frames, stop. */
export interface ServiceSocket {
  send(frame: ArrayBuffer): void;
  stop(): Promise<void>;
}

export interface ServiceEvents {
  partial(text: string): void;
  final(text: string, persisted: boolean): void;
  error(code: string, message: string): void;
}

export function openServiceSocket(groupId: string, lease: { owner_id: string; lease_id: string }, start: Record<string, unknown>, on: ServiceEvents): Promise<ServiceSocket> {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams(lease).toString();
  const ws = new WebSocket(`${proto}//${location.host}/api/v1/groups/${encodeURIComponent(groupId)}/assistants/voice_secretary/transcriptions/ws?${q}`);
  ws.binaryType = 'arraybuffer';
  let closed: () => void = () => undefined;
  const done = new Promise<void>((r) => (closed = r));
  return new Promise((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: 'start', ...start }));
    ws.onerror = () => reject(new Error('the transcription socket was refused (see the service health above)'));
    ws.onclose = () => closed();
    ws.onmessage = (m) => {
      const e = JSON.parse(String(m.data)) as { type: string; text?: string; transcript_persisted?: boolean; error?: { code: string; message: string } };
      if (e.type === 'ready') {
        resolve({
          send: (frame) => ws.readyState === ws.OPEN && ws.send(frame),
          stop: async () => {
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'stop' }));
            await done;
          },
        });
      } else if (e.type === 'partial') on.partial(e.text ?? '');
      else if (e.type === 'final') on.final(e.text ?? '', e.transcript_persisted === true);
      else if (e.type === 'error') on.error(e.error?.code ?? 'error', e.error?.message ?? '');
    };
  });
}
