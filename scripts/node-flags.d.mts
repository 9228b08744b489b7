/** Types of scripts/node-flags.mjs, for the TypeScript that imports it (tests, benchmarks). */
export declare const START_NODE_FLAGS: string[];
