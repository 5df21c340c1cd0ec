import { Emitter } from '../events.js';

export type AttachMode = 'control' | 'viewer';

export interface AttachRequest {
  readonly mode: AttachMode;
  /** Control only: take the writer role from the current writer. */
  readonly takeover?: boolean;
}

/** What term_attach reports about the new attachment. */
export interface AttachmentGrant {
  readonly attachmentId: number;
  readonly mode: AttachMode;
  readonly writable: boolean;
  /** A previous writer lost the role to this attachment. */
  readonly writerReplaced: boolean;
}

export interface WriterChange {
  readonly previous: number | undefined;
  readonly current: number | undefined;
}

/**
 * Single-writer bookkeeping for one terminal: any number of viewers, at most one writer. A control
 * attach becomes the writer when there is none or when it takes over; otherwise it is read-only.
 * The daemon checks `isWriter` before each input batch and each term_resize.
 */
export class AttachmentRegistry implements Disposable {
  private nextId = 1;
  private readonly live = new Map<number, AttachMode>();
  private writer: number | undefined;
  private readonly writerEmitter = new Emitter<WriterChange>();
  /** Fires whenever the writer changes (takeover, detach, reset): push terminal_writable frames. */
  readonly onWriterChange = this.writerEmitter.event;

  attach(request: AttachRequest): AttachmentGrant {
    const attachmentId = this.nextId++;
    this.live.set(attachmentId, request.mode);
    if (request.mode === 'viewer') return { attachmentId, mode: 'viewer', writable: false, writerReplaced: false };
    const previous = this.writer;
    if (previous !== undefined && !request.takeover) {
      return { attachmentId, mode: 'control', writable: false, writerReplaced: false };
    }
    this.setWriter(attachmentId);
    return { attachmentId, mode: 'control', writable: true, writerReplaced: previous !== undefined };
  }

  detach(attachmentId: number): void {
    if (!this.live.delete(attachmentId)) return;
    if (this.writer === attachmentId) this.setWriter(undefined);
  }

  isWriter(attachmentId: number): boolean {
    return this.writer === attachmentId;
  }

  isAttached(attachmentId: number): boolean {
    return this.live.has(attachmentId);
  }

  get writerId(): number | undefined {
    return this.writer;
  }

  /** Attached clients of any mode (the DSR auto-answer stops while there is one). */
  get size(): number {
    return this.live.size;
  }

  /** The session was replaced: every attachment belongs to the old one. */
  reset(): void {
    this.live.clear();
    this.setWriter(undefined);
  }

  private setWriter(id: number | undefined): void {
    if (this.writer === id) return;
    const previous = this.writer;
    this.writer = id;
    this.writerEmitter.fire({ previous, current: id });
  }

  [Symbol.dispose](): void {
    this.writerEmitter[Symbol.dispose]();
  }
}
