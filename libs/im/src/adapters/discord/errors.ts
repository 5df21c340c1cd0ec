/**
 * A Discord REST call failed for a reason other than auth or rate limits (those are
 * ImAuthError / ImRateLimitError). `code` is `http_<status>` with Discord's JSON error code
 * when it sent one (`http_404_10003`), or one of ours (`invalid_chat_id`, `invalid_thread_id`,
 * `bad_response`). Tokens never appear here.
 */
export class DiscordApiError extends Error {
  override readonly name = 'DiscordApiError';
  constructor(
    readonly route: string,
    readonly code: string,
  ) {
    super(`discord ${route} failed: ${code}`);
  }
}

/** The gateway closed with a code that reconnecting cannot fix (bad intents, bad shard, …). */
export class DiscordGatewayError extends Error {
  override readonly name = 'DiscordGatewayError';
  constructor(readonly closeCode: number) {
    super(`discord gateway closed with ${closeCode}; not reconnecting`);
  }
}
