/**
 * A Slack Web API call failed for a reason other than auth or rate limits (those are
 * ImAuthError / ImRateLimitError). `code` is Slack's own error string (`channel_not_found`,
 * `http_500`, …) or one of ours (`invalid_thread_id`, `bad_response`); tokens never appear here.
 */
export class SlackApiError extends Error {
  override readonly name = 'SlackApiError';
  constructor(
    readonly method: string,
    readonly code: string,
  ) {
    super(`slack ${method} failed: ${code}`);
  }
}
