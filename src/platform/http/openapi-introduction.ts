/**
 * What the reference says before its first operation (the document's `info.description`, in
 * CommonMark): what every operation shares, so that a reader who tries one knows how to ask and
 * how to read what comes back.
 */
export const REFERENCE_INTRODUCTION = `A self-hostable API of small utilities, each behind an API token with named permissions.

**Authentication.** Every operation below \`/api\` but this document and the change log takes a token:
\`Authorization: Bearer <token>\`. "Authorize" above keeps one for this page. Each operation names
the permission it needs (\`x-permission\`, as \`Family::Name\`; \`Family::*\` and \`*\` grant more). A
missing token answers 401 code 3, an unknown one 401 code 4, a disabled one 403 code 5, a blocked
user 403 code 2, and a permission not held 403 code 1. \`POST /api/token/create\` also takes
\`Authorization: Basic\` (username or email, and password): the way to a first token without one.

**Errors.** Every error is a JSON object \`{"code", "message"}\`, sometimes with \`details\` saying
which field and why; the code says what happened, the status follows it (each operation lists the
codes it may answer). Input is refused, never quietly changed: a parameter, header or body field an
operation does not take answers 400, as does one it cannot read. Every answer carries
\`X-Request-Id\`, the id of the request in the server log.

**Rate limits.** Requests with a valid token are counted per user (all of a user's tokens share
one count) and, for a token with a limit of its own, per token. An answer to a counted request says
where the caller stands in \`RateLimit-Policy\` (the limit, \`q\`, and its window in seconds,
\`w\`) and \`RateLimit\` (what remains, \`r\`, and the seconds until the window ends, \`t\`).
Over the limit: 429 code 25 with \`Retry-After\`, and nothing of the request is done.

**Quotas.** A token or user may also have a quota of requests a UTC day or calendar month; it is
then the second policy of those fields (\`"quota"\`). A request it has no room for answers 429 code 25
with \`Retry-After\` until the period ends.

**Formats.** JSON unless an operation says otherwise: barcodes are PNG or SVG, facts and quotes may
be asked as text, XML or YAML through \`Accept\` or \`type\`. What changed between versions is in
the change log: \`/api/changelog\` (RSS) and \`/changelog\`.`;
