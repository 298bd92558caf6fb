import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * A secret made once for every instance and kept in a row of `table` (its `secret` column,
 * base64), such as what signs the cursors of a listing. Read once per process, since it never
 * changes once made; a failed read is tried again on the next call. Instances that start
 * together may both make one: the first stored wins, and both read it.
 */
export class StoredSecret {
  private secret: Promise<Buffer> | undefined;

  constructor(
    private readonly db: Knex,
    private readonly table: string,
    /** The row's key column and value, which the table's unique key is on. */
    private readonly row: { readonly column: string; readonly value: string | number },
  ) {}

  get(): Promise<Buffer> {
    this.secret ??= this.readOrMake().catch((error: unknown) => {
      this.secret = undefined;
      throw error;
    });
    return this.secret;
  }

  private async readOrMake(): Promise<Buffer> {
    const key = { [this.row.column]: this.row.value };
    const read = async () => (await this.db(this.table).where(key).first('secret')) as { secret: string } | undefined;
    if ((await read()) === undefined)
      await this.db(this.table)
        .insert({ ...key, secret: randomBytes(32).toString('base64') })
        .onConflict(this.row.column)
        .ignore();
    const stored = await read();
    if (stored === undefined) throw new Error(`the secret of ${this.table} could not be stored`);
    return Buffer.from(stored.secret, 'base64');
  }
}
