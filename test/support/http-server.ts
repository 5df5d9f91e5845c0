/** A small real HTTP server for image-loading tests, with a request log. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request the server saw. */
export interface SeenRequest {
  path: string;
  host: string | undefined;
}

/** A route handler. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A test HTTP server on a loopback address; `routes` maps paths to handlers. */
export class TestHttpServer {
  readonly seen: SeenRequest[] = [];
  routes = new Map<string, Handler>();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(readonly host = "127.0.0.1") {}

  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:40000. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      this.seen.push({ path, host: req.headers.host });
      const handler = this.routes.get(path);
      if (handler) handler(req, res);
      else {
        res.statusCode = 404;
        res.end("not found");
      }
    });
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, this.host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://${this.host}:${this.port}`;
  }

  /** Stops the server and ends every open connection. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Serves bytes at a path with a content type. */
  serve(path: string, body: Buffer | string, contentType = "image/png"): void {
    this.routes.set(path, (_req, res) => {
      res.setHeader("content-type", contentType);
      res.end(body);
    });
  }

  /** Redirects a path to a location. */
  redirect(path: string, location: string, status = 302): void {
    this.routes.set(path, (_req, res) => {
      res.statusCode = status;
      res.setHeader("location", location);
      res.end();
    });
  }
}
