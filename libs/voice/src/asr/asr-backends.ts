/** The recognition backends of spec §8.3 assistant_settings_update. */
export const RECOGNITION_BACKENDS = ['mock', 'assistant_service_local_asr', 'browser_asr', 'external_provider_asr'] as const;
export type RecognitionBackend = (typeof RECOGNITION_BACKENDS)[number];

/** The stable runtime id service_runtime reports for the sherpa-onnx streaming engine. */
export const SHERPA_RUNTIME_ID = 'sherpa_onnx_streaming';
