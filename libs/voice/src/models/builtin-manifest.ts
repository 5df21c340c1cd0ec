/**
 * The built-in default voice model manifest. It is empty on purpose: every entry must carry a
 * sha256 and size that someone verified against the real file, and the machines this project is
 * built on cannot reach any model host to verify one. A model is added through the local overlay
 * (CCCC_HOME/config/voice-models.json) until a verified entry is shipped here.
 */
export const BUILTIN_VOICE_MODELS: readonly unknown[] = [];
