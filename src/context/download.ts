/**
 * Downloads an image URL without letting a dataset reach into the machine's
 * network (SSRF): http and https only; no user info or backslashes; the host
 * is resolved and every address checked; the connection goes to the checked
 * address (no DNS rebinding); redirects are followed by hand and each hop is
 * checked again; the size cap is enforced while streaming; one timeout covers
 * the whole download, including the tries again after a busy host's answer
 * (429, 5xx) or a connection reset.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import * as http from "node:http";
import * as https from "node:https";
import { isIP } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { refusedAddressReason } from "./address";
import { sniffImageType } from "./image-type";
import { describeSource } from "./items";
import { optionNamed } from "./option-names";
import { timerDelay } from "../dataset/timer-limit";
import { retryAfterValueMs } from "../dataset/retry-after";

/** Raised when an image is refused or cannot be loaded; the message says why. */
export class ImageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageRefusedError";
  }
}

/**
 * An answer worth another try (HTTP 408, 425, 429, 500, 502, 503, 504: a
 * busy or restarting image host, a rate limit such as Wikimedia's), with the
 * wait it asked for. Thrown out as the refusal it is when the tries run out.
 */
class TransientDownloadError extends ImageRefusedError {
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/** Statuses a download is tried again after. */
const TRANSIENT_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Tries of one address before a transient failure is final (the download's one timeout still bounds them all). */
const DOWNLOAD_TRIES = 4;


/** A resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Options of {@link downloadImage}. */
export interface DownloadOptions {
  /** Largest download in bytes. */
  maxBytes: number;
  /** Time allowed for the whole download, redirects included. */
  timeoutMs: number;
  /** Allow loopback, private and other non-public addresses (for images served on your own network). */
  allowPrivateNetwork: boolean;
  /** Redirects followed at most; default 5. */
  maxRedirects?: number;
  /** Resolves a host name (default: the system resolver). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Why an address is refused, or undefined (default: public unicast only). */
  addressPolicy?: (address: string) => string | undefined;
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Checks a URL's form: scheme, user info, backslashes. Returns the parsed URL. */
export function checkUrl(raw: string): URL {
  if (raw.includes("\\")) throw new ImageRefusedError("the URL contains a backslash, which browsers and servers read differently; refused");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImageRefusedError("not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ImageRefusedError(`only http and https URLs are loaded, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "" || /^[a-z]+:\/\/[^/?#]*@/i.test(raw)) {
    throw new ImageRefusedError("the URL carries a user name or password; refused");
  }
  return url;
}

/** Resolves the URL's host and gives the addresses to connect to, in the resolver's order, refusing any non-public one. */
async function pickAddresses(url: URL, options: DownloadOptions): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: ResolvedAddress[];
  const family = isIP(host);
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (error) {
      throw new ImageRefusedError(`cannot resolve ${host}: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new ImageRefusedError(`cannot resolve ${host}`);
  }
  if (!options.allowPrivateNetwork) {
    const policy = options.addressPolicy ?? refusedAddressReason;
    for (const a of addresses) {
      const reason = policy(a.address);
      if (reason !== undefined) {
        throw new ImageRefusedError(
          `${host === a.address ? host : `${host} resolves to ${a.address}, which`} is not a public address (${reason}); ` +
            "pass allowPrivateNetwork: true (--allow-private-network) to load images from your own network",
        );
      }
    }
  }
  return addresses;
}

/** Errors of a connection that could not be made at all (no route, nothing listening): another address of the host may do. */
const CONNECT_FAILURES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"]);

/** A connection to one of a host's addresses could not be made, and the host has more. */
class NextAddress extends Error {}

interface Hop {
  status: number;
  location: string | undefined;
  body: Buffer | undefined;
  /** The response's Content-Type and Content-Encoding, lower case, when it has them. */
  contentType?: string | undefined;
  contentEncoding?: string | undefined;
}

/** An image's bytes as downloaded (a Content-Encoding undone), and the Content-Type the server gave them. */
export interface Downloaded {
  bytes: Buffer;
  contentType: string | undefined;
}

function requestOnce(url: URL, address: ResolvedAddress, options: DownloadOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    // Connect to the address that was checked, whatever the resolver says now.
    const pinned = (
      _hostname: string,
      opts: { all?: boolean },
      callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
    ) => {
      if (opts.all) callback(null, [{ address: address.address, family: address.family }]);
      else callback(null, address.address, address.family);
    };
    const req = client.request(
      url,
      {
        method: "GET",
        lookup: pinned as unknown as http.RequestOptions["lookup"],
        headers: { accept: "image/png,image/jpeg,image/gif,image/webp,image/bmp;q=0.9,*/*;q=0.1", "user-agent": "evalframe" },
        signal,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, location: res.headers.location, body: undefined });
          return;
        }
        if (status !== 200) {
          res.resume();
          const message = `the server answered HTTP ${status}`;
          reject(TRANSIENT_STATUSES.has(status) ? new TransientDownloadError(message, retryAfterValueMs(res.headers["retry-after"])) : new ImageRefusedError(message));
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          reject(new ImageRefusedError(`the image is ${declared.toLocaleString("en-US")} bytes, more than the ${options.maxBytes.toLocaleString("en-US")} allowed (${optionNamed("maxImageBytes")})`));
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            // Refused first: destroying the response then reports it closed early, which must not be the reason.
            reject(new ImageRefusedError(`the image is more than the ${options.maxBytes.toLocaleString("en-US")} bytes allowed (${optionNamed("maxImageBytes")})`));
            res.destroy();
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          // A body shorter than its Content-Length: the connection closed early (the parser may not say so).
          if (Number.isFinite(declared) && size < declared) reject(new Error(`the connection closed after ${size.toLocaleString("en-US")} of ${declared.toLocaleString("en-US")} bytes`));
          else {
            const header = (name: string): string | undefined => {
              const value = res.headers[name];
              return typeof value === "string" && value.trim() !== "" ? value.trim().toLowerCase() : undefined;
            };
            resolve({ status, location: undefined, body: Buffer.concat(chunks), contentType: header("content-type"), contentEncoding: header("content-encoding") });
          }
        });
        res.on("aborted", () => reject(new Error("the connection closed while the image was sent")));
        res.on("error", (error) => reject(error));
      },
    );
    req.on("error", (error) => reject(error));
    req.end();
  });
}

/**
 * One hop's request, tried again after a transient failure (a status of
 * {@link TRANSIENT_STATUSES}, a connection reset or cut short) up to
 * {@link DOWNLOAD_TRIES} times, waiting as the server asks (`Retry-After`)
 * or 250 ms, 500 ms, 1 s, all within the download's one timeout: a busy image
 * host does not fail every row that shows its image.
 */
async function requestTried(url: URL, address: ResolvedAddress, options: DownloadOptions, signal: AbortSignal, deadline: number, another: boolean): Promise<Hop> {
  const timedOut = (): ImageRefusedError => new ImageRefusedError(`no complete image within ${options.timeoutMs.toLocaleString("en-US")} ms (${optionNamed("downloadTimeoutMs")})`);
  for (let attempt = 1; ; attempt++) {
    let failure: ImageRefusedError;
    let wait: number;
    try {
      return await requestOnce(url, address, options, signal);
    } catch (error) {
      if (signal.aborted) throw timedOut();
      if (error instanceof TransientDownloadError) {
        failure = error;
        wait = error.retryAfterMs ?? 250 * 2 ** (attempt - 1);
      } else if (error instanceof ImageRefusedError) {
        throw error;
      } else if (another && CONNECT_FAILURES.has((error as NodeJS.ErrnoException).code ?? "")) {
        // No route to this address (an IPv6 address without IPv6, say), or nothing listening: the host's next one, at once.
        throw new NextAddress((error as Error).message);
      } else {
        failure = new ImageRefusedError(`download failed: ${(error as Error).message}`);
        wait = 250 * 2 ** (attempt - 1);
      }
    }
    if (attempt >= DOWNLOAD_TRIES) throw new ImageRefusedError(`${failure.message} (${attempt} tries)`);
    const left = deadline - Date.now();
    if (wait >= left) {
      const asked = failure instanceof TransientDownloadError && failure.retryAfterMs !== undefined ? `, and asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s` : "";
      throw new ImageRefusedError(`${failure.message}${asked}: no time left to try again within ${options.timeoutMs.toLocaleString("en-US")} ms (${optionNamed("downloadTimeoutMs")})`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
    if (signal.aborted) throw timedOut();
  }
}

/**
 * The bytes of a body sent with a Content-Encoding (gzip, deflate, br: a
 * bucket whose images were stored compressed; a browser undoes it, so the
 * URL works there), undone within `maxBytes`; a body without one as it is.
 */
function decoded(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  // Some servers label an image as compressed when it is not: bytes that already are an image are taken as they are.
  if (encoding === undefined || encoding === "identity" || sniffImageType(body.subarray(0, 512)) !== undefined) return body;
  const undo = encoding === "gzip" || encoding === "x-gzip" ? gunzipSync : encoding === "deflate" ? inflateSync : encoding === "br" ? brotliDecompressSync : undefined;
  if (undo === undefined) throw new ImageRefusedError(`the server sent the image with Content-Encoding ${encoding}, which is not read here (gzip, deflate and br are)`);
  try {
    return undo(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
      throw new ImageRefusedError(`the image is more than the ${maxBytes.toLocaleString("en-US")} bytes allowed once its ${encoding} encoding is undone (${optionNamed("maxImageBytes")})`);
    }
    throw new ImageRefusedError(`the server sent the image with Content-Encoding ${encoding}, but it cannot be undone (${(error as Error).message})`);
  }
}

/**
 * Downloads an image URL under the rules above.
 *
 * @returns the image's bytes, and the Content-Type the server declared (the bytes decide the type; it only explains a refusal).
 * @throws {ImageRefusedError} saying why the URL was refused or failed.
 */
export async function downloadImage(raw: string, options: DownloadOptions): Promise<Downloaded> {
  const controller = new AbortController();
  const deadline = Date.now() + options.timeoutMs;
  // Node's timers hold at most 2^31 - 1 ms: a longer timeout would fire at once.
  const timer = setTimeout(() => controller.abort(), timerDelay(options.timeoutMs));
  const maxRedirects = options.maxRedirects ?? 5;
  try {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const current = url;
      const addresses = await pickAddresses(current, options).catch((error: Error) => {
        throw hop === 0 ? error : new ImageRefusedError(`redirect ${hop} to ${describeSource(current.toString())}: ${error.message}`);
      });
      let result: Hop | undefined;
      for (const [i, address] of addresses.entries()) {
        try {
          result = await requestTried(url, address, options, controller.signal, deadline, i < addresses.length - 1);
          break;
        } catch (error) {
          if (!(error instanceof NextAddress)) throw error;
        }
      }
      if (result === undefined) throw new ImageRefusedError("download failed: no address of the host could be reached");
      if (result.body) return { bytes: decoded(result.body, result.contentEncoding, options.maxBytes), contentType: result.contentType };
      if (!result.location) throw new ImageRefusedError(`the server answered HTTP ${result.status} without a Location`);
      if (hop >= maxRedirects) throw new ImageRefusedError(`more than ${maxRedirects} redirects`);
      let next: string;
      try {
        next = new URL(result.location, url).toString();
      } catch {
        throw new ImageRefusedError(`redirect to an invalid URL: ${describeSource(result.location.replace(/[?#][\s\S]*$/, "?…"))}`);
      }
      try {
        url = checkUrl(result.location.includes("\\") ? result.location : next);
      } catch (error) {
        throw new ImageRefusedError(`redirect ${hop + 1} to ${describeSource(next)}: ${(error as Error).message}`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
