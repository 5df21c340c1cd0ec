// §8.20 Copy Groups: export a group's durable state as a zip, preview and import one.
export { GROUP_COPY_KIND, GROUP_COPY_VERSION, GroupCopyManifest, isExcludedGroupPath, scrubGroupDocument, unsafeEntryName, packageFilename } from './manifest.js';
export { GroupCopyErrorCodes, invalidGroupCopy } from './errors.js';
export { SMALL_PACKAGE_LIMITS, LARGE_PACKAGE_LIMITS, scanPackage, entryHeaderProblem, type PackageLimits, type PackageSource } from './package-reader.js';
export { buildGroupPackage, exportGroupCopy, exportGroupCopyFile, exportsDir, type ExportOptions } from './package-writer.js';
export { previewGroupCopy, importGroupCopy, resolvePackageInput, stagingRoot, type GroupCopyPreview, type GroupCopyImportResult, type ImportOptions, type PackageInput } from './import.js';
