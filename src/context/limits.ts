/**
 * The default limits of image loading and of multimodal relevance, apart
 * from the loader so that what only needs the numbers (the command line's
 * help) does not load it.
 */

/** Default largest image: 10 MiB. */
export const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Default download timeout: 10 s. */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10_000;

/** Default of `maxConcurrentLoads`: images read or downloaded at once. */
export const DEFAULT_CONCURRENT_LOADS = 16;

/** Default of `keptImageBytes`: 64 MiB of loaded images kept for reuse. */
export const DEFAULT_KEPT_IMAGE_BYTES = 64 * 1024 * 1024;

/** Default of multimodal relevance's `maxImagesPerRow`: a row with more images fails. */
export const DEFAULT_MAX_IMAGES_PER_ROW = 16;

/** Default of multimodal relevance's `maxRowImageBytes`: 32 MiB of images in one request. */
export const DEFAULT_MAX_ROW_IMAGE_BYTES = 32 * 1024 * 1024;
