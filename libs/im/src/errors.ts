import { IpcError } from '@cccc/ipc-protocol';

/** Stable codes of the im_* ops (§8.16) and the im_config_* extension. */
export const ImErrorCodes = {
  invalidRequest: 'invalid_request',
  missingKey: 'missing_key',
  missingChatId: 'missing_chat_id',
  invalidKey: 'invalid_key',
} as const;

export type ImErrorCode = (typeof ImErrorCodes)[keyof typeof ImErrorCodes];

export function imError(code: ImErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}
