/** §4.3: the daemon stops reading a request line after 16 MiB without a newline. */
export const MAX_REQUEST_LINE_BYTES = 16 * 1024 * 1024;
/** §4.3: clients cap a response line at 4,000,000 bytes. */
export const MAX_RESPONSE_LINE_BYTES = 4_000_000;
