// Types of scripts/postgres-cluster.mjs for the TypeScript that uses it (tests, benches).
export declare const missingBinaries: string;
export declare function postgresAvailable(): boolean;
export interface Cluster {
  url: string;
  /** The same database through the cluster's Unix socket. */
  socketUrl: string;
  port: number;
  stop(): void;
}
export declare function startCluster(options?: { durable?: boolean }): Promise<Cluster>;
