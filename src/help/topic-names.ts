// The help topics' names, apart from their texts (topics.ts): the root help and completion name
// them at every start, the texts load only when one is asked for.
export const HELP_TOPICS = ['environment', 'exit-codes', 'formatting', 'filters', 'config', 'reference'];
