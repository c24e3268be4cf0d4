// jq-web ships no types: its module.exports is a promise of the engine.
declare module 'jq-web' {
  const engine: Promise<{ raw(input: string, filter: string, flags?: string[]): string }>;
  export default engine;
}
