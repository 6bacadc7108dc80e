// Types of bin/build.mjs for the TypeScript that uses it (tests).
export declare function oneByteText(text: string): string;
export declare function buildAll(): Promise<void>;
