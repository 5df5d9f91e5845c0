/**
 * `evalframe/images`: retrieved contexts and their images — what an item is,
 * and loading images safely (allowed hosts and folders, size and time
 * limits, the bytes' real type, BMP converted to PNG).
 *
 * @example
 * import { ImageLoader, classifyContext } from "evalframe/images";
 */
export { classifyContext, IMAGE_EXTENSIONS } from "./items";
export type { ContextItem } from "./items";
export { ImageLoader, DEFAULT_MAX_IMAGE_BYTES, DEFAULT_DOWNLOAD_TIMEOUT_MS } from "./loader";
export type { ImageLoadOptions, LoadedImage, ImageItem } from "./loader";
export { IMAGE_DETAILS } from "./option-names";
export type { ImageDetailName } from "./option-names";
export { ImageRefusedError } from "./download";
export type { ResolvedAddress } from "./download";
export { refusedAddressReason } from "./address";
export { sniffImageType } from "./image-type";
export type { ImageType } from "./image-type";
export { bmpToPng, bmpToPngAsync } from "./bmp";
