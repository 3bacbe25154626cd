// Three real nats-server processes on loopback, clustered by routes, JetStream on, each with its own store
// in a temporary directory and its own config file on free ports (never the Debian package's systemd unit or
// /etc config). Servers can be killed with SIGKILL and restarted on the same ports and store, and cut off
// from the others: every route connection goes through a TCP proxy (below), which drops those of a
// partitioned server while its clients stay connected to it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const natsServerPath = process.env['NATS_SERVER_PATH'] ?? 'nats-server';
/** Whether a nats-server binary runs here; the cluster suites skip without one. */
export const natsAvailable = spawnSync(natsServerPath, ['--version'], { stdio: 'ignore' }).status === 0;
export const natsSkipMessage = `cluster tests skipped: no ${natsServerPath} on the PATH (apt-get install -y nats-server, or set NATS_SERVER_PATH)`;

interface Member {
  readonly name: string;
  readonly clientPort: number;
  readonly configPath: string;
  child: ChildProcess | undefined;
  output: string;
}

export interface NatsCluster {
  /** Client URLs, one per server, in server order (n0, n1, n2). */
  readonly urls: readonly string[];
  readonly names: readonly string[];
  /** SIGKILL server `index` and wait for its exit. */
  kill(index: number): Promise<void>;
  /** Start server `index` again on its ports and store; resolves once it accepts clients. */
  restart(index: number): Promise<void>;
  /** Cuts server `index` off from the others (its route connections dropped, new ones refused); its clients stay. */
  partition(index: number): void;
  /** Lets server `index` reach the others again (the servers reconnect their routes within a second or two). */
  heal(index: number): void;
  /** The index of the server named `name` (a stream leader's name from stream info). */
  indexOf(name: string): number;
  output(index: number): string;
  /** Kill every server and remove the stores. */
  stop(): Promise<void>;
}

/**
 * `count` distinct free ports, all held open at once while they are picked (one at a time, a closed port
 * could come back: two servers got one port). Drawn below Linux's ephemeral range (32768+), so the
 * outgoing connections made before the servers bind cannot take them.
 */
async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      if (ports.includes(port)) continue;
      const server = createServer();
      const bound = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (!bound) continue;
      held.push(server);
      ports.push(port);
    }
  } finally {
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
  return ports;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A route connection through a proxy, with the server names each side's INFO announced. */
interface RouteLink {
  readonly sockets: readonly [Socket, Socket];
  readonly names: Set<string>;
}

/**
 * TCP proxies in front of the servers' route ports. Each server advertises its proxy (so the routes it
 * gossips lead there too); both sides of a route send an INFO naming their server first, so a link is
 * dropped as soon as it names a partitioned server.
 */
class RouteProxies {
  readonly #links = new Set<RouteLink>();
  readonly #cut = new Set<string>();
  readonly #servers: Server[] = [];

  async listen(port: number, target: number, targetName: string): Promise<void> {
    const server = createServer((client) => this.#accept(client, target, targetName));
    this.#servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  }

  cut(name: string): void {
    this.#cut.add(name);
    for (const link of this.#links) this.#check(link);
  }

  heal(name: string): void {
    this.#cut.delete(name);
  }

  async close(): Promise<void> {
    for (const link of this.#links) for (const socket of link.sockets) socket.destroy();
    await Promise.all(this.#servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  #accept(client: Socket, target: number, targetName: string): void {
    const upstream = tcpConnect(target, '127.0.0.1');
    const link: RouteLink = { sockets: [client, upstream], names: new Set([targetName]) };
    this.#links.add(link);
    let seen = '';
    const sniff = (chunk: Buffer): void => {
      if (link.names.size >= 2 || seen.length > 65_536) return;
      seen += chunk.toString('latin1');
      for (const match of seen.matchAll(/"server_name":"([^"]+)"/g)) link.names.add(match[1] as string);
      this.#check(link);
    };
    client.on('data', sniff);
    client.pipe(upstream);
    upstream.pipe(client);
    for (const socket of link.sockets) {
      // Nagle's algorithm against the servers' delayed ACKs held small route messages ~40 ms (a forwarded write, a replicated ack).
      socket.setNoDelay(true);
      socket.on('error', () => {});
      socket.on('close', () => {
        this.#links.delete(link);
        for (const other of link.sockets) other.destroy();
      });
    }
    this.#check(link);
  }

  #check(link: RouteLink): void {
    for (const name of link.names) if (this.#cut.has(name)) for (const socket of link.sockets) socket.destroy();
  }
}

export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
  const ports = await freePorts(3 * size);
  const [clientPorts, routePorts, proxyPorts] = [ports.slice(0, size), ports.slice(size, 2 * size), ports.slice(2 * size)];
  const proxies = new RouteProxies();
  await Promise.all(proxyPorts.map((port, i) => proxies.listen(port, routePorts[i] as number, `n${i}`)));
  const routes = proxyPorts.map((port) => `nats-route://127.0.0.1:${port}`).join(', ');
  const members: Member[] = clientPorts.map((clientPort, i) => {
    const name = `n${i}`;
    const configPath = join(dir, `${name}.conf`);
    const store = join(dir, `store-${name}`);
    writeFileSync(
      configPath,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${clientPort}`,
        `jetstream {\n  store_dir: "${store}"\n  max_memory_store: 64MB\n  max_file_store: 1GB\n}`,
        `cluster {\n  name: test\n  listen: 127.0.0.1:${routePorts[i]}\n  advertise: "127.0.0.1:${proxyPorts[i]}"\n  routes: [ ${routes} ]\n}`,
        '',
      ].join('\n'),
    );
    return { name, clientPort, configPath, child: undefined, output: '' };
  });

  const launch = async (member: Member): Promise<void> => {
    const child = spawn(natsServerPath, ['-c', member.configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    member.child = child;
    member.output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (member.output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (member.output += chunk));
    const deadline = Date.now() + 10_000;
    while (!(await accepts(member.clientPort))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server ${member.name} did not start:\n${member.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const kill = async (member: Member): Promise<void> => {
    const child = member.child;
    member.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const at = (index: number): Member => {
    const member = members[index];
    if (member === undefined) throw new Error(`no nats server ${index}`);
    return member;
  };

  try {
    await Promise.all(members.map(launch));
  } catch (error) {
    await Promise.all(members.map(kill));
    await proxies.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    urls: clientPorts.map((port) => `nats://127.0.0.1:${port}`),
    names: members.map((member) => member.name),
    kill: (index) => kill(at(index)),
    restart: (index) => launch(at(index)),
    partition: (index) => proxies.cut(at(index).name),
    heal: (index) => proxies.heal(at(index).name),
    indexOf(name) {
      const index = members.findIndex((member) => member.name === name);
      if (index < 0) throw new Error(`no nats server named ${name}`);
      return index;
    },
    output: (index) => at(index).output,
    async stop() {
      await Promise.all(members.map(kill));
      await proxies.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
