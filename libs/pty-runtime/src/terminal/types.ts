/** `actor.submit`: the key written after the payload. */
export type SubmitMode = 'enter' | 'newline' | 'none';

/**
 * The delivery fact of one submit (REFERENCE_NOTES §3.1, spec §4.4): `accepted` means the whole
 * payload and its submit key were written; `failed` that provably nothing was; `ambiguous`
 * that some bytes may have reached the agent. Never retry after accepted or ambiguous.
 */
export type SubmitOutcome =
  | { readonly outcome: 'accepted'; readonly bytesWritten: number }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'ambiguous'; readonly reason: string; readonly bytesWritten: number };
