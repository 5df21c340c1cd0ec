/** The strict read of the active file at `path` (active-prescan-scan.js): null when missing or a record is no event. */
export declare function prescanFile(path: string): { ino: number; end: number; lines: number } | null;
