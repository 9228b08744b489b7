/** Types of scripts/ensure-chromium.mjs, for the TypeScript that imports it (playwright.config.ts). */
export declare const CHROMIUM_HEADLESS_SHELL: string;
