import { randomBytes } from 'node:crypto';

export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
export const nowIso = (): string => new Date().toISOString();
