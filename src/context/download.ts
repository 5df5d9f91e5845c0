/**
 * Downloads an image URL without letting a dataset reach into the machine's
 * network (SSRF): http and https only; no user info or backslashes; the host
 * is resolved and every address checked; the connection goes to the checked
 * address (no DNS rebinding); redirects are followed by hand and each hop is
 * checked again; the size cap is enforced while streaming; one timeout covers
 * the whole download.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import * as http from "node:http";
import * as https from "node:https";
import { isIP } from "node:net";
import { refusedAddressReason } from "./address";
import { describeSource } from "./items";
import { optionNamed } from "./option-names";

/** Raised when an image is refused or cannot be loaded; the message says why. */
export class ImageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageRefusedError";
  }
}

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

/** Resolves the URL's host and picks the address to connect to, refusing any non-public one. */
async function pickAddress(url: URL, options: DownloadOptions): Promise<ResolvedAddress> {
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
            "pass allowPrivateNetwork: true to load images from your own network",
        );
      }
    }
  }
  return addresses[0]!;
}

interface Hop {
  status: number;
  location: string | undefined;
  body: Buffer | undefined;
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
          reject(new ImageRefusedError(`the server answered HTTP ${status}`));
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          res.destroy();
          reject(new ImageRefusedError(`the image is ${declared.toLocaleString("en-US")} bytes, more than the ${options.maxBytes.toLocaleString("en-US")} allowed (${optionNamed("maxImageBytes")})`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            req.destroy();
            reject(new ImageRefusedError(`the image is more than the ${options.maxBytes.toLocaleString("en-US")} bytes allowed (${optionNamed("maxImageBytes")})`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
        res.on("error", (error) => reject(error));
      },
    );
    req.on("error", (error) => reject(error));
    req.end();
  });
}

/**
 * Downloads an image URL under the rules above.
 *
 * @throws {ImageRefusedError} saying why the URL was refused or failed.
 */
export async function downloadImage(raw: string, options: DownloadOptions): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? 5;
  try {
    let url = checkUrl(raw);
    for (let hop = 0; ; hop++) {
      const current = url;
      const address = await pickAddress(current, options).catch((error: Error) => {
        throw hop === 0 ? error : new ImageRefusedError(`redirect ${hop} to ${describeSource(current.toString())}: ${error.message}`);
      });
      let result: Hop;
      try {
        result = await requestOnce(url, address, options, controller.signal);
      } catch (error) {
        if (error instanceof ImageRefusedError) throw error;
        if (controller.signal.aborted) throw new ImageRefusedError(`no complete image within ${options.timeoutMs.toLocaleString("en-US")} ms (${optionNamed("downloadTimeoutMs")})`);
        throw new ImageRefusedError(`download failed: ${(error as Error).message}`);
      }
      if (result.body) return result.body;
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
