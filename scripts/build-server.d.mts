/** Types of scripts/build-server.mjs, for the TypeScript that imports it (server/test/started-service.ts). */
export declare function buildServer(outdir: string, options?: { sourcemap?: boolean }): Promise<void>;
