// Replaced at build time with package.json's version; tests run from source see the fallback.
declare const SCT_VERSION: string | undefined;

export const VERSION: string = typeof SCT_VERSION !== 'undefined' ? SCT_VERSION : '0.0.0-dev';
export const USER_AGENT = `sct/${VERSION} node/${process.versions.node}`;
