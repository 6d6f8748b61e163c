// Types for what the Node-side tests use of browsers.mjs (its launchers are for web-test-runner's config).
import type { ChildProcess } from 'node:child_process';

/** Debian's (or CHROMIUM_PATH's / CHROME_PATH's) Chromium, if installed, and the flags it runs with here. */
export declare const CHROMIUM: string | undefined;
export declare const CHROMIUM_ARGS: string[];
/** Debian's (or FIREFOX_PATH's) Firefox, if installed. */
export declare const FIREFOX: string | undefined;
/** WebKitGTK's WebDriver, Xvfb and MiniBrowser, if installed. */
export declare const WEBKIT_DRIVER: string | undefined;
export declare const XVFB: string | undefined;
export declare const MINIBROWSER: string | undefined;
/** A free TCP port on 127.0.0.1. */
export declare function freePort(): Promise<number>;
/** Resolves once something accepts connections on `port`. */
export declare function waitForPort(port: number, ms?: number): Promise<void>;
/** Starts a private Xvfb; resolves with its display (`:N`) and process. */
export declare function startXvfb(): Promise<{ display: string; proc: ChildProcess }>;
/** The page with a `setViewport` that lets through Firefox ESR 140's unknown orientation command, and only that error. */
export declare function withoutOrientationOverride<P extends { setViewport(viewport: unknown): Promise<unknown> }>(page: P): P;
