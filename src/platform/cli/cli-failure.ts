/** A failure the user can act on: each line printed after `utility-api: `, exit code 1. */
export class CliFailure extends Error {}
