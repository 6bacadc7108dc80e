// Types of scripts/postgres-cluster.mjs for the TypeScript that uses it (tests, benches).
export declare const missingBinaries: string;
export declare function postgresAvailable(): boolean;
export interface Cluster {
  url: string;
  port: number;
  stop(): void;
}
export declare function startCluster(options?: { durable?: boolean }): Promise<Cluster>;
