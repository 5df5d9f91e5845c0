/**
 * The names of multimodal relevance's options (the image loader's and the
 * metric's) and of the `evalframe score` flags that set them: the one place
 * they are spelt. The CLI parses the flags from here, its `--help` lists
 * them from here, and the messages of a refused image or row name the
 * option and its flag from here. Constants only, so reading it stays cheap.
 */
import {
  DEFAULT_CONCURRENT_LOADS,
  DEFAULT_DOWNLOAD_TIMEOUT_MS,
  DEFAULT_KEPT_IMAGE_BYTES,
  DEFAULT_MAX_IMAGE_BYTES,
  DEFAULT_MAX_IMAGES_PER_ROW,
  DEFAULT_MAX_ROW_IMAGE_BYTES,
} from "./limits";

/** The image details a request may ask for, as the OpenAI API spells them (`image_url.detail`). */
export const IMAGE_DETAILS = ["low", "high", "auto"] as const;

/** One of {@link IMAGE_DETAILS}. */
export type ImageDetailName = (typeof IMAGE_DETAILS)[number];

/** The numeric options a flag sets (names in `MultimodalRelevanceOptions` / `ImageLoadOptions`, and in `MetricFlags`). */
export type MultimodalNumberOption = "maxImagesPerRow" | "maxImageBytes" | "maxRowImageBytes" | "downloadTimeoutMs" | "maxConcurrentLoads" | "keptImageBytes";

/** Every option a flag of {@link MULTIMODAL_FLAGS} sets. */
export type MultimodalOption = MultimodalNumberOption | "imageDetail";

/**
 * One multimodal-relevance flag of `evalframe score`: its name (without
 * `--`), the placeholder of its value in help, what help says of it, and how
 * its value is read: a whole number of at least `min`, or one of `choices`.
 *
 * @example
 * const flag: MultimodalFlag = { flag: "max-images-per-row", value: "N", help: "most images in one row", kind: "whole", option: "maxImagesPerRow", min: 1, example: 16 };
 */
export type MultimodalFlag = { readonly flag: string; readonly value: string; readonly help: string } & (
  | { readonly kind: "whole"; readonly option: MultimodalNumberOption; readonly min: number; /** A value a message shows as an example: the default. */ readonly example: number }
  | { readonly kind: "choice"; readonly option: "imageDetail"; readonly choices: readonly ImageDetailName[] }
);

/** "10 MiB" for a whole number of MiB. */
function mebibytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB`;
}

/**
 * The flags of `evalframe score` that reach multimodal relevance's limits
 * and its image detail, in the order help lists them. Each is refused (exit
 * 2) when multimodal_relevance is not scored. (`--image-root` and
 * `--allow-private-network` are not here: they were taken with any metric
 * before these existed, and still are.)
 *
 * @example
 * MULTIMODAL_FLAGS.map((f) => `--${f.flag}`); // ["--max-images-per-row", …, "--image-detail"]
 */
export const MULTIMODAL_FLAGS: readonly MultimodalFlag[] = [
  { flag: "max-images-per-row", value: "N", kind: "whole", option: "maxImagesPerRow", min: 1, example: DEFAULT_MAX_IMAGES_PER_ROW, help: `most images in one row; a row with more fails (default ${DEFAULT_MAX_IMAGES_PER_ROW})` },
  { flag: "max-image-bytes", value: "N", kind: "whole", option: "maxImageBytes", min: 1, example: DEFAULT_MAX_IMAGE_BYTES, help: `largest image in bytes, data URIs included (default ${DEFAULT_MAX_IMAGE_BYTES}: ${mebibytes(DEFAULT_MAX_IMAGE_BYTES)})` },
  {
    flag: "max-row-image-bytes",
    value: "N",
    kind: "whole",
    option: "maxRowImageBytes",
    min: 1,
    example: DEFAULT_MAX_ROW_IMAGE_BYTES,
    help: `most bytes of images one request carries; a row over it fails and nothing of it is sent (default ${DEFAULT_MAX_ROW_IMAGE_BYTES}: ${mebibytes(DEFAULT_MAX_ROW_IMAGE_BYTES)})`,
  },
  { flag: "download-timeout-ms", value: "MS", kind: "whole", option: "downloadTimeoutMs", min: 1, example: DEFAULT_DOWNLOAD_TIMEOUT_MS, help: `time to download or read one image, from its turn (default ${DEFAULT_DOWNLOAD_TIMEOUT_MS})` },
  { flag: "max-concurrent-loads", value: "N", kind: "whole", option: "maxConcurrentLoads", min: 1, example: DEFAULT_CONCURRENT_LOADS, help: `images read or downloaded at once (default ${DEFAULT_CONCURRENT_LOADS})` },
  {
    flag: "kept-image-bytes",
    value: "N",
    kind: "whole",
    option: "keptImageBytes",
    min: 0,
    example: DEFAULT_KEPT_IMAGE_BYTES,
    help: `bytes of loaded images kept for later rows that name them again; 0 keeps none (default ${DEFAULT_KEPT_IMAGE_BYTES}: ${mebibytes(DEFAULT_KEPT_IMAGE_BYTES)})`,
  },
  { flag: "image-detail", value: "D", kind: "choice", option: "imageDetail", choices: IMAGE_DETAILS, help: `image detail asked of the vision model: ${IMAGE_DETAILS.join(", ")} (default auto; low costs fewest tokens)` },
];

/**
 * An option as a message names it, with the `evalframe score` flag that sets
 * it, so that a reader of a library's message or of a scored table's error
 * cell finds the knob either way.
 *
 * @example
 * optionNamed("maxImageBytes"); // "maxImageBytes, --max-image-bytes"
 */
export function optionNamed(option: MultimodalOption): string {
  const spec = MULTIMODAL_FLAGS.find((f) => f.option === option);
  return spec ? `${option}, --${spec.flag}` : option;
}
