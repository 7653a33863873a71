import { parseConfig, type Config } from "@/lib/config";

/**
 * The process's services: its configuration and everything built from it that must exist once
 * (database client, media storage, job runner, key cache, rate-limit counters, ...). Each module
 * declares its own service with `defineService`; the registry creates it on first use and disposes
 * of it, newest first, in `disposeServices()`. Tests create a registry over the configuration they
 * want and dispose of it afterwards.
 *
 * Next.js loads route bundles and instrumentation as separate module graphs (and reloads modules
 * in development), so the registry is the one value kept on globalThis, and services are found by
 * name, not by the identity of a module's objects: one registry per process.
 */
export interface Services {
  readonly config: Config;
  /** The service `name`, made by `create` on its first use in this registry. */
  use<T>(name: string, create: (services: Services) => T, dispose?: (value: T) => unknown): T;
  /** The service `name` if it was made, without making it. */
  peek<T>(name: string): T | undefined;
  /** Disposes of the service `name` (if made) and forgets it; the next `use` makes a new one. */
  release(name: string): Promise<void>;
}

interface Entry {
  value: unknown;
  dispose?: (value: unknown) => unknown;
}

class Registry implements Services {
  private readonly entries = new Map<string, Entry>();
  disposed = false;

  constructor(readonly config: Config) {}

  use<T>(name: string, create: (services: Services) => T, dispose?: (value: T) => unknown): T {
    if (this.disposed) throw new Error(`Service "${name}" asked of a disposed registry`);
    const existing = this.entries.get(name);
    if (existing) return existing.value as T;
    const value = create(this);
    this.entries.set(name, { value, dispose: dispose as Entry["dispose"] });
    return value;
  }

  peek<T>(name: string): T | undefined {
    return this.entries.get(name)?.value as T | undefined;
  }

  async release(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    await entry.dispose?.(entry.value);
  }

  /** Disposes of every service, the newest first (a service may use older ones while it stops). */
  async disposeAll(): Promise<void> {
    this.disposed = true;
    const failures: unknown[] = [];
    for (const name of [...this.entries.keys()].reverse()) {
      try {
        await this.release(name);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length) throw new AggregateError(failures, `${failures.length} service(s) failed to stop`);
  }
}

const g = globalThis as unknown as { __adloomServices?: Registry };

/** Creates the process's registry over `config` (by default the environment's). Fails if one exists. */
export function createServices(config: Config = parseConfig(process.env)): Services {
  if (g.__adloomServices) throw new Error("This process already has its services; disposeServices() first");
  return (g.__adloomServices = new Registry(config));
}

/** The process's registry, created from the environment on first use. */
export function getServices(): Services {
  return (g.__adloomServices ??= new Registry(parseConfig(process.env)));
}

/** Stops every service of the process's registry (if any) and forgets the registry. */
export async function disposeServices(): Promise<void> {
  const registry = g.__adloomServices;
  g.__adloomServices = undefined;
  await registry?.disposeAll();
}

/** The process's configuration (parsed from the environment on first use). */
export function getConfig(): Config {
  return getServices().config;
}

/**
 * Declares a service: returns the accessor a module exports (e.g. `getStorage`). `name` must be
 * unique in the app; `dispose` releases what `create` opened.
 */
export function defineService<T>(name: string, create: (services: Services) => T, dispose?: (value: T) => unknown): () => T {
  return () => getServices().use(name, create, dispose);
}
